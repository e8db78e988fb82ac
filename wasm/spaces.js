// spaces.js — observation and action spaces in Gymnasium's terms (Discrete, Box, Dict),
// and the one flatten / unflatten pair that the single env, the vector env and the page
// share, so that a policy trained on flat vector observations runs anywhere.
//
// Bounds and fields come from envSpecs (wasm/specs.js), the engine's own description of each
// farm (vf_spec_json): the bounds are what the rules let an episode reach, not what play
// usually reaches.
import { envSpecs } from './specs.js';
import observationReaders from './observations.js';
import { foldSeed, seededRandom } from './rng.js';
import { describe, specFor } from './errors.js';

// ---- seeded sampling -------------------------------------------------------------------

/** A sampler from a seed (rng.js), a function returning [0, 1), or an object with random(). */
function samplerOf(rng) {
  if (typeof rng === 'function') return checkedDraws(rng);
  if (rng && typeof rng.random === 'function') return () => rng.random();
  if (rng === undefined) rng = Math.floor(Math.random() * 2 ** 32);
  if (!Number.isSafeInteger(rng) || rng < 0) {
    throw new TypeError(
      `valley-farm: sample() takes a seed (an integer from 0 to 2^53 - 1), a function returning numbers in [0, 1), or an object with random(); got ${describe(rng)}`,
    );
  }
  return seededRandom(foldSeed(rng));
}

// The largest double below 1: a generator that returns 1 (some return [0, 1]) draws the
// last value, never one past it.
const BELOW_ONE = 1 - 2 ** -53;

/** The caller's generator, each number checked: in [0, 1] (1 is read as just below it). */
function checkedDraws(random) {
  return () => {
    const u = random();
    if (typeof u !== 'number' || !(u >= 0 && u <= 1))
      throw new RangeError(`valley-farm: sample(): the function returned ${describe(u)}; it must return numbers in [0, 1)`);
    return Math.min(u, BELOW_ONE);
  };
}

const drawInt = (random, low, high) => low + Math.floor(random() * (high - low + 1));

// ---- the spaces --------------------------------------------------------------------------

/**
 * What every space shares: seed(), as Gymnasium's space.seed(): after space.seed(s), the
 * samples drawn without a source of their own come from one generator seeded by s, so a
 * run of them repeats exactly. Without seed(), such samples are unseeded.
 */
class Space {
  #random = null;

  /** Seeds this space's own generator (a fresh seed without one); returns [the seed], as Gymnasium does. */
  seed(seed = Math.floor(Math.random() * 2 ** 32)) {
    if (!Number.isSafeInteger(seed) || seed < 0)
      throw new TypeError(`valley-farm: space.seed() takes an integer from 0 to 2^53 - 1, got ${describe(seed)}`);
    this.#random = seededRandom(foldSeed(seed));
    return [seed];
  }

  /** The sampler for a sample() call: its own source if given, else the seeded generator. */
  sampler(rng) {
    return rng === undefined && this.#random ? this.#random : samplerOf(rng);
  }
}

/** sample()'s argument: a source (seed, function, { random }) or options { mask, rng }. */
function sampleArgs(arg, where) {
  const plain = arg !== null && typeof arg === 'object' && typeof arg.random !== 'function';
  if (!plain) return { rng: arg, mask: null };
  for (const k of Object.keys(arg))
    if (k !== 'mask' && k !== 'rng')
      throw new TypeError(`valley-farm: ${where}.sample has no option ${describe(k)}; the options are mask, rng`);
  return { rng: arg.rng, mask: arg.mask ?? null };
}

/** Checks a mask of `n` entries, each 0 or 1 (Gymnasium's int8 action mask). */
function checkMask(mask, n, where) {
  if (
    !(Array.isArray(mask) || ArrayBuffer.isView(mask)) ||
    mask.length !== n ||
    !Array.prototype.every.call(mask, (m) => m === 0 || m === 1)
  )
    throw new TypeError(`valley-farm: ${where}.sample: mask must be ${n} values, each 0 or 1 (1: may be drawn), got ${describe(mask)}`);
}

/** A uniform draw among the entries of mask[at .. at + n) that are 1; 0 where none is (Gymnasium returns start). */
function drawMasked(random, mask, at, n) {
  let legal = 0;
  for (let a = 0; a < n; a++) legal += mask[at + a];
  if (legal === 0) return 0;
  let k = Math.floor(random() * legal);
  for (let a = 0; a < n; a++) if (mask[at + a] === 1 && k-- === 0) return a;
  return 0; // unreachable: k < legal
}

