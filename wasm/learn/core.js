// core.js — the learners' numeric core (core/learn/net.c, valley_farm_learn.h) from JS: its
// own WebAssembly module, wasm/learn/learner.wasm, loaded on first use (the game page never
// loads it). It knows no algorithm: a CoreNet runs forward, takes back the gradient of the
// learner's loss at its outputs (backward), and steps (adam, sgd); the learner computes that
// gradient in its own file. A Samples is where a rollout, a replay memory or a set of
// demonstrations keeps what the network reads, in the module's memory, so that a minibatch is
// named by its rows and never copied.
//
//     const net = new CoreNet(core, { inputs, hidden: [64, 64], heads: [A, 1], headInit: [0.01, 0] });
//     net.init(seed);
//     const out = net.forward(samples, n, samples.rows);  // n x net.outputs (a view)
//     const dout = net.outputGrad(n);                     // the learner writes d loss / d out here
//     net.zeroGrad();
//     net.backward(samples, n, samples.rows);             // adds d loss / d params
//     net.adam(learningRate);
//
// Samples hold each input sparse: its nonzero features as (index, value) pairs (what a policy
// sees is mostly one-hot zeros), either with room for `stride` of them each (a rollout,
// rewritten every update) or packed end to end, each sample's count known beforehand
// (demonstrations, written once: see Samples.packed).
//
// A network with `recurrent: U` (a GRU of U units between the hidden layers and the heads, or
// with `cell: 'lstm'` an LSTM) reads its samples as steps of sequences, each with a state
// (stateSize floats: a GRU's U, an LSTM's 2U, its h then its c) carried from step to step: forwardSeq and backwardSeq instead of forward and backward, over T steps of B
// sequences, time-major (sample t × B + b is step t of sequence b):
//
//     const out = net.forwardSeq(samples, T, B, samples.rows, { starts, state, finalState });
//     net.backwardSeq(samples, T, B, samples.rows);       // through time, within the T steps

import { readLocalFile, stubImports } from '../standalone.js';

const wasmUrl = urlOrNull(() => new URL('./learner.wasm', import.meta.url));
const WASM_FILE = 'learner.wasm'; // the same file through a variable, which bundlers leave alone
let loading = null;
let givenBytes = null; // learner.wasm's bytes handed in (useCoreBytes): a sandbox without the network
let memoryCheck = null; // a host's check of each allocation in the core (useMemoryCheck)

/**
 * Loads the learner core from these bytes (an ArrayBuffer of learner.wasm) instead of its URL:
 * for code that runs where it cannot fetch the file, such as the Lab's sandbox for a visitor's
 * learner (web/src/sandbox/learnerBox.js), which the page hands the bytes. Call it before the
 * first loadCore().
 */
export function useCoreBytes(bytes) {
  if (!(bytes instanceof ArrayBuffer)) throw new TypeError('valley-farm/learn: useCoreBytes takes the ArrayBuffer of learner.wasm');
  givenBytes = bytes;
}

/**
 * Has `check(bytes, memory)` asked before each allocation in the learner core (`memory`: the
 * core's WebAssembly memory), which it refuses by throwing: for a host that holds a learner to
 * a memory budget as it runs, such as the Lab's sandbox for a visitor's learner, whose settings
 * size what the package allocates here (web/src/sandbox/allocationGuard.js).
 */
