// Numbers a caller passes are bounded before they cost anything: batchAgents' count, the
// command line's numeric flags, and a log that would overwrite the policy. Each refusal says
// what was wrong and what is allowed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BATCH_AGENTS_MAX, batchAgents } from '../../wasm/agents/index.js';
import { actionSpace, engineMemoryBytes, flatten, make, observationSpace } from '../../wasm/index.js';
import { splitOf } from '../../wasm/splits.js';
import { createLearner } from '../../wasm/learn/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const V = 'ValleyFarm-v0';
const cli = (...args) => spawnSync(process.execPath, [`${root}wasm/cli/index.mjs`, ...args], { encoding: 'utf8', cwd: root });

describe('batchAgents', () => {
  it('takes a whole number of agents from 1 to BATCH_AGENTS_MAX, and refuses anything else before making one', () => {
    expect(BATCH_AGENTS_MAX).toBe(4096);
    for (const n of [0, -1, 1.5, 1e5, 1e7, NaN, '4', 2 ** 53]) {
      expect(() => batchAgents('heuristic', V, n), String(n)).toThrow(
        /batchAgents: numEnvs .* is not allowed; it is a whole number from 1 to 4096/,
      );
    }
    expect(() => batchAgents('nope', V, 1e7)).toThrow(/No built-in agent 'nope'/);
    expect(batchAgents('random', V, 3).agents).toHaveLength(3);
  });
});

describe('the command line bounds its numbers', () => {
  it('eval --episodes beyond the split is a clear error (exit 2), not a raw RangeError', () => {
    const r = cli('eval', 'random', '--env', V, '--episodes', '1e9');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--episodes must be a whole number from 1 to 1000 \(the test split's seeds\), got 1e9/);
    expect(r.stderr).not.toMatch(/RangeError|at /);
    expect(cli('eval', 'random', '--env', V, '--split', 'validation', '--episodes', '201').stderr).toMatch(
      /from 1 to 200 \(the validation split's seeds\)/,
    );
  });

  it("train refuses a huge network by the learner's checks, before Node can run out of memory", () => {
    const r = cli('train', '--env', V, '--algo', 'ppo', '--hidden', Array(40).fill(4096).join(','));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/ppo setting hidden must be an array of 1 to 4 layer sizes, each a whole number from 1 to 512/);
    const wide = cli('train', '--env', V, '--algo', 'ppo', '--num-envs', '1024', '--history', '16', '--memory', '1');
    expect(wide.status).toBe(2);
    expect(wide.stderr).toMatch(/would take about \d+ MB, more than the 1024 MB a learner may take/);
  });

  it('train refuses numbers out of range and a --log that is the --out file', () => {
    expect(cli('train', '--env', V, '--steps', '1e15').stderr).toMatch(/--steps must be a whole number from 1 to 1000000000000/);
    expect(cli('train', '--env', V, '--eval-episodes', '5000').stderr).toMatch(/--eval-episodes must be a whole number from 1 to 200/);
    expect(cli('train', '--env', V, '--seed', '-1').stderr).toMatch(/--seed must be a non-negative whole number, got -1/);
    expect(cli('train', '--env', V, '--seed', '1e12').stderr).toMatch(/seed must be an integer from 0 to 2\^31/);
    const dir = mkdtempSync(join(tmpdir(), 'vf-cli-'));
    try {
      const out = join(dir, 'p.json');
      const r = cli('train', '--env', V, '--steps', '100', '--out', out, '--log', `${dir}/./p.json`);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/--log and --out name the same file .*give them different names/);
      expect(existsSync(out)).toBe(false);
      // different names: both are written, the policy as JSON
      const ok = cli('train', '--env', V, '--steps', '100', '--out', out, '--log', join(dir, 'c.csv'), '--eval-episodes', '2');
      expect(ok.status).toBe(0);
      expect(JSON.parse(readFileSync(out, 'utf8')).format).toBe('valley-farm-policy');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the API refuses what it cannot do with the real reason', () => {
  it('plan sizes are computed unsigned: a table too big for a plan is refused as such, and nothing is allocated', async () => {
    const env = await make(V);
    env.reset({ seed: 1 });
    const before = await engineMemoryBytes();
    // 2^26 states need about 3 GiB: the engine's 32-bit size came back negative, refused as "bad argument to a batch call"
    expect(() => env.plan({ prove: 2 ** 26 })).toThrow(
      /plan: prove 67108864 needs 3\d{3} MB of engine memory, more than the 1024 MB a plan may take/,
    );
    expect(() => env.plan({ prove: 2 ** 25 })).toThrow(/plan: prove 33554432 needs 15\d\d MB of engine memory/);
    expect(() => env.plan({ width: 65536 })).toThrow(/plan: width 65536 needs 20\d\d MB of engine memory, .*never shrinks/);
    expect(await engineMemoryBytes()).toBe(before);
    expect(env.plan({ width: 2 }).actions.length).toBeGreaterThan(0);
    env.close();
  });

  it('sample() with a generator that returns 1 gives a valid value; one outside [0, 1] is a clear error', () => {
    const actions = actionSpace(V);
    expect(actions.sample(() => 1)).toBe(actions.n - 1);
    expect(actions.contains(actions.sample(() => 1))).toBe(true);
    const obs = observationSpace(V);
    expect(obs.contains(obs.sample(() => 1))).toBe(true);
    for (const bad of [() => 2, () => -0.5, () => NaN, () => '0.5']) {
      expect(() => actions.sample(bad)).toThrow(/sample\(\): the function returned .*; it must return numbers in \[0, 1\)/);
    }
  });

  it('flatten into a buffer of the wrong size or type is a clear error, not a silent truncation', async () => {
    const env = await make(V);
    const { observation } = env.reset({ seed: 1 });
    expect(() => flatten(V, observation, new Int32Array(3))).toThrow(
      /out must be an Int32Array of ValleyFarm-v0's 37 values, got a Int32Array of 3/,
    );
    expect(() => flatten(V, observation, new Float32Array(37))).toThrow(/out must be an Int32Array/);
    expect(flatten(V, observation, new Int32Array(37))).toEqual(flatten(V, observation));
    env.close();
  });

  it('splitOf takes only a seed', () => {
    for (const bad of [-1, '5', 2n ** 80n, 1.5, null, -1n]) {
      expect(() => splitOf(bad), String(bad)).toThrow(
        /splitOf takes a seed \(an integer from 0 to 2\^53 - 1, or a BigInt from 0n to 2\^64 - 1\), got/,
      );
    }
    expect([splitOf(5), splitOf(1_000_000), splitOf(2_000_000n)]).toEqual(['train', 'test', 'validation']);
  });

  it('hidden: "abc" is a clear error', async () => {
    await expect(createLearner({ env: V, algo: 'ppo', hidden: 'abc' })).rejects.toThrow(
      /setting hidden must be an array of 1 to 4 layer sizes/,
    );
  });
});
