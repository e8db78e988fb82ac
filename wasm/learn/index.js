// index.js — learners (`valley-farm/learn`): the same code in Node and in a Web Worker.
//
//   import { createLearner, loadPolicy } from 'valley-farm/learn';
//   const learner = await createLearner({ env: 'BackwardsValleyFarm-v0', algo: 'tabular-q', seed: 1 });
//   await learner.trainFor(200_000);        // -> progress { steps, episodes, meanReturn, stepsPerSec, losses }
//   const policy = learner.policy();        // act(observation, info), toJSON()
//   const again = await loadPolicy(JSON.parse(JSON.stringify(policy)));
//
// The learners are listed in registry.js ('tabular-q': tabularQ.js; 'ppo': ppo.js, and the other
// neural learners, their numbers on the learner core, core.js, a WebAssembly module loaded only
// when used). Every one trains on the vector env with legal masks, from training seeds only
// (never a validation or test seed: wasm/splits.js). Adding one: docs/adding-a-learner.md.
import { envSpecs } from '../index.js';
import { algorithms, learnerOf, registerLearner, runDefaultsOf } from './registry.js';
import { checkLearner } from './settings.js';
import { checkPolicyJSON } from './policyCheck.js';
import { THREADS_MAX, defaultThreads, serveThread, useThreadStarter } from './threads.js';
import { useCoreBytes, useMemoryCheck } from './core.js';
import { CHECKPOINT_FORMAT, CHECKPOINT_VERSION, checkCheckpoint } from './checkpointCheck.js';

export { checkPolicyJSON, THREADS_MAX, defaultThreads, CHECKPOINT_FORMAT, CHECKPOINT_VERSION };
// for a host that runs learners where the package's files cannot be fetched (the Lab's sandbox)
export { serveThread, useCoreBytes, useMemoryCheck, useThreadStarter };
// what a learner of your own builds on (kit.js: the network, what it sees, every core, ...)
export * from './kit.js';
export { estimateMemory, lessMemory, MEMORY_BUDGET, THREAD_BYTES, threadCount } from './settings.js';
export { packTable } from './packedTable.js';
// Each learner: its settings' defaults, meanings and ranges, create(env, settings, seed) a run,
// load(json) a policy from its file (checked by policyCheck.js first). Reading them loads
// nothing heavy: ppo.js loads the learner core and TensorFlow.js only when a learner or policy
// is made.
export { algorithms, registerLearner, runDefaultsOf };

/** A setting's command-line option: numEnvs -> --num-envs (npx valley-farm train). */
export const settingFlag = (name) => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** Settings as the tables name them: { history: 4 } -> 'history 4'; {} -> ''. */
export const settingsText = (settings = {}) =>
  Object.entries(settings)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');

/** The threads a run takes when it is not told: one per core, at most this many. */
export const DEFAULT_THREADS_MAX = 8;

/**
 * A learner for { env, algo, seed, steps, threads, ...settings } (see algorithms[algo].defaults).
 * `steps`, optional, is the run's planned length: the settings that follow it (PPO's anneal)
 * default to it; trainFor decides how long the run really is. `threads` (a learner that runs
 * on several: default one per core, at most DEFAULT_THREADS_MAX) changes only its speed: a
 * seeded run gives the same bits on any number.
 */