export function useMemoryCheck(check) {
  if (typeof check !== 'function') throw new TypeError('valley-farm/learn: useMemoryCheck takes a function (bytes, memory)');
  memoryCheck = check;
}

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
  if (givenBytes) source = givenBytes;
  else if (fileUrl?.protocol === 'file:') {
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

// The structs this file lays out in the module's memory (valley_farm_learn.h's vfl_layout and
// vfl_inputs), in bytes: a module built from other sources is refused at load, not misread.
const LAYOUT_BYTES = 4 * (2 + 2 * 8 + 1 + 2 * 4);
const INPUTS_BYTES = 4 * 8;

class Core {
  constructor(x) {
    this.x = x;
    this.memory = x.memory;
    if (x.vflw_layout_size?.() !== LAYOUT_BYTES || x.vflw_inputs_size?.() !== INPUTS_BYTES)
      throw new Error(
        `valley-farm/learn: the learner core (learner.wasm) was built from other sources than wasm/learn/core.js (its structs are not the ones this file writes). ${FIX}.`,
      );
  }

  alloc(bytes) {
    memoryCheck?.(bytes, this.memory);
    const ptr = this.x.malloc(Math.max(8, bytes));
    if (!ptr) throw new RangeError(`valley-farm/learn: out of WebAssembly memory allocating ${bytes} bytes for the learner`);
    return ptr;
  }

  /** A typed array over the module's memory (stale after the memory grows: ask again). */
  view(Type, ptr, length) {
    return new Type(this.memory.buffer, ptr, length);
  }

  /** to[k] += from[k] for k < count: floats in the module's memory, added in float (SIMD). */
  addFloats(to, from, count) {
    this.x.vfl_add_floats(to, from, count);
  }

  /** The C string at ptr (the core's messages are short ASCII). */
  cString(ptr) {
    const bytes = new Uint8Array(this.memory.buffer, ptr, Math.min(256, this.memory.buffer.byteLength - ptr));
    const end = bytes.indexOf(0);
    return String.fromCharCode(...bytes.subarray(0, end < 0 ? bytes.length : end));
  }
}

const KINDS = Object.freeze({ tanh: 0, relu: 1 }); // valley_farm_learn.h's VFL_TANH, VFL_RELU
const CELLS = Object.freeze({ gru: 2, lstm: 3 }); // VFL_GRU, VFL_LSTM
const MAX_LAYERS = 8; // VFL_MAX_LAYERS
const MAX_HEADS = 4; // VFL_MAX_HEADS
const ERRORS = { [-1]: 'out of WebAssembly memory in the learner core', [-2]: 'a row, count or index out of range' };

/**
 * The shapes of a network's weights, in its parameters' order: each hidden layer's kernel and
 * bias; with `recurrent` U, the GRU's kernel [last x 3U], recurrent kernel [U x 3U] and biases
 * [2 x 3U] (Keras's GRU), or with `cell` 'lstm' the LSTM's kernel [last x 4U], recurrent
 * kernel [U x 4U] and bias [4U] (Keras's LSTM); then each head's (a policy file's "weights"
 * have these shapes).
 */
export function layoutShapes({ inputs, hidden, recurrent = 0, cell = 'gru', heads }) {
  const shapes = [];
  const sizes = [inputs, ...hidden];
  hidden.forEach((h, i) => shapes.push([sizes[i], h], [h]));
  let last = sizes[sizes.length - 1];
  if (recurrent > 0 && cell === 'lstm') shapes.push([last, 4 * recurrent], [recurrent, 4 * recurrent], [4 * recurrent]);
  else if (recurrent > 0) shapes.push([last, 3 * recurrent], [recurrent, 3 * recurrent], [2, 3 * recurrent]);
  if (recurrent > 0) last = recurrent;
  for (const units of heads) shapes.push([last, units], [units]);
  return shapes;
}

/**
 * One network: sparse inputs, hidden layers (`activation` 'tanh' or 'relu', or one per layer),
 * with `recurrent` U > 0 a GRU of U units after them (`cell` 'lstm': an LSTM), linear heads side by side (heads: their
 * units, e.g. [actions, 1] for logits and a value; headInit: each head's initial deviation, 0
 * for Glorot), with its gradient and Adam's state.
 */
export class CoreNet {
  #core;
  #ptr;
  #out = 0; // forward's outputs, the learner's gradient at them, the policy of the logits (room for #rows rows)
  #dout = 0;
  #logp = 0;
  #p = 0;
  #entropy = 0;
  #rows = 0;
  // the views #f32 handed out, by place, while the memory's buffer is #viewsOf: a forward, a
  // policy and a backward each ask for theirs, about one a step of a run, and where the
  // constructor is counted (the Lab's sandbox: allocationGuard.js) making one costs more than
  // reusing it
  #views = new Map();
  #viewsOf = null;
  #inbox = 0; // another copy's gradient (addGrads)
  #starts = 0; // forwardSeq's episode starts (a byte a sample), first and final states
  #state = 0;
  #final = 0;
  constructor(core, { inputs, hidden, activation = 'tanh', recurrent = 0, cell = 'gru', heads, headInit = heads.map(() => 0) }) {
    this.#core = core;
    this.inputs = inputs;
    this.hidden = hidden.slice();
    this.recurrent = recurrent;
    this.cell = cell;
    this.heads = heads.slice();
    const x = core.x;
    const kinds = Array.isArray(activation) ? activation : hidden.map(() => activation);
    const problem = (what) => {
      throw new RangeError(`valley-farm/learn: the learner core cannot build this network: ${what}`);
    };
    if (!Number.isInteger(recurrent) || recurrent < 0)
      problem(`recurrent must be a whole number of units (0: no recurrent layer), got ${recurrent}`);
    if (!Object.hasOwn(CELLS, cell)) problem(`cell must be 'gru' or 'lstm', got ${String(cell).slice(0, 20)}`);
    const layers = hidden.length + (recurrent > 0 ? 1 : 0);
    if (layers > MAX_LAYERS || heads.length > MAX_HEADS || kinds.length !== hidden.length || !kinds.every((k) => Object.hasOwn(KINDS, k)))
      problem(`at most ${MAX_LAYERS} hidden layers (a recurrent one counted), each 'tanh' or 'relu', and at most ${MAX_HEADS} heads`);
    // the vfl_layout struct: inputs, layers, units[8], kinds[8], heads, head_units[4], head_init[4]
    const size = x.vflw_layout_size();
    const at = core.alloc(size);
    const ints = core.view(Int32Array, at, size / 4);
    ints.fill(0);
    ints[0] = inputs;
    ints[1] = layers;
    ints.set(recurrent > 0 ? [...hidden, recurrent] : hidden, 2);
    ints.set(kinds.map((k) => KINDS[k]).concat(recurrent > 0 ? [CELLS[cell]] : []), 2 + MAX_LAYERS);
    ints[2 + 2 * MAX_LAYERS] = heads.length;
    ints.set(heads, 3 + 2 * MAX_LAYERS);
    core.view(Float32Array, at, size / 4).set(headInit, 3 + 2 * MAX_LAYERS + MAX_HEADS);
    const why = x.vfl_layout_problem(at);
    this.#ptr = why ? 0 : x.vfl_create(at);
    x.free(at);
    if (why) problem(core.cString(why));
    if (!this.#ptr) problem('out of WebAssembly memory');
    this.count = x.vfl_param_count(this.#ptr);
    this.outputs = x.vfl_outputs(this.#ptr);
    this.stateSize = x.vfl_state_size(this.#ptr); // a sequence's state: a GRU's units, an LSTM's h and c (0: none)
    this.shapes = layoutShapes({ inputs, hidden, recurrent, cell, heads });
  }

  #f32(at, length) {
    const buffer = this.#core.memory.buffer;
    if (buffer !== this.#viewsOf) {
      this.#views.clear(); // the memory grew: the views of its old buffer are empty
      this.#viewsOf = buffer;
    }
    const kept = this.#views.get(at);
    if (kept !== undefined && kept.length === length) return kept;
    const view = this.#core.view(Float32Array, at, length);
    this.#views.set(at, view);
    return view;
  }

  /** Throws the core's error for a call's result (0: none). */
  #check(code, what) {
    if (code) throw new RangeError(`valley-farm/learn: ${what}: ${ERRORS[code] ?? `error ${code}`}`);
  }

  /**
   * Room for n rows of outputs and of their gradient, both grown at once (never shrunk), before
   * forward runs: so that a view of forward's outputs stays good while the learner writes the
   * gradient (growing the module's memory would leave it stale).
   */
  #reserve(n) {
    if (n <= this.#rows) return;
    const x = this.#core.x;
    for (const p of this.#buffers()) if (p) x.free(p);
    this.#out = this.#dout = this.#logp = this.#p = this.#entropy = this.#starts = this.#state = this.#final = 0;
    const A = this.heads[0];
    this.#out = this.#core.alloc(4 * n * this.outputs);
    this.#dout = this.#core.alloc(4 * n * this.outputs);
    this.#logp = this.#core.alloc(4 * n * A);
    this.#p = this.#core.alloc(4 * n * A);
    this.#entropy = this.#core.alloc(4 * n);
    if (this.stateSize > 0) {
      this.#starts = this.#core.alloc(n);
      this.#state = this.#core.alloc(4 * n * this.stateSize);
      this.#final = this.#core.alloc(4 * n * this.stateSize);
    }
    this.#rows = n;
  }

  #buffers() {
    return [this.#out, this.#dout, this.#logp, this.#p, this.#entropy, this.#starts, this.#state, this.#final];
  }

  /** The parameters (a view: copy it to keep it). */
  params() {
    return this.#f32(this.#core.x.vfl_params(this.#ptr), this.count);
  }

  /** The gradient backward() added up (a view). */
  grads() {
    return this.#f32(this.#core.x.vfl_grads(this.#ptr), this.count);
  }

  /** Where the gradient is in the module's memory (exchange.js adds kept gradients there), and the module. */
  get gradsPointer() {
    return this.#core.x.vfl_grads(this.#ptr);
  }

  get core() {
    return this.#core;
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

  /** Initial weights from the seed (a whole number below 2^53): Glorot-uniform, each head as its headInit says. */
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

  /**
   * The outputs of `n` rows of `samples` (rows: samples.rows, a pointer whose first n entries
   * the caller set, or 0 for rows 0 .. n − 1), n × outputs (a view of the net's own buffer,
   * until its next forward). backward() then reads what this forward kept. A forward of more
   * rows than any before grows the module's memory: views taken before it are then stale, so
   * take them after (samples.views() makes them again).
   */
  forward(samples, n, rows) {
    if (this.stateSize > 0) throw new Error('valley-farm/learn: forward: a recurrent network reads sequences (forwardSeq)');
    this.#reserve(n);
    this.#check(this.#core.x.vfl_forward(this.#ptr, n, rows || 0, samples.inputs, this.#out), 'forward');
    return this.#f32(this.#out, n * this.outputs);
  }

  /**
   * The policy of the last forward's first head (its logits), masked by samples.masks (a row
   * each, 1 legal) of the same n rows: { logp, p, entropy } (views, n × actions, n × actions,
   * n: log π, π and its entropy; an illegal action has log π −Infinity and π exactly 0).
   * The learner core computes it (valley_farm_learn.h: vfl_masked_softmax), the one masked
   * softmax every learner and policy reads.
   */
  policy(samples, n, rows) {
    this.#reserve(n);
    const code = this.#core.x.vfl_masked_softmax(this.#ptr, n, rows || 0, samples.inputs, this.#out, this.#logp, this.#p, this.#entropy);
    this.#check(code, 'policy (every row needs a legal action)');
    const A = this.heads[0];
    return { logp: this.#f32(this.#logp, n * A), p: this.#f32(this.#p, n * A), entropy: this.#f32(this.#entropy, n) };
  }

  /**
   * Where the learner writes d loss / d outputs of the last forward's n rows (a view, n ×
   * outputs; taking it allocates nothing, so forward's view stays good).
   */
  outputGrad(n) {
    this.#reserve(n);
    return this.#f32(this.#dout, n * this.outputs);
  }

  /**
   * The outputs of T steps of B sequences (a recurrent network's; n = T × B rows of `samples`,
   * time-major: sample t × B + b is step t of sequence b, its row rows[t × B + b]), n ×
   * outputs (a view, as forward's). Sequence b starts from state[b × stateSize ..] (a
   * Float32Array of B × stateSize; null: zeros), and from zeros where starts[t × B + b] is 1
   * (a Uint8Array of n, or null: no episode starts within them). With finalState (a
   * Float32Array of B × stateSize, which may be `state` itself), each sequence's state after
   * its last step is written there. backwardSeq then reads what this forward kept.
   */
  forwardSeq(samples, T, B, rows, { starts = null, state = null, finalState = null } = {}) {
    const S = this.stateSize;
    if (S === 0) throw new Error('valley-farm/learn: forwardSeq: this network has no recurrent layer (forward)');
    const n = T * B;
    if (!(Number.isInteger(T) && Number.isInteger(B) && T >= 0 && B >= 0))
      throw new RangeError(`valley-farm/learn: forwardSeq: steps and sequences must be whole numbers, got ${T} and ${B}`);
    for (const [name, array, length] of [
      ['starts', starts, n],
      ['state', state, B * S],
      ['finalState', finalState, B * S],
    ])
      if (array !== null && array.length < length)
        throw new RangeError(
          `valley-farm/learn: forwardSeq: ${name} holds ${array.length} values, fewer than the ${length} of ${B} sequences`,
        );
    this.#reserve(Math.max(n, B));
    const c = this.#core;
    if (starts) c.view(Uint8Array, this.#starts, n).set(starts.subarray(0, n));
    if (state) this.#f32(this.#state, B * S).set(state.subarray(0, B * S));
    const code = c.x.vfl_forward_seq(
      this.#ptr,
      T,
      B,
      rows || 0,
      samples.inputs,
      starts ? this.#starts : 0,
      state ? this.#state : 0,
      this.#out,
      finalState ? this.#final : 0,
    );
    this.#check(code, 'forwardSeq');
    if (finalState) finalState.set(this.#f32(this.#final, B * S));
    return this.#f32(this.#out, n * this.outputs);
  }

  /**
   * Throws, naming the head, at the first value of the gradient at the outputs (n rows) that is
   * not a number or infinite: a learner's loss gone wrong stops at its first bad gradient, before
   * it reaches the weights.
   */
  #checkOutputGrad(n, what) {
    const dout = this.#f32(this.#dout, n * this.outputs);
    for (let i = 0; i < dout.length; i++) {
      if (Number.isFinite(dout[i])) continue;
      const row = Math.floor(i / this.outputs);
      let unit = i % this.outputs;
      let head = 0;
      while (unit >= this.heads[head]) unit -= this.heads[head++];
      throw new RangeError(
        `valley-farm/learn: ${what}: the gradient at the outputs is ${dout[i]} at row ${row}, head ${head} ` +
          `(of ${this.heads.length}: ${this.heads.join(' + ')} units), unit ${unit}; a loss's gradient must be finite numbers (outputGrad)`,
      );
    }
  }

  /** Adds to the gradient d loss / d params of the last forwardSeq's steps (through time), from outputGrad(T × B). */
  backwardSeq(samples, T, B, rows) {
    this.#reserve(T * B);
    this.#checkOutputGrad(T * B, 'backwardSeq');
    this.#check(
      this.#core.x.vfl_backward_seq(this.#ptr, T, B, rows || 0, samples.inputs, this.#dout),
      'backwardSeq (after a forwardSeq of the same steps and sequences)',
    );
  }

  /** Adds to the gradient d loss / d params of the last forward's rows, from outputGrad(n). */
  backward(samples, n, rows) {
    this.#reserve(n);
    this.#checkOutputGrad(n, 'backward');
    this.#check(
      this.#core.x.vfl_backward(this.#ptr, n, rows || 0, samples.inputs, this.#dout),
      'backward (after a forward of the same rows)',
    );
  }

  zeroGrad() {
    this.#core.x.vfl_zero_grad(this.#ptr);
  }

  /** Adds another copy's gradient (a Float32Array of count values, from another thread) to this one's. */
  addGrads(other) {
    this.#inbox ||= this.#core.alloc(4 * this.count);
    this.#f32(this.#inbox, this.count).set(other);
    this.#core.x.vfl_add_grads(this.#ptr, this.#inbox);
  }

  /** The gradient's Euclidean norm. */
  gradNorm() {
    return this.#core.x.vfl_grad_norm(this.#ptr);
  }

  scaleGrads(factor) {
    this.#core.x.vfl_scale_grads(this.#ptr, factor);
  }

  adam(learningRate) {
    this.#core.x.vfl_adam(this.#ptr, learningRate);
  }

  sgd(learningRate) {
    this.#core.x.vfl_sgd(this.#ptr, learningRate);
  }

  /** Takes another network's parameters (of the same layout): a target network's refresh. */
  copyFrom(other) {
    this.#check(this.#core.x.vfl_copy_params(this.#ptr, other.#ptr), 'copyFrom (a network of another layout)');
  }

  dispose() {
    if (!this.#ptr) return;
    const x = this.#core.x;
    x.vfl_destroy(this.#ptr);
    for (const p of [...this.#buffers(), this.#inbox]) if (p) x.free(p);
    this.#ptr = 0;
    this.#views.clear();
  }
}

/**
 * The fields of `count` samples with `pairs` (index, value) pairs in all, as [name, type,
 * length]: packed samples (Samples.packed) also have where each one's pairs start. `rows`
 * names a minibatch's rows (or a rollout step's); `masks`, with `actions`, each sample's legal
 * actions (CoreNet.policy reads them).
 */
function layout(count, pairs, packed, actions) {
  return [
    ['idx', Int32Array, pairs],
    ['val', Float32Array, pairs],
    ['nnz', Int32Array, count],
    ['start', Uint32Array, packed ? count : 0], // a NULL pointer (0): the stride
    ['rows', Int32Array, count],
    ['masks', Uint8Array, count * actions],
  ];
}

/**
 * Room for `count` samples of at most `stride` nonzero features (and, with `actions`, their
 * legal masks), in the core's memory, with typed-array views (views(), again after anything
 * that may grow memory). Samples.packed(core, nnz, { actions }) instead has room for exactly
 * nnz[s] features of sample s. `inputs` points to the vfl_inputs the core reads them through.
 */
export class Samples {
  #core;
  #blocks = [];
  #layout;
  constructor(core, count, stride, { actions = 0, packed = null } = {}) {
    this.#core = core;
    this.count = count;
    this.stride = stride;
    this.A = actions;
    const pairs = packed ? packed.pairs : count * stride;
    this.pairs = pairs;
    if (pairs >= 2 ** 32) throw new RangeError(`valley-farm/learn: ${pairs} nonzero features are more than the learner core can index`);
    this.#layout = layout(count, pairs, packed !== null, actions);
    for (const [name, Type, length] of this.#layout) {
      this[name] = length > 0 ? core.alloc(Type.BYTES_PER_ELEMENT * length) : 0;
      if (this[name]) this.#blocks.push(this[name]);
    }
    // vfl_inputs: idx, val, nnz, stride, start, count, pairs, masks (pointers are 32-bit in the module)
    const size = core.x.vflw_inputs_size();
    this.inputs = core.alloc(size);
    this.#blocks.push(this.inputs);
    core.view(Uint32Array, this.inputs, size / 4).set([this.idx, this.val, this.nnz, stride, this.start, count, pairs, this.masks]);
    const v = this.views();
    if (packed?.nnz) v.nnz.set(packed.nnz);
    if (packed?.nnz) for (let s = 0, at = 0; s < count; at += packed.nnz[s++]) v.start[s] = at;
  }

  /** The bytes of `count` samples with `pairs` nonzero features in all, packed or not (at a stride), with masks of `actions`. */
  static bytes(count, pairs, packed, actions = 0) {
    return layout(count, pairs, packed, actions).reduce((a, [, Type, length]) => a + Type.BYTES_PER_ELEMENT * length, 0);
  }

  /** Room for samples of exactly nnz[s] nonzero features each, packed end to end (written once). */
  static packed(core, nnz, { actions = 0 } = {}) {
    let pairs = 0;
    for (const n of nnz) pairs += n;
    return new Samples(core, nnz.length, 0, { actions, packed: { nnz, pairs } });
  }

  /**
   * Room for `count` samples whose pairs go anywhere in `pairs` (index, value) pairs: the
   * caller sets each sample's start (views().start) before writing it, as a replay memory
   * that keeps its samples packed in a ring does (dqn.js).
   */
  static ring(core, count, pairs, { actions = 0 } = {}) {
    return new Samples(core, count, 0, { actions, packed: { nnz: null, pairs } });
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
