// REINFORCE with a baseline (wasm/learn/reinforce.js): its returns and its loss's gradient at
// the network's outputs against hand computations, short seeded runs that must beat random
// play on both farms, the same weights on any number of threads, and bad settings refused.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createLearner, loadPolicy } from '../../wasm/learn/index.js';
import { discountedReturns, lossGradient } from '../../wasm/learn/reinforce.js';
import { evaluate } from '../../wasm/evaluate.js';
import { readFileSync } from 'node:fs';

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

describe('REINFORCE parts', () => {
  it('returns are the discounted rewards to the episode end, and a cut episode is completed by the baseline', () => {
    // two envs, three steps, step-major; env 0's episode ends at step 1; γ = 0.5; baselines after: 4, 8
    const rewards = Float32Array.of(1, 0, 2, 0, 3, 1);
    const dones = Uint8Array.of(0, 0, 1, 0, 0, 0);
    const g = discountedReturns(rewards, dones, [4, 8], 2, 0.5);
    // env 0: t=2: 3 + 0.5·4 = 5; t=1: 2 (done); t=0: 1 + 0.5·2 = 2
    // env 1: t=2: 1 + 0.5·8 = 5; t=1: 0 + 2.5 = 2.5; t=0: 0 + 1.25 = 1.25
    expect(Array.from(g)).toEqual([2, 1.25, 2, 2.5, 5, 5]);
  });

  it("the loss's gradient at the outputs matches a hand computation", () => {
    // one sample, three actions (the third illegal), π = (¼, ¾, 0), action 1 taken, advantage 2,
    // value 1 against a return of 3, entropyCoef 0.1, valueCoef 0.5, scale 1
    const logp = Float32Array.of(Math.log(0.25), Math.log(0.75), -Infinity);
    const p = Float32Array.of(0.25, 0.75, 0);
    const h = -(0.25 * Math.log(0.25) + 0.75 * Math.log(0.75));
    const out = Float32Array.of(0, 0, 0, 1);
    const dout = new Float32Array(4);
    const sums = new Float64Array(4);
    lossGradient(
      out,
      { logp, p, entropy: Float32Array.of(h) },
      dout,
      1,
      [0],
      { A: 3, actions: [1], advantages: [2], returns: [3] },
      { entropyCoef: 0.1, valueCoef: 0.5 },
      1,
      sums,
    );
    // −A ([a = act] − π(a)): 0.5, −0.5; entropy: 0.1 π (log π + H); value: 2 · 0.5 · (1 − 3) = −2
    const near = (x) => expect.closeTo(x, 6);
    expect(Array.from(dout)).toEqual([0.5 + 0.1 * 0.25 * (Math.log(0.25) + h), -0.5 + 0.1 * 0.75 * (Math.log(0.75) + h), 0, -2].map(near));
    expect(Array.from(sums)).toEqual([1, -2 * Math.log(0.75), 4, h].map(near));
  });
});

describe('REINFORCE learns', () => {
  for (const [env, steps, margin] of [
    [V, 150_000, 2],
    [B, 200_000, 8],
  ])
    it(`${env}: a short seeded run plays far better than random on the validation seeds`, async () => {
      const learner = await createLearner({ env, algo: 'reinforce', seed: 1, threads: 2 });
      await learner.trainFor(steps);
      const r = await evaluate(learner.policy(), { env, split: 'validation', episodes: 100 });
      learner.dispose();
      expect(r.mean).toBeGreaterThan(random(env) + margin);
    }, 180_000);

  it('a seeded run trains to the same weights on 1 and 3 threads, and its policy reloads and plays as it does', async () => {
    const hashes = [];
    let json;
    for (const threads of [1, 3]) {
      const learner = await createLearner({ env: B, algo: 'reinforce', seed: 4, numEnvs: 12, minibatch: 100, threads });
      await learner.trainFor(12 * 40 * 3);
      hashes.push(hashOf(learner.policy()));
      json = JSON.parse(JSON.stringify(learner.policy().toJSON()));
      learner.dispose();
    }
    expect(hashes[1]).toBe(hashes[0]);
    expect(json.algo).toBe('reinforce');
    const policy = await loadPolicy(json);
    expect(hashOf(policy)).toBe(hashes[0]);
    policy.dispose();
  }, 120_000);

  it('bad settings are refused with what is allowed', async () => {
    for (const [settings, message] of [
      [{ learningRate: 0 }, /reinforce setting learningRate must be a number above 0 and at most 1, got 0/],
      [{ learningRate: NaN }, /learningRate must be a number above 0 and at most 1, got null/],
      [{ numEnvs: 0 }, /numEnvs must be a whole number from 1 to 1024, got 0/],
      [{ gamma: -0.1 }, /gamma must be a number from 0 to 1, got -0.1/],
      [{ minibatch: 2.5 }, /minibatch must be a whole number from 1 to 65536, got 2.5/],
      [{ hidden: [0] }, /hidden must be an array of 1 to 4 layer sizes/],
      [{ clip: 0.2 }, /reinforce has no setting 'clip'/],
    ])
      await expect(createLearner({ env: V, algo: 'reinforce', ...settings }), JSON.stringify(settings)).rejects.toThrow(message);
  });
});
