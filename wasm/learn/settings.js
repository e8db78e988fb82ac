// settings.js — what a learner's settings may be, and what a run of them costs.
//
// Every setting has a range that makes sense (a discount is a fraction, a step size is
// positive and at most 1) and a cap that keeps one run within a tab: hidden layers are few
// and small, envs and steps bounded. createLearner checks a configuration here before it
// allocates anything, and checkPolicyJSON (policyCheck.js) checks a saved policy's settings
// here before its network is built, so what a learner may make is what a policy may load.
// estimateMemory says what a configuration will take; createLearner refuses one above
// MEMORY_BUDGET, and the Lab shows the estimate before Start.
import { envSpecs } from '../index.js';
import { defaults as tabularDefaults } from './tabularQ.js';
import { defaults as ppoDefaults, maxima as ppoMaxima, perception } from './ppo.js';

/** Bytes a learner may plan to take (estimateMemory); a tab has a few GB at most. */
export const MEMORY_BUDGET = 2 ** 30;

/** The most weights a network may have (a learner's, or a saved policy's): 16 MB of floats. */
export const MAX_WEIGHTS = 2 ** 22;

// An allowance for one env's state in the engine, above what it is (a test checks that the
// engine's own size fits), so the estimate needs no loaded engine.
export const ENGINE_ENV_ALLOWANCE = 4096;

const whole = (min, max) => ({ kind: 'whole', min, max });
const number = (min, max, { aboveMin = false } = {}) => ({ kind: 'number', min, max, aboveMin });
const layers = (most, units) => ({ kind: 'layers', most, units });

/** Each setting's allowed values, per algorithm: whole numbers, numbers, or layer sizes. */
export const limits = Object.freeze({
  'tabular-q': Object.freeze({
    numEnvs: whole(1, 4096),
    alpha: number(0, 1),
    gamma: number(0, 1),
    epsilon: number(0, 1),
    epsilonEnd: number(0, 1),
    epsilonSteps: whole(1, 1e12),
  }),
  ppo: Object.freeze({
    numEnvs: whole(1, 1024),
    nSteps: whole(1, 4096),
    epochs: whole(1, 100),
    minibatch: whole(1, 65536),
    learningRate: number(0, 1, { aboveMin: true }),
    anneal: whole(0, 1e12),
    gamma: number(0, 1),
    lambda: number(0, 1),
    clip: number(0, 1, { aboveMin: true }),
    entropyCoef: number(0, 1),
    valueCoef: number(0, 10),
    hidden: layers(4, 512),
    history: whole(1, ppoMaxima.history),
    memory: whole(0, ppoMaxima.memory),
    imitate: whole(0, 100_000),
    plannerWidth: whole(1, 1024),
    imitationEpochs: whole(1, 1000),
    workers: whole(1, ppoMaxima.workers),
    tfjs: whole(0, ppoMaxima.tfjs),
    restartEvery: whole(0, 1e12),
  }),
});

const DEFAULTS = { 'tabular-q': tabularDefaults, ppo: ppoDefaults };

/** What a limit allows, in words (for errors and docs). */
export function allowed(limit) {
  if (limit.kind === 'whole') return `a whole number from ${limit.min} to ${limit.max}`;
  if (limit.kind === 'number')
    return `a number ${limit.aboveMin ? 'above' : 'from'} ${limit.min} ${limit.aboveMin ? 'and at most' : 'to'} ${limit.max}`;
  return `an array of at most ${limit.most} layer sizes, each a whole number from 1 to ${limit.units}`;
}

function fits(limit, v) {
  if (limit.kind === 'whole') return Number.isInteger(v) && v >= limit.min && v <= limit.max;
  if (limit.kind === 'number')
    return typeof v === 'number' && Number.isFinite(v) && (limit.aboveMin ? v > limit.min : v >= limit.min) && v <= limit.max;
  return Array.isArray(v) && v.length <= limit.most && v.every((u) => Number.isInteger(u) && u >= 1 && u <= limit.units);
}

/** A short, safe rendering of any value for an error. */
export const shown = (v) => {
  let s;
  try {
    s = JSON.stringify(v);
  } catch {
    s = undefined;
  }
  return String(s ?? typeof v).slice(0, 40);
};

/**
 * Throws a clear error for a setting this algorithm does not have or a value outside its
 * range; `what` names where the settings come from ('setting' for a learner's, "policy's
 * setting" for a saved policy's). With `unknown` 'ignore', settings it does not know pass
 * (a saved policy carries its seed and may carry settings since retired).
 */