export async function createLearner({ env, algo = 'tabular-q', seed = 1, steps, threads, ...given } = {}) {
  if (!Object.hasOwn(envSpecs, env))
    throw new Error(
      `valley-farm/learn: unknown env ${JSON.stringify(String(env)).slice(0, 40)}; the env ids are ${Object.keys(envSpecs).join(', ')}`,
    );
  const learner = learnerOf(algo);
  if (!Number.isInteger(seed) || seed < 0 || seed > 2 ** 31)
    throw new RangeError('valley-farm/learn: seed must be an integer from 0 to 2^31');
  if (steps !== undefined && (!Number.isInteger(steps) || steps < 1 || steps > 1e12))
    throw new RangeError(
      `valley-farm/learn: steps (the run's planned length) must be a whole number from 1 to 1e12, got ${String(steps).slice(0, 20)}`,
    );
  if (threads !== undefined && (!Number.isInteger(threads) || threads < 1 || threads > THREADS_MAX))
    throw new RangeError(`valley-farm/learn: threads must be a whole number from 1 to ${THREADS_MAX}, got ${String(threads).slice(0, 20)}`);
  threads ??= defaultThreads(DEFAULT_THREADS_MAX);
  const settings = { ...given };
  for (const [k, v] of Object.entries(runDefaultsOf(learner, steps))) if (settings[k] === undefined) settings[k] = v;
  checkLearner(env, algo, settings, { threads });
  const inner = await learner.create(env, settings, seed, { threads });
  const config = { env, algo, seed, ...inner.config };
  return {
    env,
    algo,
    config,
    // options.onProgress(progress) hears of work that plays no steps of its own (PPO's cloning)
    trainFor: (steps, options) => {
      if (!Number.isInteger(steps) || steps < 1)
        throw new RangeError('valley-farm/learn: trainFor(steps) takes a positive whole number of env steps');
      return inner.trainFor(steps, options);
    },
    progress: () => inner.progress(),
    /**
     * The run so far as JSON-ready data, to resume it exactly (restore), on any number of
     * threads; null where the learner cannot save one (PPO while it clones the planner).
     */
    async checkpoint() {
      if (!learner.resume) throw notResumable(algo);
      const state = await inner.checkpoint();
      return state && { format: CHECKPOINT_FORMAT, version: CHECKPOINT_VERSION, env, algo, seed, config, state };
    },
    /** Continues from a checkpoint() of a run with this env, algo, seed and settings (checked as data first). */
    async restore(ckpt) {
      if (!learner.resume) throw notResumable(algo);
      checkCheckpoint(ckpt, algorithms, config);
      await inner.restore(ckpt.state);
    },
    // the learner's own policy: learner.dispose() frees it
    policy: () => ({ ...wrapPolicy(inner.policy(), config), dispose() {} }),
    dispose: () => inner.dispose(),
  };
}

/** The error for saving or resuming a run of a learner that declares no `resume`. */
function notResumable(algo) {
  const can = Object.values(algorithms).filter((l) => l.resume);
  return new Error(`valley-farm/learn: ${algo} runs are not saved to resume (${can.map((l) => l.name).join(', ')} runs are)`);
}

/**
 * A policy as agents are used: act(observation, info), reset() at a new episode (act also
 * starts one when info.step is 0), toJSON() for its file, dispose() what it holds.
 */
function wrapPolicy(p, config) {
  // An episode's seed above 2^53 - 1 is a BigInt (env.reset's info.seed): folded to 32 bits as
  // foldSeed folds a Number, so a sampling policy's generator sees both halves either way.
  const act = (o, info) =>
    typeof info?.seed === 'bigint'
      ? p.act(o, { ...info, seed: Number(BigInt.asUintN(32, info.seed ^ (info.seed >> 32n))) })
      : p.act(o, info);
  return { env: p.env, algo: p.algo, act, reset: () => p.reset(), toJSON: () => p.toJSON(config), dispose: () => p.dispose() };
}

/**
 * A policy from what toJSON() gave (parsed JSON); clear errors for anything else, found by
 * checking it as data (policyCheck.js) before any network exists. With `checked`, the caller
 * vouches that checkPolicyJSON has passed it already (or the rows a packed table was packed
 * from), and it is not checked again: the page checks a file in a Worker and hands over its
 * numbers in typed arrays, which checking again would cost the page's thread a pass over each.
 * dispose() frees what a ppo policy holds in the learner core.
 */
export async function loadPolicy(json, { checked = false } = {}) {
  if (!checked) checkPolicyJSON(json);
  return wrapPolicy(await learnerOf(json.algo).load(json), json.config ?? {});
}
