// The policy's features come from the engine (vf_features, core/src/features.c). They must be
// exactly what the JS learners computed before they moved there: tests/js/fixtures/
// features_before/ is that code, copied from main at 624fbe8 (encode.js, memory.js,
// perception.js). 300 episodes of each farm, every frame, with and without memory, through
// every path: the vector env's step (the batch path), perception's per-env seeSparse and see
// (dense), and the encoder's features and sparse pairs; index and value bit for bit.
import { describe, expect, it } from 'vitest';
import { envIds, envSpecs, loadEngine, makeVec } from '../../wasm/index.js';
import { featureReader, featureSizes } from '../../wasm/features.js';
import { perception } from '../../wasm/learn/perception.js';
import { perception as perceptionBefore } from './fixtures/features_before/perception.js';
import { seededRandom } from '../../wasm/rng.js';

const EPISODES = 300;

/** The first place two runs of pairs differ, or null. */
function firstDifference(idxA, valA, nA, idxB, valB, nB) {
  if (nA !== nB) return `${nA} pairs against ${nB}`;
  for (let j = 0; j < nA; j++)
    if (idxA[j] !== idxB[j] || !Object.is(valA[j], valB[j])) return `pair ${j}: (${idxA[j]}, ${valA[j]}) against (${idxB[j]}, ${valB[j]})`;
  return null;
}

describe.each(envIds)('%s: the engine computes the features the JS learners computed before', (id) => {
  it(`on ${EPISODES} episodes, every frame, with and without memory, batch and per env, sparse and dense`, async () => {
    const spec = envSpecs[id];
    const A = spec.actions.length;
    const n = EPISODES;
    const vec = await makeVec(id, n, { features: true, memory: true });
    const before = [perceptionBefore(id, 0), perceptionBefore(id, 1)].map((p) => ({ p, s: p.create(n) }));
    const now = [perception(id, 0), perception(id, 1)].map((p) => ({ p, s: p.create(n) }));
    const dense = [before[1].p.create(n), now[1].p.create(n)]; // see(), on every 37th env
    expect(now.map((x) => [x.p.width, x.p.nonzero])).toEqual(before.map((x) => [x.p.width, x.p.nonzero]));
    const room = before[1].p.nonzero;
    const [idxA, idxB] = [new Int32Array(room), new Int32Array(room)];
    const [valA, valB] = [new Float32Array(room), new Float32Array(room)];
    const [denseA, denseB] = [new Float32Array(before[1].p.width), new Float32Array(before[1].p.width)];
    const random = seededRandom(7);
    const actions = new Int32Array(n);
    let r = vec.reset({ seed: 40_000 });
    let opened = new Uint8Array(n).fill(1);
    let frames = 0;
    let ended = 0;
    for (let t = 0; t <= spec.horizon + 3; t++) {
      const f = r.features;
      for (let i = 0; i < n; i++) {
        const opening = opened[i] === 1;
        const action = opening ? -1 : actions[i];
        for (const memory of [0, 1]) {
          const nA = before[memory].s.seeSparse(i, r.observations, i, action, opening, idxA, valA, 0);
          const nB = now[memory].s.seeSparse(i, r.observations, i, action, opening, idxB, valB, 0);
          const diff = firstDifference(idxA, valA, nA, idxB, valB, nB);
          if (diff) expect.fail(`${id}, memory ${memory}, env ${i}, step ${t}, per env: ${diff}`);
          if (memory === 1) {
            const at = i * f.stride;
            const batch = firstDifference(idxA, valA, nA, f.index.subarray(at), f.value.subarray(at), f.count[i]);
            if (batch) expect.fail(`${id}, env ${i}, step ${t}, the vector env's step: ${batch}`);
          }
        }
        if (i % 37 === 0) {
          dense[0].see(i, r.observations, i, action, opening, denseA, 0);
          dense[1].see(i, r.observations, i, action, opening, denseB, 0);
          const diff = denseB.findIndex((v, j) => !Object.is(v, denseA[j]));
          if (diff >= 0) expect.fail(`${id}, env ${i}, step ${t}, dense feature ${diff}: ${denseB[diff]} against ${denseA[diff]}`);
        }
        frames++;
      }
      // a random legal action, chores first half the time (so that statuses change)
      for (let i = 0; i < n; i++) {
        const legal = [];
        for (let a = 0; a < A; a++) if (r.masks[i * A + a]) legal.push(a);
        const chores = legal.filter((a) => a >= 4);
        const pool = chores.length && random() < 0.5 ? chores : legal;
        actions[i] = pool[Math.floor(random() * pool.length)];
      }
      r = vec.step(actions);
      opened = Uint8Array.from(r.terminated);
      ended += opened.reduce((a, b) => a + b, 0);
    }
    expect(ended).toBeGreaterThanOrEqual(EPISODES);
    expect(frames).toBe(n * (spec.horizon + 4));
    vec.close();
  });

  it("the encoder's dense and sparse features equal the former encoder's on every frame of 20 episodes", async () => {
    const spec = envSpecs[id];
    const vec = await makeVec(id, 20);
    const encA = perceptionBefore(id, 0).encoder;
    const encB = perception(id, 0).encoder;
    expect([encB.size, encB.nonzero]).toEqual([encA.size, encA.nonzero]);
    const idx = [new Int32Array(encA.nonzero), new Int32Array(encA.nonzero)];
    const val = [new Float32Array(encA.nonzero), new Float32Array(encA.nonzero)];
    let r = vec.reset({ seed: 5 });
    for (let t = 0; t < spec.horizon; t++) {
      for (let i = 0; i < 20; i++) {
        expect(Array.from(encB.features(r.observations, i))).toEqual(Array.from(encA.features(r.observations, i)));
        const nA = encA.sparse(r.observations, i, idx[0], val[0], 0, 1000);
        const nB = encB.sparse(r.observations, i, idx[1], val[1], 0, 1000);
        expect(firstDifference(idx[0], val[0], nA, idx[1], val[1], nB)).toBe(null);
      }
      r = vec.step(Int32Array.from({ length: 20 }, (_, i) => (t * 7 + i) % spec.actions.length));
    }
    vec.close();
  });
});

