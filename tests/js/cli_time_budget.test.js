// `valley-farm train --max-seconds S`: a time budget (the benchmark's "10 minutes on the 2-core
// machine kind"). The run stops at the first report after S seconds, validates, and writes its
// policy and curve as a run that reached --steps does, with the stop recorded.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'vf-time-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cli = (...args) => spawnSync(process.execPath, [`${root}wasm/cli/index.mjs`, ...args], { encoding: 'utf8', cwd: dir });

describe('train --max-seconds', () => {
  it('stops a run of a billion steps after the time, validated, with the policy and curve written and the stop recorded', () => {
    const r = cli(
      'train',
      '--env',
      'ValleyFarm-v0',
      '--algo',
      'tabular-q',
      '--steps',
      '1e9',
      '--eval-every',
      '1e9',
      '--eval-episodes',
      '5',
      '--max-seconds',
      '1.5',
      '--out',
      'p.json',
      '--log',
      'c.csv',
    );
    expect(r.status, r.stderr).toBe(0);
    const { run } = JSON.parse(readFileSync(join(dir, 'p.json'), 'utf8'));
    expect(run.stoppedBy).toBe('max-seconds');
    expect(run.steps).toBeGreaterThan(0);
    expect(run.steps).toBeLessThan(1e9);
    expect(run.seconds).toBeGreaterThanOrEqual(1.5);
    const rows = readFileSync(join(dir, 'c.csv'), 'utf8').trim().split('\n');
    const last = rows.at(-1).split(',');
    expect(Number(last[0])).toBe(run.steps);
    expect(last.at(-2)).not.toBe(''); // the final validation's mean (--eval-every alone would never have come)
  });

  it('a run that reaches --steps first is not marked as stopped', () => {
    const r = cli(
      'train',
      '--env',
      'ValleyFarm-v0',
      '--steps',
      '20000',
      '--max-seconds',
      '3600',
      '--eval-episodes',
      '5',
      '--out',
      'q.json',
    );
    expect(r.status, r.stderr).toBe(0);
    const { run } = JSON.parse(readFileSync(join(dir, 'q.json'), 'utf8'));
    expect(run.steps).toBe(20000);
    expect(run.stoppedBy).toBeUndefined();
  });

  it('refuses a time that is not a positive number of seconds up to a year, saying what is allowed', () => {
    for (const bad of ['0', '-5', 'ten', '1e9']) {
      const r = cli('train', '--env', 'ValleyFarm-v0', '--max-seconds', bad, '--out', 'x.json');
      expect(r.status, bad).toBe(2);
      expect(r.stderr, bad).toMatch(/--max-seconds must be a number of seconds above 0, at most a year/);
    }
  });
});