export function checkSettings(algo, settings, { what = 'setting', unknown = 'refuse' } = {}) {
  const known = limits[algo];
  for (const [k, v] of Object.entries(settings)) {
    if (!Object.hasOwn(known, k)) {
      if (unknown === 'ignore') continue;
      throw new TypeError(
        `valley-farm/learn: ${algo} has no setting '${String(k).slice(0, 40)}'; its settings are ${Object.keys(known).join(', ')}`,
      );
    }
    if (!fits(known[k], v)) throw new RangeError(`valley-farm/learn: ${algo} ${what} ${k} must be ${allowed(known[k])}, got ${shown(v)}`);
  }
}

/** The weights of a ppo network of `inputs` inputs, these hidden layers and `actions` actions. */
export function networkShapes(inputs, hidden, actions) {
  const sizes = [inputs, ...hidden];
  const shapes = [];
  for (let i = 0; i < hidden.length; i++) shapes.push([sizes[i], hidden[i]], [hidden[i]]);
  const last = sizes[sizes.length - 1];
  shapes.push([last, actions], [actions], [last, 1], [1]);
  return shapes;
}

/** A ppo network's input size for an env and its history and memory settings. */
export const networkInputs = (env, { history = 1, memory = 0 } = {}) => perception(env, memory).width * history;

const count = (shapes) => shapes.reduce((sum, s) => sum + s.reduce((a, b) => a * b, 1), 0);

/** Throws when a network of these shapes has more than MAX_WEIGHTS weights. */
export function checkNetworkSize(shapes, algo = 'ppo') {
  const n = count(shapes);
  if (n > MAX_WEIGHTS)
    throw new RangeError(
      `valley-farm/learn: ${algo}: the network would have ${n} weights, more than the ${MAX_WEIGHTS} allowed; use fewer or smaller hidden layers, or a shorter history`,
    );
}

/**
 * The bytes a learner with these settings (the algorithm's defaults where missing) plans to
 * take once it runs: its buffers, the vector env's, the network with its gradients and Adam's
 * moments, a minibatch's activations, and the planner episodes it clones. Not counted: the
 * table of a tabular-q learner, which grows with the states it meets.
 */
export function estimateMemory(env, algo, settings = {}) {
  if (!Object.hasOwn(envSpecs, env)) throw new Error(`valley-farm/learn: estimateMemory: unknown env ${shown(env)}`);
  if (!Object.hasOwn(limits, algo)) throw new Error(`valley-farm/learn: estimateMemory: unknown algo ${shown(algo)}`);
  checkSettings(algo, settings);
  const c = { ...DEFAULTS[algo], ...settings };
  const spec = envSpecs[env];
  const A = spec.actions.length;
  const vec = c.numEnvs * (ENGINE_ENV_ALLOWANCE + spec.obsSize * 4 + A + 64);
  if (algo === 'tabular-q') return vec;
  const F = networkInputs(env, c);
  const n = c.numEnvs;
  const T = c.nSteps;
  const rollout = T * n * (F + A + 5) * 4 + n * F * 8; // the buffers, the frames and fresh ones
  const hidden = c.hidden.reduce((a, b) => a + b, 0) + A + 1;
  const weights = count(networkShapes(F, c.hidden, A)) * 4 * 4; // weights, gradients, Adam's two moments
  const B = Math.min(c.minibatch, T * n);
  // a minibatch: its input written and as a tensor, the masks, and each layer's activations
  // and their gradients kept for the backward pass
  const batch = B * (2 * F + 2 * A + 4 * hidden) * 4;
  const demos = c.imitate * spec.horizon * (spec.obsSize * 4 + A * 4 + 12);
  return vec + rollout + weights + batch + demos;
}

/**
 * Throws a clear error unless a learner can be made of these settings: each within its range,
 * a ppo network of at most MAX_WEIGHTS weights, and an estimate within MEMORY_BUDGET.
 */
export function checkLearner(env, algo, settings) {
  checkSettings(algo, settings);
  const c = { ...DEFAULTS[algo], ...settings };
  if (algo === 'ppo') checkNetworkSize(networkShapes(networkInputs(env, c), c.hidden, envSpecs[env].actions.length));
  const bytes = estimateMemory(env, algo, settings);
  if (bytes > MEMORY_BUDGET) {
    const mb = (b) => `${Math.round(b / 2 ** 20)} MB`;
    throw new RangeError(
      `valley-farm/learn: these ${algo} settings would take about ${mb(bytes)}, more than the ${mb(MEMORY_BUDGET)} a learner may take; use fewer envs (numEnvs), shorter rollouts (nSteps), a shorter history or smaller hidden layers`,
    );
  }
}
