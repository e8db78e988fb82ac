// valley-farm — the JavaScript API (shared/spec/api.md), the same module in Node >= 20 and
// in browsers. It loads the WebAssembly build of the C engine (wasm/valley_farm.wasm, a
// standalone module with no generated glue) and wraps it Gymnasium-style:
//
//   import { make, makeVec, envIds } from 'valley-farm';
//   const env = await make('ValleyFarm-v0');
//   let { observation } = env.reset({ seed: 42 });
//   const { reward, terminated } = env.step(11);
//
// Memory: each env is one block of the module's memory (its C state and its output
// buffers), freed by close() or, as a safety net, when the env object is garbage collected.
import { envSpecs, envIds } from './specs.js';

export { envSpecs, envIds };

const SNAPSHOT_MAX = 512; // VF_SNAPSHOT_MAX in core/include/valley_farm.h
const TEXT_MAX = 4096; // VF_TEXT_MAX
const TWO_32 = 2 ** 32;
const MAX_BIGINT_SEED = (1n << 64n) - 1n;

// ---- loading ------------------------------------------------------------------------------

// Bundlers (Vite, webpack, Parcel) see this literal pattern and ship the .wasm beside the
// bundle, rewriting the URL to where they put it.
const wasmUrl = new URL('./valley_farm.wasm', import.meta.url);
// The same file named through a variable, which bundlers leave alone: where this module
// is a file on disk (Node, and test runners that rewrite the URL above) it is read from there.
const WASM_FILE = 'valley_farm.wasm';
let enginePromise = null;

/** Loads and instantiates the engine once; every make/makeVec awaits the same promise. */
function loadEngine() {
  enginePromise ??= instantiate().then(
    (instance) => new Engine(instance),
    (err) => {
      enginePromise = null; // a failed load (say, the network) may be retried by the next call
      throw err;
    },
  );
  return enginePromise;
}

async function instantiate() {
  const fileUrl = new URL(WASM_FILE, import.meta.url);
  let source;
  if (fileUrl.protocol === 'file:') {
    source = await readLocalFile(fileUrl);
  } else {
    const response = await fetch(wasmUrl);
    if (!response.ok) throw new Error(`valley-farm: could not load ${wasmUrl} (HTTP ${response.status})`);
    source = await response.arrayBuffer();
  }
  const module = await compileEngine(source);
  const instance = await WebAssembly.instantiate(module, stubImports(module));
  instance.exports._initialize?.(); // a standalone reactor module's start-up (static data, malloc)
  return instance;
}

// The engine uses WebAssembly SIMD (128-bit vectors copy the observation's views), which
// every current browser and Node has: Chrome 91, Firefox 89, Safari 16.4, Node 16.4 and later.
// An engine without it fails to compile the module; say why instead of "invalid opcode".
async function compileEngine(source) {
  try {
    return await WebAssembly.compile(source);
  } catch (err) {
    if (!(err instanceof WebAssembly.CompileError)) throw err;
    throw new Error(
      'valley-farm: this JavaScript engine cannot compile valley_farm.wasm. It needs WebAssembly ' +
        `SIMD (Chrome 91+, Firefox 89+, Safari 16.4+, Node 16.4+). The engine said: ${err.message}`,
      { cause: err },
    );
  }
}

// Node's fs without a static import, so that browser bundles never see one.
async function readLocalFile(url) {
  const fs = globalThis.process?.getBuiltinModule?.('node:fs/promises') ?? (await import(/* @vite-ignore */ `node:${'fs/promises'}`));
  return fs.readFile(url);
}

// The engine does no I/O, but a standalone Emscripten module may still import a few
// runtime hooks (memory-growth notices, abort). None of them is ever needed to run the
// rules, so each gets a stub; an unexpected call fails loudly instead of silently.
function stubImports(module) {
  const imports = {};
  for (const { module: ns, name, kind } of WebAssembly.Module.imports(module)) {
    if (kind !== 'function') continue;
    imports[ns] ??= {};
    imports[ns][name] =
      name === 'emscripten_notify_memory_growth'
        ? () => {}
        : () => {
            throw new Error(`valley-farm: the engine called ${ns}.${name}, which should never happen`);
          };
  }
  return imports;
}

/** The instantiated module, with typed-array views that follow memory growth. */
class Engine {
  constructor(instance) {
    this.x = instance.exports;
    this.memory = instance.exports.memory;
    this.envSize = this.x.vfw_env_size();
    this.scratch = this.alloc(TEXT_MAX); // text and snapshot transfers, used one call at a time
    this.refresh();
    this.decoder = new TextDecoder();
    this.encoder = new TextEncoder();
    // frees an env's block if its object is collected without close()
    this.registry = new FinalizationRegistry((ptr) => this.x.free(ptr));
  }

