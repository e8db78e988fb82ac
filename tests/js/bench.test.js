// `npm run bench` is a benchmark; these tests pin what it prints (a quick run), because people
// compare its JSON lines across machines and commits: every path of every env, the ratios, the
// targets and the machine, in a shape that stays put. They also check its verdicts where they
// are honest on a busy machine: each ratio target (two paths in alternating slices, so load
// slows both alike) must not be below its goal beyond the noise (the upper quartile of its
// pairs, raised by the noise line's slack, below the goal). The absolute targets (steps/s) move
// with the machine's load and are never checked.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { envIds } from '../../wasm/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bench = (...args) =>
  execFileSync(process.execPath, ['tests/bench/bench.mjs', '--quick', ...args], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });

// Every measurement the bench reports, per env.
const PATHS = [
  ['native', 1],
  ['native', 1024],
  ['wasm', 1024],
  ['vec', 1],
  ['vec', 64],
  ['vec', 1024],
  ['single', 1],
];

describe('npm run bench -- --json', () => {
  const lines = bench('--json')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));

  it.each(envIds)('%s: one line per path, with a median inside its min and max', (env) => {
    for (const [path, envs] of PATHS) {
      const found = lines.filter((l) => l.env === env && l.path === path && l.envs === envs);
      expect(found, `${path} ${envs}`).toHaveLength(1);
      const { stepsPerSec, min, max, repeats } = found[0];
      expect(Number.isFinite(stepsPerSec) && stepsPerSec > 0).toBe(true);
      expect(min).toBeLessThanOrEqual(stepsPerSec);
      expect(stepsPerSec).toBeLessThanOrEqual(max);
      expect(repeats).toBe(3);
    }
  });

  it.each(envIds)('%s: each ratio is a median of alternating pairs inside its interquartile range, beside a noise line', (env) => {
    const ratio = lines.find((l) => l.env === env && l.path === 'ratio');
    for (const key of ['wasmOverNative', 'vec1024OverNative']) {
      const [q1, q3] = ratio[`${key}Iqr`];
      expect(q1).toBeLessThanOrEqual(ratio[key]);
      expect(ratio[key]).toBeLessThanOrEqual(q3);
      expect(ratio[key]).toBeGreaterThan(0);
    }
    expect(ratio.pairs).toBe(6);
    const noise = lines.find((l) => l.env === env && l.path === 'noise');
    expect(noise.of).toBe('native 1024 / native 1024');
    expect(noise.iqr[0]).toBeLessThanOrEqual(noise.median);
  });

  it.each(envIds)('%s: each of the three targets is a ratio that says its goal and whether the value reaches it', (env) => {
    const targets = lines.filter((l) => l.env === env && l.path === 'target');
    const single = { 'ValleyFarm-v0': 6e6, 'BackwardsValleyFarm-v0': 5e6 }[env];
    expect(targets.map((t) => [t.target, t.checked])).toEqual([
      ['wasm / native (1024)', true],
      ['vec 1024 / native (1024)', true],
      ['single / native (1)', true],
    ]);
    expect(targets.map((t) => t.goal)).toEqual([0.8, 0.6, expect.any(Number)]);
    for (const t of targets) expect(t.met).toBe(t.value >= t.goal);
    const ratio = lines.find((l) => l.env === env && l.path === 'ratio');
    // the alternating median, rounded down to the 3 decimals shown
    for (const [t, key] of [
      [targets[0], 'wasmOverNative'],
      [targets[1], 'vec1024OverNative'],
      [targets[2], 'singleOverNative1'],
    ]) {
      expect(t.value).toBeLessThanOrEqual(ratio[key]);
      expect(ratio[key] - t.value).toBeLessThan(0.001);
    }
    // on the reference core, steps/s over the ratio is that core's native loop, as the goal's are
    // (the ratio goal is shown rounded to 3 decimals, hence within 0.5 %)
    const { stepsPerSec, goal } = targets[2].onReferenceCore;
    expect(goal).toBe(single);
    expect(Math.abs(stepsPerSec / targets[2].value / (goal / targets[2].goal) - 1)).toBeLessThan(0.005);
  });

  it.each(envIds)("%s: no ratio target is below its goal beyond the noise (its pairs' upper quartile under the goal)", (env) => {
    const ratio = lines.find((l) => l.env === env && l.path === 'ratio');
    for (const t of lines.filter((l) => l.env === env && l.path === 'target' && l.checked)) {
      const key = {
        'wasm / native (1024)': 'wasmOverNative',
        'vec 1024 / native (1024)': 'vec1024OverNative',
        'single / native (1)': 'singleOverNative1',
      }[t.target];
      const [, q3] = ratio[`${key}Iqr`];
      expect(t.belowNoise).toBe(q3 < t.goal);
      expect(q3, `${env}: ${t.target} = ${ratio[key]} (IQR up to ${q3}), goal ${t.goal}: a speed regression`).toBeGreaterThanOrEqual(
        t.goal,
      );
    }
  });

  it('ends with the machine, the CPU both sides were pinned to, and the size of the module it measured', () => {
    const machine = lines.at(-1);
    expect(machine.path).toBe('machine');
    // Linux with taskset (this machine kind): one CPU, so a ratio never compares two cores
    if (process.platform === 'linux' && spawnSync('taskset', ['-V']).status === 0) {
      expect(machine.pinnedCpu).toBeGreaterThanOrEqual(0);
      expect(machine.pinnedCpu).toBeLessThan(machine.cores);
    }
    expect(machine.cores).toBeGreaterThan(0);
    expect(machine.wasmBytes).toBe(statSync(`${root}wasm/valley_farm.wasm`).size);
  });
});

