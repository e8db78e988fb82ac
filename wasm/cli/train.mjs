// train.mjs — `npx valley-farm train --env ENV [--algo ALGO] [--steps N] [--seed S]
//             [--out policy.json] [--log curve.csv] [--eval-every N] [--SETTING VALUE ...]`
//             `npx valley-farm train --resume policy.json.ckpt [--steps N] [--out FILE] ...`
// Trains a learner (valley-farm/learn) with a progress line, evaluates it on the validation
// split as it goes, and writes the policy (JSON, with a "run" record of how it was made) and
// the learning curve (CSV or JSON lines, a row per report as training goes). Any setting of
// the learner (algorithms[algo].defaults, from the learners' registry) is an option too, in
// kebab case: --history 4, --num-envs 128, --hidden 128,128; `--help` lists them with their
// defaults and meanings. Every learner the registry holds when a command is parsed is one.
//
// The files it writes are checked before any training (outputs.mjs): an existing one is
// replaced only with --force, no two are the same file, links and devices are refused, and a
// folder that takes no file stops the run at once. A checkpoint (--checkpoint-every) is data:
// it is checked field by field (learn/checkpointCheck.js) before anything is opened, and where
// a resumed run writes comes from the command line, never from the checkpoint.
// parse() is exported for the test that checks the commands recorded in docs/runs.
import { appendFileSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { envIds } from '../index.js';
import { SPLITS } from '../splits.js';
import { evaluate } from '../evaluate.js';
import { DEFAULT_THREADS_MAX, THREADS_MAX, algorithms, createLearner, runDefaultsOf, settingFlag } from '../learn/index.js';
import { allowed } from '../learn/limits.js';
import { checkCheckpoint, checkTrainRecord } from '../learn/checkpointCheck.js';
import { UsageError, helpText, parseOptions, wantsHelp } from './args.mjs';
import { isLearnerFile, optionValue, registerLearnerFile, withOption } from './learnerFile.mjs';
import { beginsWith, checkOutputs, reason, writeWhole } from './outputs.mjs';
import { ProgressLine, evaluationsLeft, secondsLeft } from './progress.mjs';
import pkg from '../../package.json' with { type: 'json' };

const MAX_STEPS = 1e12;
const MAX_CHECKPOINT_BYTES = 2 ** 29; // above any checkpoint a network of MAX_WEIGHTS gives (and near V8's longest string)
const USAGE =
  'valley-farm train --env ENV [--algo ALGO] [--steps N] [--out policy.json] [--log curve.csv] [--SETTING VALUE ...]\n' +
  '       valley-farm train --resume FILE.ckpt [--steps N] [--out FILE] [--log FILE] [--force]';

const OPTIONS = {
  env: { arg: 'ENV', what: `the env to train on: ${envIds.join(', ')} (required)` },
  algo: {
    arg: 'ALGO',
    default: 'tabular-q',
    get what() {
      return `the learner: ${Object.keys(algorithms).join(', ')}, or a file of your own (./my-learner.js, exporting its learner)`;
    },
  },
  steps: { arg: 'N', default: 1e6, what: "env steps to train (5e6 is fine); with --resume, the whole run's (more extends it)" },
  'max-seconds': {
    arg: 'S',
    what: "also stop once S seconds of wall-clock time have passed (cloning and validation included), at the next report, validated and written as at the end of --steps (a time budget; --steps still sets the schedule, e.g. PPO's anneal)",
  },
  seed: { arg: 'S', default: 1, what: 'seeds the learner: the same seed and settings train to the same policy' },
  threads: {
    arg: 'N',
    what: `threads that train, 1 … ${THREADS_MAX} (default: one per core, at most ${DEFAULT_THREADS_MAX}); a seeded run trains to the same policy on any number`,
  },
  workers: { arg: 'N', what: 'the former name of --threads' },
  out: {
    arg: 'FILE',
    default: 'policy.json',
    what: 'where the policy is written (its folder must exist; a file that exists is replaced only with --force)',
  },
  log: { arg: 'FILE', what: 'where the learning curve is written as training goes (default: none)' },
  'log-format': { arg: 'FORMAT', default: 'csv', what: 'the curve as csv, or jsonl (a JSON object per line)' },
  'eval-every': { arg: 'N', what: 'env steps between validation runs (default: a tenth of --steps)' },
  'eval-episodes': { arg: 'N', default: 50, what: 'validation seeds each validation run plays' },
  'progress-every': { arg: 'SECONDS', default: 10, what: 'outside a terminal, seconds between progress lines' },
  'checkpoint-every': {
    arg: 'N|TIME',
    get what() {
      return `${resumable().join(', ')}: env steps (1e6) or a time (90s, 10m, 1h) between checkpoints, saved to the --out file + .ckpt and kept when the run ends; --resume continues a killed run to exactly the policy the unbroken run gives, on any number of threads, or extends a finished one (PPO saves once it has cloned the planner)`;
    },
  },
  resume: {
    arg: 'FILE',
    what: "continue the run saved in this checkpoint (FILE.ckpt), with its settings; it writes FILE's policy and, if the run kept a curve, FILE's name with .csv or .jsonl for .json (the whole curve: the checkpoint holds it), unless --out and --log say where; it takes only --steps (more extends the run), --out, --log, --progress-every, --threads and --force",
  },
  force: { what: 'replace output files that exist (the policy, the curve, the checkpoint); without it a run refuses them' },
};

/** The options a resumed run takes (the rest are its checkpoint's), for a learner of these settings. */
const resumeOptions = () => ['resume', 'steps', 'out', 'log', 'progressEvery', 'threads', 'workers', 'force'];

/** Each algorithm's settings as option rows, from algorithms[algo] (defaults and docs). */
const settingRows = (algo) =>
  Object.fromEntries(
    Object.entries(algorithms[algo].defaults).map(([name, d]) => [
      settingFlag(name).slice(2),
      {
        arg: Array.isArray(d) ? 'N,N' : Number.isInteger(d) ? 'N' : 'X',
        default: Object.hasOwn(runDefaultsOf(algorithms[algo], 1), name) ? "the run's --steps" : d,
        what: algorithms[algo].docs[name] ?? '',
      },
    ]),
  );

/** Every learner's settings as option rows (read when a command is parsed: a learner may be registered at run time). */
const allSettings = () => Object.assign({}, ...Object.keys(algorithms).map(settingRows));

/** The learners whose runs can be saved and resumed (their declaration's `resume`). */
const resumable = () => Object.keys(algorithms).filter((a) => algorithms[a].resume);

export function help() {
  return helpText(
    USAGE,
    'Trains a learner on the training seeds, runs it on validation seeds as it goes, and writes its policy\n' +
      '(for `valley-farm eval`) and its learning curve. The curve\'s "seconds" is wall-clock time since training\n' +
      'began (cloning the planner and validation included); steps/s counts only the time the learner spends\n' +
      'stepping and updating. The policy file\'s "run" field records the seed, steps, seconds, package version\n' +
      'and command.\n\n' +
      'Output files are checked before training: one that exists is refused without --force, no two may be the\n' +
      'same file, a symbolic link, folder or device is refused, and a folder that takes no file stops the run\n' +
      'at once. If the policy cannot be written at the end, the run stays in its checkpoint (--resume it with\n' +
      '--out elsewhere), or, for a run without one, the policy goes to the temporary folder.',
    [['options', OPTIONS], ...Object.keys(algorithms).map((algo) => [`${algo} settings (with --algo ${algo})`, settingRows(algo)])],
  );
}

const settingsOf = (algo) => Object.keys(algorithms[algo].defaults).map(settingFlag).join(', ');
const text = (v) => String(v).slice(0, 40);

/**
 * A setting's value from its text on the command line: text that is not a number is refused
 * here, echoed with what is allowed; createLearner holds a number to the setting's range.
 */
function settingValue(algo, name, given) {
  const d = algorithms[algo].defaults[name];
  const number = (t) => (t.trim() === '' ? NaN : Number(t));
  // a list (hidden layers) is comma-separated
  const value = Array.isArray(d) ? given.split(',').map(number) : number(given);
  if ([value].flat().some(Number.isNaN))
    throw new UsageError(
      `${settingFlag(name)} must be ${allowed(algorithms[algo].limits[name])}${Array.isArray(d) ? ', comma-separated' : ''}, got ${text(given)}`,
    );
  return value;
}

/** --threads (or its former name --workers) from the options' values; undefined: one per core. */
function threadsValue({ threads, workers }) {
  if (threads !== undefined && workers !== undefined) throw new UsageError('--workers is the former name of --threads: give one of them');
  const given = threads ?? workers;
  return given === undefined ? undefined : countValue('threads', given);
}

/** A count option's value (steps, seed, eval-every, eval-episodes, threads) from its text, within its range. */
function countValue(k, given) {
  // the largest value of each: a run of a trillion steps, every validation seed (what the
  // run is evaluated on); the learner checks the seed's range
  const most = {
    steps: MAX_STEPS,
    seed: Number.MAX_SAFE_INTEGER,
    evalEvery: MAX_STEPS,
    evalEpisodes: SPLITS.validation.count,
    threads: THREADS_MAX,
  };
  const n = Number(given);
  const least = k === 'seed' ? 0 : 1;
  if (!Number.isInteger(n) || n < least || n > most[k]) {
    const hint = k === 'steps' || k === 'evalEvery' ? ' (5e6 is fine)' : '';
    const range = k === 'seed' ? 'a non-negative whole number' : `a whole number from ${least} to ${most[k]}${hint}`;
    throw new UsageError(`${settingFlag(k)} must be ${range}, got ${text(given)}`);
  }
  return n;
}

function progressValue(given) {
  const n = Number(given);
  if (!(n >= 0 && n <= 86_400)) throw new UsageError(`--progress-every must be a number of seconds from 0 to 86400, got ${text(given)}`);
  return n;
}

/** Every option of every learner, parsed (a typo is refused, with the nearest names). */
function parseAll(argv) {
  return parseOptions(
    argv,
    { ...OPTIONS, ...allSettings() },
    {
      unknownHint: (v) =>
        v.resume !== undefined
          ? null // (a resumed run's options are told once its checkpoint is read)
          : Object.hasOwn(algorithms, v.algo ?? OPTIONS.algo.default)
            ? `${v.algo ?? OPTIONS.algo.default}'s settings are ${settingsOf(v.algo ?? OPTIONS.algo.default)}`
            : null,
    },
  ).values;
}

/** A new run's options from its command line (not --resume's: parseResume). */
export function parse(argv) {
  const values = parseAll(argv);
  const o = {
    algo: OPTIONS.algo.default,
    steps: 1e6,
    seed: 1,
    out: 'policy.json',
    log: null,
    logFormat: 'csv',
    evalEvery: null,
    evalEpisodes: 50,
    progressEvery: 10,
    force: false,
    resume: null,
    maxSeconds: null,
  };
  const settings = {};
  for (const [k, v] of Object.entries(values)) {
    if (Object.hasOwn(OPTIONS, settingFlag(k).slice(2))) o[k] = v;
    else settings[k] = v;
  }
  if (o.resume !== null) throw new UsageError('--resume takes the run from its checkpoint (parseResume)');
  if (!envIds.includes(o.env)) throw new UsageError(`--env must be one of ${envIds.join(', ')}`);
  if (!Object.hasOwn(algorithms, o.algo)) throw new UsageError(`--algo must be one of ${Object.keys(algorithms).join(', ')}`);
  if (!['csv', 'jsonl'].includes(o.logFormat)) throw new UsageError('--log-format must be csv or jsonl');
  const defaults = algorithms[o.algo].defaults;
  o.settings = {};
  for (const [name, value] of Object.entries(settings)) {
    if (!Object.hasOwn(defaults, name))
      throw new UsageError(`${settingFlag(name)} is not a ${o.algo} setting; ${o.algo}'s settings are ${settingsOf(o.algo)}`);
    o.settings[name] = settingValue(o.algo, name, value);
  }
  o.threads = threadsValue(o);
  for (const k of ['steps', 'seed', 'evalEvery', 'evalEpisodes']) if (o[k] !== null) o[k] = countValue(k, o[k]);
  o.checkpointSeconds = 0;
  if (o.checkpointEvery !== undefined) {
    if (!algorithms[o.algo].resume)
      throw new UsageError(`--checkpoint-every saves ${resumable().join(', ')} runs (${o.algo} runs cannot be resumed)`);
    // a number of steps, or a time (a checkpoint at the first chance once that much has passed: 0 steps)
    const time = /^(\d+(?:\.\d+)?)(s|m|h)$/.exec(o.checkpointEvery);
    const n = time ? 0 : Number(o.checkpointEvery);
    o.checkpointSeconds = time ? Number(time[1]) * { s: 1, m: 60, h: 3600 }[time[2]] : 0;
    if (time ? !(o.checkpointSeconds > 0 && o.checkpointSeconds <= 1e9) : !Number.isInteger(n) || n < 1 || n > MAX_STEPS)
      throw new UsageError(
        `--checkpoint-every must be a whole number of steps from 1 to ${MAX_STEPS} (1e6 is fine) or a time such as 90s, 10m or 1h, got ${text(o.checkpointEvery)}`,
      );
    o.checkpointEvery = n;
  } else o.checkpointEvery = null;
  if (o.maxSeconds !== null) o.maxSeconds = maxSecondsValue(o.maxSeconds);
  o.progressEvery = progressValue(o.progressEvery);
  o.evalEvery ??= Math.ceil(o.steps / 10);
  return o;
}

function maxSecondsValue(given) {
  const n = Number(given);
  if (!(n > 0 && n <= 31_536_000))
    throw new UsageError(
      `--max-seconds must be a number of seconds above 0, at most a year (31536000); 600 is ten minutes, got ${text(given)}`,
    );
  return n;
}

/**
 * A checkpoint file's contents, checked whole as data (learn/checkpointCheck.js: the
 * envelope, the learner's state, the command's record) before anything is built or opened
 * from it; a UsageError naming the field and what is allowed.
 */
function readCheckpoint(file) {
  const named = `--resume ${String(file).slice(0, 200)}`;
  let ckpt;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) throw new UsageError(`${named}: not a file`);
    if (stat.size > MAX_CHECKPOINT_BYTES)
      throw new UsageError(`${named}: ${stat.size} bytes, more than any checkpoint (${MAX_CHECKPOINT_BYTES})`);
    ckpt = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`${named}: ${err.code === 'ENOENT' ? 'no such file' : `not a checkpoint (${String(err.message).slice(0, 80)})`}`);
  }
  const unprefixed = (err) => String(err.message).replace(/^valley-farm\/learn: /, '');
  try {
    checkCheckpoint(ckpt, algorithms);
  } catch (err) {
    throw new UsageError(`${named}: ${unprefixed(err)}`);
  }
  if (ckpt.cli === undefined) throw new UsageError(`${named}: a checkpoint without the record valley-farm train keeps (its "cli" field)`);
  try {
    checkTrainRecord(ckpt, algorithms);
  } catch (err) {
    throw new UsageError(`${named}: ${unprefixed(err)}`);
  }
  return ckpt;
}

