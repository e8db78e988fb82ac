// reference-runs.mjs — `npm run reference-runs`: trains the reference runs that the
// Benchmark docs page publishes (docs/runs/<algo>-<env>.json): each with the exact command,
// its learning curve (validation returns as it trained), wall time, throughput, and the
// final policy's score on the test split. Minutes, not seconds; not part of npm test.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluate } from '../wasm/evaluate.js';
import { loadPolicy } from '../wasm/learn/index.js';

const root = new URL('..', import.meta.url).pathname;
const RUNS = [
  { algo: 'tabular-q', env: 'BackwardsValleyFarm-v0', steps: '5e6', evalEvery: '500000' },
  { algo: 'tabular-q', env: 'ValleyFarm-v0', steps: '5e6', evalEvery: '500000' },
  { algo: 'ppo', env: 'BackwardsValleyFarm-v0', steps: '4e5', evalEvery: '100000' },
  { algo: 'ppo', env: 'ValleyFarm-v0', steps: '4e5', evalEvery: '100000' },
];

const only = process.argv[2];
const dir = mkdtempSync(join(tmpdir(), 'vf-runs-'));
mkdirSync(join(root, 'docs/runs'), { recursive: true });
for (const run of RUNS.filter((r) => !only || r.algo === only)) {
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
    command: `npx valley-farm ${args.slice(0, 12).join(' ')}`,
    steps,
    seconds: Math.round(seconds),
    stepsPerSec: Math.round(steps / seconds),
    curve,
    test: { episodes: test.returns.length, mean: test.mean, ci95: test.ci95, normalized: test.normalized.mean },
    reference: test.reference, // random, heuristic and best-known means on the same seeds
  };
  writeFileSync(join(root, `docs/runs/${run.algo}-${run.env}.json`), `${JSON.stringify(record, null, 1)}\n`);
  console.log(
    `[valley-farm] ${run.algo} ${run.env}: test ${test.mean.toFixed(2)} (normalised ${test.normalized.mean.toFixed(3)}) in ${Math.round(seconds)} s`,
  );
}
