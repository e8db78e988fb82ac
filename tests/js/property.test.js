// Property-based tests of the JS API (fast-check): any sequence of calls with any arguments,
// valid or not, either returns what the contract says or throws the documented kind of
// error and leaves the env exactly as it was; a vector env agrees with single envs; and
// snapshot -> restore is the identity on state, hash and future.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { envSpecs, flatten, make, makeVec } from '../../wasm/index.js';

const IDS = ['ValleyFarm-v0', 'BackwardsValleyFarm-v0'];

/** Anything a caller might pass: valid values, near misses and nonsense. */
const anyValue = fc.oneof(
  fc.integer({ min: -3, max: 14 }),
  fc.integer(),
  fc.double(),
  fc.bigInt({ min: -2n, max: 2n ** 65n }),
  fc.string({ maxLength: 6 }),
  fc.constantFrom(null, undefined, NaN, Infinity, [], {}, true, new Uint8Array(3)),
);

const call = fc.oneof(
  fc.record({ op: fc.constant('step'), arg: anyValue }),
  fc.record({ op: fc.constant('reset'), arg: fc.oneof(anyValue, fc.record({ seed: anyValue }), fc.record({ seed: fc.nat(1000) })) }),
  fc.record({ op: fc.constant('restore'), arg: fc.oneof(anyValue, fc.uint8Array({ maxLength: 400 })) }),
  fc.record({ op: fc.constant('legalActions'), arg: fc.constant(undefined) }),
  fc.record({ op: fc.constant('state'), arg: fc.constant(undefined) }),
  fc.record({ op: fc.constant('snapshotRestore'), arg: fc.constant(undefined) }),
);

/** What the env is now: its hash, or why it has none (no episode yet). */
function fingerprint(env) {
  try {
    return env.stateHash();
  } catch (err) {
    return `no state: ${err.message}`;
  }
}

describe.each(IDS)('%s under any sequence of calls', (id) => {
  const n = envSpecs[id].actions.length;

  it('every call returns what the contract says or throws a documented error and changes nothing', async () => {
    const env = await make(id);
    await fc.assert(
      fc.asyncProperty(fc.array(call, { maxLength: 40 }), async (calls) => {
        for (const { op, arg } of calls) {
          const before = fingerprint(env);
          try {
            if (op === 'step') {
              const r = env.step(arg);
              expect(Number.isInteger(arg) && arg >= 0 && arg < n).toBe(true);
              expect(r.reward).toBeGreaterThanOrEqual(0);
              expect(env.observationSpace.contains(r.observation)).toBe(true);
              expect(r.truncated).toBe(false);
            } else if (op === 'reset') {
              const r = env.reset(arg);
              expect(env.observationSpace.contains(r.observation)).toBe(true);
              expect(r.info.step).toBe(0);
            } else if (op === 'restore') env.restore(arg);
            else if (op === 'legalActions') {
              const mask = env.legalActions();
              expect(mask.length).toBe(n);
              expect([...mask].every((b) => b === 0 || b === 1)).toBe(true);
            } else if (op === 'state') expect(env.state().step).toBeGreaterThanOrEqual(0);
            else if (op === 'snapshotRestore') {
              const bytes = env.snapshot();
              env.restore(bytes);
              expect(fingerprint(env)).toBe(before);
            }
          } catch (err) {
            // the documented errors: TypeError / RangeError for bad arguments, Error for a
            // call at the wrong time or bytes that are not a snapshot; a message saying why
            expect(err).toBeInstanceOf(Error);
            expect(err.message).toMatch(/^valley-farm: /);
            expect(err.message.length).toBeLessThan(600);
            expect(fingerprint(env)).toBe(before);
          }
        }
      }),
      { numRuns: 150, seed: 20261124 },
    );
  });

  it('snapshot -> restore is the identity on state, hash and every future', async () => {
    const a = await make(id);
    const b = await make(id);
    await fc.assert(
      fc.asyncProperty(
        fc.nat(1e6),
        fc.array(fc.nat(n - 1), { maxLength: 30 }),
        fc.array(fc.nat(n - 1), { minLength: 1, maxLength: 20 }),
        async (seed, past, future) => {
          a.reset({ seed });
          for (const x of past) if (a.step(x).terminated) break;
          b.restore(a.snapshot());
          expect(b.stateHash()).toBe(a.stateHash());
          expect(b.state()).toEqual(a.state());
          for (const x of future) {
            let ra, rb;
            try {
              ra = a.step(x);
            } catch (err) {
              expect(() => b.step(x)).toThrow(err.message);
              break;
            }
            rb = b.step(x);
            expect(rb).toEqual(ra);
          }
          expect(b.stateHash()).toBe(a.stateHash());
        },
      ),
      { numRuns: 200, seed: 7 },
    );
  });

  it('a vector env agrees with single envs on any seeds and actions', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.nat(1e6),
        fc.array(fc.nat(n - 1), { minLength: 1, maxLength: 80 }),
        async (N, seed, stream) => {
          const vec = await makeVec(id, N);
          const singles = await Promise.all(Array.from({ length: N }, () => make(id)));
          vec.reset({ seed });
          const episode = new Array(N).fill(0);
          singles.forEach((e, i) => e.reset({ seed: seed + i }));
          for (let t = 0; t < stream.length; t++) {
            const actions = Array.from({ length: N }, (_, i) => stream[(t + i) % stream.length]);
            const r = vec.step(actions);
            singles.forEach((e, i) => {
              let s = e.step(actions[i]);
              expect(r.rewards[i]).toBe(s.reward);
              if (s.terminated) {
                episode[i]++;
                s = e.reset({ seed: seed + i + episode[i] * N });
              }
              expect(Array.from(r.observations.subarray(i * vec.obsSize, (i + 1) * vec.obsSize))).toEqual(
                Array.from(flatten(id, s.observation)),
              );
            });
          }
          vec.close();
          singles.forEach((e) => e.close());
        },
      ),
      { numRuns: 40, seed: 3 },
    );
  });
});