/**
 * A resumed run's options: its settings and options are its checkpoint's; the command line
 * may give only resumeOptions (where it writes, how long it runs, its threads, --force).
 */
function parseResume(argv) {
  const values = parseAll(argv);
  const file = values.resume;
  const ckpt = readCheckpoint(file);
  const r = ckpt.cli;
  const { env, algo, seed, ...settings } = ckpt.config;
  const takes = resumeOptions();
  const other = Object.keys(values).find((k) => !takes.includes(k));
  if (other !== undefined)
    throw new UsageError(
      `${settingFlag(other)} cannot be given with --resume: a resumed run keeps its checkpoint's options and settings; --resume takes only ${takes
        .slice(1)
        .map(settingFlag)
        .join(', ')}`,
    );
  const done = ckpt.state.steps;
  const steps = values.steps === undefined ? r.steps : countValue('steps', values.steps);
  if (steps < done)
    throw new UsageError(
      `--steps ${text(values.steps)}: the checkpoint has trained ${done} steps already; give at least that many (more extends the run)`,
    );
  let out = values.out;
  if (out === undefined) {
    if (!/\.ckpt$/.test(file))
      throw new UsageError(`--resume ${text(file)}: its name does not end in .ckpt, so its policy has no default name: give --out`);
    out = file.slice(0, -'.ckpt'.length);
  }
  // the curve goes beside the policy: the checkpoint holds the whole curve so far, so the file is whole wherever it goes
  const log = values.log ?? (r.curve === null ? null : `${out.replace(/\.json$/, '')}.${r.logFormat}`);
  return {
    env,
    algo,
    seed,
    settings,
    steps,
    out,
    log,
    logFormat: r.logFormat,
    evalEvery: r.evalEvery,
    evalEpisodes: r.evalEpisodes,
    checkpointEvery: r.checkpointEvery,
    checkpointSeconds: r.checkpointSeconds,
    progressEvery: values.progressEvery === undefined ? r.progressEvery : progressValue(values.progressEvery),
    maxSeconds: r.maxSeconds ?? null, // the run's time budget, counted over all of it
    threads: threadsValue(values), // any number: the run's bits do not depend on it
    force: Boolean(values.force),
    resume: { file, ckpt },
  };
}

