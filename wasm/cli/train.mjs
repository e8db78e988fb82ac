// train.mjs — `npx valley-farm train --env ENV [--algo ALGO] [--steps N] [--seed S]
//             [--out policy.json] [--log curve.csv] [--eval-every N] [--SETTING VALUE ...]`
// Trains a learner (valley-farm/learn) with a progress line, evaluates it on the validation
// split as it goes, and writes the policy (JSON, with a "run" record of how it was made) and
// the learning curve (CSV or JSON lines, a row per report as training goes). Any setting of
// the learner (algorithms[algo].defaults, from the learners' registry) is an option too, in
// kebab case: --history 4, --num-envs 128, --hidden 128,128; `--help` lists them with their
// defaults and meanings. Every learner the registry holds when a command is parsed is one.
// parse() is exported for the test that checks the commands recorded in docs/runs.
import { accessSync, appendFileSync, constants, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { envIds } from '../index.js';
import { SPLITS } from '../splits.js';
import { evaluate } from '../evaluate.js';
import { algorithms, createLearner, runDefaultsOf, settingFlag } from '../learn/index.js';
import { UsageError, helpText, parseOptions, wantsHelp } from './args.mjs';
import { ProgressLine, evaluationsLeft, secondsLeft } from './progress.mjs';
import pkg from '../../package.json' with { type: 'json' };

const MAX_STEPS = 1e12;
const TIME_GRAIN = 2 ** 20; // --checkpoint-every TIME: where a checkpoint may be taken
const USAGE = 'valley-farm train --env ENV [--algo ALGO] [--steps N] [--out policy.json] [--log curve.csv] [--SETTING VALUE ...]';

const OPTIONS = {
  env: { arg: 'ENV', what: `the env to train on: ${envIds.join(', ')} (required)` },
  algo: {
    arg: 'ALGO',
    default: 'tabular-q',
    get what() {
      return `the learner: ${Object.keys(algorithms).join(', ')}`;
    },
  },
  steps: { arg: 'N', default: 1e6, what: 'env steps to train (5e6 is fine)' },
  'max-seconds': {
    arg: 'S',
    what: "also stop once S seconds of wall-clock time have passed (cloning and validation included), at the next report, validated and written as at the end of --steps (a time budget; --steps still sets the schedule, e.g. PPO's anneal)",
  },
  seed: { arg: 'S', default: 1, what: 'seeds the learner: the same seed and settings train to the same policy' },
  out: { arg: 'FILE', default: 'policy.json', what: 'where the policy is written (its folder must exist)' },
  log: { arg: 'FILE', what: 'where the learning curve is written as training goes (default: none)' },
  'log-format': { arg: 'FORMAT', default: 'csv', what: 'the curve as csv, or jsonl (a JSON object per line)' },
  'eval-every': { arg: 'N', what: 'env steps between validation runs (default: a tenth of --steps)' },
  'eval-episodes': { arg: 'N', default: 50, what: 'validation seeds each validation run plays' },
  'progress-every': { arg: 'SECONDS', default: 10, what: 'outside a terminal, seconds between progress lines' },
  'checkpoint-every': {
    arg: 'N|TIME',
    get what() {
      return `${resumable().join(', ')}: env steps (1e6) or a time (90s, 10m, 1h) between checkpoints, saved to the --out file + .ckpt; a killed run continues with --resume to exactly the policy the unbroken run gives (a time saves at the first multiple of 1,048,576 steps after it, rounded up to whole rollouts)`;
    },
  },
  resume: { arg: 'FILE', what: 'continue the run saved in this checkpoint, with the options it was started with (give no other option)' },
};

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
      'and command.',
    [['options', OPTIONS], ...Object.keys(algorithms).map((algo) => [`${algo} settings (with --algo ${algo})`, settingRows(algo)])],
  );
}

const settingsOf = (algo) => Object.keys(algorithms[algo].defaults).map(settingFlag).join(', ');

