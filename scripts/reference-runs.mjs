// reference-runs.mjs — `npm run reference-runs`: trains the reference runs that the
// Benchmark docs page publishes (docs/runs/<algo>-<env>.json): each with the exact command,
// its learning curve (validation returns as it trained), wall time, throughput, and the
// final policy's score on the test split, with its return on every test seed (so the score
// can be checked against the data the benchmark uses now: tests/js/evaluate_data.test.js).
// The PPO runs take about half an hour each, one at a time (each uses both cores); not part
// of npm test.
import { execFileSync } from 'node:child_process';
import * as prettier from 'prettier';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluate } from '../wasm/evaluate.js';
import { loadPolicy, settingFlag } from '../wasm/learn/index.js';
import { updateTables } from './baselines.mjs';

const root = new URL('..', import.meta.url).pathname;
const RUNS = [
  { algo: 'tabular-q', env: 'BackwardsValleyFarm-v0', steps: '5e6', evalEvery: '500000' },
  { algo: 'tabular-q', env: 'ValleyFarm-v0', steps: '5e6', evalEvery: '500000' },
  // PPO with its default settings (`defaults` in wasm/learn/ppo.js) for the Lab's default run
  // of 35 M steps, on the learner core, two workers on this two-core machine kind, one run at
  // a time: about 5 minutes each, validated on all 200 validation seeds every 1 M steps, so
  // that the curve says when it passed the heuristic
  { algo: 'ppo', env: 'ValleyFarm-v0', steps: '35e6', evalEvery: '1000000', evalEpisodes: 200, workers: 2 },
  { algo: 'ppo', env: 'BackwardsValleyFarm-v0', steps: '35e6', evalEvery: '1000000', evalEpisodes: 200, workers: 2 },
  // the same settings for half an hour (its step size annealed over all of it): how far PPO
  // gets on each farm with time
  { algo: 'ppo', env: 'ValleyFarm-v0', steps: '280e6', evalEvery: '2000000', evalEpisodes: 200, workers: 2, label: '30-min' },
  { algo: 'ppo', env: 'BackwardsValleyFarm-v0', steps: '250e6', evalEvery: '2000000', evalEpisodes: 200, workers: 2, label: '30-min' },
  // the same with the value loss weighted 0.5, the former default
  {
    algo: 'ppo',
    env: 'BackwardsValleyFarm-v0',
    steps: '230e6',
    evalEvery: '2000000',
    evalEpisodes: 200,
    workers: 2,
    label: '30-min',
    settings: { valueCoef: 0.5 },
  },
  // the longest runs, half an hour each, with former defaults: a constant step size
  // (anneal 0), 6,000 planner episodes, minibatches of 2,048 and the value loss weighted 0.5
  {
    algo: 'ppo',
    env: 'ValleyFarm-v0',
    steps: '240e6',
    evalEvery: '2000000',
    evalEpisodes: 200,
    workers: 2,
    settings: { anneal: 0, imitate: 6000, minibatch: 2048, valueCoef: 0.5 },
  },
  {
    algo: 'ppo',
    env: 'BackwardsValleyFarm-v0',
    steps: '200e6',
    evalEvery: '2000000',
    evalEpisodes: 200,
    workers: 2,
    settings: { anneal: 0, imitate: 6000, minibatch: 2048, valueCoef: 0.5 },
  },
];

/** A run's file name: its learner, its label (runs of the same settings), its settings other than the defaults, its farm. */
const nameOf = (run) =>
  [
    run.algo,
    ...(run.label ? [run.label] : []),
    ...Object.entries(run.settings ?? {}).map(([k, v]) => `${settingFlag(k).slice(2)}-${v}`),
    run.env,
  ].join('-');

// `npm run reference-runs -- [name] [env]`: only the runs whose file name starts with
// `name` (ppo, tabular-q, ppo-30-min, ppo-history-4-imitate-6000) on that farm
const [onlyName, onlyEnv] = process.argv.slice(2);
const dir = mkdtempSync(join(tmpdir(), 'vf-runs-'));
mkdirSync(join(root, 'docs/runs'), { recursive: true });
for (const run of RUNS.filter((r) => (!onlyName || nameOf(r).startsWith(onlyName)) && (!onlyEnv || r.env === onlyEnv))) {
  const args = [
    'train',
    '--env',
    run.env,
    '--algo',
    run.algo,
    '--steps',
    run.steps,
    '--seed',
    '1',
    '--eval-every',
    run.evalEvery,
    ...(run.evalEpisodes ? ['--eval-episodes', String(run.evalEpisodes)] : []),
    // the threads it ran on: they change the run (each plays its own envs), not what it is
    ...(run.workers ? ['--workers', String(run.workers)] : []),
    ...Object.entries(run.settings ?? {}).flatMap(([k, v]) => [settingFlag(k), String(v)]),
    '--out',
    join(dir, 'policy.json'),
    '--log',
    join(dir, 'curve.csv'),
    '--force', // each run writes over the one before it
  ];
  const started = Date.now();
  execFileSync(process.execPath, [join(root, 'wasm/cli/index.mjs'), ...args], { stdio: ['ignore', 'inherit', 'inherit'] });
  const seconds = (Date.now() - started) / 1000;
  const [header, ...lines] = readFileSync(join(dir, 'curve.csv'), 'utf8').trim().split('\n');
  const column = Object.fromEntries(header.split(',').map((name, i) => [name, i]));
  const curve = lines
    .map((l) => l.split(','))
    .filter((r) => r[column.validation_mean] !== '')
    .map((r) => ({
      steps: Number(r[column.steps]),
      seconds: Number(r[column.seconds]),
      validation: Number(r[column.validation_mean]),
      normalized: Number(r[column.validation_normalized]),
    }));
  const policy = await loadPolicy(JSON.parse(readFileSync(join(dir, 'policy.json'), 'utf8')));
  const test = await evaluate(policy, { env: run.env, split: 'test' });
  const steps = Number(run.steps);
  const record = {
    algo: run.algo,
    env: run.env,
    // as a reader would type it: the run wrote its files to a temporary folder
    command: `npx valley-farm ${args.slice(0, args.indexOf('--out')).join(' ')} --out policy.json --log curve.csv`,
    settings: run.settings ?? {},
    steps,
    seconds: Math.round(seconds),
    stepsPerSec: Math.round(steps / seconds),
    curve,
    test: {
      episodes: test.returns.length,
      mean: test.mean,
      ci95: test.ci95,
      normalized: test.normalized.mean,
      returns: test.returns.map((r) => Math.round(r * 1e4) / 1e4), // seed by seed, the test split in order
    },
    reference: test.reference, // random, heuristic and best-known means on the same seeds
  };
  // in the house style, so that npm test's format check passes on a fresh run
  const file = join(root, `docs/runs/${nameOf(run)}.json`);
  writeFileSync(file, await prettier.format(JSON.stringify(record), { ...(await prettier.resolveConfig(file)), filepath: file }));
  console.log(
    `[valley-farm] ${nameOf(run)}: test ${test.mean.toFixed(2)} (normalised ${test.normalized.mean.toFixed(3)}) in ${Math.round(seconds)} s`,
  );
}
updateTables();
