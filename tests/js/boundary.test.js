// The JS/wasm boundary: no call, however hostile, writes outside its own env. Each hostile
// call below must throw a clear error; afterwards every other live env must hash exactly as
// before. (Before these checks, makeRandomRunner(id, 2 ** 30 + 1) wrapped its allocation
// size and overwrote unrelated envs, and `vec.numEnvs = 6` changed the batch size given to C.)
import { describe, expect, it } from 'vitest';
import { make, makeRandomRunner, makeVec } from '../../wasm/index.js';

const V = 'ValleyFarm-v0';
const B = 'BackwardsValleyFarm-v0';

async function bystanders() {
  const envs = [];
  for (const [id, seed] of [
    [V, 1],
    [B, 2],
    [V, 3],
    [B, 4],
    [B, 5],
  ]) {
    const env = await make(id);
    env.reset({ seed });
    env.step(0);
    envs.push(env);
  }
  const vec = await makeVec(B, 3);
  vec.reset({ seed: 9 });
  return { envs, hashes: envs.map((e) => e.stateHash()), vec };
}

const hostile = [
  ['makeRandomRunner with 2^30 + 1 envs', () => makeRandomRunner(V, 2 ** 30 + 1), /integer from 1 to 65536/],
  ['makeRandomRunner with -1 envs', () => makeRandomRunner(V, -1), /integer from 1 to 65536/],
  ['makeRandomRunner with 0 envs', () => makeRandomRunner(V, 0), /integer from 1 to 65536/],
  ['makeRandomRunner with NaN envs', () => makeRandomRunner(V, NaN), /integer from 1 to 65536/],
  ['makeRandomRunner with 1.5 envs', () => makeRandomRunner(V, 1.5), /integer from 1 to 65536/],
  ["makeRandomRunner with 'x' envs", () => makeRandomRunner(V, 'x'), /integer from 1 to 65536/],
  ['makeRandomRunner with seed 2^40', () => makeRandomRunner(V, 2, 2 ** 40), /from 0 to 2\^32 - 1/],
  ['runner.run(NaN)', async () => (await makeRandomRunner(V, 2)).run(NaN), /integer from 0 to 2\^31 - 1/],
  ['runner.run(-1)', async () => (await makeRandomRunner(V, 2)).run(-1), /integer from 0 to 2\^31 - 1/],
  [
    'runner.run after close',
    async () => {
      const r = await makeRandomRunner(V, 2);
      r.close();
      r.run(1);
    },
    /closed/,
  ],
  ['makeVec with 2^31 envs', () => makeVec(V, 2 ** 31), /integer from 1 to 65536/],
  [
    'vec.step after close',
    async () => {
      const v = await makeVec(V, 2);
      v.reset({ seed: 1 });
      v.close();
      v.step([0, 0]);
    },
    /closed/,
  ],
  [
    'vec.resetEnvs with an index past the end',
    async () => {
      const v = await makeVec(V, 2);
      v.reset({ seed: 1 });
      v.resetEnvs([2]);
    },
    /out of range/,
  ],
  [
    'vec.episodeSeed(-1)',
    async () => {
      const v = await makeVec(V, 2);
      v.reset({ seed: 1 });
      v.episodeSeed(-1);
    },
    /integer from 0 to 1/,
  ],
  [
    'env.restore of a forged 10 MB array',
    async () => {
      const e = await make(V);
      e.restore(new Uint8Array(10e6));
    },
    /longer than any snapshot/,
  ],
  [
    'env.restore with a length past the buffer',
    async () => {
      const e = await make(V);
      e.restore(new Uint8Array(8), 1e9);
    },
    /restore length/,
  ],
  [
    'env.snapshotInto a short buffer',
    async () => {
      const e = await make(V);
      e.reset({ seed: 1 });
      e.snapshotInto(new Uint8Array(4));
    },
    /at least/,
  ],
  [
    'env.loadState of a hand-made object',
    async () => {
      const e = await make(V);
      e.loadState({ ptr: 0, id: V, seed: 1 });
    },
    /EnvState/,
  ],
  [
    'a 10 MB string as a seed',
    async () => {
      const e = await make(V);
      e.reset({ seed: 'x'.repeat(10e6) });
    },
    /not a number/,
  ],
];

describe('the JS/wasm boundary', () => {
  it.each(hostile)('%s is refused with a clear error, and no other env changes', async (_, call, message) => {
    const { envs, hashes, vec } = await bystanders();
    const vecBefore = Array.from(vec.step([4, 4, 4]).observations);
    await expect((async () => call())()).rejects.toThrow(message);
    expect(envs.map((e) => e.stateHash())).toEqual(hashes);
    // the vector env goes on exactly as a twin that saw no hostile call
    const twin = await makeVec(B, 3);
    twin.reset({ seed: 9 });
    twin.step([4, 4, 4]);
    expect(Array.from(vec.step([4, 4, 4]).observations)).toEqual(Array.from(twin.step([4, 4, 4]).observations));
    expect(vecBefore.length).toBe(3 * 55);
  });

  it('errors never echo more than a line of what they were given', async () => {
    const env = await make(V);
    const err = await (async () => env.reset({ seed: 'x'.repeat(10e6) }))().catch((e) => e);
    expect(err.message.length).toBeLessThan(300);
    expect(err.message).toMatch(/\.\.\./);
  });

  it('numEnvs is read-only: assigning it cannot change the batch size the engine is given', async () => {
    const { envs, hashes } = await bystanders();
    const vec = await makeVec(V, 2);
    vec.reset({ seed: 1 });
    expect(() => {
      vec.numEnvs = 6;
    }).toThrow(TypeError);
    expect(vec.numEnvs).toBe(2);
    vec.reset({ seed: 1 });
    vec.step([0, 0]);
    expect(envs.map((e) => e.stateHash())).toEqual(hashes);
  });

  it('interleaved make/step/close of many envs of both kinds leaves survivors intact', async () => {
    const { envs, hashes } = await bystanders();
    for (let i = 0; i < 200; i++) {
      const e = await make(i % 2 ? V : B);
      e.reset({ seed: i });
      e.step(0);
      const v = await makeVec(i % 2 ? B : V, 1 + (i % 7));
      v.reset({ seed: i });
      v.step(new Int32Array(1 + (i % 7)));
      e.close();
      v.close();
      expect(() => e.step(0)).toThrow(/closed/);
    }
    expect(envs.map((e) => e.stateHash())).toEqual(hashes);
  });
});
