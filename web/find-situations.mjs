// find-situations.mjs — searches seeds and action prefixes for the docs' prepared
// situations (model/situations.js) and prints the table to paste there:
//
//   node web/find-situations.mjs [maxSeed]
//
// For every seed it plans a shortest walk (breadth-first over the reset layout) to each
// candidate target, plays it on the real engine, and keeps the shortest prefix whose final
// state passes the situation's check. Run it again when a rules change breaks
// tests/web/docs_situations.test.js.
import { make, envSpecs } from '../wasm/index.js';
import { checks, DIRS, VALLEY, BACKWARDS, prepare } from './src/docs/model/situations.js';

const maxSeed = Number(process.argv[2] ?? 300);
const MOVES = ['north', 'south', 'east', 'west'];
const walkable = (envId) => new Set(envSpecs[envId].tiles.filter((t) => t.walkable).map((t) => t.code));

/** Valley: the moves of a shortest walk from `from` to `to`, or null. */
function walk(state, from, to, ok) {
  const key = (p) => `${p.x},${p.y}`;
  const prev = new Map([[key(from), null]]);
  const queue = [from];
  while (queue.length) {
    const p = queue.shift();
    if (p.x === to.x && p.y === to.y) {
      const moves = [];
      for (let k = key(p); prev.get(k); k = prev.get(k).from) moves.unshift(prev.get(k).move);
      return moves;
    }
    DIRS.forEach((d, i) => {
      const q = { x: p.x + d.dx, y: p.y + d.dy };
      if (q.x < 0 || q.y < 0 || q.x >= state.width || q.y >= state.height) return;
      if (!ok.has(state.tiles[q.y][q.x]) || prev.has(key(q))) return;
      prev.set(key(q), { from: key(p), move: MOVES[i] });
      queue.push(q);
    });
  }
  return null;
}

/** Backwards: the moves of a shortest walk after which goal(x, y, facing) holds, or null. */
function walkFacing(state, goal, ok) {
  const start = { ...state.agent };
  const key = (p) => `${p.x},${p.y},${p.facing}`;
  const prev = new Map([[key(start), null]]);
  const queue = [start];
  while (queue.length) {
    const p = queue.shift();
    if (goal(p)) {
      const moves = [];
      for (let k = key(p); prev.get(k); k = prev.get(k).from) moves.unshift(prev.get(k).move);
      return moves;
    }
    DIRS.forEach((d, i) => {
      const q = { x: p.x + d.dx, y: p.y + d.dy, facing: i };
      const inside = q.x >= 0 && q.y >= 0 && q.x < state.width && q.y < state.height;
      if (!inside || !ok.has(state.tiles[q.y][q.x])) {
        q.x = p.x;
        q.y = p.y;
      }
      if (prev.has(key(q))) return;
      prev.set(key(q), { from: key(p), move: MOVES[i] });
      queue.push(q);
    });
  }
  return null;
}

const facingAt = (t) => (p) => p.x + DIRS[p.facing].dx === t.x && p.y + DIRS[p.facing].dy === t.y;
const nextTo = (list) => (p) => list.some((c) => Math.abs(c.x - p.x) + Math.abs(c.y - p.y) === 1);

/** Candidate prefixes per situation, for one seed's reset state. */
function candidates(key, s) {
  const okV = walkable(VALLEY);
  const okB = walkable(BACKWARDS);
  const here = s.agent;
  switch (key) {
    case 'valley-crop':
      return s.crops.map((c) => walk(s, here, c, okV));
    case 'valley-feed':
      return s.animals.map((a) => walk(s, here, a, okV) && [...walk(s, here, a, okV)]);
    case 'valley-gift':
      return s.villagers.map((v) => walk(s, here, v, okV));
    case 'valley-sell':
      return s.animals.map((a) => {
        const there = walk(s, here, a, okV);
        const back = walk(s, a, s.market, okV);
        return there && back && [...there, 'feed', 'wait', 'wait', 'wait', 'wait', 'wait', 'collect', ...back];
      });
    case 'backwards-crop':
      return s.crops.map((c) => walkFacing(s, facingAt(c), okB));
    case 'backwards-insult':
      return s.villagers.map((v) => walkFacing(s, facingAt(v), okB));
    case 'backwards-animal':
      return s.animals.map((a) => walkFacing(s, facingAt(a), okB));
    case 'backwards-harvest':
      return [walkFacing(s, nextTo(s.crops), okB)];
    case 'valley-start':
    case 'backwards-start':
      return seedOf(s) === 7 ? [[]] : [];
    default:
      throw new Error(key);
  }
}

let currentSeed = 0;
const seedOf = () => currentSeed; // the start situations use seed 7, the seed of the docs' examples

const envs = { [VALLEY]: await make(VALLEY), [BACKWARDS]: await make(BACKWARDS) };
const found = {};
for (const key of Object.keys(checks)) {
  const envId = key.startsWith('valley') ? VALLEY : BACKWARDS;
  const env = envs[envId];
  let best = null;
  for (let seed = 1; seed <= maxSeed; seed++) {
    env.reset({ seed });
    currentSeed = seed;
    for (const prefix of candidates(key, env.state())) {
      if (!prefix || (best && prefix.length >= best.prefix.length)) continue;
      const { observation } = prepare(env, { seed, prefix });
      if (checks[key](env.state(), observation)) best = { envId, seed, prefix };
    }
  }
  found[key] = best;
  console.error(`${key}: ${best ? `seed ${best.seed}, ${best.prefix.length} actions` : 'NOT FOUND'}`);
}
const id = (envId) => (envId === VALLEY ? 'VALLEY' : 'BACKWARDS');
console.log('export const situations = {');
for (const [key, s] of Object.entries(found)) {
  if (!s) continue;
  console.log(`  '${key}': { envId: ${id(s.envId)}, seed: ${s.seed}, prefix: [${s.prefix.map((a) => `'${a}'`).join(', ')}] },`);
}
console.log('};');