export function parse(argv) {
  const { values } = parseOptions(
    argv,
    { ...OPTIONS, ...allSettings() },
    {
      unknownHint: (v) =>
        Object.hasOwn(algorithms, v.algo ?? OPTIONS.algo.default)
          ? `${v.algo ?? OPTIONS.algo.default}'s settings are ${settingsOf(v.algo ?? OPTIONS.algo.default)}`
          : null,
    },
  );
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
    maxSeconds: null,
  };
  const settings = {};
  for (const [k, v] of Object.entries(values)) {
    if (Object.hasOwn(OPTIONS, settingFlag(k).slice(2))) o[k] = v;
    else settings[k] = v;
  }
  if (!envIds.includes(o.env)) throw new UsageError(`--env must be one of ${envIds.join(', ')}`);
  if (!Object.hasOwn(algorithms, o.algo)) throw new UsageError(`--algo must be one of ${Object.keys(algorithms).join(', ')}`);
  if (!['csv', 'jsonl'].includes(o.logFormat)) throw new UsageError('--log-format must be csv or jsonl');
  const defaults = algorithms[o.algo].defaults;
  o.settings = {};
  for (const [name, value] of Object.entries(settings)) {
    if (!Object.hasOwn(defaults, name))
      throw new UsageError(`${settingFlag(name)} is not a ${o.algo} setting; ${o.algo}'s settings are ${settingsOf(o.algo)}`);
    // a list (hidden layers) is comma-separated; createLearner checks every value
    o.settings[name] = Array.isArray(defaults[name]) ? value.split(',').map(Number) : Number(value);
  }
  // the largest value of each: a run of a trillion steps, every validation seed (what the
  // run is evaluated on); the learner checks the seed's range
  const most = { steps: MAX_STEPS, seed: Number.MAX_SAFE_INTEGER, evalEvery: MAX_STEPS, evalEpisodes: SPLITS.validation.count };
  for (const k of ['steps', 'seed', 'evalEvery', 'evalEpisodes']) {
    if (o[k] === null) continue;
    const n = Number(o[k]);
    const least = k === 'seed' ? 0 : 1;
    if (!Number.isInteger(n) || n < least || n > most[k]) {
      const range = k === 'seed' ? 'a non-negative whole number' : `a whole number from ${least} to ${most[k]} (5e6 is fine)`;
      throw new UsageError(`${settingFlag(k)} must be ${range}, got ${String(o[k]).slice(0, 40)}`);
    }
    o[k] = n;
  }
  if (o.log !== null && resolve(o.log) === resolve(o.out))
    throw new UsageError(
      `--log and --out name the same file (${String(o.out).slice(0, 80)}): the curve would replace the policy; give them different names`,
    );
  if (o.checkpointEvery !== undefined) {
    const resume = algorithms[o.algo].resume;
    if (!resume) throw new UsageError(`--checkpoint-every saves ${resumable().join(', ')} runs (${o.algo} runs cannot be resumed)`);
    // a time: checkpoints where the envs start afresh every TIME_GRAIN steps, once that much time has passed
    const time = /^(\d+(?:\.\d+)?)(s|m|h)$/.exec(o.checkpointEvery);
    const n = time ? TIME_GRAIN : Number(o.checkpointEvery);
    o.checkpointSeconds = time ? Number(time[1]) * { s: 1, m: 60, h: 3600 }[time[2]] : 0;
    if (!Number.isInteger(n) || n < 1 || n > MAX_STEPS || (time && !(o.checkpointSeconds > 0)))
      throw new UsageError(
        `--checkpoint-every must be a whole number of steps from 1 to ${MAX_STEPS} (1e6 is fine) or a time such as 90s, 10m or 1h`,
      );
    // every env starts afresh at each checkpoint (PPO's restartEvery), so a checkpoint keeps no env
    const grain = resume.grain({ ...defaults, ...o.settings });
    o.checkpointEvery = Math.ceil(n / grain) * grain;
    if (o.settings[resume.setting] !== undefined && o.settings[resume.setting] !== o.checkpointEvery)
      throw new UsageError(`--checkpoint-every sets ${settingFlag(resume.setting)}: give one of them`);
    o.settings[resume.setting] = o.checkpointEvery;
  }
  if (o.maxSeconds !== null) {
    o.maxSeconds = Number(o.maxSeconds);
    if (!(o.maxSeconds > 0 && o.maxSeconds <= 31_536_000))
      throw new UsageError('--max-seconds must be a number of seconds above 0, at most a year (31536000); 600 is ten minutes');
  }
  o.progressEvery = Number(o.progressEvery);
  if (!(o.progressEvery >= 0 && o.progressEvery <= 86_400))
    throw new UsageError('--progress-every must be a number of seconds from 0 to 86400');
  o.evalEvery ??= Math.ceil(o.steps / 10);
  return o;
}

