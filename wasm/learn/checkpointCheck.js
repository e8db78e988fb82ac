// checkpointCheck.js — a checkpoint checked as data, before anything is built, opened or
// written from it.
//
// A checkpoint (learner.checkpoint(); `valley-farm train --checkpoint-every` saves one beside
// its policy) is a file anyone may hand over, so every field is checked before any is used:
//   checkCheckpoint   its envelope (format, version, env, algo, seed), the settings the run was
//                     made with (each within its learner's limits, together as its checkConfig
//                     allows; equal to a learner's, when one is given), then the learner's state
//                     through its resume.checkState(state, config) (registry.js)
//   checkPpoState     PPO's state (ppo.js's checkpoint()): every count on the grid and within
//                     what the run's steps imply, every array the length its settings give
//   checkTrainRecord  what `valley-farm train` adds (its "cli" field): the run's options and
//                     counters, the learning curve so far
// An error names the field (state.adamSteps) and what is allowed there. Nothing in a
// checkpoint says where to write: a resumed run's files are the command line's business, and
// the command it was started with is kept as a record only.
//
// The learners' table (registry.js's `algorithms`) is an argument, not an import: ppo.js
// imports this file, and the registry imports ppo.js.
import { envSpecs } from '../index.js';
import { SPLITS } from '../splits.js';
import { shown, weightCount, checkSettings } from './limits.js';
import { layoutShapes } from './core.js';
import { networkLayout } from './netPolicy.js';
import { RECENT } from './progress.js';

/** What every checkpoint's "format" is, and the version this package writes and reads. */
export const CHECKPOINT_FORMAT = 'valley-farm-checkpoint';
export const CHECKPOINT_VERSION = 2; // 1: runs of fixed workers, saved where their envs restarted

const MAX_STEPS = 1e12; // the longest run (createLearner's steps, the CLI's --steps)
const MAX_MS = 1e13; // three centuries: a run's times, in milliseconds
const FLOAT32_MAX = 3.4028234663852886e38; // a larger weight is infinite on the learner core

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The error for the checkpoint's field at `path`: what it must be, and what it was. */
function bad(path, wanted, got) {
  return new TypeError(`valley-farm/learn: the checkpoint's ${path} must be ${wanted}, got ${got}`);
}

/** Throws unless `v` is a whole number from min to max, a multiple of `grain` (`why`: what the grain is). */
function whole(v, path, min, max, grain = 1, why = '') {
  if (!Number.isInteger(v) || v < min || v > max || v % grain !== 0)
    throw bad(path, `a whole number from ${min} to ${max}${grain > 1 ? `, a multiple of ${grain}${why}` : ''}`, shown(v));
}

/** Throws unless `v` is a finite number from min to max (or null, with orNull: a loss that was not a number). */
function finite(v, path, min = -Infinity, max = Infinity, { orNull = false } = {}) {
  if (orNull && v === null) return;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) {
    const range = min === -Infinity ? 'a finite number' : max === Infinity ? `a number from ${min} up` : `a number from ${min} to ${max}`;
    throw bad(path, `${range}${orNull ? ' (or null)' : ''}`, shown(v));
  }
}

/** Throws unless `list` is an array of `length` numbers that are finite as float32 (the core's), from index `from` on at least 0. */
function floats(list, path, length, { nonNegativeFrom = length } = {}) {
  if (!Array.isArray(list) || list.length !== length)
    throw bad(path, `an array of ${length} numbers`, Array.isArray(list) ? `${list.length}` : shown(list));
  for (let i = 0; i < length; i++) {
    const v = list[i];
    if (typeof v !== 'number' || !(Math.abs(v) <= FLOAT32_MAX) || (i >= nonNegativeFrom && v < 0))
      throw bad(`${path}[${i}]`, i >= nonNegativeFrom ? 'a number from 0 to 3.4e38' : 'a number within ±3.4e38', shown(v));
  }
}

// A GRU's state is a mix of its last state and a tanh, an LSTM's h a gate times a tanh: from 0
// they stay within ±1, up to a float rounding or two (a margin that a state from anywhere else
// need not respect). An LSTM's c moves by at most 1 a step (f c + i g, each gate within 0 … 1,
// g within ±1), from 0 where its episode started: within ±(the episode's steps).
const STATE_MARGIN = 0.001;

/**
 * Throws unless `list` is the states of `envs` envs, each a recurrent state could be: `units`
 * U numbers an env, an LSTM's (`lstm`) 2U (h, then c, whose bound is `horizon`, an episode's
 * steps).
 */
