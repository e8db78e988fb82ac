// What a learning algorithm needs from the vector env: legal masks from the same call,
// episode bookkeeping at boundaries, seeds it can name (partial resets, fixed level lists),
// spaces in Gymnasium's terms and one flatten/unflatten pair. Every check here compares the
// vector env with single envs played alike, which the rules tests pin independently.
import { describe, expect, it } from 'vitest';
import { envSpecs, flatten, FRESH_SEED_MAX, FRESH_SEED_MIN, make, makeVec, unflatten } from '../../wasm/index.js';

const IDS = ['ValleyFarm-v0', 'BackwardsValleyFarm-v0'];

/** A deterministic action stream (xorshift), so that failures replay. */
function actionStream(seed, n) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % n;
  };
}

const row = (view, i, size) => Array.from(view.subarray(i * size, (i + 1) * size));

describe.each(IDS)('%s vector env for learners', (id) => {
  const spec = envSpecs[id];
  const A = spec.actions.length;

  it('reports masks equal to legalActions(), final observations, returns, lengths and seeds of single envs, across autoresets', async () => {
    const N = 5;
    const vec = await makeVec(id, N);
    const singles = await Promise.all(Array.from({ length: N }, () => make(id)));
    const r0 = vec.reset({ seed: 900 });
    expect(r0.seed).toBe(900);
    const last = [];
    const episodeSeed = singles.map((env, i) => {
      last[i] = env.reset({ seed: 900 + i }).observation;
      expect(row(r0.masks, i, A)).toEqual(Array.from(env.legalActions()));
      return 900 + i;
    });
    const returns = new Array(N).fill(0);
    const next = actionStream(7, A);
    let ends = 0;
    for (let t = 0; t < 4 * spec.horizon; t++) {
      const actions = Int32Array.from({ length: N }, () => next());
      const r = vec.step(actions);
      singles.forEach((env, i) => {
        const s = env.step(actions[i]);
        returns[i] += s.reward;
        expect(r.terminated[i]).toBe(s.terminated ? 1 : 0);
        if (s.terminated) {
          ends++;
          expect(row(r.finalObservations, i, vec.obsSize)).toEqual(Array.from(flatten(id, s.observation)));
          expect(r.episodeReturns[i]).toBeCloseTo(returns[i], 9);
          expect(r.episodeLengths[i]).toBe(s.info.step);
          expect(r.episodeSeeds[i]).toBe(BigInt(episodeSeed[i]));
          episodeSeed[i] += N; // the fresh rule: env i's k-th episode has seed + i + k N
          last[i] = env.reset({ seed: episodeSeed[i] }).observation;
          returns[i] = 0;
        } else {
          last[i] = s.observation;
        }
        expect(vec.episodeSeed(i)).toBe(episodeSeed[i]);
        expect(unflatten(id, r.observations, i)).toEqual(last[i]);
        expect(row(r.masks, i, A)).toEqual(Array.from(env.legalActions()));
      });
    }
    expect(ends).toBeGreaterThanOrEqual(3 * N);
  });

  it("a fixed level list plays env i's k-th episode on levels[(i + k N) mod L], like single envs", async () => {
    const levels = [11, 22, 33];
    const N = 2;
    const vec = await makeVec(id, N, { levels });
    const singles = await Promise.all(Array.from({ length: N }, () => make(id)));
    vec.reset();
    const k = [0, 0];
    const last = singles.map((env, i) => env.reset({ seed: levels[i % 3] }).observation);
    const next = actionStream(3, A);
    const played = new Set();
    for (let t = 0; t < 3 * spec.horizon; t++) {
      const actions = [next(), next()];
      const r = vec.step(actions);
      singles.forEach((env, i) => {
        const s = env.step(actions[i]);
        last[i] = s.observation;
        if (s.terminated) {
          played.add(Number(r.episodeSeeds[i]));
          k[i]++;
          last[i] = env.reset({ seed: levels[(i + k[i] * N) % 3] }).observation;
        }
        expect(vec.episodeSeed(i)).toBe(levels[(i + k[i] * N) % 3]);
        expect(row(r.observations, i, vec.obsSize)).toEqual(Array.from(flatten(id, last[i])));
      });
    }
    expect([...played].sort()).toEqual(levels);
    expect(() => vec.reset({ seed: 5 })).toThrow(/fixed list of 3 levels/);
  });

  it('resetEnvs restarts only the chosen envs, with the chosen seeds, and the rest play on', async () => {
    const vec = await makeVec(id, 3);
    const other = await make(id);
    vec.reset({ seed: 40 });
    other.reset({ seed: 41 });
    vec.step([0, 0, 0]);
    const otherNow = other.step(0).observation;
    const r = vec.resetEnvs([2, 0], [1234, 5678n]);
    const single = await make(id);
    expect(row(r.observations, 2, vec.obsSize)).toEqual(Array.from(flatten(id, single.reset({ seed: 1234 }).observation)));
    expect(row(r.masks, 2, A)).toEqual(Array.from(single.legalActions()));
    expect(row(r.observations, 0, vec.obsSize)).toEqual(Array.from(flatten(id, single.reset({ seed: 5678 }).observation)));
    expect(row(r.observations, 1, vec.obsSize)).toEqual(Array.from(flatten(id, otherNow)));
    expect([vec.episodeSeed(0), vec.episodeSeed(1), vec.episodeSeed(2)]).toEqual([5678, 41, 1234]);
  });

  it('refuses bad partial resets and level lists with what is allowed, and changes nothing', async () => {
    const vec = await makeVec(id, 3);
    const before = Array.from(vec.reset({ seed: 1 }).observations);
    expect(() => vec.resetEnvs([3])).toThrow(/index 3 is out of range.*from 0 to 2/);
    expect(() => vec.resetEnvs([0, 0])).toThrow(/appears twice/);
    expect(() => vec.resetEnvs([0, 1.5])).toThrow(RangeError);
    expect(() => vec.resetEnvs([0, 1], [1])).toThrow(/one seed per index \(2\)/);
    expect(() => vec.resetEnvs([0, 1], [1, -1])).toThrow(/seeds\[1\]/);
    expect(() => vec.resetEnvs('0')).toThrow(TypeError);
    expect(() => vec.resetEnvs([0], [2 ** 53])).toThrow(RangeError);
    // nothing was reset: the observations are still those of seeds 1, 2, 3
    const r = vec.step([0, 0, 0]);
    const again = await makeVec(id, 3);
    again.reset({ seed: 1 });
    expect(Array.from(r.observations)).toEqual(Array.from(again.step([0, 0, 0]).observations));
    expect(before.length).toBe(3 * vec.obsSize);
    await expect(makeVec(id, 2, { levels: [] })).rejects.toThrow(/non-empty array of seeds/);
    await expect(makeVec(id, 2, { levels: [1, 'x'] })).rejects.toThrow(/levels\[1\]/);
    await expect(makeVec(id, 2, { masks: 'yes' })).rejects.toThrow(/true or false/);
  });

  it('turns masks off on request, and then reports none', async () => {
    const vec = await makeVec(id, 2, { masks: false });
    expect(vec.reset({ seed: 3 }).masks).toBeNull();
    expect(vec.step([0, 0]).masks).toBeNull();
  });

  it('reports the fresh seed a seedless reset drew, in the training range, and replays from it', async () => {
    const vec = await makeVec(id, 4);
    const { seed, observations } = vec.reset();
    expect(Number.isSafeInteger(seed)).toBe(true);
    expect(seed).toBeGreaterThanOrEqual(FRESH_SEED_MIN);
    expect(seed).toBeLessThanOrEqual(FRESH_SEED_MAX);
    const first = Array.from(observations);
    expect(Array.from(vec.reset({ seed }).observations)).toEqual(first);
    expect(Array.from(vec.reset(seed).observations)).toEqual(first);
  });

  it('accepts actions in any integer typed array or a plain array', async () => {
    const vec = await makeVec(id, 2);
    const results = [];
    for (const actions of [new Uint8Array([1, 2]), new Int16Array([1, 2]), new Uint32Array([1, 2]), [1, 2]]) {
      vec.reset({ seed: 8 });
      results.push(Array.from(vec.step(actions).observations));
    }
    for (const r of results) expect(r).toEqual(results[0]);
    vec.reset({ seed: 8 });
    expect(() => vec.step(new Float64Array([1, 2]))).toThrow(/integer typed array/);
    expect(() => vec.step(new Uint8Array([1, A]))).toThrow(/actions\[1\]/);
  });

  it('refuses a typed array with an action out of range before any env steps, naming it as given', async () => {
    const vec = await makeVec(id, 3);
    const { observations } = vec.reset({ seed: 9 });
    const before = Array.from(observations);
    // 2^32 - 1 in a Uint32Array is -1 once copied as int32; -1 in an Int8Array is -1
    expect(() => vec.step(new Uint32Array([1, 2, 2 ** 32 - 1]))).toThrow(/actions\[2\] is 4294967295/);
    expect(() => vec.step(new Int8Array([1, -1, 2]))).toThrow(/actions\[1\] is -1/);
    expect(() => vec.step(new Int16Array([A, 1, 2]))).toThrow(new RegExp(`actions\\[0\\] is ${A}; .* from 0 to ${A - 1}`));
    expect(Array.from(observations)).toEqual(before);
    // and the envs play on exactly as envs that were never sent the bad batches
    const fresh = await makeVec(id, 3);
    fresh.reset({ seed: 9 });
    const step = new Int32Array([0, 1, 2]);
    expect(Array.from(vec.step(step).observations)).toEqual(Array.from(fresh.step(step).observations));
  });
});