/** The real paths of a run's outputs { out, log, ckpt } (null where it writes none), checked before training (outputs.mjs). */
function outputsOf(o) {
  const curve = o.resume?.ckpt.cli.curve ?? null;
  const list = [{ flag: '--out', file: o.out }];
  if (o.log !== null)
    list.push({
      flag: '--log',
      file: o.log,
      // a resumed run's own curve goes on (its rows after the checkpoint are played again)
      own: (real) => {
        try {
          return curve !== null && beginsWith(real, curve);
        } catch {
          return false;
        }
      },
    });
  if (o.checkpointEvery !== null)
    list.push({
      flag: 'the checkpoint (--out + .ckpt)',
      file: `${o.out}.ckpt`,
      rewrites: '--resume',
      exists: `a checkpoint of an earlier run? --resume ${String(o.out).slice(0, 80)}.ckpt continues it`,
    });
  const real = checkOutputs(list, { force: o.force, inputs: o.resume ? [{ flag: '--resume', file: o.resume.file }] : [] });
  return { out: real[0], log: o.log === null ? null : real[1], ckpt: o.checkpointEvery === null ? null : real.at(-1) };
}

const CURVE = [
  'steps',
  'seconds',
  'train_seconds',
  'episodes',
  'mean_return_last_100',
  'policy_loss',
  'value_loss',
  'entropy',
  'learning_rate',
  'validation_mean',
  'validation_normalized',
];

