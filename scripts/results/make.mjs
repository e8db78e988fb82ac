// make.mjs — `npm run results -- --learner ppo --env ValleyFarm-v0 --budget 35M --seeds 1-5`:
// trains one run per seed with `valley-farm train` at the budget, scores each policy on the
// 1,000 test seeds, and adds it to docs/results/<track>/<name>.json (format:
// docs/results/README.md), with its policy gzipped beside it; then remakes the summary
// (docs/results/summary.json) and the tables of README.md and docs/benchmark.md.
//
// A batch survives an interruption: the results file is rewritten whole after each seed, a
// seed already in it is skipped, and a learner that can resume (PPO) saves a checkpoint every
// 5 minutes in the work folder, from which the next call continues that seed to the same
// policy an unbroken run gives. `npm run results -- --summarize` only remakes the summary
// and tables. Each PPO run of 35 M steps takes about 5 minutes with both cores: make the
// runs on a quiet machine, one batch at a time.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as prettier from 'prettier';
import { envIds } from '../../wasm/index.js';
import { evaluate } from '../../wasm/evaluate.js';
import { algorithms, loadPolicy, settingFlag } from '../../wasm/learn/index.js';
import { HOME_TRACK, RESULTS_DIR, budgetsOf, resultsFaults, resultsName } from './check.mjs';
import { writeSummary } from './summary.mjs';
import pkg from '../../package.json' with { type: 'json' };

const root = new URL('../../', import.meta.url).pathname;
const CLI = join(root, 'wasm/cli/index.mjs');
const HOME_MACHINE = "the project's 2-core machine kind";
const USAGE =
  'npm run results -- --learner ALGO --env ENV --budget 5M|35M|10min|30min --seeds 1-5 [--steps N (a time budget: the schedule)] [--track NAME --machine TEXT] [--eval-episodes N] [--eval-every N] [--no-policies] [--dir DIR] [--work DIR] [--checkpoint-every N|TIME] [--SETTING VALUE ...]\n       npm run results -- --summarize';

class UsageError extends Error {}

/** '1-5' or '1,3,7' -> [1, ...] */
export function parseSeedList(text) {
  const range = /^(\d+)-(\d+)$/.exec(text ?? '');
  const seeds = range
    ? Array.from({ length: Number(range[2]) - Number(range[1]) + 1 }, (_, i) => Number(range[1]) + i)
    : String(text ?? '')
        .split(',')
        .map((s) => (/^\d+$/.test(s) ? Number(s) : NaN));
  if (!seeds.length || seeds.length > 1000 || !seeds.every(Number.isSafeInteger))
    throw new UsageError(
      `--seeds must be a range A-B (A ≤ B) or a list A,B,C of training seeds, at most 1,000; got ${String(text).slice(0, 40)}`,
    );
  return seeds;
}

/** argv as { flags: Set of the value-less options, given: { name: value } }; every other option takes a value. */
function optionsOf(argv) {
  const FLAGS = ['summarize', 'no-policies', 'help'];
  const flags = new Set();
  const given = {};
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([a-z][a-z0-9-]*)(?:=(.*))?$/s.exec(argv[i]);
    if (argv[i] === '-h') flags.add('help');
    else if (!m) throw new UsageError(`unexpected ${argv[i].slice(0, 40)}: every value follows its --option`);
    else if (FLAGS.includes(m[1])) flags.add(m[1]);
    else if (m[2] !== undefined) given[m[1]] = m[2];
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) given[m[1]] = argv[++i];
    else throw new UsageError(`--${m[1]} needs a value`);
  }
  return { flags, given };
}

