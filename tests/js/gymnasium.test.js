// Gymnasium's conventions, as a user of Gymnasium, CleanRL or Stable-Baselines3 expects them:
// space.seed(), masked sampling, reset({ seed, options }), one generator for a whole run,
// close() twice, a vector env's batched spaces and `infos`, env.spec and env.metadata.
import { describe, expect, it } from 'vitest';
import { Discrete, FRESH_SEED_MIN, MultiDiscrete, envIds, envSpecs, make, makeVec, observationSpace } from '../../wasm/index.js';

const V = 'ValleyFarm-v0';

describe('spaces', () => {
  it('space.seed(s) makes the samples drawn after it repeat, and returns [s]', async () => {
    const env = await make(V);
    expect(env.actionSpace.seed(3)).toEqual([3]);
    const first = Array.from({ length: 20 }, () => env.actionSpace.sample());
    env.actionSpace.seed(3);
    expect(Array.from({ length: 20 }, () => env.actionSpace.sample())).toEqual(first);
    env.actionSpace.seed(4);
    expect(Array.from({ length: 20 }, () => env.actionSpace.sample())).not.toEqual(first);
    const box = env.observationSpace.view;
    box.seed(9);
    const a = box.sample();
    box.seed(9);
    expect(box.sample()).toEqual(a);
    expect(() => env.actionSpace.seed(-1)).toThrow(/integer from 0 to 2\^53 - 1/);
    env.close();
  });

  it('Discrete.sample({ mask }) draws only actions whose mask is 1, and 0 when none is', () => {
    const space = new Discrete(5);
    const mask = new Uint8Array([0, 1, 0, 1, 0]);
    const drawn = new Set(Array.from({ length: 200 }, (_, k) => space.sample({ mask, rng: k })));
    expect([...drawn].sort()).toEqual([1, 3]);
    expect(space.sample({ mask: [0, 0, 0, 0, 0] })).toBe(0);
    expect(() => space.sample({ mask: [1, 1] })).toThrow(/mask must be 5 values, each 0 or 1/);
    expect(() => space.sample({ mask: [2, 0, 0, 0, 0] })).toThrow(/each 0 or 1/);
    expect(() => space.sample({ masks: mask })).toThrow(/no option 'masks'; the options are mask, rng/);
  });
});

describe('the single env', () => {
  it('reset({ seed, options }) is accepted; options it does not know are refused by name', async () => {
    const env = await make(V);
    expect(env.reset({ seed: 1, options: {} }).info.seed).toBe(1);
    expect(env.reset({ seed: 1, options: null }).info.seed).toBe(1);
    expect(() => env.reset({ options: { level: 3 } })).toThrow(/reset: these envs take no reset options yet/);
    env.close();
  });

  it('after a seeded reset, unseeded resets continue one generator: a run repeats from its first seed', async () => {
    const run = async (seed) => {
      const env = await make(V);
      const seeds = [env.reset({ seed }).info.seed];
      for (let k = 0; k < 5; k++) seeds.push(env.reset().info.seed);
      env.close();
      return seeds;
    };
    const a = await run(42);
    expect(await run(42)).toEqual(a);
    expect((await run(43)).slice(1)).not.toEqual(a.slice(1));
    // the fresh seeds are fresh: never a held-out (validation or test) seed
    for (const s of a.slice(1)) expect(s).toBeGreaterThanOrEqual(FRESH_SEED_MIN);
  });

  it('close() twice is harmless', async () => {
    const env = await make(V);
    env.close();
    expect(() => env.close()).not.toThrow();
    const vec = await makeVec(V, 2);
    vec.close();
    expect(() => vec.close()).not.toThrow();
  });

  it.each(envIds)(
    '%s has spec.maxEpisodeSteps null (no time limit: the rules end every episode by the horizon) and metadata.renderModes',
    async (id) => {
      const env = await make(id);
      expect(env.spec).toEqual({ id, maxEpisodeSteps: null });
      expect(env.metadata.renderModes).toEqual(['ansi']);
      for (const mode of env.metadata.renderModes) (await make(id, { render_mode: mode })).close();
      env.reset({ seed: 5 });
      let steps = 0;
      for (let done = false; !done; steps++) done = env.step(env.actionSpace.sample({ mask: env.legalActions(), rng: steps })).terminated;
      expect(steps).toBe(envSpecs[id].horizon); // terminated at the horizon, never truncated
      env.close();
    },
  );
});

describe('the vector env', () => {
  it('actionSpace is the batched MultiDiscrete beside singleActionSpace; singleObservationSpace is one row', async () => {
    const vec = await makeVec(V, 4);
    const A = envSpecs[V].actions.length;
    expect(vec.actionSpace).toBeInstanceOf(MultiDiscrete);
    expect(vec.actionSpace.nvec).toEqual([A, A, A, A]);
    expect(vec.singleActionSpace).toBeInstanceOf(Discrete);
    expect(vec.singleActionSpace.names).toEqual(envSpecs[V].actions);
    expect(vec.singleObservationSpace.shape).toEqual([envSpecs[V].obsSize]);
    const r = vec.reset({ seed: 8, options: {} });
    for (let i = 0; i < 4; i++)
      expect(vec.singleObservationSpace.contains(r.observations.subarray(i * vec.obsSize, (i + 1) * vec.obsSize))).toBe(true);
    const actions = vec.actionSpace.sample({ mask: r.masks, rng: 1 });
    expect(vec.actionSpace.contains(actions)).toBe(true);
    for (let i = 0; i < 4; i++) expect(r.masks[i * A + actions[i]]).toBe(1);
    expect(observationSpace(V).contains(observationSpace(V).sample(1))).toBe(true);
    vec.close();
  });

  it('step returns Gymnasium infos: final_obs and episode { r, l, seed }, each with its _mask of the envs that ended', async () => {
    const vec = await makeVec(V, 3);
    vec.reset({ seed: 11 });
    vec.actionSpace.seed(2);
    let ended = 0;
    for (let t = 0; t < 200 && ended < 3; t++) {
      const r = vec.step(vec.actionSpace.sample());
      expect(r.infos._episode).toEqual(r.terminated);
      expect(r.infos._final_obs).toEqual(r.terminated);
      expect(r.infos.final_obs).toEqual(r.finalObservations);
      expect(r.infos.episode.r).toEqual(r.episodeReturns);
      expect(r.infos.episode.l).toEqual(r.episodeLengths);
      expect(r.infos.episode.seed).toEqual(r.episodeSeeds);
      ended += r.terminated.reduce((a, b) => a + b, 0);
    }
    expect(ended).toBeGreaterThan(0);
    vec.close();
  });

  it('after a seeded reset, an unseeded reset draws its seed from the same generator', async () => {
    const run = async () => {
      const vec = await makeVec(V, 2);
      vec.reset({ seed: 5 });
      const next = vec.reset().seed;
      vec.close();
      return next;
    };
    expect(await run()).toBe(await run());
  });
});