/** A curve row's text in the chosen format (null: no value). */
function curveLine(format, row) {
  if (format === 'jsonl') return `${JSON.stringify(Object.fromEntries(CURVE.map((k, i) => [k, row[i]])))}\n`;
  return `${row.map((v) => (v === null ? '' : v)).join(',')}\n`;
}

const round = (x, digits) => (Number.isFinite(x) ? Number(x.toFixed(digits)) : null);
const quoted = (args) => args.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a))).join(' ');

export async function main(argv) {
  if (wantsHelp(argv)) {
    process.stdout.write(help());
    return 0;
  }
  const command = argv; // as given: the run's record names the learner's file, if it was one
  let o;
  let files;
  try {
    // a learner of your own: its file is imported and registered, then named by its learner's name
    const file = optionValue(argv, 'algo');
    if (isLearnerFile(file)) argv = withOption(argv, 'algo', await registerLearnerFile(file));
    o = argv.some((a) => a === '--resume' || a.startsWith('--resume=')) ? parseResume(argv) : parse(argv);
    files = outputsOf(o);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`valley-farm train: ${err.message}\nusage: ${USAGE}\n(valley-farm train --help lists every option)`);
    return 2;
  }
  const resumed = o.resume?.ckpt ?? null;
  const record = resumed?.cli ?? null;
  let learner;
  try {
    // the settings that follow the run's length (PPO's anneal) default to --steps; a resumed
    // run has every setting from its checkpoint
    learner = await createLearner({ env: o.env, algo: o.algo, seed: o.seed, steps: o.steps, threads: o.threads, ...o.settings });
    if (resumed) await learner.restore(resumed);
  } catch (err) {
    console.error(`valley-farm train: ${err.message}\nusage: ${USAGE}`);
    learner?.dispose();
    return 2;
  }
  const started = Date.now() - (record?.elapsedMs ?? 0);
  const screen = new ProgressLine({ every: o.progressEvery });
  let nextEval = record?.nextEval ?? o.evalEvery;
  let trainMs = record?.trainMs ?? 0; // time inside trainFor, cloning the planner excluded
  let evalMs = record?.evalMs ?? 0;
  let evalsDone = record?.evalsDone ?? 0;
  let p = learner.progress();
  const problems = []; // what could not be written
  // The curve is kept whole in memory: a checkpoint holds it, and a write that failed is made again at the end.
  const curve = { text: record?.curve ?? (o.logFormat === 'csv' ? `${CURVE.join(',')}\n` : ''), failed: null };
  if (files.log) {
    try {
      writeWhole(files.log, curve.text);
    } catch (err) {
      curve.failed = err;
    }
  }
  if (resumed) {
    screen.note(
      `resumed at ${p.steps.toLocaleString('en')} steps${o.steps > record.steps ? `, extended to ${o.steps.toLocaleString('en')}` : ''}`,
    );
    if (o.log)
      screen.note(`the learning curve goes to ${o.log}${record.curve === null ? `, from ${p.steps.toLocaleString('en')} steps on` : ''}`);
  }
  const argvRecord = record?.argv ?? command; // the command that started the run
  let saved = resumed ? { file: o.resume.file, steps: p.steps } : null; // the last checkpoint
  /** Saves the run in its checkpoint if the learner can take one now; a note if it cannot be written. */
  const save = async () => {
    const ckpt = await learner.checkpoint(); // null where the learner cannot take one (PPO while it clones)
    if (!ckpt) return false;
    ckpt.cli = {
      argv: argvRecord,
      steps: o.steps,
      evalEvery: o.evalEvery,
      evalEpisodes: o.evalEpisodes,
      logFormat: o.logFormat,
      checkpointEvery: o.checkpointEvery,
      checkpointSeconds: o.checkpointSeconds,
      progressEvery: o.progressEvery,
      maxSeconds: o.maxSeconds,
      curve: o.log || record?.curve != null ? curve.text : null,
      trainMs,
      evalMs,
      elapsedMs: Date.now() - started,
      evalsDone,
      nextEval,
    };
    try {
      writeWhole(files.ckpt, JSON.stringify(ckpt));
    } catch (err) {
      screen.note(
        `could not save the checkpoint ${o.out}.ckpt: ${reason(err)}${saved ? ` (the one at ${saved.steps.toLocaleString('en')} steps stays)` : ''}`,
      );
      return false;
    }
    saved = { file: `${o.out}.ckpt`, steps: p.steps };
    return true;
  };
  let lastCheckpoint = Date.now();
  const chunk = Math.min(o.evalEvery, 50_000, o.checkpointEvery || Infinity);
  // the next checkpoint by steps: at the first multiple of --checkpoint-every the run reaches
  const nextCheckpoint = () => (o.checkpointEvery ? (Math.floor(p.steps / o.checkpointEvery) + 1) * o.checkpointEvery : Infinity);
  let checkpointAt = nextCheckpoint();
  if (!resumed && o.settings.imitate > 0)
    screen.note(`cloning ${o.settings.imitate.toLocaleString('en')} of the planner's episodes first…`);
  if (curve.failed)
    screen.note(
      `could not write the learning curve to ${o.log}: ${reason(curve.failed)}; training goes on, and it is tried again at the end`,
    );
  // a time budget ends the run at the first report after it (a chunk is at most 50,000 steps)
  const outOfTime = () => o.maxSeconds !== null && Date.now() - started >= 1000 * o.maxSeconds;
  let stopped = false;
  while (p.steps < o.steps && !stopped) {
    const cloned = Boolean(p.imitation);
    const t0 = Date.now();
    p = await learner.trainFor(Math.min(chunk, o.steps - p.steps, checkpointAt - p.steps), {
      onProgress: ({ imitation: i }) =>
        i?.phase &&
        screen.update(
          `cloning the planner: ${i.phase === 'planning' ? 'planned' : 'passes over its play'} ${i.done.toLocaleString('en')} / ${i.total.toLocaleString('en')}${i.phase === 'planning' ? ' episodes' : ''}  ${Math.round(i.seconds)} s`,
        ),
    });
    trainMs += Date.now() - t0;
    if (!cloned && p.imitation) {
      trainMs -= p.imitation.seconds * 1000;
      screen.note(
        `cloned the planner: ${p.imitation.samples.toLocaleString('en')} steps of its play in ${p.imitation.seconds.toFixed(1)} s (cross-entropy ${p.imitation.loss.toFixed(3)})`,
      );
    }
    const stepsPerSec = trainMs > 0 ? (1000 * p.steps) / trainMs : 0;
    stopped = outOfTime();
    let val = null;
    if (p.steps >= nextEval || p.steps >= o.steps || stopped) {
      nextEval += o.evalEvery;
      const t1 = Date.now();
      val = await evaluate(learner.policy(), { env: o.env, split: 'validation', episodes: o.evalEpisodes });
      evalMs += Date.now() - t1;
      evalsDone++;
      screen.note(
        `validation at ${p.steps.toLocaleString('en')} steps: mean return ${val.mean.toFixed(2)} (normalised ${val.normalized.mean.toFixed(3)}) on ${val.seeds.length} seeds`,
      );
    }
    const losses = p.losses ?? {};
    const row = [
      p.steps,
      round((Date.now() - started) / 1000, 1),
      round(trainMs / 1000, 1),
      p.episodes,
      round(p.meanReturn, 3),
      round(losses.policy, 5),
      round(losses.value, 5),
      round(losses.entropy, 5),
      losses.learningRate ?? learner.config.learningRate ?? learner.config.alpha ?? null,
      val ? round(val.mean, 3) : null,
      val ? round(val.normalized.mean, 4) : null,
    ];
    const line = curveLine(o.logFormat, row);
    curve.text += line;
    if (files.log && !curve.failed) {
      try {
        appendFileSync(files.log, line);
      } catch (err) {
        curve.failed = err;
        screen.note(`could not write the learning curve to ${o.log}: ${reason(err)}; training goes on, and it is tried again at the end`);
      }
    }
    const due = o.checkpointSeconds ? Date.now() - lastCheckpoint >= 1000 * o.checkpointSeconds : p.steps >= checkpointAt;
    if (o.checkpointEvery !== null && p.steps < o.steps && !stopped && due && (await save())) {
      lastCheckpoint = Date.now(); // (not before: a time waits for the first chance after it: PPO takes none while it clones)
      checkpointAt = nextCheckpoint();
      screen.note(`checkpoint at ${p.steps.toLocaleString('en')} steps: ${o.out}.ckpt (--resume ${o.out}.ckpt continues from here)`);
    }
    const left = secondsLeft({
      steps: p.steps,
      total: o.steps,
      stepsPerSec,
      evalsLeft: p.steps >= o.steps ? 0 : evaluationsLeft(nextEval, o.steps, o.evalEvery),
      evalSeconds: evalMs / 1000,
      evalsDone,
    });
    screen.update(
      `steps ${p.steps.toLocaleString('en')} / ${o.steps.toLocaleString('en')}  ${Math.round(stepsPerSec).toLocaleString('en')} steps/s  episodes ${p.episodes.toLocaleString('en')}  mean return ${p.meanReturn?.toFixed(2) ?? '–'}  ${Math.round(left)} s left`,
    );
  }
  screen.done();
  // the run's end is saved too, so that --resume with a larger --steps extends it (and the
  // policy can be had again from it if it cannot be written below)
  if (o.checkpointEvery !== null) await save();
  const seconds = (Date.now() - started) / 1000;
  const policy = learner.policy().toJSON();
  // what made this policy; loadPolicy reads none of it
  policy.run = {
    seed: o.seed,
    steps: p.steps,
    seconds: round(seconds, 1),
    trainSeconds: round(trainMs / 1000, 1),
    ...(stopped && { stoppedBy: 'max-seconds' }),
    ...(p.threads && { threads: p.threads, shards: p.shards }), // the threads changed only the speed
    package: `${pkg.name}@${pkg.version}`,
    command: `valley-farm train ${quoted(argvRecord)}`,
    ...(resumed && { resumed: `valley-farm train ${quoted(argv)}` }),
    node: process.version,
    date: new Date().toISOString(),
  };
  learner.dispose();
  const json = JSON.stringify(policy);
  let wrote = true;
  try {
    writeWhole(files.out, json, { replace: o.force });
  } catch (err) {
    wrote = false;
    let where;
    if (saved) {
      const again = saved.steps < p.steps ? `, training its last ${(p.steps - saved.steps).toLocaleString('en')} steps again` : '';
      where = `the run is saved in ${saved.file} (at ${saved.steps.toLocaleString('en')} steps): valley-farm train --resume ${saved.file} --out OTHER.json writes its policy${again}`;
    } else where = rescue(json, o.out);
    problems.push(`could not write the policy to ${o.out}: ${reason(err)}; ${where}`);
  }
  let curveWritten = Boolean(files.log);
  if (files.log && curve.failed) {
    try {
      writeWhole(files.log, curve.text);
    } catch (err) {
      curveWritten = false;
      problems.push(`could not write the learning curve to ${o.log}: ${reason(err)}`);
    }
  }
  for (const problem of problems) console.error(`valley-farm train: ${problem}`);
  if (wrote)
    console.log(
      `wrote ${o.out}${curveWritten ? ` and ${o.log}` : ''}: ${o.algo} on ${o.env}, ${p.steps.toLocaleString('en')} steps in ${seconds.toFixed(1)} s (${(trainMs / 1000).toFixed(1)} s of it training, ${Math.round((1000 * p.steps) / Math.max(trainMs, 1)).toLocaleString('en')} steps/s)`,
    );
  return problems.length ? 1 : 0;
}

/**
 * A trained policy that could not be written where asked, and has no checkpoint to be had
 * from again: written to the temporary folder instead (a new file), so the run is not lost.
 * Says where, or that it could not be saved at all.
 */
function rescue(json, out) {
  const file = join(tmpdir(), `valley-farm-policy-${process.pid}-${Date.now()}.json`);
  try {
    writeWhole(file, json, { replace: false });
    return `the policy is saved in ${file} instead (move it where you want it)`;
  } catch (err) {
    return `nor in the temporary folder (${reason(err)}): the policy for ${String(out).slice(0, 80)} is lost`;
  }
}