/** The command line as options: { learner, env, budget, seeds, track, machine, steps, ..., settings }. */
export function parse(argv) {
  const { flags, given } = optionsOf(argv);
  if (flags.has('help')) return { help: true };
  const dir = given.dir ? resolve(given.dir) : RESULTS_DIR;
  if (flags.has('summarize')) return { summarize: true, dir };
  const known = [
    'learner',
    'env',
    'budget',
    'seeds',
    'track',
    'machine',
    'steps',
    'eval-episodes',
    'eval-every',
    'work',
    'dir',
    'checkpoint-every',
  ];
  const o = { dir, track: HOME_TRACK, evalEpisodes: 200, policies: !flags.has('no-policies'), settings: {} };
  let budgets;
  try {
    budgets = budgetsOf(dir);
  } catch {
    throw new UsageError(`--dir ${String(given.dir).slice(0, 80)}: a results folder has a budgets.json (docs/results has the benchmark's)`);
  }
  o.learner = given.learner;
  if (!Object.hasOwn(algorithms, o.learner ?? '')) throw new UsageError(`--learner must be one of ${Object.keys(algorithms).join(', ')}`);
  if (!envIds.includes(given.env)) throw new UsageError(`--env must be one of ${envIds.join(', ')}`);
  o.env = given.env;
  if (!Object.hasOwn(budgets, given.budget ?? '')) throw new UsageError(`--budget must be one of ${Object.keys(budgets).join(', ')}`);
  o.budget = given.budget;
  o.budgetSpec = budgets[o.budget];
  o.seeds = parseSeedList(given.seeds);
  if (given.track !== undefined) {
    if (!/^[a-z0-9][a-z0-9-]*$/.test(given.track))
      throw new UsageError('--track must be a name of lower-case letters, digits and hyphens (gpu-rtx4090)');
    o.track = given.track;
  }
  if (o.track === HOME_TRACK) {
    if (given.machine !== undefined)
      throw new UsageError(`the ${HOME_TRACK} track is the project's machine kind; --machine names the machine of another --track`);
    if (os.availableParallelism() !== 2)
      throw new UsageError(
        `this machine has ${os.availableParallelism()} cores; the ${HOME_TRACK} track's runs are made on the 2-core machine kind. Name your machine's track: --track NAME --machine TEXT`,
      );
    o.machine = HOME_MACHINE;
  } else {
    if (!given.machine?.trim())
      throw new UsageError(`--track ${o.track} needs --machine TEXT: the machine the runs are made on (its CPU, GPU, cores)`);
    o.machine = given.machine.trim().slice(0, 200);
  }
  const budget = o.budgetSpec;
  if (budget.seconds) {
    if (given.steps === undefined)
      throw new UsageError(
        `the ${o.budget} budget stops on time; give --steps N, the schedule the run is planned for (PPO anneals its step size over it), e.g. the steps it makes in ${budget.seconds / 60} minutes here`,
      );
    o.steps = Number(given.steps);
  } else {
    if (given.steps !== undefined)
      throw new UsageError(`the ${o.budget} budget is ${budget.steps.toLocaleString('en')} steps; --steps is for a time budget`);
    o.steps = budget.steps;
  }
  if (!Number.isSafeInteger(o.steps) || o.steps < 1)
    throw new UsageError(`--steps must be a whole number of steps (5e6 is fine), got ${String(given.steps).slice(0, 40)}`);
  o.evalEvery = budget.evalEvery;
  for (const [flag, key, most] of [
    ['eval-episodes', 'evalEpisodes', 200],
    ['eval-every', 'evalEvery', 1e12],
  ]) {
    if (given[flag] === undefined) continue;
    const n = Number(given[flag]);
    if (!Number.isInteger(n) || n < 1 || n > most) throw new UsageError(`--${flag} must be a whole number from 1 to ${most}`);
    o[key] = n;
  }
  o.work = resolve(given.work ?? join(root, 'build/results-work'));
  // how often a resumable learner saves its run (train --checkpoint-every: steps, or a time)
  o.checkpointEvery = given['checkpoint-every'] ?? '5m';
  // everything else is a setting of the learner, as train takes it
  const settingFlags = Object.fromEntries(Object.keys(algorithms[o.learner].defaults).map((k) => [settingFlag(k).slice(2), k]));
  for (const [name, value] of Object.entries(given)) {
    if (known.includes(name)) continue;
    if (!Object.hasOwn(settingFlags, name))
      throw new UsageError(
        `--${name.slice(0, 40)} is neither an option here nor a ${o.learner} setting (${Object.keys(settingFlags)
          .map((f) => `--${f}`)
          .join(', ')})`,
      );
    const d = algorithms[o.learner].defaults[settingFlags[name]];
    o.settings[settingFlags[name]] = Array.isArray(d) ? value.split(',').map(Number) : Number(value);
  }
  // in the learner's own order, so that the same settings name the same file however they were typed
  const order = Object.keys(algorithms[o.learner].defaults);
  o.settings = Object.fromEntries(Object.entries(o.settings).sort(([a], [b]) => order.indexOf(a) - order.indexOf(b)));
  return o;
}

