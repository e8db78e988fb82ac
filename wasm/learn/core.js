// core.js — the learners' numeric core (core/learn/net.c, valley_farm_learn.h) from JS: its
// own WebAssembly module, wasm/learn/learner.wasm, loaded on first use (the game page never
// loads it). A CoreNet is one network with its gradient and Adam's state; a Samples is where a
// rollout or a set of demonstrations keeps what the network reads, in the module's memory,
// so that a minibatch is named by its rows and never copied.
//
// Samples hold each input sparse: its nonzero features as (index, value) pairs (features() of
// encode.js and memory.js are mostly one-hot zeros), either with room for `stride` of them
// each (a rollout, rewritten every update) or packed end to end, each sample's count known
// beforehand (demonstrations, written once: see Samples.packed).

import { readLocalFile, stubImports } from '../standalone.js';

const wasmUrl = urlOrNull(() => new URL('./learner.wasm', import.meta.url));
const WASM_FILE = 'learner.wasm'; // the same file through a variable, which bundlers leave alone
let loading = null;

function urlOrNull(make) {
  try {
    return make();
  } catch {
    return null;
  }
}

const FIX =
  'In a checkout of the repository, build it with `npm run build:wasm` (or `npm test`); in an installed package, reinstall valley-farm';

async function instantiate() {
  const fileUrl = urlOrNull(() => new URL(WASM_FILE, import.meta.url));
  let source;
  if (fileUrl?.protocol === 'file:') {
    try {
      source = await readLocalFile(fileUrl);
    } catch (err) {
      if (err.code !== 'ENOENT') throw err;
      throw new Error(`valley-farm/learn: the learner core ${fileUrl.pathname} is missing. ${FIX}.`, { cause: err });
    }
  } else {
    if (!wasmUrl) throw new Error('valley-farm/learn: no URL for learner.wasm here');
    const response = await fetch(wasmUrl);
    if (!response.ok) throw new Error(`valley-farm/learn: could not load ${wasmUrl} (HTTP ${response.status})`);
    source = await response.arrayBuffer();
  }
  const module = await WebAssembly.compile(source);
  const instance = await WebAssembly.instantiate(module, stubImports(module, 'valley-farm/learn: the learner core'));
  instance.exports._initialize?.();
  return new Core(instance.exports);
}

/** The learner core, loaded once. */
export function loadCore() {
  loading ??= instantiate().catch((err) => {
    loading = null;
    throw err;
  });
  return loading;
}

class Core {
  constructor(x) {
    this.x = x;
    this.memory = x.memory;
  }

  alloc(bytes) {
    const ptr = this.x.malloc(Math.max(8, bytes));
    if (!ptr) throw new RangeError(`valley-farm/learn: out of WebAssembly memory allocating ${bytes} bytes for the learner`);
    return ptr;
  }

  /** A typed array over the module's memory (stale after the memory grows: ask again). */
  view(Type, ptr, length) {
    return new Type(this.memory.buffer, ptr, length);
  }
}