describe('a features call the engine refuses says why and changes nothing', () => {
  it('an observation value outside its bounds', async () => {
    await loadEngine();
    const id = 'BackwardsValleyFarm-v0';
    const reader = featureReader(id, { memory: true });
    const { nonzero } = featureSizes(id, true);
    const [idx, val] = [new Int32Array(nonzero), new Float32Array(nonzero)];
    const vec = await makeVec(id, 1);
    const obs = Int32Array.from(vec.reset({ seed: 3 }).observations);
    const n = reader.read(0, obs, 0, -1, true, idx, val, 0);
    const bad = Int32Array.from(obs);
    bad[spec(id, 'x').offset] = 10; // x runs 0 .. 9
    expect(() => reader.read(0, bad, 0, 4, false, idx, val, 0)).toThrow(/row 0 is not an observation of BackwardsValleyFarm-v0.*bounds/);
    // the memory is as it was: the same step read again gives what the first read would
    const again = reader.read(0, obs, 0, 4, false, idx, val, 0);
    expect(again).toBeGreaterThan(0);
    expect(n).toBeGreaterThan(0);
    vec.close();
  });

  it('a walk the farm cannot hold (dead reckoning told every step that east is open)', async () => {
    await loadEngine();
    const id = 'ValleyFarm-v0';
    const reader = featureReader(id, { memory: true });
    const { nonzero } = featureSizes(id, true);
    const [idx, val] = [new Int32Array(nonzero), new Float32Array(nonzero)];
    const obs = new Int32Array(envSpecs[id].obsSize).fill(1); // ground all round, every count 1
    reader.read(0, obs, 0, -1, true, idx, val, 0);
    const far = Math.max(envSpecs[id].width, envSpecs[id].height) - 1;
    for (let k = 0; k < far; k++) reader.read(0, obs, 0, 2, false, idx, val, 0); // east, 14 times
    expect(() => reader.read(0, obs, 0, 2, false, idx, val, 0)).toThrow(/does not follow|follows its episode|cannot lead to/);
  });

  it('featureReader before the engine is loaded is told to load it (in a fresh module graph)', async () => {
    const { vi } = await import('vitest');
    vi.resetModules();
    const fresh = await import('../../wasm/features.js');
    expect(() => fresh.featureReader('ValleyFarm-v0')).toThrow(/needs the engine loaded first: await loadEngine\(\)/);
    vi.resetModules();
  });
});

function spec(id, name) {
  return envSpecs[id].fields.find((f) => f.name === name);
}

describe('a farm the engine lists without a heuristic (as a farm added without one would be)', () => {
  it('is refused a heuristic by createAgent, batchAgents and builtInReturns, with the farm named; its features come from its description', async () => {
    const { vi } = await import('vitest');
    vi.resetModules();
    const real = (await import('../../wasm/engine_spec.js')).default;
    const described = structuredClone(real);
    described.farms[0].agents = ['random'];
    vi.doMock('../../wasm/engine_spec.js', () => ({ default: described }));
    try {
      const agents = await import('../../wasm/agents/index.js');
      const { featureSizes } = await import('../../wasm/features.js');
      const id = described.farms[0].id;
      const refused = new RegExp(`no heuristic agent plays ${id} yet; it has random`);
      expect(() => agents.createAgent('heuristic', id)).toThrow(refused);
      expect(() => agents.batchAgents('heuristic', id, 2)).toThrow(refused);
      expect(() => agents.builtInReturns('heuristic', id, [1])).toThrow(refused);
      expect(agents.createAgent('random', id, { seed: 1 }).name).toBe('random');
      expect(featureSizes(id, true).width).toBe(described.farms[0].features.observation + described.farms[0].features.memory);
    } finally {
      vi.doUnmock('../../wasm/engine_spec.js');
      vi.resetModules();
    }
  });
});
