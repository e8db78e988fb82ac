// The benchmark's results over training runs (docs/results, docs/benchmark.md): every file
// follows the format and claims no test-split tuning, its returns replay from its stored
// policy, its scores are its returns' against today's reference data, and the summary and
// the tables are what the files give. The same checks run on a small real results folder made
// by `npm run results` from tiny runs (tests/js/fixtures/results: tabular Q on both farms,
// seeds 1-3, and a small PPO on the valley, seeds 1-2, at a 4,096-step budget), so they
// assert something before the real runs exist; the last tests make runs with the script.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import {
  aggregateIqm,
  aggregateMean,
  evaluate,
  normalizedScore,
  optimalityGap,
  probabilityOfImprovement,
  summarize,
} from '../../wasm/evaluate.js';
import { loadPolicy } from '../../wasm/learn/index.js';
import { splitSeeds } from '../../wasm/splits.js';
import { RESULTS_DIR, budgetsOf, resultsFaults, schemaFaults } from '../../scripts/results/check.mjs';
import {
  benchmarkResultsTables,
  betweenMarkers,
  collectResults,
  readmeResultsTable,
  RUNS,
  summarizeResults,
} from '../../scripts/results/summary.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURE = join(root, 'tests/js/fixtures/results');
const read = (p) => readFileSync(join(root, p), 'utf8');
const baselines = JSON.parse(read('wasm/data/baselines.json'));
const best = JSON.parse(read('wasm/data/best-known.json'));
const tmp = mkdtempSync(join(tmpdir(), 'vf-results-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const fixtureFiles = collectResults(FIXTURE);
const committedFiles = collectResults();
const folders = [
  ['the fixture', FIXTURE, fixtureFiles],
  ['docs/results', RESULTS_DIR, committedFiles],
];
const runsOf = (files, dir) => files.flatMap(({ path, json }) => json.runs.map((run) => ({ path, json, run, dir })));

describe('the format', () => {
  it('the fixture folder holds what the tests below need: both farms, two learners, several seeds', () => {
    expect(fixtureFiles.map((f) => `${f.json.learner} ${f.json.env} ${f.json.runs.length}`).sort()).toEqual([
      'ppo ValleyFarm-v0 2',
      'tabular-q BackwardsValleyFarm-v0 3',
      'tabular-q ValleyFarm-v0 3',
    ]);
  });

  it.each(folders)('every results file of %s follows the schema and claims tuning on the validation seeds only', (_, dir, files) => {
    for (const { path, json } of files) {
      expect(resultsFaults(json, path, budgetsOf(dir)), path).toEqual([]);
      expect(json.tuning, path).toBe('validation');
      for (const run of json.runs) expect(run.command, path).not.toMatch(/--split\s+test|--seeds/);
    }
  });

  const { json: good, path } = fixtureFiles.find((f) => f.json.learner === 'tabular-q' && f.json.env === 'ValleyFarm-v0');
  const tiny = budgetsOf(FIXTURE);
  const broken = (edit) => {
    const copy = structuredClone(good);
    edit(copy);
    return resultsFaults(copy, path, tiny).join('\n');
  };

  it('a file that claims tuning on the test split, or trained with test seeds, is refused', () => {
    expect(broken((j) => (j.tuning = 'test'))).toMatch(/\(file\)\.tuning: is "test", must be "validation"/);
    expect(broken((j) => (j.runs[0].command += ' --split test'))).toMatch(
      /plays test seeds while training; tuning uses validation seeds only/,
    );
    expect(broken((j) => (j.runs[0].validation.split = 'test'))).toMatch(/validation\.split: is "test", must be "validation"/);
  });

  it('each fault is named with where it is and what is allowed', () => {
    expect(broken((j) => delete j.runs[1].test)).toMatch(/\(file\)\.runs\[1\]: lacks "test"/);
    expect(broken((j) => (j.runs[0].steps = 'many'))).toMatch(/runs\[0\]\.steps: is a string, must be integer/);
    expect(broken((j) => (j.runs[0].seconds = NaN))).toMatch(/runs\[0\]\.seconds: is not a finite number, must be number/);
    expect(broken((j) => (j.runs[0].extra = 1))).toMatch(/runs\[0\]: has "extra", which the format does not know/);
    expect(broken((j) => j.runs[0].test.returns.pop())).toMatch(/test has 999 returns over 1000 episodes; the test split has 1000 seeds/);
    expect(broken((j) => (j.runs[1].seed = j.runs[0].seed))).toMatch(/a second run of seed 1; each training seed once/);
    // a run ends past its budget by less than one rollout (the fixture's: 32 envs × a 50-step episode)
    expect(broken((j) => (j.runs[0].steps = 4096 + 1600))).toMatch(/trained 5696 steps; the tiny budget is 4096, .*1600 steps here/);
    expect(broken((j) => (j.runs[0].steps = 4000))).toMatch(/trained 4000 steps; the tiny budget is 4096/);
    expect(broken((j) => (j.runs[0].steps = 4096 + 1599))).not.toMatch(/trained/);
    expect(broken((j) => (j.budget = '7M'))).toMatch(/budget: is "7M", must be one of tiny/);
    expect(broken((j) => (j.env = 'Farm-v9'))).toMatch(/env: is "Farm-v9", must be one of ValleyFarm-v0, BackwardsValleyFarm-v0/);
    expect(broken((j) => (j.runs[0].policy.sha256 = 'abc'))).toMatch(/policy\.sha256: is "abc", must match/);
    expect(broken((j) => (j.learner = 'dqn'))).toMatch(/must be docs\/results\/fixture\/dqn-ValleyFarm-v0-tiny\.json, after what it holds/);
    expect(broken((j) => (j.track = '2-core'))).toMatch(/ran on 2 cores|must be docs\/results\/2-core\//);
    expect(broken((j) => ((j.track = '2-core'), (j.runs[0].machine.cores = 8)))).toMatch(
      /ran on 8 cores; the 2-core track's runs are made on the 2-core machine kind/,
    );
    expect(schemaFaults([])).toEqual(['(file): is a array, must be object']);
  });
});

describe.each(folders)('the runs of %s', (_, dir, files) => {
  const runs = runsOf(files, dir);

  it("each run's test score is its stored returns' against today's random and best-known data", () => {
    for (const { path, json, run } of runs) {
      expect(run.test.returns, path).toHaveLength(splitSeeds('test').length);
      const s = summarize(run.test.returns);
      expect(run.test.mean).toBeCloseTo(s.mean, 3);
      expect(run.test.ci95[0]).toBeCloseTo(s.ci95[0], 3);
      const random = baselines.perSeed[json.env].test;
      const bestRows = best.envs[json.env].test;
      const perSeed = run.test.returns.map((r, i) => normalizedScore(r, random[i][1], bestRows[i][1]));
      expect(run.test.normalized, `${path} seed ${run.seed}`).toBeCloseTo(perSeed.reduce((a, b) => a + b, 0) / perSeed.length, 3);
      run.test.returns.forEach((r, i) => expect(r).toBeLessThanOrEqual(bestRows[i][1] + 1e-6));
    }
  });

  // one test per results file, each with a generous limit: the files grow with every batch of
  // runs, and a tabular policy is megabytes of JSON to read on a busy machine
  for (const file of [...new Set(runs.map((r) => r.path))])
    it(`${file}: each stored policy is the one its hash names, and replays its stored return on a sample of test seeds (every 97th)`, async () => {
      const seeds = splitSeeds('test');
      const sample = seeds.map((s, i) => [s, i]).filter(([, i]) => i % 97 === 0);
      for (const { path, json, run } of runs.filter((r) => r.path === file)) {
        if (run.policy.file === null) continue; // a run whose policy was not kept cannot be replayed
        const stored = join(dir, json.track, run.policy.file);
        expect(existsSync(stored), `${path}: ${run.policy.file}`).toBe(true);
        const text = gunzipSync(readFileSync(stored)).toString('utf8');
        expect(createHash('sha256').update(text).digest('hex'), path).toBe(run.policy.sha256);
        const policy = await loadPolicy(JSON.parse(text));
        const r = await evaluate(policy, { env: json.env, seeds: sample.map(([s]) => s) });
        r.returns.forEach((ret, k) =>
          expect(ret, `${path} seed ${run.seed}, test seed ${sample[k][0]}`).toBeCloseTo(run.test.returns[sample[k][1]], 3),
        );
      }
    }, 600_000);
});

describe('the summary', () => {
  // few resamples: the intervals' own tests are in aggregate.test.js
  const summary = summarizeResults(fixtureFiles, { reps: 200, profileReps: 100, budgets: budgetsOf(FIXTURE) });
  const rows = summary.tracks[0].rows;
  const scores = (learner, env) =>
    fixtureFiles.find((f) => f.json.learner === learner && f.json.env === env).json.runs.map((r) => r.test.normalized);

  it("a farm's row holds its runs' count, IQM, mean and optimality gap of their normalised scores", () => {
    const row = rows.find((r) => r.env === 'ValleyFarm-v0' && r.learner === 'tabular-q');
    const s = scores('tabular-q', 'ValleyFarm-v0');
    expect(row.runs).toBe(3);
    expect(row.seeds).toEqual([1, 2, 3]);
    expect(row.iqm.estimate).toBeCloseTo(aggregateIqm(s), 4);
    expect(row.mean.estimate).toBeCloseTo(s.reduce((a, b) => a + b, 0) / 3, 4);
    expect(row.optimalityGap.estimate).toBeCloseTo(optimalityGap(s), 4);
    expect(row.iqm.low).toBeLessThanOrEqual(row.iqm.estimate);
    expect(row.iqm.high).toBeGreaterThanOrEqual(row.iqm.estimate);
    // a profile: the fraction of the 3 runs above each τ
    summary.taus.forEach((t, i) => expect(row.profile.fraction[i]).toBeCloseTo(s.filter((x) => x > t).length / 3, 4));
  });

  it('the both-farms row is the matrix of seeds run on both farms (runs × farms), as rliable aggregates tasks', () => {
    const row = rows.find((r) => r.env === 'both farms' && r.learner === 'tabular-q');
    const m = [0, 1, 2].map((i) => [scores('tabular-q', 'ValleyFarm-v0')[i], scores('tabular-q', 'BackwardsValleyFarm-v0')[i]]);
    expect(row.runs).toBe(3);
    expect(row.mean.estimate).toBeCloseTo(aggregateMean(m), 4);
    expect(row.iqm.estimate).toBeCloseTo(aggregateIqm(m), 4);
    // PPO ran on one farm only: no both-farms row
    expect(rows.some((r) => r.env === 'both farms' && r.algo === 'ppo')).toBe(false);
  });

  it('P(X > Y) is given for both orders of each pair of learners on a farm, and the two add to 1', () => {
    const pairs = summary.tracks[0].improvements.filter((p) => p.env === 'ValleyFarm-v0');
    expect(pairs).toHaveLength(2);
    const [a, b] = pairs;
    expect(a.estimate + b.estimate).toBeCloseTo(1, 4);
    const ppo = pairs.find((p) => p.x.startsWith('ppo'));
    expect(ppo.estimate).toBeCloseTo(probabilityOfImprovement(scores('ppo', 'ValleyFarm-v0'), scores('tabular-q', 'ValleyFarm-v0')), 4);
  });

  it("the fixture's summary.json is what its files give (point estimates and counts; the web tests render it)", () => {
    const stored = JSON.parse(readFileSync(join(FIXTURE, 'summary.json'), 'utf8'));
    const strip = (s) =>
      s.tracks.map((t) => t.rows.map((r) => [r.budget, r.env, r.learner, r.runs, r.iqm.estimate, r.mean.estimate, r.profile.fraction]));
    expect(strip(stored)).toEqual(strip(summary));
  });

  it("docs/results/summary.json is what docs/results' files give, and README.md's and docs/benchmark.md's tables are the summary's", () => {
    const stored = JSON.parse(read('docs/results/summary.json'));
    const fresh = summarizeResults(committedFiles, { reps: 200, profileReps: 100 });
    const strip = (s) =>
      s.tracks.map((t) => [
        t.track,
        t.rows.map((r) => [r.budget, r.env, r.learner, r.runs, r.seeds, r.iqm.estimate, r.mean.estimate, r.optimalityGap.estimate]),
      ]);
    expect(strip(stored)).toEqual(strip(fresh));
    expect(betweenMarkers(read('README.md'), 'results')).toBe(readmeResultsTable(stored, baselines));
    expect(betweenMarkers(read('docs/benchmark.md'), 'results')).toBe(benchmarkResultsTables(stored));
  });

  it('the README table names each shipped learner at each budget with runs (IQM, interval, runs) and says "no runs yet" otherwise; runs with settings of their own follow their learner', () => {
    // the README shows the 2-core track: the fixture's track stands in for it
    const home = { ...summary, tracks: [{ ...summary.tracks[0], track: '2-core' }] };
    const table = readmeResultsTable(home, baselines, budgetsOf(FIXTURE)).split('\n');
    expect(table[0]).toBe('| agent | ValleyFarm-v0 | BackwardsValleyFarm-v0 |');
    const tq = table.find((l) => l.startsWith('| tabular Q, 4,096 env steps |'));
    const row = rows.find((r) => r.env === 'ValleyFarm-v0' && r.learner === 'tabular-q');
    expect(tq).toContain(`| ${row.iqm.estimate.toFixed(2)} (${row.iqm.low.toFixed(2)}–${row.iqm.high.toFixed(2)}), 3 runs`);
    // the fixture's PPO has settings beyond the defaults, so the shipped PPO has no runs
    expect(table).toContain('| PPO | no runs yet | no runs yet |');
    // ...and its runs with their own settings follow it, at the budget they have runs at
    const variant = rows.find((r) => r.env === 'ValleyFarm-v0' && r.algo === 'ppo');
    const at = table.indexOf('| PPO | no runs yet | no runs yet |');
    expect(table[at + 1]).toBe(
      `| ${variant.title}, 4,096 env steps | ${variant.iqm.estimate.toFixed(2)} (${variant.iqm.low.toFixed(2)}–${variant.iqm.high.toFixed(2)}), 2 runs | no runs yet |`,
    );
    expect(table.find((l) => l.startsWith('| heuristic |'))).toContain('(return 11.91)');
  });

  it("a README cell of the benchmark's number of runs gives no count, any other count is written, and the line under the table says so", () => {
    const v = { estimate: 0.5, low: 0.4, high: 0.6 };
    const row = (env, runs) => ({ budget: 'tiny', env, learner: 'tabular-q', algo: 'tabular-q', runs, iqm: v });
    const home = { tracks: [{ track: '2-core', rows: [row('ValleyFarm-v0', RUNS), row('BackwardsValleyFarm-v0', RUNS + 2)] }] };
    const table = readmeResultsTable(home, baselines, budgetsOf(FIXTURE)).split('\n');
    expect(table).toContain(`| tabular Q, 4,096 env steps | 0.50 (0.40–0.60) | 0.50 (0.40–0.60), ${RUNS + 2} runs |`);
    expect(table.at(-1)).toBe(
      `A learner's cell: the IQM of its ${RUNS} training runs unless it names another count (of 1 run: no interval).`,
    );
  });

  it('a single run has no interval in the summary, the README or docs/benchmark.md: resampling one run gives it back every time, which says nothing of the spread between runs', () => {
    // the fixture's tabular Q with one run on the valley and two on the backwards farm, as the
    // README's track (the 2-core one)
    const files = fixtureFiles
      .filter((f) => f.json.learner === 'tabular-q')
      .map((f) => ({ ...f, json: { ...f.json, track: '2-core', runs: f.json.runs.slice(0, f.json.env === 'ValleyFarm-v0' ? 1 : 2) } }));
    const few = summarizeResults(files, { reps: 200, profileReps: 100, budgets: budgetsOf(FIXTURE) });
    const [one, two] = ['ValleyFarm-v0', 'BackwardsValleyFarm-v0'].map((env) => few.tracks[0].rows.find((r) => r.env === env));
    expect([one.runs, two.runs]).toEqual([1, 2]);
    for (const key of ['testMean', 'iqm', 'mean', 'median', 'optimalityGap']) {
      expect(Object.keys(one[key]), key).toEqual(['estimate']);
      expect(two[key].low, key).toBeLessThanOrEqual(two[key].high);
    }
    // the both-farms matrix has one run of each farm's seeds in common
    const both = few.tracks[0].rows.find((r) => r.env === 'both farms');
    expect(both.runs).toBe(1);
    expect(Object.keys(both.iqm)).toEqual(['estimate']);
    const f2 = (x) => x.toFixed(2);
    const table = readmeResultsTable(few, baselines, budgetsOf(FIXTURE)).split('\n');
    expect(table).toContain(
      `| tabular Q, 4,096 env steps | ${f2(one.iqm.estimate)}, 1 run | ${f2(two.iqm.estimate)} (${f2(two.iqm.low)}–${f2(two.iqm.high)}), 2 runs |`,
    );
    const docs = benchmarkResultsTables(few, budgetsOf(FIXTURE)).split('\n');
    const time = (r) => `${Math.round(r.seconds)} s`;
    expect(docs).toContain(
      `| ValleyFarm-v0 | tabular Q | 1 | ${f2(one.testMean.estimate)} | ${f2(one.iqm.estimate)} | ${f2(one.mean.estimate)} | ${f2(one.optimalityGap.estimate)} | ${time(one)} |`,
    );
    const ci = (v) => `${f2(v.estimate)} (${f2(v.low)} – ${f2(v.high)})`;
    expect(docs).toContain(
      `| BackwardsValleyFarm-v0 | tabular Q | 2 | ${ci(two.testMean)} | ${ci(two.iqm)} | ${ci(two.mean)} | ${ci(two.optimalityGap)} | ${time(two)} |`,
    );
  });
});

describe('npm run results', () => {
  const BUDGETS = { tiny: { title: '2,048 env steps', steps: 2048, evalEvery: 1024 } };
  const dir = join(tmp, 'out');
  writeFileSync(join(tmp, 'budgets.json'), JSON.stringify(BUDGETS));
  cpSync(join(tmp, 'budgets.json'), join(dir, 'budgets.json'));
  const base = [
    '--dir',
    dir,
    '--work',
    join(tmp, 'work'),
    '--budget',
    'tiny',
    '--track',
    'test',
    '--machine',
    'a test',
    '--eval-episodes',
    '3',
  ];
  const results = (...args) =>
    spawnSync(process.execPath, [join(root, 'scripts/results/make.mjs'), ...args], { encoding: 'utf8', cwd: tmp, maxBuffer: 1 << 26 });
  const file = join(dir, 'test/tabular-q-ValleyFarm-v0-tiny.json');

  it('trains a seed, scores it on the test split and writes the file, then skips the seeds it holds and adds the others', () => {
    const first = results(...base, '--learner', 'tabular-q', '--env', 'ValleyFarm-v0', '--seeds', '1');
    expect(first.status, first.stderr).toBe(0);
    const before = JSON.parse(readFileSync(file, 'utf8'));
    expect(before.runs.map((r) => r.seed)).toEqual([1]);
    expect(resultsFaults(before, 'docs/results/test/tabular-q-ValleyFarm-v0-tiny.json', BUDGETS)).toEqual([]);
    const again = results(...base, '--learner', 'tabular-q', '--env', 'ValleyFarm-v0', '--seeds', '1-2');
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/seed 1: already in .*, skipped/);
    const after = JSON.parse(readFileSync(file, 'utf8'));
    expect(after.runs.map((r) => r.seed)).toEqual([1, 2]);
    expect(after.runs[0]).toEqual(before.runs[0]);
    expect(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')).tracks[0].rows[0].runs).toBe(2);
  }, 300_000); // training runs: minutes on a busy machine

  it('the same settings, typed in any order, name the same file', async () => {
    const { parse } = await import('../../scripts/results/make.mjs');
    const { resultsName } = await import('../../scripts/results/check.mjs');
    const common = ['--learner', 'ppo', '--env', 'ValleyFarm-v0', '--budget', '35M', '--seeds', '1-5', '--track', 'x', '--machine', 'y'];
    const a = parse([...common, '--hidden', '8,8', '--imitate', '0']);
    const b = parse([...common, '--imitate', '0', '--hidden', '8,8']);
    expect(resultsName(a)).toBe('ppo-hidden-8,8-imitate-0-ValleyFarm-v0-35M');
    expect(resultsName(b)).toBe(resultsName(a));
    expect(resultsName(parse(common))).toBe('ppo-ValleyFarm-v0-35M');
  });

  it('leaves a damaged results file as it is and says what is wrong with it', () => {
    const text = readFileSync(file, 'utf8').replace('"tuning": "validation"', '"tuning": "test"');
    writeFileSync(file, text);
    const r = results(...base, '--learner', 'tabular-q', '--env', 'ValleyFarm-v0', '--seeds', '3');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/is not a valid results file, so it is left as it is:\s+\(file\)\.tuning: is "test"/);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('refuses a bad command line with what is allowed', () => {
    const cases = [
      [['--learner', 'nope', '--env', 'ValleyFarm-v0', '--seeds', '1'], /--learner must be one of tabular-q, ppo|--learner must be one of/],
      [['--learner', 'ppo', '--env', 'ValleyFarm-v0', '--seeds', '5-1'], /--seeds must be a range A-B \(A ≤ B\)/],
      [
        ['--learner', 'ppo', '--env', 'ValleyFarm-v0', '--seeds', '1', '--frobnicate', '2'],
        /--frobnicate is neither an option here nor a ppo setting/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = results(...base, ...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    const time = results(
      '--dir',
      RESULTS_DIR,
      '--learner',
      'ppo',
      '--env',
      'ValleyFarm-v0',
      '--budget',
      '10min',
      '--seeds',
      '1',
      '--track',
      'x',
      '--machine',
      'y',
    );
    expect(time.stderr).toMatch(/the 10min budget stops on time; give --steps N, the schedule the run is planned for/);
    const other = results(
      '--dir',
      RESULTS_DIR,
      '--learner',
      'ppo',
      '--env',
      'ValleyFarm-v0',
      '--budget',
      '35M',
      '--seeds',
      '1',
      '--track',
      'gpu',
    );
    expect(other.stderr).toMatch(/--track gpu needs --machine TEXT/);
  });

  it('an interrupted PPO seed resumes from its checkpoint to the policy an unbroken run gives', async () => {
    const ppo = [
      '--learner',
      'ppo',
      '--env',
      'ValleyFarm-v0',
      '--seeds',
      '1',
      '--imitate',
      '0',
      '--hidden',
      '8,8',
      '--num-envs',
      '8',
      '--n-steps',
      '64',
      '--checkpoint-every',
      '512',
    ];
    const unbroken = join(tmp, 'unbroken');
    cpSync(join(tmp, 'budgets.json'), join(unbroken, 'budgets.json'));
    const whole = results(...base, '--dir', unbroken, '--work', join(tmp, 'work-unbroken'), ...ppo);
    expect(whole.status, whole.stderr).toBe(0);
    // the same batch, killed once its first checkpoint is on disk, then called again
    const broken = join(tmp, 'broken');
    cpSync(join(tmp, 'budgets.json'), join(broken, 'budgets.json'));
    const work = join(tmp, 'work-broken');
    const args = [...base, '--dir', broken, '--work', work, ...ppo];
    const child = spawn(process.execPath, [join(root, 'scripts/results/make.mjs'), ...args], { cwd: tmp, detached: true, stdio: 'ignore' });
    const ckpt = () => existsSync(work) && readdirSync(work).some((d) => existsSync(join(work, d, 'policy.json.ckpt')));
    const exited = new Promise((resolve) => child.on('exit', resolve));
    let done = false;
    exited.then(() => (done = true));
    while (!ckpt() && !done) await new Promise((r) => setTimeout(r, 20));
    if (!done) process.kill(-child.pid, 'SIGKILL');
    await exited;
    const resumed = results(...args);
    expect(resumed.status, resumed.stderr).toBe(0);
    const name = 'ppo-hidden-8,8-imitate-0-n-steps-64-num-envs-8-ValleyFarm-v0-tiny.json';
    const [a, b] = [unbroken, broken].map((d) => JSON.parse(readFileSync(join(d, 'test', name), 'utf8')).runs[0]);
    if (!done) expect(resumed.stdout).toMatch(/seed 1: resuming/); // (a run that finished before the kill resumes nothing)
    // the same weights (the policy files differ in their run record: times and dates)
    const weights = (d, run) => JSON.parse(gunzipSync(readFileSync(join(d, 'test', run.policy.file))).toString('utf8')).weights;
    expect(weights(broken, b)).toEqual(weights(unbroken, a));
    expect(b.test.returns).toEqual(a.test.returns);
  }, 300_000);
});
