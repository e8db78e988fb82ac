// Spaces in Gymnasium's terms: every observation the engine produces lies in its space,
// sample() is seeded and lands inside, contains() refuses what the rules cannot show, and
// flatten / unflatten convert between the single env's objects and the vector env's rows.
import { describe, expect, it } from 'vitest';
import {
  Box,
  Dict,
  Discrete,
  envSpecs,
  flatObservationSpace,
  flatten,
  make,
  makeVec,
  observationSpace,
  unflatten,
} from '../../wasm/index.js';

describe.each(['ValleyFarm-v0', 'BackwardsValleyFarm-v0'])('%s spaces', (id) => {
  const spec = envSpecs[id];

  it('contains every observation of a million random steps (flat, batched and as objects)', async () => {
    const N = 1000;
    const vec = await makeVec(id, N);
    const space = vec.observationSpace;
    expect(space).toBeInstanceOf(Box);
    expect(space.shape).toEqual([N, spec.obsSize]);
    expect(space.dtype).toBe('int32');
    const single = observationSpace(id); // one env's observation object
    expect(vec.singleObservationSpace.shape).toEqual([spec.obsSize]); // one row of observations
    let r = vec.reset({ seed: 77 });
    expect(space.contains(r.observations)).toBe(true);
    let x = 12345;
    const actions = new Int32Array(N);
    for (let t = 0; t < 1000; t++) {
      for (let i = 0; i < N; i++) {
        x = (x * 1103515245 + 12345) >>> 0;
        actions[i] = (x >>> 16) % spec.actions.length;
      }
      r = vec.step(actions);
      if (!space.contains(r.observations)) throw new Error(`an observation left the space at step ${t}`);
      if (t % 100 === 0)
        for (let i = 0; i < N; i += 97) {
          expect(single.contains(unflatten(id, r.observations, i))).toBe(true);
          expect(vec.singleObservationSpace.contains(r.observations.subarray(i * spec.obsSize, (i + 1) * spec.obsSize))).toBe(true);
        }
    }
  }, 30_000);

  it('samples the same values from the same seed, always inside the space', () => {
    const space = observationSpace(id);
    expect(space).toBeInstanceOf(Dict);
    const a = space.sample(5);
    expect(space.sample(5)).toEqual(a);
    expect(space.sample(6)).not.toEqual(a);
    for (let s = 0; s < 200; s++) expect(space.contains(space.sample(s))).toBe(true);
    const flat = flatObservationSpace(id);
    for (let s = 0; s < 200; s++) expect(flat.contains(flat.sample(s))).toBe(true);
    const actions = new Discrete(spec.actions.length);
    expect(actions.sample(3)).toBe(actions.sample(3));
    expect(actions.contains(actions.sample(3))).toBe(true);
  });

  it('refuses values outside the bounds, of the wrong shape or with missing fields', () => {
    const space = observationSpace(id);
    const ok = space.sample(1);
    const key = Object.keys(ok).find((k) => Array.isArray(ok[k]));
    expect(space.contains({ ...ok, [key]: ok[key].slice(1) })).toBe(false);
    expect(space.contains({ ...ok, stepsLeft: spec.horizon + 1 })).toBe(false);
    expect(space.contains({ ...ok, stepsLeft: 1.5 })).toBe(false);
    const { stepsLeft, ...missing } = ok;
    expect(space.contains(missing)).toBe(false);
    expect(space.contains(null)).toBe(false);
    expect(space.stepsLeft.max).toBe(spec.horizon); // a rule's bound, read off the space
    expect(() => space.sample('x')).toThrow(/seed/);
  });

  it("flatten and unflatten round-trip the single env's observations through the vector layout", async () => {
    const env = await make(id);
    const vec = await makeVec(id, 1);
    let { observation } = env.reset({ seed: 31 });
    let r = vec.reset({ seed: 31 });
    for (let t = 0; t < 20; t++) {
      const flat = flatten(id, observation);
      expect(Array.from(flat)).toEqual(Array.from(r.observations));
      expect(unflatten(id, flat)).toEqual(observation);
      const a = t % spec.actions.length;
      observation = env.step(a).observation;
      r = vec.step([a]);
    }
    expect(() => flatten(id, { ...observation, stepsLeft: 'x' })).toThrow(/stepsLeft must be an integer/);
    expect(() => unflatten(id, new Int32Array(spec.obsSize), 1)).toThrow(/row 1 is not in this array of 1 rows/);
  });
});
