// `valley-farm eval --runs`: several saved policies of one learner on one farm, scored on the
// test split and summed up over runs. Checked against the fixture's results file, which
// `npm run results` wrote for the same policies (each run's test score), and the aggregates
// against valley-farm/evaluate's on those scores.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { aggregateIqm, optimalityGap } from '../../wasm/evaluate.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURE = join(root, 'tests/js/fixtures/results/fixture');
const dir = mkdtempSync(join(tmpdir(), 'vf-eval-runs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cli = (...args) => spawnSync(process.execPath, [join(root, 'wasm/cli/index.mjs'), 'eval', ...args], { encoding: 'utf8', cwd: dir });

/** The fixture's policies of a results file, unzipped into the temporary folder: [file names]. */
function policies(name) {
  const results = JSON.parse(readFileSync(join(FIXTURE, `${name}.json`), 'utf8'));
  return {
    results,
    files: results.runs.map((run) => {
      const file = `${name}-seed-${run.seed}.json`;
      writeFileSync(join(dir, file), gunzipSync(readFileSync(join(FIXTURE, run.policy.file))));
      return file;
    }),
  };
}

describe('eval --runs', () => {
  const { results, files } = policies('tabular-q-ValleyFarm-v0-tiny');

  it('scores each run as npm run results did and aggregates their normalised scores (IQM, optimality gap with intervals)', () => {
    const r = cli('--runs', ...files, '--env', 'ValleyFarm-v0', '--json');
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.learner).toBe('tabular-q');
    expect(out.runs.map((x) => x.seed)).toEqual(results.runs.map((x) => x.seed));
    out.runs.forEach((x, i) => {
      expect(x.normalized).toBeCloseTo(results.runs[i].test.normalized, 4);
      expect(x.mean).toBeCloseTo(results.runs[i].test.mean, 3);
    });
    const scores = out.runs.map((x) => x.normalized);
    expect(out.aggregates.runs).toBe(3);
    expect(out.aggregates.iqm.estimate).toBeCloseTo(aggregateIqm(scores), 12);
    expect(out.aggregates.optimalityGap.estimate).toBeCloseTo(optimalityGap(scores), 12);
    expect(out.aggregates.iqm.low).toBeLessThanOrEqual(out.aggregates.iqm.estimate);
    expect(out.aggregates.iqm.high).toBeGreaterThanOrEqual(out.aggregates.iqm.estimate);
  });

  it('prints a table of the runs and one of the aggregates', () => {
    const r = cli('--runs', ...files, '--env', 'ValleyFarm-v0');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^3 runs of tabular-q on ValleyFarm-v0, test split/);
    expect(r.stdout).toMatch(/\| IQM \| [\d.]+ \| [\d.]+ – [\d.]+ \|/);
    expect(r.stdout).toMatch(/\| optimality gap \| /);
  });

  it('refuses runs of two learners, a policy of another farm, --seeds and a built-in agent, saying why', () => {
    const ppo = policies('ppo-hidden-8,8-imitate-0-n-steps-64-num-envs-8-workers-1-ValleyFarm-v0-tiny').files[0];
    const backwards = policies('tabular-q-BackwardsValleyFarm-v0-tiny').files[0];
    const cases = [
      [['--runs', files[0], ppo, '--env', 'ValleyFarm-v0'], /the policies are of tabular-q and ppo; --runs sums up runs of one learner/],
      [['--runs', files[0], backwards, '--env', 'ValleyFarm-v0'], /is a policy for BackwardsValleyFarm-v0, not ValleyFarm-v0/],
      [['--runs', ...files, '--env', 'ValleyFarm-v0', '--seeds', '1..5'], /--runs scores runs on a split \(test or validation\)/],
      [['--runs', 'heuristic', '--env', 'ValleyFarm-v0'], /--runs takes saved policies \(\.json\), one per training run/],
    ];
    for (const [args, message] of cases) {
      const r = cli(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });
});
