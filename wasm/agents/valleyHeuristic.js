// valleyHeuristic.js — a sensible ValleyFarm-v0 player that sees only the observation.
// The observation has no coordinates, so the agent keeps its own map in coordinates
// relative to where it started (a move succeeds exactly when the cell it walks into is
// walkable, which the view shows), and simulates the animals it fed with the rules'
// counters, so it knows when products are waiting.
//
// Each step: do the best thing on this tile (gift, collect, feed, harvest, water, plant,
// sell), else walk towards the cell with the best value per step of walking and work —
// villagers while it holds gifts (+3.75 a gift), animals to feed and collect, crops, the
// market when it carries goods (and, near the end, the market first), unexplored edges.
import { envSpecs } from '../specs.js';
import { STEPS, key } from './grid.js';

const SPEC = envSpecs['ValleyFarm-v0'];
const A = Object.fromEntries(SPEC.actions.map((name, i) => [name, i]));
const HORIZON = SPEC.horizon;
const WALKABLE = new Set(SPEC.tiles.filter((t) => t.walkable).map((t) => t.code));
const { VILLAGER, MARKET, CHICKEN, SHEEP, SOIL_EMPTY, SOIL_SEEDED, CROP_GROWING, CROP_MATURE } = SPEC.codes;
const { satedTicks: SATED_TICKS, productTicks: PRODUCT_TICKS, priceCrop: PRICE_CROP, priceProduct: PRICE_PRODUCT } = SPEC.rules;
const { giftPoints: GIFT_POINTS, rewardRelationshipPoint } = SPEC.rules;
const GIFT_VALUE = GIFT_POINTS * rewardRelationshipPoint; // 3.75 a gift
const isAnimal = (code) => code >= CHICKEN && code <= SHEEP;
const NEIGHBOURS = [7, 17, 13, 11]; // view indices north, south, east, west of the agent

// The agent's memory is a grid around where it started: it never gets more than 14 cells
// away on a 15 x 15 map, and sees 2 cells further. Cells it has not seen hold -1. Arrays,
// not Maps: the heuristic searches its map every step, and evaluate() runs 50,000 steps.
const SIZE = 64;
const OFF = SIZE / 2;
const cell = (x, y) => (y + OFF) * SIZE + x + OFF;
const WALKS = new Uint8Array(32);
for (const code of WALKABLE) WALKS[code] = 1;

