// snapshot() / restore(): exact replay, across env objects, and refusal of bad bytes.
import { describe, expect, it } from 'vitest';
import { make } from '../../wasm/index.js';

const ids = ['ValleyFarm-v0', 'BackwardsValleyFarm-v0'];

function play(env, actions) {
  return actions.map((a) => {
    const r = env.step(a);
    return [r.reward, r.terminated, r.info.actionWasLegal, r.observation];
  });
}

describe.each(ids)('%s snapshots', (id) => {
  it('restoring mid-episode repeats the rest exactly, on the same env and on another', async () => {
    const env = await make(id);
    const n = env.actionSpace.n;
    env.reset({ seed: 77 });
    play(
      env,
      [0, 1, 2, 3, 5, 7, 9].map((a) => a % n),
    );
    const snap = env.snapshot();
    const rest = Array.from({ length: 20 }, (_, i) => (i * 5 + 3) % n);
    const first = play(env, rest);
    const finalState = env.state();

    env.restore(snap);
    expect(play(env, rest)).toEqual(first);

    const other = await make(id); // never reset
    other.restore(snap);
    expect(other.state().step).toBe(7);
    expect(play(other, rest)).toEqual(first);
    expect(other.state()).toEqual(finalState);
  });

  it('reports the restored episode seed and step in info', async () => {
    const env = await make(id);
    env.reset({ seed: 123456 });
    env.step(0);
    const snap = env.snapshot();
    const other = await make(id);
    other.restore(snap);
    expect(other.step(0).info).toMatchObject({ step: 2, seed: 123456 });
  });

  it('a restored terminated episode refuses step() until reset', async () => {
    const env = await make(id);
    env.reset({ seed: 5 });
    const wait = env.actionSpace.names.indexOf('wait');
    while (!env.step(wait).terminated);
    const snap = env.snapshot();
    const other = await make(id);
    other.restore(snap);
    expect(() => other.step(wait)).toThrow(/call reset\(\)/);
  });

  it.each([
    [
      'a flipped byte',
      (s) => {
        s[20] ^= 0xff;
        return s;
      },
      /corrupted/,
    ],
    ['a truncated copy', (s) => s.slice(0, s.length - 1), /wrong length/],
    ['other bytes', (s) => new Uint8Array(s.length), /not a valley-farm snapshot/],
    [
      'a later format version',
      (s) => {
        s[4] = 99;
        return s;
      },
      /format version/,
    ],
    ['a huge array', () => new Uint8Array(100000), /not a snapshot/],
  ])('refuses %s with a clear Error and keeps the episode', async (_, spoil, message) => {
    const env = await make(id);
    env.reset({ seed: 9 });
    env.step(1);
    const before = env.snapshot();
    const bad = spoil(env.snapshot());
    expect(() => env.restore(bad)).toThrow(message);
    expect(env.snapshot()).toEqual(before);
    expect(env.step(1).info.step).toBe(2);
  });

  it('refuses a snapshot of the other env id', async () => {
    const env = await make(id);
    const other = await make(ids.find((i) => i !== id));
    other.reset({ seed: 1 });
    env.reset({ seed: 1 });
    const before = env.snapshot();
    expect(() => env.restore(other.snapshot())).toThrow(/other environment/);
    expect(env.snapshot()).toEqual(before);
  });

  it('refuses what is not a Uint8Array with a TypeError', async () => {
    const env = await make(id);
    for (const bad of [null, 'snapshot', [1, 2, 3], new ArrayBuffer(8)]) expect(() => env.restore(bad)).toThrow(TypeError);
  });
});