// each runs a quick bench: seconds on a quiet machine, minutes on a loaded one
it('npm run bench prints the table, the ratios and the targets', { timeout: 900_000 }, () => {
  const out = bench();
  expect(out).toContain('| env | path | envs | steps/s (median) | min – max |');
  for (const env of envIds) {
    for (const [path, envs] of PATHS) expect(out).toMatch(new RegExp(`\\| ${env} \\| ${path} \\| ${envs} \\| [\\d.]+ [Mk] \\|`));
    expect(out).toMatch(new RegExp(`${env}: wasm / native \\(1024\\) = \\d+\\.\\d\\d \\(IQR \\d+\\.\\d\\d – \\d+\\.\\d\\d`));
    expect(out).toMatch(new RegExp(`noise floor, ${env}: native 1024 / native 1024 = \\d+\\.\\d{3}`));
    expect(out.match(new RegExp(`(met    |NOT MET)  ${env}: `, 'g'))).toHaveLength(3);
  }
});

it('the native bench refuses a bad env or budget with a message and status 2', () => {
  for (const line of ['CartPole-v1 1024 1000\n', 'ValleyFarm-v0 1024 0\n', 'ValleyFarm-v0 7 1000\n']) {
    const r = spawnSync(`${root}build/valley-farm-bench`, ['--serve'], { input: line, encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/expected ENV ENVS STEPS/);
  }
  const ok = spawnSync(`${root}build/valley-farm-bench`, ['--serve'], { input: 'BackwardsValleyFarm-v0 1 5000\n', encoding: 'utf8' });
  expect(JSON.parse(ok.stdout)).toMatchObject({ env: 'BackwardsValleyFarm-v0', envs: 1, steps: 5000 });
});

it('--compare reports each ratio against an earlier run', { timeout: 900_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'vf-bench-'));
  const file = join(dir, 'before.json');
  writeFileSync(file, bench('--json'));
  const out = bench('--compare', file);
  for (const env of envIds)
    expect(out).toMatch(
      new RegExp(
        `vs .*before.json, ${env} wasmOverNative: [\\d.]+ -> [\\d.]+, -?[\\d.]+ % \\(interval -?[\\d.]+ … -?[\\d.]+ %\\): (a change|no change beyond the noise)`,
      ),
    );
});