function recurrentStates(list, path, envs, { units, lstm, horizon }) {
  const length = envs * (lstm ? 2 : 1) * units;
  const what = lstm ? `${envs} envs × an LSTM's h and c of ${units}` : `${envs} envs × recurrent ${units}`;
  if (!Array.isArray(list) || list.length !== length)
    throw bad(path, `an array of ${length} numbers (${what})`, Array.isArray(list) ? `${list.length}` : shown(list));
  for (let i = 0; i < length; i++) {
    const cell = lstm && i % (2 * units) >= units;
    const max = cell ? horizon : 1;
    if (typeof list[i] !== 'number' || !(Math.abs(list[i]) <= max + STATE_MARGIN))
      throw bad(
        `${path}[${i}]`,
        `a number from −${max} to ${max} (${cell ? "an LSTM's c, an episode's steps at most" : 'a recurrent state'})`,
        shown(list[i]),
      );
  }
}

/** Throws unless `v` is an object with every one of `required`, and no field but those and `optional`. */
function fields(v, path, required, optional = []) {
  if (!isObject(v)) throw bad(path, `an object of ${[...required, ...optional].join(', ')}`, shown(v));
  for (const k of required) if (!Object.hasOwn(v, k)) throw new TypeError(`valley-farm/learn: the checkpoint's ${path} has no ${k}`);
  for (const k of Object.keys(v))
    if (!required.includes(k) && !optional.includes(k))
      throw new TypeError(
        `valley-farm/learn: the checkpoint's ${path} has a field ${shown(k)} of no use; its fields are ${[...required, ...optional].join(', ')}`,
      );
}

/**
 * Throws a clear error unless `ckpt` is a checkpoint a learner of `algorithms` (registry.js)
 * can resume: its envelope, its settings (those its learner has, each within its limits, and
 * its learner's checkConfig of them together) and its learner's state. With `config` (a
 * learner's: env, algo, seed and every setting), it must have been made with that config.
 * (createLearner checks the memory a run of these settings takes before it allocates any.)
 */
export function checkCheckpoint(ckpt, algorithms, config = null) {
  if (!isObject(ckpt) || ckpt.format !== CHECKPOINT_FORMAT)
    throw new TypeError(`valley-farm/learn: not a checkpoint (its "format" must be "${CHECKPOINT_FORMAT}")`);
  if (ckpt.version !== CHECKPOINT_VERSION)
    throw bad(
      'version',
      `${CHECKPOINT_VERSION} (the version this package reads; a run saved by an earlier valley-farm resumes with that version)`,
      shown(ckpt.version),
    );
  if (typeof ckpt.env !== 'string' || !Object.hasOwn(envSpecs, ckpt.env))
    throw bad('env', `one of ${Object.keys(envSpecs).join(', ')}`, shown(ckpt.env));
  if (typeof ckpt.algo !== 'string' || !Object.hasOwn(algorithms, ckpt.algo) || !algorithms[ckpt.algo].resume) {
    const can = Object.keys(algorithms).filter((a) => algorithms[a].resume);
    throw bad('algo', `a learner whose runs resume: ${can.join(', ')}`, shown(ckpt.algo));
  }
  const learner = algorithms[ckpt.algo];
  whole(ckpt.seed, 'seed', 0, 2 ** 31);
  const c = ckpt.config;
  if (!isObject(c)) throw bad('config', 'the settings the run was made with (an object)', shown(c));
  for (const k of ['env', 'algo', 'seed'])
    if (c[k] !== ckpt[k]) throw bad(`config.${k}`, `the checkpoint's ${k}, ${shown(ckpt[k])}`, shown(c[k]));
  const settings = Object.fromEntries(Object.entries(c).filter(([k]) => !['env', 'algo', 'seed'].includes(k)));
  for (const k of Object.keys(learner.defaults))
    if (!Object.hasOwn(settings, k))
      throw new TypeError(`valley-farm/learn: the checkpoint's config has no ${k} (it records every setting of its run)`);
  checkSettings(learner, settings, { what: "checkpoint's setting" });
  learner.checkConfig?.(c.env, c);
  if (config) {
    for (const [k, v] of Object.entries(config))
      if (JSON.stringify(c[k]) !== JSON.stringify(v))
        throw new Error(
          `valley-farm/learn: the checkpoint was made with ${k} ${shown(c[k])}, this learner has ${shown(v)}: resume with the run's own settings`,
        );
  }
  if (!isObject(ckpt.state)) throw bad('state', "an object (its learner's state)", shown(ckpt.state));
  learner.resume.checkState(ckpt.state, c);
  whole(ckpt.state.steps, 'state.steps', 0, MAX_STEPS); // what every learner's state records (checkTrainRecord reads it)
}

