// env.plan(): the engine's planner from JS. The committed best-known data were planned by
// the native build (scripts/best_known.c: the beam, then the proof); the
// WebAssembly planner must find the very same plans, and a plan must earn what it says
// when played.
import { describe, it, expect } from 'vitest';
import { envIds, make } from 'valley-farm';
import bestKnown from '../../wasm/data/best-known.json' with { type: 'json' };

// the generator proves a farm's plans where its data say so
const proves = (id) => bestKnown.planner.prove[id] === true;

describe.each(envIds)('%s env.plan()', (id) => {
  it('finds, in WebAssembly, the same plan the native generator stored for the first test seeds', async () => {
    const env = await make(id);
    for (const [seed, best, bound, stored] of bestKnown.envs[id].test.slice(0, 2)) {
      env.reset({ seed });
      const plan = env.plan({ width: bestKnown.planner.width[id], prove: proves(id) });
      expect(plan.actions.map((a) => a.toString(36)).join('')).toBe(stored);
      expect(plan.bestReturn).toBe(best);
      expect(plan.upperBound).toBe(bound);
      expect(plan.proven).toBe(best === bound);
    }
  });

  it('earns its bestReturn when played, never more than its bound, and leaves the env as it was', async () => {
    const env = await make(id);
    env.reset({ seed: 77 });
    env.step(0);
    const hash = env.stateHash();
    const plan = env.plan({ width: 200 });
    expect(env.stateHash()).toBe(hash);
    let ret = 0;
    for (const a of plan.actions) ret += env.step(a).reward;
    expect(ret).toBeCloseTo(plan.bestReturn, 10);
    expect(plan.bestReturn).toBeLessThanOrEqual(plan.upperBound);
  });
});

describe('env.plan() defaults', () => {
  it.each(envIds)('%s: without a width, plans with the width its published data were made with', async (id) => {
    const env = await make(id);
    const [seed, , , stored] = bestKnown.envs[id].validation[0];
    env.reset({ seed });
    expect(
      env
        .plan({ prove: proves(id) })
        .actions.map((a) => a.toString(36))
        .join(''),
    ).toBe(stored);
  });
});

describe('env.plan({ prove })', () => {
  // seeds where the beam falls short of the optimum
  it.each([
    ['ValleyFarm-v0', 6],
    ['BackwardsValleyFarm-v0', 5],
  ])('%s seed %i: proves a plan optimal, bettering the beam', async (id, seed) => {
    const env = await make(id);
    env.reset({ seed });
    const beam = env.plan();
    const proof = env.plan({ prove: true });
    expect(beam.proven).toBe(false);
    expect(proof.proven).toBe(true);
    expect(proof.upperBound).toBe(proof.bestReturn);
    expect(proof.bestReturn).toBeGreaterThan(beam.bestReturn);
    expect(proof.bestReturn).toBeLessThanOrEqual(beam.upperBound);
    let ret = 0;
    for (const a of proof.actions) ret += env.step(a).reward;
    expect(ret).toBeCloseTo(proof.bestReturn, 10);
  });

  it('with too small a table stops unproven, keeping the beam plan and the bound', async () => {
    const env = await make('ValleyFarm-v0');
    env.reset({ seed: 6 });
    const beam = env.plan();
    expect(env.plan({ prove: 1 })).toEqual(beam);
  });

  it('refuses a bad table size, saying what is allowed', async () => {
    const env = await make('ValleyFarm-v0');
    env.reset({ seed: 1 });
    for (const prove of [-1, 1.5, 2 ** 27, '10', null]) {
      expect(() => env.plan({ prove })).toThrow(
        /plan: prove .* is not allowed; it is true, false or a number of states from 1 to 67108864/,
      );
    }
  });
});

describe('env.plan() arguments', () => {
  it('refuses a width outside 1..65536 and says what is allowed', async () => {
    const env = await make('ValleyFarm-v0');
    env.reset({ seed: 1 });
    for (const width of [0, -1, 1.5, 70000, '10']) {
      expect(() => env.plan({ width })).toThrow(/plan: width .* is not allowed; it is an integer from 1 to 65536/);
    }
  });
});
