// DQN (wasm/learn/dqn.js): its Huber gradient, masked maximum and ε schedule against hand
// computations, short seeded runs that must beat random play on both farms, the same weights
// on any number of threads (its replay memories included, written over many times), and bad
// settings refused.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createLearner, loadPolicy } from '../../wasm/learn/index.js';
import { bestLegal, epsilonAt, lossGradient } from '../../wasm/learn/dqn.js';
import { evaluate } from '../../wasm/evaluate.js';
import { make } from '../../wasm/index.js';

const V = 'ValleyFarm-v0';
const B = 'BackwardsValleyFarm-v0';
// random play's mean return on the test split (wasm/data/baselines.json); the validation split's is alike
const { table } = JSON.parse(readFileSync(new URL('../../wasm/data/baselines.json', import.meta.url), 'utf8'));
const random = (env) => table[env].find((row) => row.agent === 'random').mean;
const hashOf = (policy) => {
  const hash = createHash('sha256');
  for (const w of policy.toJSON().weights) hash.update(new Uint8Array(new Float32Array(w.values).buffer));
  return hash.digest('hex');
};

describe('DQN parts', () => {
  it('the Huber gradient is the error within 1 of the target and ±1 beyond it, on the taken action only', () => {
    const q = Float32Array.of(5, 1, 2, /* sample 1 */ 0, 0, -4);
    const dout = new Float32Array(6).fill(9);
    const sums = new Float64Array(3);
    lossGradient(q, dout, 2, [1, 2], [1.5, 0], 3, 0.5, sums);
    // sample 0: Q 1 against 1.5: d −0.5, loss ½ · 0.25; sample 1: Q −4 against 0: d −4, slope −1, loss 3.5
    expect(Array.from(dout)).toEqual([0, -0.25, 0, 0, 0, -0.5]);
    expect(Array.from(sums)).toEqual([2, 0.125 + 3.5, 1 - 4]);
  });

  it('the best action is the best legal one (an illegal action never wins, however high)', () => {
    expect(bestLegal([9, 1, 3], 0, [0, 1, 1], 0, 3)).toBe(2);
    expect(bestLegal([0, 0, 7, 1, 8, 2], 3, [1, 1, 1, 1, 0, 1], 3, 3)).toBe(2); // row 1: 1, (8 illegal), 2
    expect(bestLegal([1, 2], 0, [0, 0], 0, 2)).toBe(-1);
  });

  it('ε falls in a straight line from epsilon to epsilonEnd over epsilonSteps, then stays', () => {
    const c = { epsilon: 1, epsilonEnd: 0.1, epsilonSteps: 1000 };
    expect([0, 500, 1000, 5000].map((s) => epsilonAt(c, s))).toEqual([1, 0.55, 0.1, 0.1].map((x) => expect.closeTo(x, 12)));
  });
});

describe('DQN learns', () => {
  const quick = { learningStarts: 5000, epsilonSteps: 50_000, targetEvery: 10_000 };
  for (const [env, steps, margin] of [
    [V, 100_000, 2],
    [B, 150_000, 8],
  ])
    it(`${env}: a short seeded run plays far better than random on the validation seeds, and only legal actions`, async () => {
      const learner = await createLearner({ env, algo: 'dqn', seed: 1, threads: 2, ...quick });
      await learner.trainFor(steps);
      const r = await evaluate(learner.policy(), { env, split: 'validation', episodes: 100 });
      expect(r.mean).toBeGreaterThan(random(env) + margin);
      const e = await make(env);
      let { observation, info } = e.reset({ seed: 3 });
      for (let t = 0; t < 30; t++) {
        const legal = e.legalActions();
        const a = learner.policy().act(observation, { ...info, legal });
        expect(legal[a], `step ${t}`).toBe(1);
        ({ observation, info } = e.step(a));
      }
      e.close();
      learner.dispose();
    }, 240_000);

  it('a seeded run trains to the same weights on 1 and 3 threads, its small replay memories written over many times', async () => {
    const hashes = [];
    let json;
    for (const threads of [1, 3]) {
      const learner = await createLearner({
        env: B,
        algo: 'dqn',
        seed: 4,
        numEnvs: 12,
        bufferSize: 600, // 50 steps of 12 envs: the memories wrap every 50 steps
        batchSize: 60,
        learningStarts: 240,
        trainEvery: 24,
        targetEvery: 480,
        threads,
      });
      await learner.trainFor(12 * 200);
      hashes.push(hashOf(learner.policy()));
      json = JSON.parse(JSON.stringify(learner.policy().toJSON()));
      learner.dispose();
    }
    expect(hashes[1]).toBe(hashes[0]);
    const policy = await loadPolicy(json);
    expect([policy.algo, hashOf(policy)]).toEqual(['dqn', hashes[0]]);
    policy.dispose();
  }, 120_000);

  it('bad settings are refused with what is allowed', async () => {
    for (const [settings, message] of [
      [{ learningRate: 0 }, /dqn setting learningRate must be a number above 0 and at most 1, got 0/],
      [{ batchSize: 0 }, /batchSize must be a whole number from 1 to 65536, got 0/],
      [{ bufferSize: -5 }, /bufferSize must be a whole number from 1 to 4000000, got -5/],
      [{ epsilon: 1.5 }, /epsilon must be a number from 0 to 1, got 1.5/],
      [{ gamma: NaN }, /gamma must be a number from 0 to 1, got null/],
      [{ trainEvery: 0.5 }, /trainEvery must be a whole number from 1 to 1000000000, got 0.5/],
      [{ hidden: [] }, /dqn setting hidden must be an array of 1 to 4 layer sizes/], // no hidden layer: the core needs one
    ])
      await expect(createLearner({ env: V, algo: 'dqn', ...settings }), JSON.stringify(settings)).rejects.toThrow(message);
  });
});
