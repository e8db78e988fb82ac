// The evaluation protocol: named splits that default training never reaches, the
// statistics and the normalised score against hand computations, evaluate() on single and
// batched agents, and the command line.
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { batchAgents, createAgent } from '../../wasm/agents/index.js';
import { evaluate, normalizedScore, summarize } from '../../wasm/evaluate.js';
import { FRESH_SEED_MAX, FRESH_SEED_MIN } from '../../wasm/index.js';
import { SPLITS, splitOf, splitSeeds } from '../../wasm/splits.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const V = 'ValleyFarm-v0';
const B = 'BackwardsValleyFarm-v0';

describe('seed splits', () => {
  it('test has 1,000 seeds, validation 200, the two disjoint, and fresh seeds lie above both', () => {
    expect(splitSeeds('test')).toHaveLength(1000);
    expect(splitSeeds('validation')).toHaveLength(200);
    expect(SPLITS.test.last).toBeLessThan(SPLITS.validation.first);
    expect(FRESH_SEED_MIN).toBeGreaterThan(SPLITS.validation.last);
    expect(FRESH_SEED_MAX + 2 ** 40).toBeLessThanOrEqual(2 ** 53); // autoreset seeds of 2^40 episodes
    expect([splitOf(1_000_000), splitOf(1_000_999), splitOf(2_000_199), splitOf(999_999), splitOf(2 ** 40)]).toEqual([
      'test',
      'test',
      'validation',
      'train',
      'train',
    ]);
    expect(() => splitSeeds('train')).toThrow(/the splits are test, validation/);
  });
});

describe('statistics', () => {
  it('mean, standard error and 95 % interval match a hand computation', () => {
    // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sample variance 32 / 7, stderr sqrt(32/7/8) = 0.7559
    const s = summarize([2, 4, 4, 4, 5, 5, 7, 9]);
    expect(s.mean).toBe(5);
    expect(s.stderr).toBeCloseTo(0.755929, 5);
    expect(s.ci95[0]).toBeCloseTo(5 - 1.96 * 0.755929, 5);
    expect(summarize([3]).stderr).toBe(0);
  });

  it('the normalised score is 0 at random, 1 at best known, linear between, and 1/0 where there is no room', () => {
    expect(normalizedScore(2, 2, 12)).toBe(0);
    expect(normalizedScore(12, 2, 12)).toBe(1);
    expect(normalizedScore(7, 2, 12)).toBe(0.5);
    expect(normalizedScore(14, 2, 12)).toBe(1.2);
    expect(normalizedScore(0, 2, 12)).toBe(-0.2);
    expect(normalizedScore(3, 3, 3)).toBe(1);
    expect(normalizedScore(2, 3, 3)).toBe(0);
  });
});

describe('evaluate()', () => {
  it("a single agent's returns equal a hand-played loop on the same seeds", async () => {
    const r = await evaluate(createAgent('heuristic', B), { env: B, seeds: [5, 6, 7] });
    const { make } = await import('../../wasm/index.js');
    const env = await make(B);
    const expected = [];
    for (const seed of [5, 6, 7]) {
      const agent = createAgent('heuristic', B);
      agent.reset();
      let { observation, info } = env.reset({ seed });
      let total = 0;
      for (;;) {
        const s = env.step(agent.act(observation, { ...info, legal: env.legalActions() }));
        total += s.reward;
        if (s.terminated) break;
        ({ observation, info } = s);
      }
      expected.push(total);
    }
    expect(r.returns).toEqual(expected);
    expect(r.mean).toBeCloseTo(expected.reduce((a, b) => a + b) / 3, 9);
    expect(r.normalized).toBeUndefined(); // seeds 5..7 are no split: no reference data
  });

  it('a batched policy over a vector env gives the same returns as single agents', async () => {
    const seeds = splitSeeds('validation').slice(0, 20);
    const single = await evaluate(createAgent('heuristic', V), { env: V, seeds });
    const batched = await evaluate(batchAgents('heuristic', V, 7), { env: V, seeds, numEnvs: 7 });
    // the same returns (the vector env reports the engine's exact sum, the single loop a
    // floating-point running sum of the step rewards)
    batched.returns.forEach((r, i) => expect(r).toBeCloseTo(single.returns[i], 9));
  });

  it('on a split it reports the normalised score and the reference means', async () => {
    const r = await evaluate(createAgent('random', B, { seed: 1 }), { env: B, split: 'validation', episodes: 50 });
    expect(r.seeds[0]).toBe(2_000_000);
    expect(r.returns).toHaveLength(50);
    expect(r.normalized.perSeed).toHaveLength(50);
    expect(r.normalized.mean).toBeLessThan(0.3); // random play scores near 0
    expect(r.reference.bestKnown).toBeGreaterThan(r.reference.heuristic);
    expect(r.reference.heuristic).toBeGreaterThan(r.reference.random);
  });

  it('refuses bad options and bad actions with what is allowed', async () => {
    const agent = { act: () => 99 };
    await expect(evaluate(agent, { env: V, seeds: [1] })).rejects.toThrow(
      /on seed 1, step 0, act\(\) returned 99; it must return an integer 0 … 11/,
    );
    await expect(evaluate({}, { env: V })).rejects.toThrow(/takes an agent/);
    await expect(evaluate(agent, { env: 'nope' })).rejects.toThrow(/unknown env/);
    await expect(evaluate(agent, { env: V, split: 'test', seeds: [1] })).rejects.toThrow(/not both/);
    await expect(evaluate(agent, { env: V, seeds: [-1] })).rejects.toThrow(RangeError);
  });
});

describe('the command line', () => {
  const cli = (...args) => spawnSync(process.execPath, [`${root}wasm/cli/index.mjs`, ...args], { encoding: 'utf8', cwd: root });

  it('eval prints a table with the reference rows, and --json', () => {
    const table = cli('eval', 'heuristic', '--env', B, '--split', 'validation', '--episodes', '30');
    expect(table.status).toBe(0);
    expect(table.stdout).toMatch(/\| heuristic \| \d+\.\d\d \| \d+\.\d\d \| [\d.]+ – [\d.]+ \| -?\d+\.\d\d \|/);
    expect(table.stdout).toMatch(/\| \(best known\) \|/);
    const json = JSON.parse(
      execFileSync(process.execPath, [`${root}wasm/cli/index.mjs`, 'eval', 'random', '--env', V, '--episodes', '10', '--json'], {
        encoding: 'utf8',
      }),
    );
    expect(json.returns).toHaveLength(10);
    expect(json.split).toBe('test');
  });

  it('bad arguments get a clear message and exit status 2', () => {
    expect(cli('eval', 'heuristic', '--env', 'CartPole-v1').status).toBe(2);
    expect(cli('eval', 'heuristic', '--env', V, '--split', 'train').stderr).toMatch(/--split must be test or validation/);
    expect(cli('eval', 'missing-file.mjs', '--env', V).status).toBe(2);
    expect(cli('frobnicate').stderr).toMatch(/unknown command 'frobnicate'/);
  });
});