/** Integers 0 .. n - 1 (an action). sample({ mask }) draws among the actions whose mask is 1. */
export class Discrete extends Space {
  constructor(n, names) {
    super();
    this.n = n;
    this.dtype = 'int32';
    if (names) this.names = names;
    Object.freeze(this);
  }
  sample(arg) {
    const { rng, mask } = sampleArgs(arg, 'Discrete');
    const random = this.sampler(rng);
    if (mask === null) return Math.floor(random() * this.n);
    checkMask(mask, this.n, 'Discrete');
    return drawMasked(random, mask, 0, this.n);
  }
  contains(x) {
    return Number.isInteger(x) && x >= 0 && x < this.n;
  }
}

/**
 * One integer 0 .. nvec[i] - 1 per entry: a vector env's actions (Gymnasium's batched action
 * space). sample() gives an Int32Array; sample({ mask }) takes the masks of every entry one
 * after another (a vector env's `masks`).
 */
export class MultiDiscrete extends Space {
  constructor(nvec) {
    super();
    this.nvec = Object.freeze([...nvec]);
    this.shape = Object.freeze([nvec.length]);
    this.dtype = 'int32';
    Object.freeze(this);
  }
  sample(arg) {
    const { rng, mask } = sampleArgs(arg, 'MultiDiscrete');
    const random = this.sampler(rng);
    const out = new Int32Array(this.nvec.length);
    if (mask !== null)
      checkMask(
        mask,
        this.nvec.reduce((a, b) => a + b, 0),
        'MultiDiscrete',
      );
    for (let i = 0, at = 0; i < out.length; at += this.nvec[i++])
      out[i] = mask === null ? Math.floor(random() * this.nvec[i]) : drawMasked(random, mask, at, this.nvec[i]);
    return out;
  }
  contains(x) {
    if (!(Array.isArray(x) || ArrayBuffer.isView(x)) || x.length !== this.nvec.length) return false;
    for (let i = 0; i < x.length; i++) if (!Number.isInteger(x[i]) || x[i] < 0 || x[i] >= this.nvec[i]) return false;
    return true;
  }
}

/**
 * Integers (dtype 'int32') in [low, high] elementwise, of a shape. `low` and `high` are
 * numbers (the same bound everywhere) or arrays of the flattened length. A scalar has
 * shape [] and is a plain number; anything else is an array (or Int32Array) of its size.
 * `min` and `max` repeat uniform bounds, as the rules files and envSpecs name them.
 */
export class Box extends Space {
  constructor(low, high, shape, dtype = 'int32') {
    super();
    this.shape = Object.freeze([...shape]);
    this.size = shape.reduce((a, b) => a * b, 1);
    this.dtype = dtype;
    this.low = typeof low === 'number' ? low : Object.freeze([...low]);
    this.high = typeof high === 'number' ? high : Object.freeze([...high]);
    if (typeof low === 'number') this.min = low;
    if (typeof high === 'number') this.max = high;
    Object.freeze(this);
  }
  lowAt(i) {
    return typeof this.low === 'number' ? this.low : this.low[i];
  }
  highAt(i) {
    return typeof this.high === 'number' ? this.high : this.high[i];
  }
  sample(rng) {
    const random = this.sampler(rng);
    if (this.shape.length === 0) return drawInt(random, this.lowAt(0), this.highAt(0));
    const out = new Int32Array(this.size);
    for (let i = 0; i < this.size; i++) out[i] = drawInt(random, this.lowAt(i), this.highAt(i));
    return out;
  }
  contains(x) {
    if (this.shape.length === 0) return Number.isInteger(x) && x >= this.lowAt(0) && x <= this.highAt(0);
    if (!(Array.isArray(x) || ArrayBuffer.isView(x)) || x.length !== this.size) return false;
    for (let i = 0; i < this.size; i++) {
      const v = x[i];
      if (!Number.isInteger(v) || v < this.lowAt(i) || v > this.highAt(i)) return false;
    }
    return true;
  }
}

/**
 * Named sub-spaces. Each one is also an own, enumerable property (`space.view`,
 * `space.inventory.coins`), so the space reads like the observation it describes.
 */
