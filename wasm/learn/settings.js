// settings.js — whether a learner can be made of some settings, and what a run of them costs.
//
// Each learner declares its settings' ranges (a discount is a fraction, a step size is
// positive and at most 1) and caps that keep one run within a tab (registry.js). createLearner
// checks a configuration here before it allocates anything. estimateMemory says what a
// configuration will take; createLearner refuses one above MEMORY_BUDGET, and the Lab shows
// the estimate before Start.
import { envSpecs } from '../index.js';
import { checkSettings, shown } from './limits.js';
import { algorithms } from './registry.js';

/** Bytes a learner may plan to take (estimateMemory); a tab has a few GB at most. */
export const MEMORY_BUDGET = 2 ** 30;

// An allowance for one env's state in the engine, above what it is (a test checks that the
// engine's own size fits), so the estimate needs no loaded engine.
export const ENGINE_ENV_ALLOWANCE = 4096;

// What one thread of a run costs beyond what its learner declares: a Web Worker's (or a
// worker_threads thread's) JS heap and code, the engine's and the learner core's modules and
// their memories. Measured, not derived, as what a run holds once every heap has collected its
// garbage: Chromium's renderer gained 21.5-22.5, 28.3-30.1 and 64.3-78.4 MB for PPO runs of 1,
// 2 and 8 threads (tests/browser/lab_memory.test.js holds them within half to twice the
// estimate). Not counted: the garbage the threads' messages leave between collections, which
// an 8-thread run's 3,600 minibatches take to about twice the estimate (the same test holds it
// under three times; issue 46, exchange.js).
export const THREAD_BYTES = 8 * 2 ** 20;

/**
 * The threads a run of this learner trains on when it is given `threads`: all of them for a
 * learner that runs on several (one with a `thread` part, registry.js), one for any other. The
 * one place that says so.
 */
export const threadCount = (algo, threads = 1) => (algorithms[algo]?.thread ? threads : 1);

/**
 * The bytes a learner with these settings (the algorithm's defaults where missing) plans to
 * take once it runs: its vector env of numEnvs envs (every learner steps one), what the
 * learner declares it takes beyond that (its `memory`: for PPO its buffers, the network with
 * its gradients and Adam's moments, a minibatch's activations, and the planner episodes it
 * clones; a tabular-q table, which grows with the states it meets, is not counted), and
 * THREAD_BYTES for each thread it trains on.
 */
export function estimateMemory(env, algo, settings = {}, { threads = 1 } = {}) {
  if (!Object.hasOwn(envSpecs, env)) throw new Error(`valley-farm/learn: estimateMemory: unknown env ${shown(env)}`);
  if (!Object.hasOwn(algorithms, algo)) throw new Error(`valley-farm/learn: estimateMemory: unknown algo ${shown(algo)}`);
  const learner = algorithms[algo];
  checkSettings(learner, settings);
  const c = { ...learner.defaults, ...settings };
  const spec = envSpecs[env];
  const vec = c.numEnvs * (ENGINE_ENV_ALLOWANCE + spec.obsSize * 4 + spec.actions.length + 64);
  const threadsUsed = threadCount(algo, threads);
  return vec + (learner.memory ? learner.memory(env, c, { threads: threadsUsed }) : 0) + threadsUsed * THREAD_BYTES;
}

/**
 * Throws a clear error unless a learner can be made of these settings: each within its range,
 * the learner's own check of them together (PPO: a network of at most MAX_WEIGHTS weights),
 * and an estimate within MEMORY_BUDGET.
 */
export function checkLearner(env, algo, settings, { threads = 1 } = {}) {
  const learner = algorithms[algo];
  checkSettings(learner, settings);
  learner.checkConfig?.(env, { ...learner.defaults, ...settings });
  const bytes = estimateMemory(env, algo, settings, { threads });
  if (bytes > MEMORY_BUDGET) {
    const mb = (b) => `${Math.round(b / 2 ** 20)} MB`;
    throw new RangeError(
      `valley-farm/learn: these ${algo} settings would take about ${mb(bytes)}, more than the ${mb(MEMORY_BUDGET)} a learner may take; ${lessMemory(learner)}`,
    );
  }
}

/**
 * What to lower for a run over MEMORY_BUDGET, from the settings that size this learner's
 * memory (its declaration's memorySettings): 'use fewer envs (numEnvs) or a shorter history
 * (history)', with 'fewer threads' for a run of several.
 */
export function lessMemory(learner, { threads = 1 } = {}) {
  const ways = Object.entries(learner.memorySettings ?? {}).map(([k, words]) => `${words} (${k})`);
  if (threads > 1) ways.push('fewer threads');
  if (ways.length === 0) return 'use smaller settings';
  return `use ${ways.length === 1 ? ways[0] : `${ways.slice(0, -1).join(', ')} or ${ways.at(-1)}`}`;
}
