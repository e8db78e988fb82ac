// A policy's memory of the farm (wasm/learn/memory.js) against a plain re-computation from
// the true state: where the agent really is (env.state(), which the memory never sees), what
// each of its views showed there, and the nearest cell of each kind among all it has seen.
import { describe, expect, it } from 'vitest';
import { envSpecs, flatten, make } from '../../wasm/index.js';
import { memoryFor } from '../../wasm/learn/memory.js';
import { seededRandom } from '../../wasm/rng.js';

const BLOCK = 4;
const BLOCKS = 7;

/** The features memory.js should give, from the true positions and what each view showed. */
function expected(id, seen, pos, t, kinds) {
  const spec = envSpecs[id];
  const FAR = Math.max(spec.width, spec.height) - 1; // offsets are scaled by the farm's reach
  const out = [];
  for (const name of kinds) {
    let best = null;
    const ties = [];
    for (const [k, cell] of seen) {
      if (cell.kind !== name) continue;
      const [x, y] = k.split(',').map(Number);
      const d = Math.abs(x - pos.x) + Math.abs(y - pos.y);
      if (best === null || d < best) {
        best = d;
        ties.length = 0;
      }
      if (d === best) ties.push({ dx: x - pos.x, dy: y - pos.y, age: t - cell.at });
    }
    out.push(best === null ? null : { d: Math.min(1, best / (2 * FAR)), ties });
  }
  const explored = [];
  const from = -(BLOCKS * BLOCK) / 2;
  for (let by = 0; by < BLOCKS; by++)
    for (let bx = 0; bx < BLOCKS; bx++) {
      let n = 0;
      for (let dy = 0; dy < BLOCK; dy++)
        for (let dx = 0; dx < BLOCK; dx++) if (seen.has(`${pos.x + from + bx * BLOCK + dx},${pos.y + from + by * BLOCK + dy}`)) n++;
      explored.push(n / (BLOCK * BLOCK));
    }
  return { out, explored, horizon: spec.horizon };
}

/**
 * The kind memory.js files a cell under: the tile's name, and where it has one its status,
 * and whether that status differs from the one the cell had when it was first seen.
 */
function kindName(spec, code, status, firstStatus) {
  const tile = spec.tiles.find((t) => t.code === code);
  if (tile.name === 'GROUND' || tile.name === 'OUT_OF_BOUNDS') return null;
  return tile.status ? `${tile.name} ${tile.status[status]}${status !== firstStatus ? ' (changed)' : ''}` : tile.name;
}

async function check(id, seed, moveBias) {
  const spec = envSpecs[id];
  const memory = memoryFor(id);
  const kinds = memory.kinds();
  const env = await make(id); // the engine computes the memory: loaded first
  const state = memory.create(1);
  const flat = new Int32Array(spec.obsSize);
  const features = new Float32Array(memory.size);
  const random = seededRandom(seed);
  const tiles = spec.layout.find((f) => f.name === 'view' || f.name === 'terrain');
  const status = spec.layout.find((f) => f.name === 'status');
  const FAR = Math.max(spec.width, spec.height) - 1;
  let compared = 0;
  for (let episode = 0; episode < 3; episode++) {
    let { observation } = env.reset({ seed: seed + episode });
    const seen = new Map(); // "x,y" -> { kind, at }
    let action = -1;
    for (let t = 0; ; t++) {
      flatten(id, observation, flat);
      state.observe(0, flat, 0, action, t === 0);
      state.write(0, features, 0);
      const pos = env.state().agent;
      for (let v = 0; v < 25; v++) {
        const key = `${pos.x + (v % 5) - 2},${pos.y + Math.floor(v / 5) - 2}`;
        const now = status ? flat[status.offset + v] : 0;
        const firstStatus = seen.get(key)?.firstStatus ?? now;
        seen.set(key, { kind: kindName(spec, flat[tiles.offset + v], now, firstStatus), at: t, firstStatus });
      }
      const want = expected(id, seen, pos, t, kinds);
      want.out.forEach((w, k) => {
        const f = features.subarray(k * 5, k * 5 + 5);
        if (w === null) return expect([...f]).toEqual([0, 0, 0, 0, 0]);
        expect(f[0]).toBe(1);
        expect(f[3]).toBeCloseTo(w.d, 6);
        // with ties for the nearest, it may name any of them
        const named = w.ties.find((c) => Math.abs(f[1] - c.dx / FAR) < 1e-6 && Math.abs(f[2] - c.dy / FAR) < 1e-6);
        expect(named, `${kinds[k]} at step ${t}`).toBeDefined();
        expect(f[4]).toBeCloseTo(Math.min(1, named.age / want.horizon), 6);
        compared++;
      });
      expect([...features.subarray(kinds.length * 5)].map((x) => x.toFixed(4))).toEqual(want.explored.map((x) => x.toFixed(4)));
      // mostly moves, so that it walks far, and sometimes a blocked one
      const legal = env.legalActions();
      const moves = [0, 1, 2, 3];
      action = random() < moveBias ? moves[Math.floor(random() * 4)] : legal.findLastIndex((l) => l === 1);
      const r = env.step(action);
      if (r.terminated || r.truncated) break;
      observation = r.observation;
    }
  }
  env.close();
  return compared;
}

describe("a policy's memory of the farm", () => {
  it('ValleyFarm-v0, which has no coordinates: dead reckoning keeps the true position, and each kind of tile seen is found at its true offset', async () => {
    expect(await check('ValleyFarm-v0', 11, 0.9)).toBeGreaterThan(300);
  });

  it('BackwardsValleyFarm-v0: each kind and status of tile seen (and whether the status changed since first seen) is found at its true offset, with how long ago it was in view', async () => {
    expect(await check('BackwardsValleyFarm-v0', 21, 0.8)).toBeGreaterThan(300);
  });

  it('each tile but GROUND and OUT_OF_BOUNDS is a kind, and one with statuses a kind for each status, first seen or since changed', () => {
    expect(memoryFor('ValleyFarm-v0').kinds()).toContain('VILLAGER');
    expect(memoryFor('ValleyFarm-v0').kinds()).not.toContain('GROUND');
    const kinds = memoryFor('BackwardsValleyFarm-v0').kinds();
    expect(kinds.slice(0, 3)).toEqual(['FENCE', 'FIELD Seed', 'FIELD Seed (changed)']);
    expect(kinds.filter((k) => k.startsWith('HOUSE'))).toEqual([
      'HOUSE Hostile',
      'HOUSE Hostile (changed)',
      'HOUSE Neutral',
      'HOUSE Neutral (changed)',
      'HOUSE Friendly',
      'HOUSE Friendly (changed)',
    ]);
    expect(kinds).toHaveLength(1 + 2 * (4 + 3 + 3)); // FENCE; FIELD, PEN and HOUSE statuses, twice
  });
});