/** Why `file` cannot be written (its folder missing, not a folder, read-only; it a folder), or null. */
export function unwritable(file) {
  const folder = dirname(resolve(file));
  try {
    if (!statSync(folder).isDirectory()) return `${folder} is not a folder`;
  } catch {
    return `the folder ${folder} does not exist`;
  }
  try {
    if (statSync(file).isDirectory()) return `${file} is a folder`;
    accessSync(file, constants.W_OK);
  } catch (err) {
    if (err.code !== 'ENOENT') return `${file} is not writable`;
    try {
      accessSync(folder, constants.W_OK);
    } catch {
      return `the folder ${folder} is not writable`;
    }
  }
  return null;
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

/** A checkpoint file's contents (the learner's checkpoint and the command's own counters), or a UsageError. */
function readCheckpoint(file) {
  let ckpt;
  try {
    ckpt = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UsageError(
      `--resume ${String(file).slice(0, 80)}: ${err.code === 'ENOENT' ? 'no such file' : `not a checkpoint (${err.message.slice(0, 80)})`}`,
    );
  }
  const cli = ckpt?.cli;
  if (
    !cli ||
    !Array.isArray(cli.argv) ||
    !cli.argv.every((a) => typeof a === 'string') ||
    !['trainMs', 'evalMs', 'evalsDone', 'nextEval', 'elapsedMs'].every((k) => Number.isFinite(cli[k]))
  )
    throw new UsageError(`--resume ${String(file).slice(0, 80)}: not a checkpoint written by valley-farm train`);
  if (cli.argv.includes('--resume')) throw new UsageError(`--resume ${String(file).slice(0, 80)}: a damaged checkpoint (it names another)`);
  return ckpt;
}

/** Writes `data` to `file` whole or not at all (a kill mid-write leaves the old file). */
function writeWhole(file, data) {
  writeFileSync(`${file}.part`, data);
  renameSync(`${file}.part`, file);
}

export async function main(argv) {
  if (wantsHelp(argv)) {
    process.stdout.write(help());
    return 0;
  }
  let o;
  let resumed = null;
  try {
    if (argv.some((a) => a === '--resume' || a.startsWith('--resume='))) {
      const { values } = parseOptions(argv, { resume: OPTIONS.resume });
      resumed = readCheckpoint(values.resume);
      argv = resumed.cli.argv;
    }
    o = parse(argv);
    for (const [flag, file] of [
      ['--out', o.out],
      ['--log', o.log],
    ]) {
      const why = file && unwritable(file);
      if (why) throw new UsageError(`${flag} ${file} cannot be written: ${why}`);
    }
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`valley-farm train: ${err.message}\nusage: ${USAGE}\n(valley-farm train --help lists every option)`);
    return 2;
  }
  let learner;
  try {
    // the settings that follow the run's length (PPO's anneal) default to --steps; a resumed
    // run keeps the values its checkpoint was made with (a checkpoint from before such a
    // default existed has its own)
    const settings = { ...o.settings };
    if (resumed) for (const k of Object.keys(runDefaultsOf(algorithms[o.algo], o.steps))) settings[k] ??= resumed.config?.[k];
    learner = await createLearner({ env: o.env, algo: o.algo, seed: o.seed, steps: o.steps, ...settings });
    if (resumed) await learner.restore(resumed);
  } catch (err) {
    console.error(`valley-farm train: ${err.message}\nusage: ${USAGE}`);
    learner?.dispose();
    return 2;
  }
  const started = Date.now() - (resumed?.cli.elapsedMs ?? 0);
  const screen = new ProgressLine({ every: o.progressEvery });
  let nextEval = resumed?.cli.nextEval ?? o.evalEvery;
  let trainMs = resumed?.cli.trainMs ?? 0; // time inside trainFor, cloning the planner excluded
  let evalMs = resumed?.cli.evalMs ?? 0;
  let evalsDone = resumed?.cli.evalsDone ?? 0;
  let p = learner.progress();
  if (o.log && !resumed) writeFileSync(o.log, o.logFormat === 'csv' ? `${CURVE.join(',')}\n` : '');
  if (o.log && resumed) {
    // the curve as it was at the checkpoint: rows written after it are played again
    const kept = readFileSync(o.log, 'utf8')
      .split('\n')
      .filter(
        (line, i) =>
          line &&
          (o.logFormat === 'csv' && i === 0
            ? true
            : Number(o.logFormat === 'csv' ? line.split(',')[0] : JSON.parse(line).steps) <= p.steps),
      );
    writeFileSync(o.log, kept.map((l) => `${l}\n`).join(''));
  }
  if (resumed) screen.note(`resumed at ${p.steps.toLocaleString('en')} steps`);
  const ckptFile = `${o.out}.ckpt`;
  let lastCheckpoint = Date.now();
  const chunk = Math.min(o.evalEvery, 50_000, o.checkpointEvery ?? Infinity);
  if (o.settings.imitate > 0) screen.note(`cloning ${o.settings.imitate.toLocaleString('en')} of the planner's episodes first…`);
  // a time budget ends the run at the first report after it (a chunk is at most 50,000 steps)
  const outOfTime = () => o.maxSeconds !== null && Date.now() - started >= 1000 * o.maxSeconds;
  let stopped = false;
  while (p.steps < o.steps && !stopped) {
    const cloned = Boolean(p.imitation);
    const t0 = Date.now();
    const toCheckpoint = o.checkpointEvery ? o.checkpointEvery - (p.steps % o.checkpointEvery) : Infinity;
    p = await learner.trainFor(Math.min(chunk, o.steps - p.steps, toCheckpoint), {
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
    if (o.log) appendFileSync(o.log, curveLine(o.logFormat, row));
    const due = !o.checkpointSeconds || Date.now() - lastCheckpoint >= 1000 * o.checkpointSeconds;
    if (o.checkpointEvery && p.steps < o.steps && !stopped && due) {
      const ckpt = await learner.checkpoint(); // null between the steps where the envs start afresh
      if (ckpt) {
        lastCheckpoint = Date.now(); // (not before: a time waits for the first such step after it)
        ckpt.cli = { argv, trainMs, evalMs, evalsDone, nextEval, elapsedMs: Date.now() - started };
        writeWhole(ckptFile, JSON.stringify(ckpt));
        screen.note(`checkpoint at ${p.steps.toLocaleString('en')} steps: ${ckptFile} (--resume ${ckptFile} continues from here)`);
      }
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
  const seconds = (Date.now() - started) / 1000;
  const policy = learner.policy().toJSON();
  // what made this policy; loadPolicy reads none of it
  policy.run = {
    seed: o.seed,
    steps: p.steps,
    seconds: round(seconds, 1),
    trainSeconds: round(trainMs / 1000, 1),
    ...(stopped ? { stoppedBy: 'max-seconds' } : {}),
    package: `${pkg.name}@${pkg.version}`,
    command: ['valley-farm', 'train', ...argv].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a))).join(' '),
    node: process.version,
    date: new Date().toISOString(),
  };
  try {
    writeFileSync(o.out, JSON.stringify(policy));
    if (o.checkpointEvery) rmSync(ckptFile, { force: true }); // the policy is whole: nothing left to resume
  } catch (err) {
    console.error(`valley-farm train: could not write the policy to ${o.out}: ${err.message}`);
    learner.dispose();
    return 1;
  }
  console.log(
    `wrote ${o.out}${o.log ? ` and ${o.log}` : ''}: ${o.algo} on ${o.env}, ${p.steps.toLocaleString('en')} steps in ${seconds.toFixed(1)} s (${(trainMs / 1000).toFixed(1)} s of it training, ${Math.round((1000 * p.steps) / Math.max(trainMs, 1)).toLocaleString('en')} steps/s)`,
  );
  learner.dispose();
  return 0;
}
