// A learner's settings have ranges that make sense and a memory estimate, and createLearner
// refuses what is out of range or would take more than the budget, before it allocates.
import { describe, expect, it } from 'vitest';
import { algorithms, createLearner, estimateMemory, MEMORY_BUDGET } from '../../wasm/learn/index.js';
import { ENGINE_ENV_ALLOWANCE } from '../../wasm/learn/settings.js';
import { allowed } from '../../wasm/learn/limits.js';
import { engineMemoryBytes, makeVec } from '../../wasm/index.js';
import { parse as parseTrain } from '../../wasm/cli/train.mjs';
import { referenceRuns } from '../../scripts/baselines.mjs';

const V = 'ValleyFarm-v0';
const B = 'BackwardsValleyFarm-v0';

describe('learner settings', () => {
  it('settings that make no sense are refused with what is allowed', async () => {
    const refused = [
      [{ gamma: 5 }, /ppo setting gamma must be a number from 0 to 1, got 5/],
      [{ lambda: -0.1 }, /lambda must be a number from 0 to 1, got -0.1/],
      [{ clip: 1e300 }, /clip must be a number above 0 and at most 1, got 1e\+300/],
      [{ clip: 0 }, /clip must be a number above 0 and at most 1, got 0/],
      [{ learningRate: 1e300 }, /learningRate must be a number above 0 and at most 1, got 1e\+300/],
      [{ entropyCoef: 2 }, /entropyCoef must be a number from 0 to 1/],
      [{ valueCoef: 1e9 }, /valueCoef must be a number from 0 to 10/],
      [{ numEnvs: 5000 }, /numEnvs must be a whole number from 1 to 1024, got 5000/],
      [{ nSteps: 1e7 }, /nSteps must be a whole number from 1 to 4096/],
      [{ minibatch: 0 }, /minibatch must be a whole number from 1 to 65536, got 0/],
      [{ hidden: 'abc' }, /hidden must be an array of at most 4 layer sizes, each a whole number from 1 to 512, got "abc"/],
      [{ hidden: Array(40).fill(4096) }, /hidden must be an array of at most 4 layer sizes/],
      [{ hidden: [64, 1e9] }, /hidden must be an array of at most 4 layer sizes/],
    ];
    for (const [settings, message] of refused) {
      await expect(createLearner({ env: V, algo: 'ppo', ...settings }), JSON.stringify(settings)).rejects.toThrow(message);
    }
    await expect(createLearner({ env: V, algo: 'tabular-q', gamma: 1.5 })).rejects.toThrow(
      /tabular-q setting gamma must be a number from 0 to 1/,
    );
    await expect(createLearner({ env: V, algo: 'tabular-q', epsilon: NaN })).rejects.toThrow(
      /epsilon must be a number from 0 to 1, got null/,
    );
  });

  it('every default is within its limit, and every setting has one', () => {
    for (const [algo, { defaults, limits }] of Object.entries(algorithms)) {
      expect(Object.keys(limits).sort(), algo).toEqual(Object.keys(defaults).sort());
      expect(() => estimateMemory(V, algo, defaults), algo).not.toThrow();
      for (const k of Object.keys(limits)) expect(allowed(limits[k]), `${algo} ${k}`).toMatch(/^a|^an/);
    }
  });

  it('a configuration whose memory estimate is above the budget is refused, naming both', async () => {
    expect(MEMORY_BUDGET).toBe(2 ** 30);
    const big = { numEnvs: 1024, history: 16, memory: 1 };
    expect(estimateMemory(V, 'ppo', big)).toBeGreaterThan(MEMORY_BUDGET);
    await expect(createLearner({ env: V, algo: 'ppo', ...big })).rejects.toThrow(
      /these ppo settings would take about 2\d{3} MB, more than the 1024 MB a learner may take/,
    );
    // the same network size cap a saved policy has
    await expect(
      createLearner({ env: V, algo: 'ppo', numEnvs: 1, nSteps: 1, history: 16, memory: 1, hidden: [512, 512, 512, 512] }),
    ).rejects.toThrow(/the network would have \d+ weights, more than the 4194304 allowed/);
  });

  it('the estimate grows with what a run keeps, and every committed reference run fits the budget', () => {
    const base = estimateMemory(V, 'ppo', { memory: 0, imitate: 0 });
    expect(base).toBeGreaterThan(1e6);
    const plain = { memory: 0, imitate: 0 };
    expect(estimateMemory(V, 'ppo', { ...plain, numEnvs: 128 })).toBeGreaterThan(base);
    expect(estimateMemory(V, 'ppo', { ...plain, history: 4 })).toBeGreaterThan(base);
    expect(estimateMemory(V, 'ppo', { ...plain, memory: 1 })).toBeGreaterThan(base);
    expect(estimateMemory(V, 'ppo', { ...plain, imitate: 6000 })).toBeGreaterThan(base);
    expect(estimateMemory(V, 'ppo', { ...plain, hidden: [256, 256] })).toBeGreaterThan(base);
    expect(() => estimateMemory(V, 'ppo', { gamma: 5 })).toThrow(/gamma must be a number from 0 to 1/);
    expect(() => estimateMemory('Nope', 'ppo', {})).toThrow(/unknown env "Nope"/);
    for (const run of referenceRuns()) {
      const o = parseTrain(run.command.split(' ').slice(3));
      expect(estimateMemory(o.env, o.algo, o.settings), run.command).toBeLessThan(MEMORY_BUDGET);
    }
  });

  it("the estimate's allowance for one env's engine state is at least what the engine takes", async () => {
    // a fresh engine (vitest runs each file in its own worker): a vec of n envs grows its
    // memory by its parts, each env's state among them
    const n = 4096;
    const before = await engineMemoryBytes();
    const vec = await makeVec(B, n);
    const grown = (await engineMemoryBytes()) - before;
    expect(grown).toBeGreaterThan(0);
    expect(grown).toBeLessThan(n * ENGINE_ENV_ALLOWANCE);
    vec.close();
  });
});