/** One network: its parameters in TensorFlow.js's dense-layer order (net.js's weights). */
export class CoreNet {
  #core;
  #ptr;
  #scratch; // sums (3 doubles), then the hidden sizes
  #inbox = 0; // another worker's gradient (addGrads)
  constructor(core, inputs, hidden, actions) {
    this.#core = core;
    this.inputs = inputs;
    this.hidden = hidden.slice();
    this.actions = actions;
    const x = core.x;
    this.#scratch = core.alloc(24 + 4 * hidden.length);
    core.view(Int32Array, this.#scratch + 24, hidden.length).set(hidden);
    this.#ptr = x.vflw_create(inputs, hidden.length, this.#scratch + 24, actions);
    if (!this.#ptr) {
      x.free(this.#scratch);
      throw new RangeError(
        `valley-farm/learn: the learner core cannot build a network of ${inputs} inputs, hidden ${JSON.stringify(hidden)}, ${actions} actions (out of range or out of memory)`,
      );
    }
    this.count = x.vfl_param_count(this.#ptr);
    this.shapes = [];
    const sizes = [inputs, ...hidden];
    hidden.forEach((h, i) => this.shapes.push([sizes[i], h], [h]));
    const last = sizes[sizes.length - 1];
    this.shapes.push([last, actions], [actions], [last, 1], [1]);
  }

  #f32(at, length) {
    return this.#core.view(Float32Array, at, length);
  }

  /** The parameters (a view: copy it to keep it). */
  params() {
    return this.#f32(this.#core.x.vfl_params(this.#ptr), this.count);
  }

  /** The gradient the last grad() calls added up (a view). */
  grads() {
    return this.#f32(this.#core.x.vfl_grads(this.#ptr), this.count);
  }

  /** Adam's moments (first, then second: a view) and steps taken. */
  moments() {
    return this.#f32(this.#core.x.vfl_adam_moments(this.#ptr), 2 * this.count);
  }

  get adamSteps() {
    return this.#core.x.vfl_adam_steps(this.#ptr);
  }

  set adamSteps(steps) {
    this.#core.x.vfl_set_adam_steps(this.#ptr, steps);
  }

  /** Glorot-uniform weights from the seed (a whole number below 2^53). */
  init(seed) {
    this.#core.x.vflw_init(this.#ptr, seed >>> 0, Math.floor(seed / 2 ** 32) >>> 0);
  }

  /** The weights as arrays in the policy file's shapes. */
  weights() {
    const p = this.params();
    let at = 0;
    return this.shapes.map((shape) => {
      const n = shape.reduce((a, b) => a * b, 1);
      const values = Array.from(p.subarray(at, at + n));
      at += n;
      return { shape, values };
    });
  }

  /** Sets the weights from a policy file's arrays (shapes already checked). */
  setWeights(weights) {
    const p = this.params();
    let at = 0;
    for (const w of weights) {
      p.set(w.values, at);
      at += w.values.length;
    }
  }

  /** Logits and values of `n` rows of `samples` (rows: an Int32Array in samples, or null: 0 .. n). */
  forward(samples, n, rows, logits, values) {
    const x = this.#core.x;
    const s = samples;
    if (x.vflw_forward(this.#ptr, n, rows ?? 0, s.idx, s.val, s.nnz, s.stride, s.start, logits, values))
      throw new RangeError('valley-farm/learn: out of WebAssembly memory in the learner core');
  }

  zeroGrad() {
    this.#core.x.vfl_zero_grad(this.#ptr);
  }

  /** Adds another copy's gradient (a Float32Array of count values, from another worker) to this one's. */
  addGrads(other) {
    this.#inbox ||= this.#core.alloc(4 * this.count);
    this.#f32(this.#inbox, this.count).set(other);
    this.#core.x.vfl_add_grads(this.#ptr, this.#inbox);
  }

  /**
   * Adds the gradient of PPO's loss (cloning false) or of cloning's (true) over `n` rows of
   * `samples` (rows: a pointer from samples.rows), each term times `scale`; returns the
   * unscaled sums [policy loss or cross-entropy, squared value error, entropy].
   */
  grad(samples, n, rows, { cloning = false, clip = 0, valueCoef, entropyCoef = 0, scale }) {
    const x = this.#core.x;
    const sums = this.#core.view(Float64Array, this.#scratch, 3);
    sums.fill(0);
    const s = samples;
    const failed = x.vflw_grad(
      this.#ptr,
      cloning ? 1 : 0,
      n,
      rows,
      s.idx,
      s.val,
      s.nnz,
      s.stride,
      s.start,
      s.masks,
      s.actions,
      s.oldLogp,
      s.advantages,
      s.returns,
      clip,
      valueCoef,
      entropyCoef,
      scale,
      this.#scratch,
    );
    if (failed) throw new RangeError('valley-farm/learn: out of WebAssembly memory in the learner core');
    return Array.from(this.#core.view(Float64Array, this.#scratch, 3));
  }

  adam(learningRate) {
    this.#core.x.vfl_adam(this.#ptr, learningRate);
  }

  dispose() {
    if (!this.#ptr) return;
    this.#core.x.vfl_destroy(this.#ptr);
    this.#core.x.free(this.#scratch);
    if (this.#inbox) this.#core.x.free(this.#inbox);
    this.#ptr = 0;
  }
}

/**
 * The fields of `count` samples with `pairs` (index, value) pairs in all, as [name, type,
 * length]: packed samples (Samples.packed) have where each one's pairs start, and none of what
 * only a rollout has (cloning reads none of it): the log-probabilities of its actions, its
 * advantages and forward's outputs.
 */
function layout(count, pairs, actions, packed) {
  const r = packed ? 0 : count;
  return [
    ['idx', Int32Array, pairs],
    ['val', Float32Array, pairs],
    ['nnz', Int32Array, count],
    ['start', Uint32Array, packed ? count : 0], // a NULL pointer (0): the stride
    ['masks', Uint8Array, count * actions],
    ['actions', Int32Array, count],
    ['returns', Float32Array, count],
    ['rows', Int32Array, count], // a minibatch's rows, or a rollout step's
    ['oldLogp', Float32Array, r],
    ['advantages', Float32Array, r],
    ['logits', Float32Array, r * actions],
    ['values', Float32Array, r],
  ];
}

/**
 * Room for `count` samples of at most `stride` nonzero features and `actions` actions, in the
 * core's memory, with typed-array views (views(), again after anything that may grow memory).
 * Samples.packed(core, nnz, actions) instead has room for exactly nnz[s] features of sample s.
 */
export class Samples {
  #core;
  #blocks = [];
  #layout;
  constructor(core, count, stride, actions, packed = null) {
    this.#core = core;
    this.count = count;
    this.stride = stride;
    this.A = actions;
    this.#layout = layout(count, packed ? packed.pairs : count * stride, actions, packed !== null);
    for (const [name, Type, length] of this.#layout) {
      this[name] = length > 0 ? core.alloc(Type.BYTES_PER_ELEMENT * length) : 0;
      if (this[name]) this.#blocks.push(this[name]);
    }
    const v = this.views();
    if (packed) v.nnz.set(packed.nnz);
    if (packed) for (let s = 0, at = 0; s < count; at += packed.nnz[s++]) v.start[s] = at;
  }

  /** The bytes of `count` samples with `pairs` nonzero features in all, packed or not (at a stride). */
  static bytes(count, pairs, actions, packed) {
    return layout(count, pairs, actions, packed).reduce((a, [, Type, length]) => a + Type.BYTES_PER_ELEMENT * length, 0);
  }

  /**
   * Room for the samples of a cloning run: sample s has exactly nnz[s] nonzero features, its
   * pairs packed after the previous sample's, and no room for what only a rollout has.
   */
  static packed(core, nnz, actions) {
    let pairs = 0;
    for (const n of nnz) pairs += n;
    if (pairs >= 2 ** 32) throw new RangeError(`valley-farm/learn: ${pairs} nonzero features are more than the learner core can index`);
    return new Samples(core, nnz.length, 0, actions, { nnz, pairs });
  }

  /** Where sample s's pairs begin in idx and val. */
  first(s) {
    return this.start ? this.views().start[s] : s * this.stride;
  }

  /** Typed-array views of every field (made again if the memory has grown). */
  views() {
    const c = this.#core;
    if (this.v && this.v.buffer === c.memory.buffer) return this.v;
    this.v = { buffer: c.memory.buffer };
    for (const [name, Type, length] of this.#layout) this.v[name] = c.view(Type, this[name], length);
    return this.v;
  }

  /** Writes the nonzero entries of dense[from .. from + length) as sample s's input (a stride's room). */
  putDense(s, dense, from, length) {
    const v = this.views();
    let k = s * this.stride;
    const end = k + this.stride;
    for (let j = 0; j < length; j++) {
      const x = dense[from + j];
      if (x !== 0) {
        if (k === end) throw new RangeError(`valley-farm/learn: an input has more than ${this.stride} nonzero features`);
        v.idx[k] = j;
        v.val[k++] = x;
      }
    }
    v.nnz[s] = k - s * this.stride;
  }

  dispose() {
    for (const p of this.#blocks) this.#core.x.free(p);
    this.#blocks = [];
  }
}