/** The command that trains one seed (without --out and --log, which the reader chooses). */
function trainArgs(o, seed) {
  const budget = o.budgetSpec;
  return [
    'train',
    '--env',
    o.env,
    '--algo',
    o.learner,
    '--steps',
    String(o.steps),
    ...(budget.seconds ? ['--max-seconds', String(budget.seconds)] : []),
    '--seed',
    String(seed),
    '--eval-every',
    String(o.evalEvery),
    '--eval-episodes',
    String(o.evalEpisodes),
    ...Object.entries(o.settings).flatMap(([k, v]) => [settingFlag(k), String(v)]),
  ];
}

/** The repository's commit, with -dirty when tracked files have changes; null outside a git checkout. */
async function gitCommit() {
  const run = (args) =>
    new Promise((resolve) => {
      let out = '';
      const p = spawn('git', args, { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] });
      p.stdout.on('data', (d) => (out += d));
      p.on('error', () => resolve(null));
      p.on('close', (code) => resolve(code === 0 ? out.trim() : null));
    });
  const head = await run(['rev-parse', 'HEAD']);
  if (!head) return null;
  const dirty = await run(['status', '--porcelain', '--untracked-files=no']);
  return dirty ? `${head}-dirty` : head;
}

/** Runs the CLI, sampling the 1-minute load every 10 s: resolves { code, during: [loads] }. */
function runCli(args) {
  return new Promise((resolve, reject) => {
    const during = [];
    const timer = setInterval(() => during.push(os.loadavg()[0]), 10_000);
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(timer);
      resolve({ code, during: during.length ? during : [os.loadavg()[0]] });
    });
  });
}

/** The results file as it is (checked: a damaged one is left alone and named), or a new one. */
function readResults(file, o) {
  if (!existsSync(file))
    return {
      format: 'valley-farm-results',
      version: 1,
      learner: o.learner,
      settings: o.settings,
      env: o.env,
      budget: o.budget,
      track: o.track,
      tuning: 'validation',
      runs: [],
    };
  const json = JSON.parse(readFileSync(file, 'utf8'));
  const faults = resultsFaults(json, `docs/results/${o.track}/${resultsName(o)}.json`, budgetsOf(o.dir));
  if (faults.length)
    throw new Error(`${relative(root, file)} is not a valid results file, so it is left as it is:\n  ${faults.slice(0, 10).join('\n  ')}`);
  return json;
}

async function writeJson(file, json) {
  const text = await prettier.format(JSON.stringify(json), { ...(await prettier.resolveConfig(file)), filepath: file });
  writeFileSync(`${file}.part`, text);
  renameSync(`${file}.part`, file); // whole or not at all
}

const round4 = (x) => Math.round(x * 1e4) / 1e4;