  /** Views go stale when the memory grows (emscripten issue 6747): re-make them then. */
  refresh() {
    if (this.buffer === this.memory.buffer) return;
    this.buffer = this.memory.buffer;
    this.u8 = new Uint8Array(this.buffer);
    this.i32 = new Int32Array(this.buffer);
    this.f64 = new Float64Array(this.buffer);
    this.u32 = new Uint32Array(this.buffer);
  }

  /** Frees an object's block and forgets its collection hook; returns the null pointer. */
  release(owner, ptr) {
    this.registry.unregister(owner);
    this.x.free(ptr);
    return 0;
  }

  alloc(bytes) {
    const ptr = this.x.malloc(bytes);
    if (!ptr) throw new RangeError(`valley-farm: out of WebAssembly memory allocating ${bytes} bytes`);
    return ptr;
  }

  cString(ptr, maxLength = TEXT_MAX) {
    this.refresh();
    let end = ptr;
    while (end < ptr + maxLength && this.u8[end] !== 0) end++;
    return this.decoder.decode(this.u8.subarray(ptr, end));
  }

  /** Calls fn(buf, cap) (a C function with snprintf semantics) and returns the text. */
  text(fn) {
    const length = fn(this.scratch, TEXT_MAX);
    if (length >= TEXT_MAX) throw new Error('valley-farm: engine text longer than its buffer');
    return this.cString(this.scratch, TEXT_MAX);
  }

  readU64(ptr) {
    this.refresh();
    const lo = this.u32[ptr >> 2];
    const hi = this.u32[(ptr >> 2) + 1];
    return hi < 2 ** 21 ? hi * TWO_32 + lo : (BigInt(hi) << 32n) | BigInt(lo);
  }
}

// ---- argument checks (each error says what was wrong and what is allowed) ----------------

function specFor(id) {
  const spec = typeof id === 'string' && Object.hasOwn(envSpecs, id) ? envSpecs[id] : null;
  if (!spec) {
    throw new Error(`valley-farm: unknown env id ${describe(id)}; the env ids are ${envIds.map((i) => `'${i}'`).join(', ')}`);
  }
  return spec;
}

function describe(value) {
  if (typeof value === 'string') return `'${value}'`;
  if (typeof value === 'bigint') return `${value}n`;
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'object') return `a ${value.constructor?.name ?? 'object'}`;
  return String(value);
}

const SEED_RULE = 'a seed must be an integer from 0 to 2^53 - 1, or a BigInt from 0n to 2^64 - 1';

/** Returns [lo, hi] 32-bit halves of a valid seed; throws for anything else. */
function seedHalves(seed) {
  if (typeof seed === 'bigint') {
    if (seed < 0n || seed > MAX_BIGINT_SEED) throw new RangeError(`valley-farm: seed ${seed}n is out of range: ${SEED_RULE}`);
    return [Number(seed & 0xffffffffn), Number(seed >> 32n)];
  }
  if (typeof seed !== 'number') throw new TypeError(`valley-farm: seed ${describe(seed)} is not a number: ${SEED_RULE}`);
  if (!Number.isSafeInteger(seed) || seed < 0) throw new RangeError(`valley-farm: seed ${seed} is not allowed: ${SEED_RULE}`);
  return [seed % TWO_32, Math.floor(seed / TWO_32)];
}

function randomSeed() {
  const words = crypto.getRandomValues(new Uint32Array(2));
  return (words[0] & 0x1fffff) * TWO_32 + words[1]; // 53 random bits: a plain Number
}

function checkAction(action, spec) {
  if (Number.isInteger(action) && action >= 0 && action < spec.actions.length) return; // the hot path
  const allowed = `an action is an integer from 0 to ${spec.actions.length - 1} (${spec.actions.map((n, i) => `${i} ${n}`).join(', ')})`;
  if (typeof action !== 'number') throw new TypeError(`valley-farm: action ${describe(action)} is not a number; ${allowed}`);
  throw new RangeError(`valley-farm: action ${action} is not allowed; ${allowed}`);
}

// ---- one environment ----------------------------------------------------------------------

// Layout of an env's block: [vf_env][obs: 55 x i32][flags: 2 bytes][mask: 12 bytes][u64 out]
const align8 = (n) => (n + 7) & ~7;

