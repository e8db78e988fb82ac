// reference-runs.mjs — `npm run reference-runs`: trains the reference runs that the
// Benchmark docs page publishes (docs/runs/<algo>-<env>.json): each with the exact command,
// its learning curve (validation returns as it trained), wall time, throughput, and the
// final policy's score on the test split, with its return on every test seed (so the score
// can be checked against the data the benchmark uses now: tests/js/evaluate_data.test.js).
// The PPO runs take about half an hour each (run
// two at once on two cores); not part of npm test.
import { execFileSync } from 'node:child_process';
import * as prettier from 'prettier';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluate } from '../wasm/evaluate.js';
import { loadPolicy, settingFlag } from '../wasm/learn/index.js';
import { updateReadmeTable } from './baselines.mjs';

const root = new URL('..', import.meta.url).pathname;
const RUNS = [
  { algo: 'tabular-q', env: 'BackwardsValleyFarm-v0', steps: '5e6', evalEvery: '500000' },
  { algo: 'tabular-q', env: 'ValleyFarm-v0', steps: '5e6', evalEvery: '500000' },
  // within 30 minutes each on one core (the learning issue's budget for PPO), with a margin
  { algo: 'ppo', env: 'BackwardsValleyFarm-v0', steps: '50e6', evalEvery: '2500000' },
  { algo: 'ppo', env: 'ValleyFarm-v0', steps: '45e6', evalEvery: '2500000' },
  // about the same half hour (two at once on two cores took 30.0 and 30.2 minutes), starting
  // from the planner's play (imitate.js) and seeing the last four observations (cloning the
  // planner needs them: from one view it learns much less); the cloning is inside the half
  // hour, and each step costs more with the wider input
  { algo: 'ppo', env: 'BackwardsValleyFarm-v0', steps: '25e6', evalEvery: '2500000', settings: { history: 4, imitate: 6000 } },
  { algo: 'ppo', env: 'ValleyFarm-v0', steps: '20e6', evalEvery: '2500000', settings: { history: 4, imitate: 6000 } },
  // two observations instead of four: a step costs less, so the half hour holds more of them
  // (eight observations, 9 M steps, scored less than four)
  { algo: 'ppo', env: 'ValleyFarm-v0', steps: '28e6', evalEvery: '2500000', settings: { history: 2, imitate: 6000 } },
  // with a memory of the farm seen so far (memory.js): each step costs more, and learns more;
  // then also cloning the planner first, and the step size annealed to 0 over the run (two
  // at once on two cores, each within the half hour)
  { algo: 'ppo', env: 'BackwardsValleyFarm-v0', steps: '40e6', evalEvery: '2500000', settings: { memory: 1 } },
  { algo: 'ppo', env: 'ValleyFarm-v0', steps: '38e6', evalEvery: '2500000', settings: { memory: 1, imitate: 6000 } },
  { algo: 'ppo', env: 'ValleyFarm-v0', steps: '38e6', evalEvery: '2500000', settings: { memory: 1, imitate: 6000, anneal: 38e6 } },
  { algo: 'ppo', env: 'BackwardsValleyFarm-v0', steps: '38e6', evalEvery: '2500000', settings: { memory: 1, imitate: 6000, anneal: 38e6 } },
  {
    algo: 'ppo',
    env: 'BackwardsValleyFarm-v0',
    steps: '36e6',
    evalEvery: '2500000',
    settings: { memory: 1, imitate: 24000, anneal: 36e6 },
  },
];

/** A run's file name: its learner, its settings other than the defaults, its farm. */
const nameOf = (run) =>
  [run.algo, ...Object.entries(run.settings ?? {}).map(([k, v]) => `${settingFlag(k).slice(2)}-${v}`), run.env].join('-');

// `npm run reference-runs -- [name] [env]`: only the runs whose file name starts with
// `name` (ppo, tabular-q, ppo-history-4-imitate-6000) on that farm
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
    ...Object.entries(run.settings ?? {}).flatMap(([k, v]) => [settingFlag(k), String(v)]),
    '--out',
    join(dir, 'policy.json'),
    '--log',
    join(dir, 'curve.csv'),
  ];
  const started = Date.now();
  execFileSync(process.execPath, [join(root, 'wasm/cli/index.mjs'), ...args], { stdio: ['ignore', 'inherit', 'inherit'] });
  const seconds = (Date.now() - started) / 1000;
  const rows = readFileSync(join(dir, 'curve.csv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','));
  const curve = rows
    .filter((r) => r[3] !== '')
    .map((r) => ({ steps: Number(r[0]), seconds: Number(r[1]), validation: Number(r[3]), normalized: Number(r[4]) }));
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
updateReadmeTable();