export class Dict extends Space {
  #keys;
  constructor(spaces) {
    super();
    this.#keys = Object.keys(spaces);
    for (const k of this.#keys) this[k] = spaces[k];
    Object.defineProperty(this, 'spaces', { value: Object.freeze({ ...spaces }), enumerable: false });
    Object.freeze(this);
  }
  sample(rng) {
    const random = this.sampler(rng);
    const out = {};
    for (const k of this.#keys) {
      const v = this[k].sample(random);
      out[k] = v instanceof Int32Array ? Array.from(v) : v;
    }
    return out;
  }
  contains(x) {
    if (x === null || typeof x !== 'object') return false;
    const keys = Object.keys(x);
    if (keys.length !== this.#keys.length) return false;
    return this.#keys.every((k) => Object.hasOwn(x, k) && this[k].contains(x[k]));
  }
}

/** A Dict space from envSpecs' plain description ({ shape, min, max } leaves). */
function fromDescription(desc) {
  if ('shape' in desc) return new Box(desc.min, desc.max, desc.shape);
  return new Dict(Object.fromEntries(Object.entries(desc).map(([k, v]) => [k, fromDescription(v)])));
}

const observationSpaces = {};
const flatBounds = {};

/** The single env's observation space (a Dict), the same object for every env of an id. */
export function observationSpace(id) {
  return (observationSpaces[id] ??= fromDescription(specFor(id).observation));
}

/** Per-element [low, high] of the flat observation, from the engine's fields. */
function flatLowHigh(id) {
  if (flatBounds[id]) return flatBounds[id];
  const spec = specFor(id);
  const low = new Array(spec.obsSize);
  const high = new Array(spec.obsSize);
  for (const f of spec.fields) {
    low.fill(f.low, f.offset, f.offset + f.length);
    high.fill(f.high, f.offset, f.offset + f.length);
  }
  return (flatBounds[id] = { low, high });
}

/** The flat observation of one env: Box(obsSize) of int32. */
export function flatObservationSpace(id) {
  const { low, high } = flatLowHigh(id);
  return new Box(low, high, [low.length]);
}

/** n flat observations, row after row: Box([n, obsSize]) of int32 (a vector env's observations). */
export function batchedObservationSpace(id, n) {
  const { low, high } = flatLowHigh(id);
  const lows = [];
  const highs = [];
  for (let i = 0; i < n; i++) (lows.push(...low), highs.push(...high));
  return new Box(lows, highs, [n, low.length]);
}

/** A vector env's actions: MultiDiscrete with n entries of the action count. */
export function batchedActionSpace(id, n) {
  return new MultiDiscrete(new Array(n).fill(specFor(id).actions.length));
}

/** The action space: Discrete(n) with the rules' action names. */
export function actionSpace(id) {
  const spec = specFor(id);
  return new Discrete(spec.actions.length, spec.actions);
}

// ---- flatten / unflatten -------------------------------------------------------------------

// The observation object of each farm from its flat form: generated from the engine's fields
// (observations.js, by spec_gen.mjs), one object literal per farm.
const builderFor = (id) => observationReaders[specFor(id).id];

/**
 * The observation object of env `id` from its flat form: row `row` of `flat` (an
 * Int32Array or array of obsSize integers per row: a vector env's observations, or one
 * flattened observation).
 */
export function unflatten(id, flat, row = 0) {
  const spec = specFor(id);
  if (!(Array.isArray(flat) || ArrayBuffer.isView(flat)))
    throw new TypeError(`valley-farm: unflatten takes an Int32Array or array of ${spec.obsSize} integers per row, got ${describe(flat)}`);
  if (!Number.isInteger(row) || row < 0 || (row + 1) * spec.obsSize > flat.length) {
    throw new RangeError(
      `valley-farm: row ${describe(row)} is not in this array of ${Math.floor(flat.length / spec.obsSize)} rows of ${spec.obsSize}`,
    );
  }
  return builderFor(id)(flat, row * spec.obsSize);
}

/** For index.js's hot path: the unchecked builder of one env's observation. */
export const observationFrom = builderFor;

/**
 * The flat form of an observation object (the single env's, the page's): an Int32Array of
 * obsSize integers in the layout of envSpecs[id].layout, written into `out` if given.
 */
export function flatten(id, observation, out = new Int32Array(specFor(id).obsSize)) {
  const spec = specFor(id);
  if (!(out instanceof Int32Array) || out.length !== spec.obsSize)
    throw new TypeError(
      `valley-farm: flatten(id, observation, out): out must be an Int32Array of ${id}'s ${spec.obsSize} values, got ${describe(out)}${ArrayBuffer.isView(out) ? ` of ${out.length}` : ''}`,
    );
  if (observation === null || typeof observation !== 'object')
    throw new TypeError(`valley-farm: flatten takes a ${id} observation object, got ${describe(observation)}`);
  for (const { name, group, offset, length } of spec.fields) {
    const value = group ? observation[group]?.[name] : observation[name];
    if (length === 1) {
      if (!Number.isInteger(value))
        throw new TypeError(`valley-farm: observation field ${name} must be an integer, got ${describe(value)}`);
      out[offset] = value;
    } else {
      if (!(Array.isArray(value) || ArrayBuffer.isView(value)) || value.length !== length) {
        throw new TypeError(`valley-farm: observation field ${name} must be ${length} integers, got ${describe(value)}`);
      }
      for (let j = 0; j < length; j++) out[offset + j] = value[j];
    }
  }
  return out;
}