class FarmEnv {
  #engine;
  #spec;
  #ptr = 0; // the block; 0 once closed
  #obs;
  #flags;
  #mask;
  #out64;
  #seed = null; // the seed of the episode in progress, null before the first reset
  #step = 0;
  #terminated = false;

  constructor(engine, spec) {
    this.#engine = engine;
    this.#spec = spec;
    const envBytes = align8(engine.envSize);
    this.#ptr = engine.alloc(envBytes + 55 * 4 + 8 + 16 + 8);
    this.#obs = this.#ptr + envBytes;
    this.#flags = this.#obs + 55 * 4;
    this.#mask = this.#flags + 8;
    this.#out64 = this.#mask + 16;
    engine.registry.register(this, this.#ptr, this);
    this.id = spec.id;
    this.actionSpace = Object.freeze({ n: spec.actions.length, names: spec.actions });
    this.observationSpace = spec.observation;
  }

  /** Starts an episode; without a seed, a fresh random one (reported in info.seed). */
  reset(options = {}) {
    this.#open();
    if (options === null || typeof options !== 'object') {
      throw new TypeError(`valley-farm: reset takes an options object such as { seed: 42 }, got ${describe(options)}`);
    }
    const seed = options.seed ?? randomSeed();
    const [lo, hi] = seedHalves(seed);
    this.#engine.x.vfw_reset(this.#ptr, this.#spec.kind, lo, hi, this.#obs);
    this.#seed = seed;
    this.#step = 0;
    this.#terminated = false;
    return { observation: this.#observation(), info: { step: 0, seed } };
  }

  /** Plays one action; an illegal action is played as a wait (info.actionWasLegal false). */
  step(action) {
    this.#playing('step');
    checkAction(action, this.#spec);
    const e = this.#engine;
    const reward = e.x.vfw_step(this.#ptr, action, this.#obs, this.#flags);
    e.refresh();
    const terminated = e.u8[this.#flags] === 1;
    this.#terminated = terminated;
    this.#step++;
    return {
      observation: this.#observation(),
      reward,
      terminated,
      truncated: false,
      info: { step: this.#step, seed: this.#seed, actionWasLegal: e.u8[this.#flags + 1] === 1 },
    };
  }

  /** Uint8Array(n): 1 where the action would change more than the clock. */
  legalActions() {
    this.#started('legalActions');
    const e = this.#engine;
    e.x.vf_legal_actions(this.#ptr, this.#mask);
    e.refresh();
    return e.u8.slice(this.#mask, this.#mask + this.#spec.actions.length);
  }

  /** The full hidden state as plain JSON-serialisable data (shapes in api.md). */
  state() {
    this.#started('state');
    const e = this.#engine;
    return JSON.parse(e.text((buf, cap) => e.x.vf_state_json(this.#ptr, buf, cap)));
  }

  /** A text picture of the full map. */
  render() {
    this.#started('render');
    const e = this.#engine;
    return e.text((buf, cap) => e.x.vf_render(this.#ptr, buf, cap));
  }

  /** The complete state as bytes; restore() on any env of the same id replays from it. */
  snapshot() {
    this.#started('snapshot');
    const e = this.#engine;
    const n = e.x.vf_snapshot(this.#ptr, e.scratch, SNAPSHOT_MAX);
    e.refresh();
    return e.u8.slice(e.scratch, e.scratch + n);
  }

  /** Puts the env back into a snapshot's state; a bad snapshot throws and changes nothing. */
  restore(bytes) {
    this.#open();
    const expected = `restore takes the Uint8Array that snapshot() returned on a ${this.id} env`;
    if (!(bytes instanceof Uint8Array)) throw new TypeError(`valley-farm: ${expected}, got ${describe(bytes)}`);
    const e = this.#engine;
    if (bytes.length > SNAPSHOT_MAX) {
      throw new Error(`valley-farm: not a snapshot (${bytes.length} bytes, longer than any snapshot); ${expected}`);
    }
    e.refresh();
    e.u8.set(bytes, e.scratch);
    const code = e.x.vf_restore(this.#ptr, this.#spec.kind, e.scratch, bytes.length);
    if (code !== 0) {
      throw new Error(`valley-farm: cannot restore: ${e.cString(e.x.vf_error_message(code))}; ${expected}`);
    }
    e.x.vfw_seed(this.#ptr, this.#out64);
    this.#seed = e.readU64(this.#out64);
    this.#step = e.x.vf_step_count(this.#ptr);
    this.#terminated = e.x.vf_terminated(this.#ptr) === 1;
  }

  /** Frees the engine memory; every later call throws. */
  close() {
    this.#open();
    this.#ptr = this.#engine.release(this, this.#ptr);
  }

  #open() {
    if (this.#ptr === 0) throw new Error(`valley-farm: this ${this.id} env is closed; make a new one with make('${this.id}')`);
  }

  #started(method) {
    this.#open();
    if (this.#seed === null) throw new Error(`valley-farm: ${method}() before the first episode: call reset() first`);
  }

  #playing(method) {
    this.#started(method);
    if (this.#terminated) {
      throw new Error(`valley-farm: the episode is over (terminated after ${this.#step} steps): call reset() to start a new one`);
    }
  }

  #observation() {
    const e = this.#engine;
    e.refresh();
    return this.#spec.kind === 0 ? valleyObservation(e.i32, this.#obs >> 2) : backwardsObservation(e.i32, this.#obs >> 2);
  }
}

// 25 cells as a plain array. Written out as a literal because V8 builds an array literal
// about twice as fast as it fills a new Array(25): this runs on every single-env step.
// prettier-ignore
const cells25 = (a, o) => [
  a[o], a[o + 1], a[o + 2], a[o + 3], a[o + 4], a[o + 5], a[o + 6], a[o + 7], a[o + 8],
  a[o + 9], a[o + 10], a[o + 11], a[o + 12], a[o + 13], a[o + 14], a[o + 15], a[o + 16],
  a[o + 17], a[o + 18], a[o + 19], a[o + 20], a[o + 21], a[o + 22], a[o + 23], a[o + 24],
];

function valleyObservation(i32, o) {
  return {
    view: cells25(i32, o),
    center: i32[o + 25],
    inventory: {
      seeds: i32[o + 26],
      water: i32[o + 27],
      crops: i32[o + 28],
      feed: i32[o + 29],
      products: i32[o + 30],
      coins: i32[o + 31],
      gifts: i32[o + 32],
    },
    relationships: [i32[o + 33], i32[o + 34], i32[o + 35]],
    stepsLeft: i32[o + 36],
  };
}

function backwardsObservation(i32, o) {
  return {
    terrain: cells25(i32, o),
    status: cells25(i32, o + 25),
    x: i32[o + 50],
    y: i32[o + 51],
    facing: i32[o + 52],
    stepsLeft: i32[o + 53],
    farmValue: i32[o + 54],
  };
}

/**
 * Makes one environment. Rejects with an Error listing envIds for an unknown id.
 * @param {string} id
 */
export async function make(id) {
  const spec = specFor(id);
  return new FarmEnv(await loadEngine(), spec);
}

// ---- vector environments ------------------------------------------------------------------

// Layout of a vector env's block: [envs][obs][rewards f64][actions i32][terminated][truncated]
class FarmVecEnv {
  #engine;
  #spec;
  #ptr = 0;
  #envs;
  #obs;
  #rewards;
  #actions;
  #terminated;
  #truncated;
  #started = false;
  #views = null; // the result object, re-made only when the memory grows
  #buffer = null;

  constructor(engine, spec, numEnvs) {
    this.#engine = engine;
    this.#spec = spec;
    this.id = spec.id;
    this.numEnvs = numEnvs;
    this.obsSize = spec.obsSize;
    this.actionSpace = Object.freeze({ n: spec.actions.length, names: spec.actions });
    this.observationSpace = spec.observation;
    const envBytes = align8(engine.envSize) * numEnvs;
    const obsBytes = align8(numEnvs * spec.obsSize * 4);
    const rewardBytes = numEnvs * 8;
    const actionBytes = align8(numEnvs * 4);
    this.#ptr = engine.alloc(envBytes + obsBytes + rewardBytes + actionBytes + 2 * align8(numEnvs));
    this.#envs = this.#ptr;
    this.#obs = this.#envs + envBytes;
    this.#rewards = this.#obs + obsBytes;
    this.#actions = this.#rewards + rewardBytes;
    this.#terminated = this.#actions + actionBytes;
    this.#truncated = this.#terminated + align8(numEnvs);
    engine.refresh();
    engine.u8.fill(0, this.#truncated, this.#truncated + numEnvs);
    engine.registry.register(this, this.#ptr, this);
  }

  /**
   * Resets env i with seed + i (default: a random seed). Returns { observations }, a view
   * into the engine's memory that the next call overwrites.
   */
  reset(seed = randomSeed()) {
    this.#open();
    const [lo, hi] = seedHalves(seed);
    this.#engine.x.vfw_batch_reset(this.#envs, this.numEnvs, this.#spec.kind, lo, hi, this.#obs);
    this.#started = true;
    return { observations: this.#result().observations };
  }

  /**
   * Steps every env in one call into the engine. An env that terminates is reset at once
   * with its last episode's seed + numEnvs (env i's k-th episode: seed + i + k * numEnvs),
   * and its observation is the first of the new episode. The returned object and its typed
   * arrays are reused: the next step() overwrites them; copy what you keep.
   */
  step(actions) {
    this.#open();
    if (!this.#started) throw new Error('valley-farm: step() before the first episodes: call reset() first');
    const e = this.#engine;
    const n = this.numEnvs;
    const allowed = `actions must be an Int32Array or an array of ${n} integers from 0 to ${this.#spec.actions.length - 1}`;
    if (!(actions instanceof Int32Array || Array.isArray(actions))) throw new TypeError(`valley-farm: ${allowed}, got ${describe(actions)}`);
    if (actions.length !== n) throw new RangeError(`valley-farm: ${actions.length} actions for ${n} envs; ${allowed}`);
    const max = this.#spec.actions.length;
    const typed = actions instanceof Int32Array; // integers already: one unsigned compare each
    for (let i = 0; i < n; i++) {
      const a = actions[i];
      if (typed ? a >>> 0 >= max : !Number.isInteger(a) || a < 0 || a >= max) {
        const Err = typeof a === 'number' ? RangeError : TypeError;
        throw new Err(`valley-farm: actions[${i}] is ${describe(a)}; ${allowed}`);
      }
    }
    const result = this.#result();
    e.i32.set(actions, this.#actions >> 2);
    e.x.vf_batch_step(this.#envs, n, this.#actions, this.#obs, this.#rewards, this.#terminated);
    return this.#buffer === e.memory.buffer ? result : this.#result();
  }

  /** Frees the engine memory; every later call throws. */
  close() {
    this.#open();
    this.#ptr = this.#engine.release(this, this.#ptr);
  }

  #open() {
    if (this.#ptr === 0) throw new Error(`valley-farm: this ${this.id} vector env is closed; make a new one with makeVec('${this.id}', n)`);
  }

  #result() {
    const e = this.#engine;
    e.refresh();
    if (this.#buffer !== e.buffer) {
      const n = this.numEnvs;
      this.#buffer = e.buffer;
      this.#views = {
        observations: new Int32Array(e.buffer, this.#obs, n * this.obsSize),
        rewards: new Float64Array(e.buffer, this.#rewards, n),
        terminated: new Uint8Array(e.buffer, this.#terminated, n),
        truncated: new Uint8Array(e.buffer, this.#truncated, n),
      };
    }
    return this.#views;
  }
}

/**
 * Makes numEnvs environments stepped together in one call per step.
 * @param {string} id
 * @param {number} numEnvs an integer from 1 to 65536
 */
export async function makeVec(id, numEnvs) {
  const spec = specFor(id);
  if (!Number.isInteger(numEnvs) || numEnvs < 1 || numEnvs > 65536) {
    throw new RangeError(`valley-farm: numEnvs ${describe(numEnvs)} is not allowed; it must be an integer from 1 to 65536`);
  }
  return new FarmVecEnv(await loadEngine(), spec, numEnvs);
}

/**
 * For benchmarks: numEnvs envs whose run(steps) plays `steps` rounds of uniformly random
 * actions entirely inside the module (one call from JS, the C function the native
 * benchmark calls) and returns the sum of rewards. close() frees them.
 */
export async function makeRandomRunner(id, numEnvs, seed = 1) {
  const spec = specFor(id);
  const e = await loadEngine();
  const envBytes = align8(e.envSize) * numEnvs;
  let ptr = e.alloc(envBytes + numEnvs * spec.obsSize * 4);
  e.x.vfw_batch_reset(ptr, numEnvs, spec.kind, seed, 0, ptr + envBytes);
  let round = 0;
  return {
    run(steps) {
      if (!ptr) throw new Error('valley-farm: this runner is closed');
      return e.x.vfw_batch_run_random(ptr, numEnvs, steps, seed + round++, ptr + envBytes);
    },
    close() {
      if (ptr) e.x.free(ptr);
      ptr = 0;
    },
  };
}

/** The module's memory size in bytes (for leak tests and curious users). */
export async function engineMemoryBytes() {
  return (await loadEngine()).memory.buffer.byteLength;
}
