// An EnvState's engine address is private: no caller can point loadState or saveState at
// engine memory of its choosing, and only a live state of this env kind is accepted.
import { describe, expect, it } from 'vitest';
import { make, makeVec } from '../../wasm/index.js';

const V = 'ValleyFarm-v0';
const B = 'BackwardsValleyFarm-v0';

/** An env played a few steps from a seed. */
async function played(id, seed, steps) {
  const env = await make(id);
  env.reset({ seed });
  for (let i = 0; i < steps; i++) if (env.legalActions()[0]) env.step(0);
  return env;
}

describe('EnvState keeps its engine address private', () => {
  it('a state has no address, id or episode a caller can set; setting them changes nothing', async () => {
    const env = await played(V, 3, 5);
    const bystander = await played(V, 4, 2);
    const bystanderHash = bystander.stateHash();
    const state = env.saveState();
    expect(Object.keys(state)).toEqual([]);
    expect('ptr' in state).toBe(false);
    const h = env.stateHash();
    // a frozen object: an assignment throws in strict code and adds nothing
    expect(() => {
      state.ptr = 8;
    }).toThrow(TypeError);
    expect(() => {
      state.id = B;
    }).toThrow(TypeError);
    expect(Reflect.set(state, 'step', -5)).toBe(false);
    expect(() => Object.defineProperty(state, 'seed', { value: 'evil' })).toThrow(TypeError);
    expect([state.id, state.seed, state.step]).toEqual([V, 3, 5]);
    env.reset({ seed: 9 });
    env.loadState(state);
    expect(env.stateHash()).toBe(h);
    expect(bystander.stateHash()).toBe(bystanderHash);
    env.close();
    bystander.close();
  });

  it('a forged, a disposed and an other-kind state are refused with a clear error, and nothing changes', async () => {
    const env = await played(V, 3, 4);
    const h = env.stateHash();
    const real = env.saveState();
    const forged = [
      { ptr: 8, id: V, seed: 1, step: 0, terminated: false },
      { ptr: -700, id: V },
      { ptr: 2 ** 31, id: V },
      Object.create(Object.getPrototypeOf(real)), // an EnvState's prototype without its private fields
      new Proxy(real, {}),
    ];
    for (const f of forged) {
      expect(() => env.loadState(f)).toThrow(
        /loadState takes an unfreed EnvState that saveState\(\) returned on a ValleyFarm-v0 env, got a/,
      );
      expect(() => env.saveState(f)).toThrow(/saveState\(into\) takes an unfreed EnvState/);
    }
    expect(() => new (Object.getPrototypeOf(real).constructor)(Symbol('EnvState'), null, null)).toThrow(
      /EnvStates come only from env.saveState\(\)/,
    );
    const other = await played(B, 1, 2);
    const otherState = other.saveState();
    expect(() => env.loadState(otherState)).toThrow(/got an EnvState of BackwardsValleyFarm-v0/);
    expect(() => env.saveState(otherState)).toThrow(/on a ValleyFarm-v0 env, got an EnvState of BackwardsValleyFarm-v0/);
    real.free();
    real.free(); // freeing twice is harmless
    expect(() => env.loadState(real)).toThrow(/got a freed EnvState of ValleyFarm-v0/);
    expect(() => env.saveState(real)).toThrow(/got a freed EnvState/);
    expect(env.stateHash()).toBe(h);
    env.close();
    other.close();
  });

  it("a vector env's public fields are descriptions only: changing obsSize moves no engine write", async () => {
    const vec = await makeVec(V, 4);
    const other = await makeVec(V, 4);
    const first = other.reset({ seed: 77 }).observations.slice();
    vec.reset({ seed: 5 });
    const ref = await makeVec(V, 4);
    const expected = ref.reset({ seed: 15 }).observations.slice(); // envs of seeds 15 … 18
    vec.obsSize = 1e6; // before: resetEnvs wrote env i's observation at i * obsSize, into other memory
    vec.id = B;
    const again = vec.resetEnvs([0, 1, 2, 3], [15, 16, 17, 18]);
    expect(again.observations).toEqual(expected);
    expect(other.step(new Int32Array(4)).observations.length).toBe(4 * 37);
    const fresh = await makeVec(V, 4);
    expect(fresh.reset({ seed: 77 }).observations).toEqual(first);
    for (const v of [vec, other, fresh, ref]) v.close();
  });
});
