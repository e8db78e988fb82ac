// Vector envs: N envs in one call equal N single envs stepped with the same actions,
// across automatic resets; results are reused views; bad input is refused.
import { describe, expect, it } from 'vitest';
import { envSpecs, make, makeVec } from '../../wasm/index.js';

const flatValley = (o) => [...o.view, o.center, ...Object.values(o.inventory), ...o.relationships, o.stepsLeft];
const flatBackwards = (o) => [...o.terrain, ...o.status, o.x, o.y, o.facing, o.stepsLeft, o.farmValue];

describe.each(['ValleyFarm-v0', 'BackwardsValleyFarm-v0'])('%s vector env', (id) => {
  const spec = envSpecs[id];
  const flat = id === 'ValleyFarm-v0' ? flatValley : flatBackwards;

  it('has the flat observation size of the rules file', async () => {
    const vec = await makeVec(id, 3);
    expect(vec.obsSize).toBe(id === 'ValleyFarm-v0' ? 37 : 55);
    expect(vec.numEnvs).toBe(3);
    expect(vec.singleActionSpace.n).toBe(spec.actions.length);
    expect(vec.actionSpace.nvec).toEqual([spec.actions.length, spec.actions.length, spec.actions.length]);
  });

  it('equals N single envs, including automatic resets with seed + i + k * N', async () => {
    const N = 4;
    const seed = 500;
    const vec = await makeVec(id, N);
    const singles = await Promise.all(Array.from({ length: N }, () => make(id)));
    const episode = new Array(N).fill(0);
    let { observations } = vec.reset(seed);
    singles.forEach((env, i) => {
      const { observation } = env.reset({ seed: seed + i });
      expect(Array.from(observations.subarray(i * vec.obsSize, (i + 1) * vec.obsSize))).toEqual(flat(observation));
    });
    let resets = 0;
    for (let t = 0; t < 3 * spec.horizon + 7; t++) {
      const actions = Int32Array.from({ length: N }, (_, i) => (t * 5 + i * 3) % spec.actions.length);
      const r = vec.step(actions);
      expect(r.truncated.every((x) => x === 0)).toBe(true);
      singles.forEach((env, i) => {
        let { observation, reward, terminated } = env.step(actions[i]);
        expect(r.rewards[i]).toBe(reward);
        expect(r.terminated[i]).toBe(terminated ? 1 : 0);
        if (terminated) {
          episode[i]++;
          resets++;
          ({ observation } = env.reset({ seed: seed + i + episode[i] * N }));
        }
        expect(Array.from(r.observations.subarray(i * vec.obsSize, (i + 1) * vec.obsSize))).toEqual(flat(observation));
      });
    }
    expect(resets).toBe(3 * N);
  });

  it('returns the same typed-array views on every step (the next call overwrites them)', async () => {
    const vec = await makeVec(id, 2);
    vec.reset(1);
    const a = vec.step([0, 1]);
    const b = vec.step([1, 0]);
    expect(b).toBe(a);
    expect(a.observations).toBeInstanceOf(Int32Array);
    expect(a.rewards).toBeInstanceOf(Float64Array);
    expect(a.terminated).toBeInstanceOf(Uint8Array);
    expect(a.observations.length).toBe(2 * vec.obsSize);
  });

  it('refuses bad actions with a message naming the index, and steps nothing', async () => {
    const vec = await makeVec(id, 3);
    const first = Array.from(vec.reset(2).observations);
    expect(() => vec.step([0, 1])).toThrow(/2 actions for 3 envs/);
    expect(() => vec.step([0, 1, spec.actions.length])).toThrow(RangeError);
    expect(() => vec.step([0, 1, spec.actions.length])).toThrow(/actions\[2\]/);
    expect(() => vec.step([0, '1', 2])).toThrow(TypeError);
    expect(() => vec.step('012')).toThrow(TypeError);
    const wait = spec.actions.indexOf('wait');
    const r = vec.step([wait, wait, wait]);
    // only one step was taken since reset: stepsLeft = horizon - 1 in every env
    const stepsLeftAt = spec.layout.find((f) => f.name === 'stepsLeft').offset;
    for (let i = 0; i < 3; i++) expect(r.observations[i * vec.obsSize + stepsLeftAt]).toBe(spec.horizon - 1);
    expect(first.length).toBe(3 * vec.obsSize);
  });

  it('refuses step() before reset(), bad sizes and use after close()', async () => {
    const vec = await makeVec(id, 2);
    expect(() => vec.step([0, 0])).toThrow(/call reset\(\)/);
    await expect(makeVec(id, 0)).rejects.toThrow(/integer from 1 to 65536/);
    await expect(makeVec(id, 1.5)).rejects.toThrow(RangeError);
    await expect(makeVec('nope', 2)).rejects.toThrow(/ValleyFarm-v0/);
    expect(() => vec.reset(-1)).toThrow(RangeError);
    vec.close();
    expect(() => vec.reset(1)).toThrow(/closed/);
    expect(() => vec.step([0, 0])).toThrow(/closed/);
  });
});