it('the worked example of index.d.ts holds: a boundary step of two valley envs', async () => {
  const vec = await makeVec('ValleyFarm-v0', 2);
  vec.reset({ seed: 10 });
  let r;
  for (let t = 0; t < 50; t++) r = vec.step([11, 11]);
  const stepsLeft = envSpecs['ValleyFarm-v0'].layout.find((f) => f.name === 'stepsLeft').offset;
  expect(Array.from(r.terminated)).toEqual([1, 1]);
  expect(Array.from(r.episodeSeeds)).toEqual([10n, 11n]);
  expect(Array.from(r.episodeLengths)).toEqual([50, 50]);
  expect([r.finalObservations[stepsLeft], r.finalObservations[37 + stepsLeft]]).toEqual([0, 0]);
  expect([r.observations[stepsLeft], r.observations[37 + stepsLeft]]).toEqual([50, 50]);
  expect([vec.episodeSeed(0), vec.episodeSeed(1)]).toEqual([12, 13]);
});

describe('fresh seeds and the named splits', () => {
  it('fresh seeds lie above every validation and test seed, and 2^40 episodes later are still safe integers', () => {
    expect(FRESH_SEED_MIN).toBeGreaterThan(2_000_199); // the highest named held-out seed (wasm/splits.js)
    expect(FRESH_SEED_MAX + 2 ** 40).toBeLessThanOrEqual(2 ** 53);
  });

  it('a thousand seedless resets all draw in the fresh range', async () => {
    const env = await make(IDS[0]);
    for (let i = 0; i < 1000; i++) {
      const { seed } = env.reset().info;
      expect(seed >= FRESH_SEED_MIN && seed <= FRESH_SEED_MAX).toBe(true);
    }
  });
});