/**
 * Throws a clear error unless `s` is a state PPO's checkpoint() could have made for a run of
 * the config `c` (env, seed and every setting; checkCheckpoint has checked them): ppo.js's
 * resume.checkState.
 */
export function checkPpoState(s, c) {
  fields(s, 'state', ['steps', 'restarted', 'stats', 'learningRate', 'params', 'moments', 'adamSteps', 'shards']);
  const spec = envSpecs[c.env];
  const N = c.numEnvs * c.nSteps; // env steps of a rollout: a checkpoint falls between two
  whole(s.steps, 'state.steps', 0, MAX_STEPS, N, ` (a rollout's numEnvs × nSteps)`);
  if (c.restartEvery === 0) whole(s.restarted, 'state.restarted', 0, 0);
  else whole(s.restarted, 'state.restarted', 0, s.steps, c.restartEvery, ' (restartEvery)');
  finite(s.learningRate, 'state.learningRate', 0, c.learningRate);
  const count = weightCount(layoutShapes(networkLayout(c.env, c, 'logits')));
  floats(s.params, 'state.params', count);
  floats(s.moments, 'state.moments', 2 * count, { nonNegativeFrom: count }); // the second half: averages of squares
  // Adam steps: epochs × minibatches for each rollout, and those of cloning at most every planner episode's whole horizon
  const cloning = c.imitate > 0 ? c.imitationEpochs * Math.ceil((c.imitate * spec.horizon) / c.minibatch) : 0;
  const adam = Math.min(2 ** 31 - 1, (s.steps / N) * c.epochs * Math.ceil(N / c.minibatch) + cloning);
  whole(s.adamSteps, 'state.adamSteps', 0, adam);
  // a record a shard: its generator, each of its envs' episode so far (seenEnvs.js state()),
  // and with a recurrent network each env's state (sequences.js: computed by earlier weights,
  // so kept, not replayed)
  const shards = Math.min(c.shards, c.numEnvs);
  const U = c.recurrent ?? 0;
  if (!Array.isArray(s.shards) || s.shards.length !== shards)
    throw bad(
      'state.shards',
      `an array of ${shards} records (one a shard)`,
      Array.isArray(s.shards) ? `${s.shards.length}` : shown(s.shards),
    );
  const A = spec.actions.length;
  s.shards.forEach((r, j) => {
    const at = `state.shards[${j}]`;
    fields(r, at, U > 0 ? ['rng', 'envs', 'states'] : ['rng', 'envs']);
    whole(r.rng, `${at}.rng`, 0, 2 ** 32 - 1);
    const envs = Math.floor(((j + 1) * c.numEnvs) / shards) - Math.floor((j * c.numEnvs) / shards);
    if (U > 0) recurrentStates(r.states, `${at}.states`, envs, { units: U, lstm: c.lstm === 1, horizon: spec.horizon });
    if (!Array.isArray(r.envs) || r.envs.length !== envs)
      throw bad(`${at}.envs`, `an array of ${envs} records (one an env)`, Array.isArray(r.envs) ? `${r.envs.length}` : shown(r.envs));
    r.envs.forEach((e, i) => {
      fields(e, `${at}.envs[${i}]`, ['seed', 'actions']);
      if (typeof e.seed !== 'string' || !/^\d{1,20}$/.test(e.seed) || BigInt(e.seed) >= 2n ** 64n)
        throw bad(`${at}.envs[${i}].seed`, 'a seed from 0 to 2^64 − 1, in decimal digits', shown(e.seed));
      if (!Array.isArray(e.actions) || e.actions.length >= spec.horizon)
        throw bad(`${at}.envs[${i}].actions`, `the actions of an episode in progress (fewer than ${spec.horizon})`, shown(e.actions));
      e.actions.forEach((a, t) => whole(a, `${at}.envs[${i}].actions[${t}]`, 0, A - 1));
    });
  });
  const t = s.stats;
  fields(t, 'state.stats', ['updates', 'episodes', 'recent', 'losses', 'elapsedMs'], ['imitation']);
  whole(t.updates, 'state.stats.updates', 0, adam);
  whole(t.episodes, 'state.stats.episodes', 0, s.steps);
  const recent = Math.min(RECENT, t.episodes); // the returns of the last RECENT episodes
  if (!Array.isArray(t.recent) || t.recent.length !== recent)
    throw bad(
      'state.stats.recent',
      `an array of ${recent} returns (the last ${RECENT} episodes')`,
      Array.isArray(t.recent) ? `${t.recent.length}` : shown(t.recent),
    );
  t.recent.forEach((v, i) => finite(v, `state.stats.recent[${i}]`));
  fields(t.losses, 'state.stats.losses', [], ['policy', 'value', 'entropy', 'approxKl', 'clipFraction', 'gradNorm', 'learningRate']);
  for (const [k, v] of Object.entries(t.losses)) finite(v, `state.stats.losses.${k}`, -Infinity, Infinity, { orNull: true });
  finite(t.elapsedMs, 'state.stats.elapsedMs', 0, MAX_MS);
  if (c.imitate === 0) {
    if (t.imitation !== undefined)
      throw bad('state.stats.imitation', 'absent (the run cloned no planner episodes: imitate 0)', shown(t.imitation));
  } else {
    const i = t.imitation;
    fields(i, 'state.stats.imitation', ['episodes', 'samples', 'loss', 'seconds']);
    whole(i.episodes, 'state.stats.imitation.episodes', c.imitate, c.imitate);
    whole(i.samples, 'state.stats.imitation.samples', c.imitate, c.imitate * spec.horizon);
    finite(i.loss, 'state.stats.imitation.loss', -Infinity, Infinity, { orNull: true });
    finite(i.seconds, 'state.stats.imitation.seconds', 0, MAX_MS / 1000);
  }
}

