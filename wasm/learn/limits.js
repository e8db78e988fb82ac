// limits.js — what a setting may be, in words and as a check, and how big a network may grow.
//
// Each learner declares its settings' limits with whole(), number() and layers() (tabularQ.js,
// ppo.js); checkSettings holds a configuration to them, for createLearner before it allocates
// anything and for a saved policy before its network is built (so what a learner may make is
// what a policy may load). No learner is named here.

/** The most weights a network may have (a learner's, or a saved policy's): 16 MB of floats. */
export const MAX_WEIGHTS = 2 ** 22;

/** A whole number from min to max. */
export const whole = (min, max) => ({ kind: 'whole', min, max });
/** A finite number from min (or above it, with aboveMin) to max. */
export const number = (min, max, { aboveMin = false } = {}) => ({ kind: 'number', min, max, aboveMin });
/** An array of 1 to `most` layer sizes, each from 1 to `units`. */
export const layers = (most, units) => ({ kind: 'layers', most, units });

const KINDS = ['whole', 'number', 'layers'];

/** Whether `limit` is one that whole(), number() or layers() makes. */
export const isLimit = (limit) => limit !== null && typeof limit === 'object' && KINDS.includes(limit.kind);

/** What a limit allows, in words (for errors and docs). */
export function allowed(limit) {
  if (limit.kind === 'whole') return `a whole number from ${limit.min} to ${limit.max}`;
  if (limit.kind === 'number')
    return `a number ${limit.aboveMin ? 'above' : 'from'} ${limit.min} ${limit.aboveMin ? 'and at most' : 'to'} ${limit.max}`;
  return `an array of 1 to ${limit.most} layer sizes, each a whole number from 1 to ${limit.units}`;
}

/** Whether `v` is a value `limit` allows. */
export function fits(limit, v) {
  if (limit.kind === 'whole') return Number.isInteger(v) && v >= limit.min && v <= limit.max;
  if (limit.kind === 'number')
    return typeof v === 'number' && Number.isFinite(v) && (limit.aboveMin ? v > limit.min : v >= limit.min) && v <= limit.max;
  return Array.isArray(v) && v.length >= 1 && v.length <= limit.most && v.every((u) => Number.isInteger(u) && u >= 1 && u <= limit.units);
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
 * Throws a clear error for a setting this learner ({ name, limits }: its declaration) does not
 * have or a value outside its range; `what` names where the settings come from ('setting' for
 * a learner's, "policy's setting" for a saved policy's). With `unknown` 'ignore', settings it
 * does not know pass (a saved policy carries its seed and may carry settings since retired).
 */
export function checkSettings({ name, limits }, settings, { what = 'setting', unknown = 'refuse' } = {}) {
  for (const [k, v] of Object.entries(settings)) {
    if (!Object.hasOwn(limits, k)) {
      if (unknown === 'ignore') continue;
      throw new TypeError(
        `valley-farm/learn: ${name} has no setting '${String(k).slice(0, 40)}'; its settings are ${Object.keys(limits).join(', ')}`,
      );
    }
    if (!fits(limits[k], v)) throw new RangeError(`valley-farm/learn: ${name} ${what} ${k} must be ${allowed(limits[k])}, got ${shown(v)}`);
  }
}

/** The weights of an actor-critic network of `inputs` inputs, these hidden layers and `actions` actions. */
export function networkShapes(inputs, hidden, actions) {
  const sizes = [inputs, ...hidden];
  const shapes = [];
  for (let i = 0; i < hidden.length; i++) shapes.push([sizes[i], hidden[i]], [hidden[i]]);
  const last = sizes[sizes.length - 1];
  shapes.push([last, actions], [actions], [last, 1], [1]);
  return shapes;
}

/** How many numbers arrays of these shapes hold. */
export const weightCount = (shapes) => shapes.reduce((sum, s) => sum + s.reduce((a, b) => a * b, 1), 0);

/** Throws when a network of these shapes (of learner `name`) has more than MAX_WEIGHTS weights. */
export function checkNetworkSize(shapes, name) {
  const n = weightCount(shapes);
  if (n > MAX_WEIGHTS)
    throw new RangeError(
      `valley-farm/learn: ${name}: the network would have ${n} weights, more than the ${MAX_WEIGHTS} allowed; use fewer or smaller hidden layers, or a shorter history`,
    );
}
