// backwardsHeuristic.js — a sensible BackwardsValleyFarm-v0 player from the observation
// alone (position, facing, the 5 × 5 window of terrain and status). It remembers the map it
// has seen and follows the inverted rules:
//  - crops ripen when left alone: never water or fertilize, walk onto fields (a field at
//    Harvest-Ready under the agent is harvested);
//  - an animal pays its bonus when it becomes Thriving in view: feed it (→ Weak), then stay
//    in view for the two ticks it needs to grow back;
//  - a villager pays when insulted up to Friendly: insult until Friendly (one that starts
//    Friendly is complimented once first).
// Between tasks it walks to the nearest field, pen or house it has not finished, else
// explores, else waits.
import { envSpecs } from '../specs.js';
import { STEPS, key, distances } from './grid.js';

const SPEC = envSpecs['BackwardsValleyFarm-v0'];
const A = Object.fromEntries(SPEC.actions.map((name, i) => [name, i]));
const HORIZON = SPEC.horizon;
const { GROUND, FIELD, PEN, HOUSE } = SPEC.codes;
const statusOf = (code, name) => SPEC.tiles.find((t) => t.code === code).status.indexOf(name);
const THRIVING = statusOf(PEN, 'Thriving');
const FRIENDLY = statusOf(HOUSE, 'Friendly');

createBackwardsHeuristic.envId = SPEC.id;
export function createBackwardsHeuristic() {
  let map; // key(x, y) -> { code, status } last seen
  let done; // key(x, y) of pens and houses whose bonus this agent has earned
  let watching; // { at: key(x, y), x, y, until } an animal cared for, growing back in view
  let befriending; // Set of houses this agent has lowered from Friendly (must raise again)

  function reset() {
    map = new Map();
    done = new Set();
    watching = null;
    befriending = new Set();
  }

  function see(obs) {
    for (let i = 0; i < 25; i++) {
      const x = obs.x + (i % 5) - 2;
      const y = obs.y + Math.floor(i / 5) - 2;
      map.set(key(x, y), { code: obs.terrain[i], status: obs.status[i] });
    }
  }

  // A pen or house next to the agent that still pays; null if none.
  function chore(obs, step) {
    for (let d = 0; d < 4; d++) {
      const x = obs.x + STEPS[d][0];
      const y = obs.y + STEPS[d][1];
      const k = key(x, y);
      const cell = map.get(k);
      if (!cell || done.has(k)) continue;
      if (cell.code === HOUSE) return { d, k, cell };
      if (cell.code === PEN && !watching && HORIZON - step >= 4) return { d, k, cell, x, y };
    }
    return null;
  }

  function act(obs) {
    if (!map || obs.stepsLeft === HORIZON) reset();
    see(obs);
    const step = HORIZON - obs.stepsLeft;

    if (watching) {
      const pen = map.get(watching.at);
      if (pen.status === THRIVING || step > watching.until) {
        done.add(watching.at);
        watching = null;
      } else if (Math.abs(watching.x - obs.x) <= 1 && Math.abs(watching.y - obs.y) <= 1) {
        return nextTo(obs, step) ?? A.wait; // stay in view: only chores right here
      }
    }

    const c = chore(obs, step);
    if (c) {
      if (obs.facing !== c.d) return c.d; // turn to face it (a pen or house blocks the move)
      if (c.cell.code === PEN) {
        watching = { at: c.k, x: c.x, y: c.y, until: step + 3 };
        return A.feed;
      }
      if (c.cell.status < FRIENDLY) {
        if (c.cell.status === FRIENDLY - 1) done.add(c.k); // this insult makes it Friendly: paid
        return A.insult;
      }
      befriending.add(c.k);
      return A.compliment;
    }

    // walk: the nearest unfinished field, pen or house, else the nearest unexplored edge
    const walkable = (x, y) => {
      const code = map.get(key(x, y))?.code;
      return code === GROUND || code === FIELD;
    };
    const dist = distances(obs.x, obs.y, walkable);
    let best = null;
    for (const cell of dist.values()) {
      if (cell.dist === 0) continue;
      const here = map.get(key(cell.x, cell.y));
      let worth = here.code === FIELD ? 1 : 0;
      for (const [dx, dy] of STEPS) {
        const k = key(cell.x + dx, cell.y + dy);
        const n = map.get(k);
        if (!n) worth = Math.max(worth, 0.3);
        else if ((n.code === HOUSE || n.code === PEN) && !done.has(k)) worth = Math.max(worth, 1.5);
      }
      if (worth === 0 || cell.dist > obs.stepsLeft) continue;
      const score = worth / cell.dist;
      if (!best || score > best.score) best = { score, first: cell.first };
    }
    return best ? best.first : A.wait;
  }

  // While watching: a house chore next to the agent, never a move away.
  function nextTo(obs, step) {
    const c = chore(obs, step);
    if (!c || c.cell.code !== HOUSE) return null;
    if (obs.facing !== c.d) return c.d;
    if (c.cell.status < FRIENDLY) {
      if (c.cell.status === FRIENDLY - 1) done.add(c.k);
      return A.insult;
    }
    return A.compliment;
  }

  reset();
  return { name: 'heuristic', reset, act };
}