/**
 * Throws a clear error unless `ckpt.cli` is the record `valley-farm train` keeps of a run at
 * its checkpoint (checkCheckpoint has passed `ckpt` with these `algorithms`):
 *   argv             the command that started it (a record: never obeyed)
 *   steps            the steps it was to train
 *   evalEvery, evalEpisodes, logFormat, checkpointEvery, checkpointSeconds, progressEvery
 *                    its options
 *   curve            its learning curve up to the checkpoint (the log's text; null: none kept)
 *   trainMs, evalMs, elapsedMs, evalsDone, nextEval    where its clocks and validation stood
 */
export function checkTrainRecord(ckpt, algorithms) {
  const r = ckpt.cli;
  const path = (k) => `cli.${k}`;
  fields(
    r,
    'cli',
    [
      'argv',
      'steps',
      'evalEvery',
      'evalEpisodes',
      'logFormat',
      'checkpointEvery',
      'checkpointSeconds',
      'progressEvery',
      'curve',
      'trainMs',
      'evalMs',
      'elapsedMs',
      'evalsDone',
      'nextEval',
    ],
    ['maxSeconds'],
  );
  if (!Array.isArray(r.argv) || r.argv.length > 10_000 || !r.argv.every((a) => typeof a === 'string' && a.length <= 10_000))
    throw bad(path('argv'), 'the command it was started with (an array of strings)', shown(r.argv));
  const done = ckpt.state.steps;
  whole(r.steps, path('steps'), Math.max(1, done), MAX_STEPS);
  whole(r.evalEvery, path('evalEvery'), 1, MAX_STEPS);
  whole(r.evalEpisodes, path('evalEpisodes'), 1, SPLITS.validation.count);
  if (r.logFormat !== 'csv' && r.logFormat !== 'jsonl') throw bad(path('logFormat'), '"csv" or "jsonl"', shown(r.logFormat));
  whole(r.checkpointEvery, path('checkpointEvery'), 0, MAX_STEPS); // 0: by time
  finite(r.checkpointSeconds, path('checkpointSeconds'), 0, MAX_MS / 1000);
  if ((r.checkpointEvery === 0) === (r.checkpointSeconds === 0))
    throw bad(path('checkpointEvery'), 'a number of steps, or 0 with checkpointSeconds a time', shown(r.checkpointEvery));
  finite(r.progressEvery, path('progressEvery'), 0, 86_400);
  if (r.maxSeconds !== undefined && r.maxSeconds !== null) finite(r.maxSeconds, path('maxSeconds'), 0, 31_536_000);
  if (r.curve !== null && (typeof r.curve !== 'string' || r.curve.length > 2 ** 28))
    throw bad(path('curve'), 'the learning curve so far (a string of at most 256 M characters) or null', shown(r.curve));
  for (const k of ['trainMs', 'evalMs', 'elapsedMs']) finite(r[k], path(k), 0, MAX_MS);
  whole(r.evalsDone, path('evalsDone'), 0, MAX_STEPS);
  // the next validation: at a multiple of evalEvery, at most one evalEvery past the steps done
  whole(r.nextEval, path('nextEval'), r.evalEvery, done + r.evalEvery, r.evalEvery, ' (evalEvery)');
}
