// The JS API contract (wasm/index.d.ts, the API docs page): every member and every error path, both envs.
import { describe, expect, it } from 'vitest';
import { envIds, envSpecs, make } from '../../wasm/index.js';

const VALLEY = 'ValleyFarm-v0';
const BACKWARDS = 'BackwardsValleyFarm-v0';

describe('module exports', () => {
  it('lists the two env ids in order', () => {
    expect(envIds).toEqual([VALLEY, BACKWARDS]);
  });

  it('rejects make() of an unknown id with a message listing the env ids', async () => {
    await expect(make('CartPole-v1')).rejects.toThrow(/unknown env id 'CartPole-v1'.*'ValleyFarm-v0', 'BackwardsValleyFarm-v0'/);
    await expect(make(undefined)).rejects.toThrow(Error);
  });
});

describe.each([
  [VALLEY, 12, ['north', 'south', 'east', 'west', 'plant', 'water', 'harvest', 'feed', 'collect', 'gift', 'sell', 'wait'], 50],
  [BACKWARDS, 11, ['north', 'south', 'east', 'west', 'wait', 'water', 'fertilize', 'feed', 'clean', 'compliment', 'insult'], 40],
])('%s', (id, n, names, horizon) => {
  const waitAction = names.indexOf('wait');

  it('knows its id, its action space and its observation space', async () => {
    const env = await make(id);
    expect(env.id).toBe(id);
    expect(env.actionSpace.n).toBe(n);
    expect(env.actionSpace.names).toEqual(names);
    // the observation space is a Dict whose fields read like envSpecs' description
    const leaves = (space, desc) => {
      for (const [field, d] of Object.entries(desc)) {
        if ('shape' in d)
          expect({ shape: space[field].shape, min: space[field].min, max: space[field].max }).toEqual({
            shape: d.shape,
            min: d.min,
            max: d.max,
          });
        else leaves(space[field], d);
      }
    };
    expect(Object.keys(env.observationSpace)).toEqual(Object.keys(envSpecs[id].observation));
    leaves(env.observationSpace, envSpecs[id].observation);
  });

  it('resets with a seed and reports step 0 and that seed', async () => {
    const env = await make(id);
    const { observation, info } = env.reset({ seed: 12 });
    expect(info).toEqual({ step: 0, seed: 12 });
    expect(observation.stepsLeft).toBe(horizon);
  });

  it('draws a random seed for reset() and reset({}), and that seed replays the episode', async () => {
    const env = await make(id);
    const a = env.reset();
    const b = env.reset({});
    expect(Number.isSafeInteger(a.info.seed)).toBe(true);
    expect(a.info.seed).not.toBe(b.info.seed);
    const replay = await make(id);
    expect(replay.reset({ seed: b.info.seed }).observation).toEqual(b.observation);
    expect(replay.state()).toEqual(env.state());
  });

  it('gives the same layout for a Number seed and the equal BigInt seed', async () => {
    const env = await make(id);
    env.reset({ seed: 2 ** 40 + 5 });
    const s1 = env.state();
    env.reset({ seed: 2n ** 40n + 5n });
    expect(env.state()).toEqual(s1);
    env.reset({ seed: 2n ** 64n - 1n });
    expect(env.state().step).toBe(0);
  });

  it('steps with the Gymnasium result shape', async () => {
    const env = await make(id);
    env.reset({ seed: 1 });
    const r = env.step(waitAction);
    expect(Object.keys(r).sort()).toEqual(['info', 'observation', 'reward', 'terminated', 'truncated']);
    expect(r.reward).toBe(0);
    expect(r.terminated).toBe(false);
    expect(r.truncated).toBe(false);
    expect(r.info).toEqual({ step: 1, seed: 1, actionWasLegal: true });
    expect(r.observation.stepsLeft).toBe(horizon - 1);
  });

  it(`terminates after exactly ${horizon} actions, and then step() says to call reset()`, async () => {
    const env = await make(id);
    env.reset({ seed: 3 });
    for (let t = 1; t < horizon; t++) expect(env.step(waitAction).terminated).toBe(false);
    const last = env.step(waitAction);
    expect(last.terminated).toBe(true);
    expect(last.truncated).toBe(false);
    expect(last.observation.stepsLeft).toBe(0);
    const before = env.snapshot();
    expect(() => env.step(waitAction)).toThrow(/call reset\(\)/);
    expect(env.snapshot()).toEqual(before);
    expect(env.reset({ seed: 3 }).info.step).toBe(0);
  });

  it('refuses step() before the first reset with "call reset()"', async () => {
    const env = await make(id);
    expect(() => env.step(0)).toThrow(/call reset\(\)/);
    for (const method of ['legalActions', 'state', 'render', 'snapshot']) expect(() => env[method]()).toThrow(/call reset\(\)/);
  });

  it.each([
    [n, RangeError],
    [-1, RangeError],
    [1.5, RangeError],
    [NaN, RangeError],
    ['1', TypeError],
    [null, TypeError],
    [undefined, TypeError],
    [1n, TypeError],
  ])('refuses action %s with %s naming the allowed actions, and changes nothing', async (action, Err) => {
    const env = await make(id);
    env.reset({ seed: 4 });
    env.step(waitAction);
    const before = env.snapshot();
    let error;
    try {
      env.step(action);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(Err);
    expect(error.message).toMatch(new RegExp(`integer from 0 to ${n - 1}`));
    expect(error.message).toContain(`0 north`);
    expect(env.snapshot()).toEqual(before);
    expect(env.step(waitAction).info.step).toBe(2);
  });

  it.each([
    [{ seed: -1 }, RangeError],
    [{ seed: 1.5 }, RangeError],
    [{ seed: 2 ** 53 }, RangeError],
    [{ seed: -1n }, RangeError],
    [{ seed: 2n ** 64n }, RangeError],
    [{ seed: '7' }, TypeError],
    [null, TypeError],
    [5, TypeError],
  ])('refuses reset(%s) with %s and keeps the episode in progress', async (options, Err) => {
    const env = await make(id);
    env.reset({ seed: 5 });
    env.step(waitAction);
    const before = env.snapshot();
    expect(() => env.reset(options)).toThrow(Err);
    expect(env.snapshot()).toEqual(before);
    expect(env.step(waitAction).info).toEqual({ step: 2, seed: 5, actionWasLegal: true });
  });

  it('explains what a seed may be', async () => {
    const env = await make(id);
    expect(() => env.reset({ seed: -3 })).toThrow(/integer from 0 to 2\^53 - 1, or a BigInt from 0n to 2\^64 - 1/);
  });

  it('returns the legal actions as a Uint8Array of n flags that agree with actionWasLegal', async () => {
    const env = await make(id);
    env.reset({ seed: 6 });
    for (let t = 0; t < 30; t++) {
      const legal = env.legalActions();
      expect(legal).toBeInstanceOf(Uint8Array);
      expect(legal.length).toBe(n);
      expect(legal[waitAction]).toBe(1);
      const a = (t * 7) % n;
      expect(env.step(a).info.actionWasLegal).toBe(legal[a] === 1);
    }
  });

  it('returns fresh observation and state objects that later calls never change', async () => {
    const env = await make(id);
    const first = env.reset({ seed: 8 });
    const copy = structuredClone(first);
    const state = env.state();
    const stateCopy = structuredClone(state);
    for (let t = 0; t < 10; t++) env.step(t % n);
    expect(first).toEqual(copy);
    expect(state).toEqual(stateCopy);
    expect(JSON.parse(JSON.stringify(env.state()))).toEqual(env.state());
  });

  it('renders a text picture with one line per map row', async () => {
    const env = await make(id);
    env.reset({ seed: 9 });
    const text = env.render();
    const { height, width } = envSpecs[id];
    expect(typeof text).toBe('string');
    const rows = text.split('\n').slice(0, height);
    expect(rows.every((row) => row.length >= width)).toBe(true);
  });

  it('throws on every call after close() but close() itself, which is harmless twice', async () => {
    const env = await make(id);
    env.reset({ seed: 10 });
    env.close();
    for (const call of [
      () => env.reset(),
      () => env.step(0),
      () => env.legalActions(),
      () => env.state(),
      () => env.snapshot(),
      () => env.restore(new Uint8Array(4)),
      () => env.render(),
    ]) {
      expect(call).toThrow(/closed/);
    }
    expect(() => env.close()).not.toThrow();
  });
});