/** Trains and scores one seed (resuming a checkpoint left by an interrupted call): its run record. */
async function oneRun(o, seed, name, dir) {
  const work = join(o.work, `${o.track}-${name}-seed-${seed}`);
  const [policyFile, curveFile] = [join(work, 'policy.json'), join(work, 'curve.csv')];
  const ckpt = `${policyFile}.ckpt`;
  const args = trainArgs(o, seed);
  const resumable = Boolean(algorithms[o.learner].resume);
  const machine = {
    name: o.machine,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.availableParallelism(),
    memoryGiB: round4(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
  };
  const before = os.loadavg().map(round4);
  let ran;
  if (resumable && existsSync(ckpt)) {
    console.log(`[valley-farm] ${name} seed ${seed}: resuming ${relative(root, ckpt)}`);
    ran = await runCli(['train', '--resume', ckpt]);
  } else {
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    console.log(`[valley-farm] ${name} seed ${seed}: valley-farm ${args.join(' ')}`);
    ran = await runCli([...args, ...(resumable ? ['--checkpoint-every', o.checkpointEvery] : []), '--out', policyFile, '--log', curveFile]);
  }
  if (ran.code !== 0)
    throw new Error(`valley-farm train exited with ${ran.code} on seed ${seed}; the results file keeps the seeds before it`);
  const after = os.loadavg().map(round4);
  const policyText = readFileSync(policyFile, 'utf8');
  const policyJson = JSON.parse(policyText);
  const [header, ...lines] = readFileSync(curveFile, 'utf8').trim().split('\n');
  const col = Object.fromEntries(header.split(',').map((n, i) => [n, i]));
  const curve = lines
    .map((l) => l.split(','))
    .filter((r) => r[col.validation_mean] !== '')
    .map((r) => ({
      steps: Number(r[col.steps]),
      seconds: Number(r[col.seconds]),
      validation: Number(r[col.validation_mean]),
      normalized: Number(r[col.validation_normalized]),
    }));
  const test = await evaluate(await loadPolicy(policyJson), { env: o.env, split: 'test' });
  const r = policyJson.run;
  let file = null;
  if (o.policies) {
    file = `policies/${name}-seed-${seed}.json.gz`;
    mkdirSync(join(dir, 'policies'), { recursive: true });
    writeFileSync(join(dir, file), gzipSync(policyText, { level: 9 }));
  }
  return {
    seed,
    command: `npx valley-farm ${args.join(' ')} --out policy.json --log curve.csv`,
    config: policyJson.config ?? {},
    machine: {
      ...machine,
      load: {
        before,
        after,
        duringMean: round4(ran.during.reduce((a, b) => a + b, 0) / ran.during.length),
        duringMax: round4(Math.max(...ran.during)),
      },
    },
    package: `${pkg.name}@${pkg.version}`,
    commit: await gitCommit(),
    date: r.date ?? new Date().toISOString(),
    steps: r.steps,
    seconds: r.seconds,
    trainSeconds: r.trainSeconds ?? null,
    stepsPerSec: Math.round(r.steps / Math.max(r.trainSeconds ?? r.seconds, 1e-3)),
    ...(r.stoppedBy ? { stoppedBy: r.stoppedBy } : {}),
    validation: { split: 'validation', every: o.evalEvery, episodes: o.evalEpisodes },
    curve,
    test: {
      split: 'test',
      episodes: test.returns.length,
      mean: round4(test.mean),
      ci95: test.ci95.map(round4),
      normalized: round4(test.normalized.mean),
      returns: test.returns.map(round4),
    },
    policy: { sha256: createHash('sha256').update(policyText).digest('hex'), file },
  };
}

export async function main(argv) {
  let o;
  try {
    o = parse(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`npm run results: ${err.message}\nusage: ${USAGE}`);
    return 2;
  }
  if (o.help) {
    console.log(`usage: ${USAGE}`);
    return 0;
  }
  if (!o.summarize) {
    const name = resultsName(o);
    const dir = join(o.dir, o.track);
    const file = join(dir, `${name}.json`);
    mkdirSync(dir, { recursive: true });
    let results;
    try {
      results = readResults(file, o);
    } catch (err) {
      console.error(`npm run results: ${err.message}`);
      return 1;
    }
    if (JSON.stringify(results.settings) !== JSON.stringify(o.settings))
      throw new Error('internal: a results file holds one set of settings');
    for (const seed of o.seeds) {
      if (results.runs.some((r) => r.seed === seed)) {
        console.log(`[valley-farm] ${name} seed ${seed}: already in ${relative(root, file)}, skipped`);
        continue;
      }
      let run;
      try {
        run = await oneRun(o, seed, name, dir);
      } catch (err) {
        console.error(`npm run results: ${err.message}`);
        return 1;
      }
      results.runs = [...results.runs, run].sort((a, b) => a.seed - b.seed);
      await writeJson(file, results);
      console.log(
        `[valley-farm] ${name} seed ${seed}: test ${run.test.mean.toFixed(2)} (normalised ${run.test.normalized.toFixed(3)}), ${run.steps.toLocaleString('en')} steps in ${Math.round(run.seconds)} s → ${relative(root, file)}`,
      );
    }
  }
  await writeSummary(o.dir);
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await main(process.argv.slice(2));
