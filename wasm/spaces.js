// spaces.js — observation and action spaces in Gymnasium's terms (Discrete, Box, Dict),
// and the one flatten / unflatten pair that the single env, the vector env and the page
// share, so that a policy trained on flat vector observations runs anywhere.
//
// Bounds and fields come from envSpecs (wasm/specs.js), the engine's own description of each
// farm (vf_spec_json): the bounds are what the rules let an episode reach, not what play
// usually reaches.
import { envSpecs } from './specs.js';
import { foldSeed, seededRandom } from './rng.js';
import { describe, specFor } from './errors.js';

// ---- seeded sampling -------------------------------------------------------------------

/** A sampler from a seed (rng.js), a function returning [0, 1), or an object with random(). */
function samplerOf(rng) {
  if (typeof rng === 'function') return rng;
  if (rng && typeof rng.random === 'function') return () => rng.random();
  if (rng === undefined) rng = Math.floor(Math.random() * 2 ** 32);
  if (!Number.isSafeInteger(rng) || rng < 0) {
    throw new TypeError(
      `valley-farm: sample() takes a seed (an integer from 0 to 2^53 - 1), a function returning numbers in [0, 1), or an object with random(); got ${describe(rng)}`,
    );
  }
  return seededRandom(foldSeed(rng));
}

const drawInt = (random, low, high) => low + Math.floor(random() * (high - low + 1));

// ---- the spaces --------------------------------------------------------------------------

/** Integers 0 .. n - 1 (an action). */
export class Discrete {
  constructor(n, names) {
    this.n = n;
    this.dtype = 'int32';
    if (names) this.names = names;
    Object.freeze(this);
  }
  sample(rng) {
    return Math.floor(samplerOf(rng)() * this.n);
  }
  contains(x) {
    return Number.isInteger(x) && x >= 0 && x < this.n;
  }
}

/**
 * Integers (dtype 'int32') in [low, high] elementwise, of a shape. `low` and `high` are
 * numbers (the same bound everywhere) or arrays of the flattened length. A scalar has
 * shape [] and is a plain number; anything else is an array (or Int32Array) of its size.
 * `min` and `max` repeat uniform bounds, as the rules files and envSpecs name them.
 */
export class Box {
  constructor(low, high, shape, dtype = 'int32') {
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
    const random = samplerOf(rng);
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
export class Dict {
  #keys;
  constructor(spaces) {
    this.#keys = Object.keys(spaces);
    for (const k of this.#keys) this[k] = spaces[k];
    Object.defineProperty(this, 'spaces', { value: Object.freeze({ ...spaces }), enumerable: false });
    Object.freeze(this);
  }
  sample(rng) {
    const random = samplerOf(rng);
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

/** The action space: Discrete(n) with the rules' action names. */
export function actionSpace(id) {
  const spec = specFor(id);
  return new Discrete(spec.actions.length, spec.actions);
}

// ---- flatten / unflatten -------------------------------------------------------------------

// 25 cells as a plain array. Written out as a literal because V8 builds an array literal
// about twice as fast as it fills a new Array(25): this runs on every single-env step.
// prettier-ignore
const cells25 = (a, o) => [
  a[o], a[o + 1], a[o + 2], a[o + 3], a[o + 4], a[o + 5], a[o + 6], a[o + 7], a[o + 8],
  a[o + 9], a[o + 10], a[o + 11], a[o + 12], a[o + 13], a[o + 14], a[o + 15], a[o + 16],
  a[o + 17], a[o + 18], a[o + 19], a[o + 20], a[o + 21], a[o + 22], a[o + 23], a[o + 24],
];

/** A field's value from row offset o of a: a number for a scalar, else a plain array. */
function reader({ offset, length }) {
  if (length === 1) return (a, o) => a[o + offset];
  if (length === 25) return (a, o) => cells25(a, o + offset);
  return (a, o) => Array.from({ length }, (_, j) => a[o + offset + j]);
}

/**
 * The builder of one env's observation object from its flat form: the fields in the
 * engine's order, each grouped field inside its group's object (the valley's inventory).
 */
function builderOf(spec) {
  const top = []; // [key, read(a, o)] for each key of the observation object, in order
  const groups = {};
  for (const f of spec.fields) {
    if (!f.group) {
      top.push([f.name, reader(f)]);
      continue;
    }
    if (!groups[f.group]) {
      const members = (groups[f.group] = []);
      top.push([
        f.group,
        (a, o) => {
          const g = {};
          for (const [name, read] of members) g[name] = read(a, o);
          return g;
        },
      ]);
    }
    groups[f.group].push([f.name, reader(f)]);
  }
  return (a, o) => {
    const observation = {};
    for (const [key, read] of top) observation[key] = read(a, o);
    return observation;
  };
}

const builders = {};
const builderFor = (id) => (builders[id] ??= builderOf(specFor(id)));

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
