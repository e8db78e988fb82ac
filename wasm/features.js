// features.js — what a policy sees, computed by the engine (vf_features; valley_farm.h says
// what each feature is): the features of an observation and, with a memory, of what the agent
// has seen this episode, as their nonzero (index, value) pairs. The same bits as the Python
// binding's, and as any exported policy's inputs.
//
// Per env: featureReader(id, { memory, numEnvs }) keeps numEnvs memories in engine memory and
// read(i, flat, row, action, opening, idx, val, k) writes env i's pairs into idx/val from k.
// Many envs at once, the fast path: makeVec(id, n, { features: true, memory }) computes them in
// the vector env's own step (vec.js), into its result's `features`.
//
// Sizes come from the spec (envSpecs[id].features), so they are known before the engine is
// loaded; reading needs it loaded (await loadEngine(), or any make or makeVec, first).
import { engineSpec } from './specs.js';
import { describe, specFor } from './errors.js';
import { loadedEngine } from './engine.js';

const { layouts: LAYOUTS } = engineSpec;
const align8 = (n) => (n + 7) & ~7;

/** The sizes of an env's features: { width, nonzero, observation, memory, landmarks }. */
export function featureSizes(id, memory = false) {
  const f = specFor(id).features;
  return {
    width: f.observation + (memory ? f.memory : 0),
    nonzero: f.nonzero + (memory ? f.memory : 0),
    observation: f.observation,
    memory: memory ? f.memory : 0,
    landmarks: f.landmarks,
  };
}

/** The error of a row the engine refused. */
export function refusedRow(id, row) {
  return new RangeError(
    `valley-farm: features: row ${row} is not an observation of ${id} that follows its episode (a value outside its field's bounds, ` +
      `or, with memory, a step the earlier observations cannot lead to: open each episode with its first observation)`,
  );
}

class FeatureReader {
  #engine;
  #spec;
  #ptr = 0;
  #memories; // numEnvs vf_memory blocks, or 0
  #obs; // one observation row, for rows that are not in engine memory
  #idx;
  #val;

  constructor(engine, spec, memory, numEnvs) {
    this.#engine = engine;
    this.#spec = spec;
    const sizes = featureSizes(spec.id, memory);
    this.width = sizes.width;
    this.nonzero = sizes.nonzero;
    this.numEnvs = numEnvs;
    const memBytes = memory ? align8(LAYOUTS.memory.bytes) * numEnvs : 0;
    this.#ptr = engine.alloc(memBytes + align8(spec.obsSize * 4) + 8 * sizes.nonzero);
    this.#memories = memory ? this.#ptr : 0;
    this.#obs = this.#ptr + memBytes;
    this.#idx = this.#obs + align8(spec.obsSize * 4);
    this.#val = this.#idx + 4 * sizes.nonzero;
    engine.registry.register(this, this.#ptr, this);
  }

  /**
   * Env i's features of row `row` of flat observations (an Int32Array or array), seen after
   * `action` (ignored when `opening` an episode): their nonzero (index, value) pairs written at
   * idx/val[k ..], their indices plus `offset`; returns the new k. Throws for a row the engine
   * refuses (refusedRow), changing nothing.
   */
  read(i, flat, row, action, opening, idx, val, k, offset = 0) {
    if (this.#ptr === 0) throw new Error('valley-farm: this feature reader is closed');
    if (!Number.isInteger(i) || i < 0 || i >= this.numEnvs)
      throw new RangeError(`valley-farm: features: env ${describe(i)} must be an integer from 0 to ${this.numEnvs - 1}`);
    const e = this.#engine;
    const size = this.#spec.obsSize;
    if (!(flat?.length >= (row + 1) * size))
      throw new RangeError(
        `valley-farm: features: row ${describe(row)} is not in ${describe(flat)} of ${flat?.length} values (a view of engine memory made before it grew is empty: read the views again)`,
      );
    e.refresh();
    let at;
    if (flat instanceof Int32Array && flat.buffer === e.buffer) at = flat.byteOffset + row * size * 4;
    else {
      at = this.#obs;
      const i32 = e.i32;
      for (let j = 0, o = at >> 2, from = row * size; j < size; j++) i32[o + j] = flat[from + j];
    }
    const memory = this.#memories ? this.#memories + i * align8(LAYOUTS.memory.bytes) : 0;
    const n = e.x.vf_features(this.#spec.kind, at, action, opening ? 1 : 0, memory, this.#idx, this.#val);
    if (n < 0) throw refusedRow(this.#spec.id, row);
    const i32 = e.i32;
    const f32 = e.f32;
    for (let j = 0, p = this.#idx >> 2, q = this.#val >> 2; j < n; j++) {
      idx[k + j] = i32[p + j] + offset;
      val[k + j] = f32[q + j];
    }
    return k + n;
  }

  /** Frees its engine memory (also done when it is collected). */
  close() {
    if (this.#ptr !== 0) this.#ptr = this.#engine.release(this, this.#ptr);
  }
}

/**
 * A reader of the features of `id`'s observations for numEnvs envs (default 1), each with its
 * own memory of its episode when `memory`. Needs the engine loaded.
 */
export function featureReader(id, { memory = false, numEnvs = 1 } = {}) {
  const spec = specFor(id);
  if (typeof memory !== 'boolean')
    throw new TypeError(`valley-farm: featureReader's memory option is true or false, got ${describe(memory)}`);
  if (!Number.isInteger(numEnvs) || numEnvs < 1 || numEnvs > engineSpec.limits.batchMax)
    throw new RangeError(
      `valley-farm: featureReader's numEnvs must be an integer from 1 to ${engineSpec.limits.batchMax}, got ${describe(numEnvs)}`,
    );
  return new FeatureReader(loadedEngine('featureReader'), spec, memory, numEnvs);
}