createValleyHeuristic.envId = SPEC.id;
export function createValleyHeuristic() {
  let pos;
  const map = new Int8Array(SIZE * SIZE); // cell(x, y) -> tile code seen there, -1 unseen
  let villagersSeen; // cells of the map that show a villager
  let animals; // key(x, y) -> { satedLeft, counter, pending } for animals this agent fed
  let last; // { action, at: key(x, y) } the previous action and where it was taken
  let goal = null; // cell() it is walking to: kept unless clearly beaten (no dithering)
  // breadth-first search results, in the order cells are reached: x, y, moves, first move
  const qx = new Int16Array(SIZE * SIZE);
  const qy = new Int16Array(SIZE * SIZE);
  const qd = new Int16Array(SIZE * SIZE);
  const qf = new Int8Array(SIZE * SIZE);
  const seenAt = new Int32Array(SIZE * SIZE); // search number that reached a cell
  let search = 0;

  function reset() {
    pos = { x: 0, y: 0 };
    map.fill(-1);
    villagersSeen = 0;
    animals = new Map();
    last = null;
    goal = null;
  }

  const walkable = (x, y) => {
    const code = map[cell(x, y)];
    return code >= 0 && WALKS[code] === 1;
  };

  /** Breadth-first from the agent over remembered walkable cells; returns how many. */
  function spread() {
    search++;
    let n = 0;
    qx[0] = pos.x;
    qy[0] = pos.y;
    qd[0] = 0;
    qf[0] = -1;
    seenAt[cell(pos.x, pos.y)] = search;
    n = 1;
    for (let i = 0; i < n; i++) {
      for (let d = 0; d < 4; d++) {
        const nx = qx[i] + STEPS[d][0];
        const ny = qy[i] + STEPS[d][1];
        const c = cell(nx, ny);
        if (seenAt[c] === search || !walkable(nx, ny)) continue;
        seenAt[c] = search;
        qx[n] = nx;
        qy[n] = ny;
        qd[n] = qd[i] + 1;
        qf[n] = qf[i] < 0 ? d : qf[i];
        n++;
      }
    }
    return n;
  }

  // The previous action's effect on the animals, then their tick (rules: Animals).
  function advance() {
    if (!last) return;
    const here = animals.get(last.at);
    if (last.action === A.feed) animals.set(last.at, { satedLeft: SATED_TICKS, counter: 0, pending: here?.pending ?? 0, fedNow: true });
    if (last.action === A.collect && here) Object.assign(here, { pending: 0, counter: 0 });
    for (const a of animals.values()) {
      if (a.fedNow) {
        a.fedNow = false;
        continue;
      }
      if (a.satedLeft <= 0) continue;
      a.counter++;
      if (a.counter === PRODUCT_TICKS) {
        a.pending++;
        a.counter = 0;
      }
      a.satedLeft--;
    }
  }

  function choose(obs) {
    const inv = obs.inventory;
    const v = obs.view;
    const here = v[12];
    const k = key(pos.x, pos.y);
    const left = obs.stepsLeft;
    const goods = inv.crops + inv.products;

    // 1. the best thing to do right here
    if (inv.gifts > 0 && (here === VILLAGER || NEIGHBOURS.some((i) => v[i] === VILLAGER))) return A.gift;
    if (isAnimal(here)) {
      if ((animals.get(k)?.pending ?? 0) > 0) return A.collect;
      if (obs.center === 0 && inv.feed > 0 && left > 6) return A.feed;
    }
    if (here === CROP_MATURE) return A.harvest;
    if ((here === SOIL_SEEDED && inv.water >= 2) || (here === CROP_GROWING && inv.water >= 1)) return A.water;
    if (here === SOIL_EMPTY && inv.seeds > 0 && inv.water >= 2 && left > 8) return A.plant;
    if (here === MARKET && goods > 0) return A.sell;

    // 2. walk towards the best value per step
    const n = spread();
    if (goods > 0) {
      for (let i = 0; i < n; i++) {
        if (map[cell(qx[i], qy[i])] !== MARKET) continue;
        if (qd[i] + 2 >= left) return qf[i];
        break;
      }
    }

    let best = null;
    const consider = (i, value, work) => {
      if (qd[i] + work > left) return;
      const at = cell(qx[i], qy[i]);
      const score = (value / (qd[i] + work)) * (at === goal ? 1.5 : 1);
      if (!best || score > best.score) best = { score, first: qf[i], at };
    };
    const knownVillager = villagersSeen > 0;
    for (let i = 1; i < n; i++) {
      const x = qx[i];
      const y = qy[i];
      const code = map[cell(x, y)];
      const near = (c) => map[cell(x, y - 1)] === c || map[cell(x, y + 1)] === c || map[cell(x + 1, y)] === c || map[cell(x - 1, y)] === c;
      if (inv.gifts > 0 && (code === VILLAGER || near(VILLAGER))) consider(i, GIFT_VALUE * inv.gifts, inv.gifts);
      if (isAnimal(code)) {
        const a = animals.get(key(x, y));
        if (a && (a.pending > 0 || (a.satedLeft > 0 && PRODUCT_TICKS - a.counter <= qd[i]))) consider(i, 1.2 * Math.max(1, a.pending), 1);
        else if ((!a || a.satedLeft === 0) && inv.feed > 0 && left - qd[i] > 12) consider(i, 1.6, 6);
      }
      if (code === CROP_MATURE) consider(i, 0.6, 1);
      if (code === CROP_GROWING && inv.water >= 1) consider(i, 0.55, 2);
      if (code === SOIL_SEEDED && inv.water >= 2) consider(i, 0.5, 3);
      if (code === SOIL_EMPTY && inv.seeds > 0 && inv.water >= 2 && left - qd[i] > 8) consider(i, 0.5, 4);
      if (code === MARKET && goods > 0) consider(i, 0.11 * (PRICE_CROP * inv.crops + PRICE_PRODUCT * inv.products), 1);
      const frontier = map[cell(x, y - 1)] < 0 || map[cell(x, y + 1)] < 0 || map[cell(x + 1, y)] < 0 || map[cell(x - 1, y)] < 0;
      if (frontier) consider(i, inv.gifts > 0 && !knownVillager ? 2 : 0.4, 2);
    }
    goal = best?.at ?? null;
    return best ? best.first : A.wait;
  }

  function act(obs) {
    if (obs.stepsLeft === HORIZON) reset();
    advance();
    for (let i = 0; i < 25; i++) {
      const c = cell(pos.x + (i % 5) - 2, pos.y + Math.floor(i / 5) - 2);
      villagersSeen += (obs.view[i] === VILLAGER) - (map[c] === VILLAGER);
      map[c] = obs.view[i];
    }
    const k = key(pos.x, pos.y);
    if (isAnimal(obs.view[12]) && obs.center === 0 && animals.get(k)?.satedLeft > 0) animals.get(k).satedLeft = 0;
    const action = choose(obs);
    last = { action, at: k };
    if (action < 4) {
      const [dx, dy] = STEPS[action];
      if (walkable(pos.x + dx, pos.y + dy)) pos = { x: pos.x + dx, y: pos.y + dy };
    }
    return action;
  }

  reset();
  return { name: 'heuristic', reset, act };
}
