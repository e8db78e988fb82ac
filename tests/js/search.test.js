// Search support: the engine's state hash, snapshots into a caller's buffer, and trusted
// in-memory states (saveState / loadState) that repeat the future exactly.
import { describe, expect, it } from 'vitest';
import { envSpecs, make } from '../../wasm/index.js';

function fnv1a64(bytes) {
  let h = 0xcbf29ce484222325n;
  for (const b of bytes) h = BigInt.asUintN(64, (h ^ BigInt(b)) * 0x100000001b3n);
  return h;
}

describe.each(['ValleyFarm-v0', 'BackwardsValleyFarm-v0'])('%s search support', (id) => {
  const A = envSpecs[id].actions.length;

  it("stateHash() is the FNV-1a 64 of the snapshot (the header's definition) and changes with the state", async () => {
    const env = await make(id);
    env.reset({ seed: 4 });
    const h0 = env.stateHash();
    expect(typeof h0).toBe('bigint');
    expect(h0).toBe(fnv1a64(env.snapshot()));
    env.step(A - 1);
    expect(env.stateHash()).not.toBe(h0);
  });

  it("snapshotInto writes the same bytes as snapshot() into the caller's buffer, and restore reads a prefix", async () => {
    const env = await make(id);
    env.reset({ seed: 5 });
    env.step(0);
    const buf = new Uint8Array(env.snapshotSize + 10).fill(7);
    const n = env.snapshotInto(buf);
    expect(n).toBe(env.snapshotSize);
    expect(Array.from(buf.subarray(0, n))).toEqual(Array.from(env.snapshot()));
    const h = env.stateHash();
    env.step(1);
    env.restore(buf, n);
    expect(env.stateHash()).toBe(h);
    expect(() => env.snapshotInto(new Uint8Array(n - 1))).toThrow(/at least/);
    expect(() => env.restore(buf, n + 11)).toThrow(RangeError);
  });

  it('saveState / loadState put back the state, the step count and the future exactly', async () => {
    const env = await make(id);
    env.reset({ seed: 6 });
    for (let i = 0; i < 7; i++) env.step(i % A);
    const saved = env.saveState();
    const h = env.stateHash();
    const future = [];
    for (let i = 0; i < 10; i++) future.push(env.step((i * 3) % A));
    const other = await make(id);
    other.loadState(saved);
    expect(other.stateHash()).toBe(h);
    for (let i = 0; i < 10; i++) expect(other.step((i * 3) % A)).toEqual(future[i]);
    env.saveState(saved); // reuse: no allocation
    expect(saved.step).toBe(17);
    saved.free();
    expect(() => env.loadState(saved)).toThrow(/unfreed EnvState/);
    expect(() => env.loadState({ ptr: 8, id })).toThrow(/EnvState that saveState\(\) returned/);
  });

  it('a state of the other farm is refused by loadState', async () => {
    const env = await make(id);
    const other = await make(id === 'ValleyFarm-v0' ? 'BackwardsValleyFarm-v0' : 'ValleyFarm-v0');
    other.reset({ seed: 1 });
    env.reset({ seed: 1 });
    const h = env.stateHash();
    expect(() => env.loadState(other.saveState())).toThrow(TypeError);
    expect(env.stateHash()).toBe(h);
  });
});
