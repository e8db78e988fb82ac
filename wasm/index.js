// valley-farm — the JavaScript API (types and contract: index.d.ts), the same module in Node >= 20 and
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
import { envSpecs, envIds, engineSpec } from './specs.js';
import { describe, specFor } from './errors.js';
import {
  actionSpace,
  batchedActionSpace,
  batchedObservationSpace,
  observationFrom,
  observationSpace,
  flatObservationSpace,
} from './spaces.js';
import { seededRandom } from './rng.js';
import { readLocalFile, stubImports } from './standalone.js';

export { envSpecs, envIds, engineSpec };
export { Box, Dict, Discrete, MultiDiscrete, flatten, unflatten, observationSpace, flatObservationSpace, actionSpace } from './spaces.js';

const TWO_32 = 2 ** 32;
const MAX_BIGINT_SEED = (1n << 64n) - 1n;

// ---- loading ------------------------------------------------------------------------------

// Bundlers (Vite, webpack, Parcel) see this literal pattern and ship the .wasm beside the
// bundle, rewriting the URL to where they put it. (Where no URL can be formed, as in a
// script bundled without modules, the engine comes from useEngineBytes instead.)
const wasmUrl = urlOrNull(() => new URL('./valley_farm.wasm', import.meta.url));
// The same file named through a variable, which bundlers leave alone: where this module
// is a file on disk (Node, and test runners that rewrite the URL above) it is read from there.
const WASM_FILE = 'valley_farm.wasm';
let enginePromise = null;
let engineBytes = null; // set by useEngineBytes

function urlOrNull(make) {
  try {
    return make();
  } catch {
    return null;
  }
}

/** Where the engine (valley_farm.wasm) is fetched from, as a URL string (null if unknown). */
export function engineUrl() {
  return wasmUrl?.href ?? null;
}

/**
 * Loads the engine from these bytes (an ArrayBuffer or Uint8Array of valley_farm.wasm)
 * instead of fetching or reading the file: for sandboxes that cannot fetch, bundlers
 * without asset support, or offline use. Call it before the first make().
 */
export function useEngineBytes(bytes) {
  if (!(bytes instanceof ArrayBuffer || bytes instanceof Uint8Array)) {
    throw new TypeError(
      `valley-farm: useEngineBytes takes the bytes of valley_farm.wasm (an ArrayBuffer or Uint8Array), got ${describe(bytes)}`,
    );
  }
  if (enginePromise) throw new Error('valley-farm: useEngineBytes() after the engine was loaded: call it before the first make()');
  engineBytes = bytes;
}

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

// What to do when the engine file is missing or damaged, for each way of running.
const WASM_FIX =
  'In a checkout of the repository, build it with `npm run build:wasm` (or `npm test`, which sets up everything); ' +
  'in an installed package, reinstall valley-farm (the published package always ships it)';

async function instantiate() {
  const fileUrl = engineBytes ? null : urlOrNull(() => new URL(WASM_FILE, import.meta.url));
  let source;
  if (engineBytes) {
    source = engineBytes;
  } else if (fileUrl?.protocol === 'file:') {
    try {
      source = await readLocalFile(fileUrl);
    } catch (err) {
      if (err.code !== 'ENOENT') throw err;
      throw new Error(`valley-farm: the engine file ${fileUrl.pathname} is missing. ${WASM_FIX}.`, { cause: err });
    }
  } else {
    if (!wasmUrl) throw new Error(`valley-farm: no URL for valley_farm.wasm here; pass its bytes to useEngineBytes() first`);
    const response = await fetch(wasmUrl);
    if (!response.ok) throw new Error(`valley-farm: could not load ${wasmUrl} (HTTP ${response.status})`);
    source = await response.arrayBuffer();
  }
  const bytes = new Uint8Array(source instanceof ArrayBuffer ? source : source.buffer, source.byteOffset ?? 0, 4);
  if (bytes.length < 4 || bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) {
    throw new Error(
      `valley-farm: ${engineBytes ? 'the bytes given to useEngineBytes' : fileUrl?.protocol === 'file:' ? fileUrl.pathname : wasmUrl} is not a WebAssembly module (it does not start with "\\0asm"; a server may have sent an HTML page, or the file is damaged). ${WASM_FIX}.`,
    );
  }
  const module = await compileEngine(source);
  const instance = await WebAssembly.instantiate(module, stubImports(module, 'valley-farm: the engine'));
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
      'valley-farm: this JavaScript engine cannot compile valley_farm.wasm. Either it lacks WebAssembly ' +
        `SIMD (it needs Chrome 91+, Firefox 89+, Safari 16.4+, Node 16.4+), or the file is damaged (${WASM_FIX}). The engine said: ${err.message}`,
      { cause: err },
    );
  }
}

/** The instantiated module, with typed-array views that follow memory growth. */
class Engine {
  constructor(instance) {
    this.x = instance.exports;
    this.memory = instance.exports.memory;
    this.envSize = this.x.vfw_env_size();
    // the header's buffer sizes (VF_SNAPSHOT_MAX, VF_OBS_MAX, VF_TEXT_MAX), from the engine
    this.snapshotMax = this.x.vfw_snapshot_max();
    this.obsMax = this.x.vfw_obs_max();
    this.textMax = this.x.vfw_text_max();
    this.scratch = this.alloc(this.textMax); // text and snapshot transfers, used one call at a time
    this.refresh();
    this.decoder = new TextDecoder();
    this.encoder = new TextEncoder();
    // why an action is illegal (vf_why): the engine's codes and sentences, index = vf_why
    this.whys = [];
    for (let w = 0; this.x.vf_why_code(w) !== 0; w++) {
      this.whys.push(Object.freeze({ code: this.cString(this.x.vf_why_code(w)), text: this.cString(this.x.vf_why_text(w)) }));
    }
    // the codes of step events (vf_event_kind), index = kind; 0 is none
    this.events = [null];
    for (let k = 1; this.x.vf_event_code(k) !== 0; k++) this.events.push(this.cString(this.x.vf_event_code(k)));
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

  cString(ptr, maxLength = this.textMax) {
    this.refresh();
    let end = ptr;
    while (end < ptr + maxLength && this.u8[end] !== 0) end++;
    return this.decoder.decode(this.u8.subarray(ptr, end));
  }

  /** Calls fn(buf, cap) (a C function with snprintf semantics) and returns the text. */
  text(fn) {
    const length = fn(this.scratch, this.textMax);
    if (length >= this.textMax) throw new Error('valley-farm: engine text longer than its buffer');
    return this.cString(this.scratch, this.textMax);
  }

  /** The 64-bit integer at ptr (low word first) as a BigInt. */
  readBigU64(ptr) {
    this.refresh();
    return (BigInt(this.u32[(ptr >> 2) + 1]) << 32n) | BigInt(this.u32[ptr >> 2]);
  }

  /** The same as a seed is given back: a Number when it is one exactly, else a BigInt. */
  readSeed(ptr) {
    this.refresh();
    const hi = this.u32[(ptr >> 2) + 1];
    return hi < 2 ** 21 ? hi * TWO_32 + this.u32[ptr >> 2] : this.readBigU64(ptr);
  }
}

// ---- argument checks (each error says what was wrong and what is allowed) ----------------

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

// Fresh seeds (a reset without one) lie in [2^32, 2^53 - 2^40]: above every named
// validation and test seed (wasm/splits.js), and low enough that an autoreset's seed + i +
// k * n stays below 2^53 for the first 2^40 episodes. So default training never reaches a
// held-out seed, and every seed it plays is a plain Number.
export const FRESH_SEED_MIN = 2 ** 32;
export const FRESH_SEED_MAX = 2 ** 53 - 2 ** 40;

/** A fresh seed from two random 32-bit words. */
function freshSeed(high, low) {
  const span = FRESH_SEED_MAX - FRESH_SEED_MIN; // just under 2^53: draw 53 bits, fold the excess
  const r = (high & 0x1fffff) * TWO_32 + low;
  return FRESH_SEED_MIN + (r % (span + 1));
}

function randomSeed() {
  const words = crypto.getRandomValues(new Uint32Array(2));
  return freshSeed(words[0], words[1]);
}

/**
 * Gymnasium's seeding: a reset with a seed also seeds the generator that later resets
 * without one draw their fresh seeds from, so a whole run is reproducible from its first
 * seed. Returns that generator (a function giving fresh seeds).
 */
function seedsAfter(seed) {
  const [lo, hi] = seedHalves(seed);
  const random = seededRandom((lo ^ Math.imul(hi, 0x9e3779b1)) >>> 0);
  const word = () => Math.floor(random() * TWO_32);
  return () => freshSeed(word(), word());
}

/** A reset's `options` (Gymnasium's reset(seed, options)): these envs take none yet, so only {} or nothing. */
function checkResetOptions(where, options) {
  if (options === undefined || options === null) return;
  if (typeof options !== 'object' || Array.isArray(options) || Object.keys(options).length > 0)
    throw new TypeError(
      `valley-farm: ${where}: these envs take no reset options yet (options may be {} or left out), got ${describe(options)}`,
    );
}

/** Throws unless `options` is undefined or an object whose keys are all in `known`. */
function checkOptions(where, options, known) {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(
      `valley-farm: ${where} takes an options object (${known.length ? known.join(', ') : 'no options yet'}), got ${describe(options)}`,
    );
  }
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new TypeError(
        `valley-farm: ${where} has no option ${describe(key)}; the options are ${known.length ? known.join(', ') : '(none)'}`,
      );
    }
  }
  return options;
}

function checkAction(action, spec) {
  if (Number.isInteger(action) && action >= 0 && action < spec.actions.length) return; // the hot path
  const allowed = `an action is an integer from 0 to ${spec.actions.length - 1} (${spec.actions.map((n, i) => `${i} ${n}`).join(', ')})`;
  if (typeof action !== 'number') throw new TypeError(`valley-farm: action ${describe(action)} is not a number; ${allowed}`);
  throw new RangeError(`valley-farm: action ${action} is not allowed; ${allowed}`);
}

// ---- one environment ----------------------------------------------------------------------

// The header's limits and the byte layouts of the structs read from engine memory, as the
// engine states them (vf_spec_json, through specs.js).
const { limits: LIMITS, layouts: LAYOUTS } = engineSpec;
// Layout of an env's block: [vf_env][obs: VF_OBS_MAX x i32][flags: 8][mask][out: 16]
const align8 = (n) => (n + 7) & ~7;
const MASK_BYTES = align8(LIMITS.actionsMax);
const EVENT = LAYOUTS.event; // vf_event: its size and its fields' byte offsets
const EVENTS_BYTES = LIMITS.eventsMax * EVENT.bytes;
const PLAN = LAYOUTS.plan; // vf_plan: its size and its fields' byte offsets
const PLAN_BYTES = PLAN.bytes + 8; // + room to align it to 8 after the work memory
const PROVE_STATES_DEFAULT = 1_000_000; // enough for most seeds (vf_plan_prove)
// The most work memory one plan may take, the engine's VF_PLAN_MEMORY_MAX (the Python package
// refuses the same plans). WebAssembly memory can grow but never shrink, so the engine keeps
// what its largest plan took for the life of the page or process; this bounds it.
const PLAN_MEMORY_MAX = LIMITS.planMemoryMax;

// Gymnasium's env.metadata and env.spec, in this package's camelCase
const METADATA = Object.freeze({ renderModes: Object.freeze(['ansi']) });
const specs = {};
/**
 * env.spec: the id and maxEpisodeSteps, null as in the Python package: Gymnasium's
 * max_episode_steps is the step at which a TimeLimit wrapper truncates an episode, and these
 * farms never truncate one (the rules end every episode at the horizon, envSpecs[id].horizon:
 * terminated, not truncated). docs/python.md says why.
 */
const specOf = (spec) => (specs[spec.id] ??= Object.freeze({ id: spec.id, maxEpisodeSteps: null }));

class FarmEnv {
  #engine;
  #spec;
  #ptr = 0; // the block; 0 once closed
  #obs;
  #flags;
  #mask;
  #out64;
  #events = 0; // the step's events (vf_event[16]); 0 unless made with { events: true }
  #seed = null; // the seed of the episode in progress, null before the first reset
  #nextSeed = null; // the fresh seeds after a seeded reset (seedsAfter); null before one
  #step = 0;
  #terminated = false;
  #build; // the observation object from the flat one (spaces.js)

  constructor(engine, spec, events = false) {
    this.#engine = engine;
    this.#spec = spec;
    const envBytes = align8(engine.envSize);
    this.#ptr = engine.alloc(envBytes + engine.obsMax * 4 + 8 + MASK_BYTES + 16 + (events ? EVENTS_BYTES + 8 : 0));
    this.#obs = this.#ptr + envBytes;
    this.#flags = this.#obs + engine.obsMax * 4;
    this.#mask = this.#flags + 8;
    this.#out64 = this.#mask + MASK_BYTES;
    if (events) this.#events = align8(this.#out64 + 16); // its doubles are read as f64[at >> 3]
    engine.registry.register(this, this.#ptr, this);
    this.#build = observationFrom(spec.id);
    this.id = spec.id;
    this.actionSpace = actionSpace(spec.id);
    this.observationSpace = observationSpace(spec.id);
    this.renderMode = 'ansi';
    this.metadata = METADATA;
    this.spec = specOf(spec);
    this.snapshotSize = engine.x.vf_snapshot_size(spec.kind);
  }

  /**
   * Starts an episode; without a seed, a fresh one (reported in info.seed): drawn from the
   * generator the last seeded reset seeded (seedsAfter), or at random before any.
   */
  reset(options = {}) {
    this.#open();
    if (options === null || typeof options !== 'object' || Array.isArray(options)) {
      throw new TypeError(`valley-farm: reset takes an options object such as { seed: 42 }, got ${describe(options)}`);
    }
    checkOptions('reset', options, ['seed', 'options']);
    checkResetOptions('reset', options.options);
    const seed = options.seed ?? (this.#nextSeed ?? randomSeed)();
    const [lo, hi] = seedHalves(seed);
    if (options.seed !== undefined) this.#nextSeed = seedsAfter(seed);
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
    const reward = this.#events
      ? e.x.vfw_step_explained(this.#ptr, action, this.#obs, this.#flags, this.#events)
      : e.x.vfw_step(this.#ptr, action, this.#obs, this.#flags);
    e.refresh();
    const terminated = e.u8[this.#flags] === 1;
    this.#terminated = terminated;
    this.#step++;
    const info = { step: this.#step, seed: this.#seed, actionWasLegal: e.u8[this.#flags + 1] === 1 };
    // only on an illegal step, so a legal step's info stays the contract's three keys
    if (!info.actionWasLegal) info.illegalReason = e.whys[e.u8[this.#flags + 2]];
    if (this.#events) info.events = this.#readEvents(e.u8[this.#flags + 3]);
    return { observation: this.#observation(), reward, terminated, truncated: false, info };
  }

  /** The n events vfw_step_explained wrote, as plain objects (see StepEvent in index.d.ts). */
  #readEvents(n) {
    const e = this.#engine;
    const events = [];
    const int = (at, field) => e.i32[(at + EVENT[field]) >> 2];
    const double = (at, field) => e.f64[(at + EVENT[field]) >> 3];
    for (let k = 0; k < n; k++) {
      const at = this.#events + k * EVENT.bytes; // 8-aligned: its doubles are read as f64
      events.push({
        code: e.events[int(at, 'kind')],
        text: e.text((buf, cap) => e.x.vf_event_text(this.#ptr, at, buf, cap)),
        reward: double(at, 'reward'),
        x: int(at, 'x'),
        y: int(at, 'y'),
        subject: int(at, 'subject'),
        count: int(at, 'count'),
        count2: int(at, 'count2'),
        before: double(at, 'before'),
        after: double(at, 'after'),
      });
    }
    return events;
  }

  /**
   * Why each action is illegal now: an array indexed by action, null where the action is
   * legal, else { code, text } naming the rule that blocks it ('no-seeds', 'you have no
   * seeds left'); the codes of each farm are listed in docs/rules/.
   */
  illegalReasons() {
    this.#started('illegalReasons');
    const e = this.#engine;
    e.x.vfw_illegal_reasons(this.#ptr, this.#mask); // one call for every action's vf_why
    e.refresh();
    return this.#spec.actions.map((_, a) => {
      const why = e.u8[this.#mask + a];
      return why === 0 ? null : e.whys[why];
    });
  }

  /** Uint8Array(n): 1 where the action would change more than the clock. */
  legalActions() {
    this.#started('legalActions');
    const e = this.#engine;
    e.x.vf_legal_actions(this.#ptr, this.#mask);
    e.refresh();
    return e.u8.slice(this.#mask, this.#mask + this.#spec.actions.length);
  }

  /** The full hidden state as plain JSON-serialisable data (ValleyState / BackwardsState in index.d.ts). */
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
    const n = e.x.vf_snapshot(this.#ptr, e.scratch, e.snapshotMax);
    e.refresh();
    return e.u8.slice(e.scratch, e.scratch + n);
  }

  /**
   * Writes the snapshot into `buffer` (a Uint8Array of at least snapshotSize bytes) and
   * returns its length: snapshot() without an allocation, for search.
   */
  snapshotInto(buffer) {
    this.#started('snapshotInto');
    if (!(buffer instanceof Uint8Array) || buffer.length < this.snapshotSize) {
      throw new TypeError(
        `valley-farm: snapshotInto takes a Uint8Array of at least ${this.snapshotSize} bytes (env.snapshotSize), got ${describe(buffer)}${buffer instanceof Uint8Array ? ` of ${buffer.length}` : ''}`,
      );
    }
    const e = this.#engine;
    const n = e.x.vf_snapshot(this.#ptr, e.scratch, e.snapshotMax);
    e.refresh();
    buffer.set(e.u8.subarray(e.scratch, e.scratch + n));
    return n;
  }

  /**
   * The best play the engine's planner finds from this state (vf_plan_beam: a beam search
   * over full states, deterministic): { actions, bestReturn, upperBound, proven }. Playing
   * `actions` from here earns bestReturn; no play earns more than upperBound (equal, and
   * `proven`: the plan is optimal). The default width is the one the published best-known
   * data use (vf_plan_width: a fraction of a second); cost grows with it.
   * `prove`: then search every play by branch and bound (vf_plan_prove), which ends with
   * an optimal plan unless its table of searched states fills first: true for
   * PROVE_STATES_DEFAULT states (engine memory grows by vf_plan_prove_work_size for the
   * call), or a number of states. A plan whose work memory is above PLAN_MEMORY_MAX is
   * refused. The env is not changed.
   */
  plan({ width, prove = false } = {}) {
    this.#started('plan');
    if (!this.#engine.x.vf_plan_beam) {
      throw new Error(
        'valley-farm: plan: this engine is valley_farm_play.wasm, which has no planner; plan with valley_farm.wasm (the default)',
      );
    }
    if (width === undefined) width = this.#engine.x.vf_plan_width(this.#spec.kind);
    if (!Number.isInteger(width) || width < 1 || width > LIMITS.planWidthMax) {
      throw new RangeError(`valley-farm: plan: width ${describe(width)} is not allowed; it is an integer from 1 to ${LIMITS.planWidthMax}`);
    }
    const states = prove === true ? PROVE_STATES_DEFAULT : prove === false ? 0 : prove;
    if (!Number.isInteger(states) || states < 0 || states > LIMITS.proveStatesMax) {
      throw new RangeError(
        `valley-farm: plan: prove ${describe(prove)} is not allowed; it is true, false or a number of states from 1 to ${LIMITS.proveStatesMax}`,
      );
    }
    const e = this.#engine;
    // the engine's size_t is 32 bits and comes back as a signed i32: read it unsigned (a
    // table above 2 GiB came back negative); every allowed width and table needs less than
    // 4 GiB, so the value is exact
    const proofBytes = states > 0 ? e.x.vf_plan_prove_work_size(this.#spec.kind, states) >>> 0 : 0;
    const beamBytes = e.x.vf_plan_work_size(this.#spec.kind, width) >>> 0;
    const bytes = Math.max(beamBytes, proofBytes);
    if (bytes > PLAN_MEMORY_MAX) {
      const mb = (b) => `${Math.ceil(b / 2 ** 20)} MB`;
      throw new RangeError(
        `valley-farm: plan: ${proofBytes > beamBytes ? `prove ${states}` : `width ${width}`} needs ${mb(bytes)} of engine memory, more than the ${mb(PLAN_MEMORY_MAX)} a plan may take (WebAssembly memory never shrinks, so the engine would keep it); use a smaller width or fewer states to prove`,
      );
    }
    const work = e.alloc(bytes + PLAN_BYTES);
    try {
      const out = work + bytes + (8 - (bytes % 8)); // 8-aligned, inside the PLAN_BYTES slack
      let code = e.x.vf_plan_beam(this.#ptr, width, work, bytes, out);
      // the proof reuses the beam's memory: it starts from the plan, not from the beam
      if (code === 0 && states > 0) code = e.x.vf_plan_prove(this.#ptr, states, work, bytes, out);
      if (code !== 0) throw new Error(`valley-farm: plan failed: ${e.cString(e.x.vf_error_message(code))}`);
      e.refresh();
      const length = e.i32[(out + PLAN.length) >> 2];
      const bestReturn = e.f64[(out + PLAN.bestReturn) >> 3];
      const upperBound = e.f64[(out + PLAN.upperBound) >> 3];
      const actions = Array.from(e.u8.subarray(out + PLAN.actions, out + PLAN.actions + length));
      return { actions, bestReturn, upperBound, proven: bestReturn >= upperBound };
    } finally {
      e.x.free(work);
    }
  }

  /** The engine's 64-bit hash of the full state (equal states, equal hashes), as a BigInt. */
  stateHash() {
    this.#started('stateHash');
    const e = this.#engine;
    e.x.vfw_state_hash(this.#ptr, this.#out64);
    return e.readBigU64(this.#out64);
  }

  /**
   * Copies the full state into engine memory and returns it as an EnvState (or into
   * `into`, an EnvState this env's id made earlier, without allocating): the fast, trusted
   * path for search, tens of times faster than snapshot(). Only saveState makes EnvStates,
   * and their block and kind are private (stateBlock), so a block the engine copies from or
   * into is always one saveState allocated for this env kind and has not freed.
   */
  saveState(into) {
    this.#started('saveState');
    const e = this.#engine;
    const state = into === undefined ? new EnvState(STATE_TOKEN, e, this.#spec) : into;
    const block = stateBlock(state, e, this.#spec);
    if (block === 0) {
      throw new TypeError(
        `valley-farm: saveState(into) takes an unfreed EnvState that saveState() returned on a ${this.id} env, got ${describeState(into)}`,
      );
    }
    e.refresh();
    e.u8.copyWithin(block, this.#ptr, this.#ptr + e.envSize);
    keepEpisode(state, this.#seed, this.#step, this.#terminated);
    return state;
  }

  /** Puts the env back into a state saveState() returned (on any env of this id). */
  loadState(state) {
    this.#open();
    const e = this.#engine;
    const block = stateBlock(state, e, this.#spec);
    if (block === 0) {
      throw new TypeError(
        `valley-farm: loadState takes an unfreed EnvState that saveState() returned on a ${this.id} env, got ${describeState(state)}`,
      );
    }
    e.refresh();
    e.u8.copyWithin(this.#ptr, block, block + e.envSize);
    [this.#seed, this.#step, this.#terminated] = episodeOf(state);
  }

  /**
   * Puts the env back into a snapshot's state; a bad snapshot throws and changes nothing.
   * `bytes` may be longer than the snapshot when `length` says how much of it to read (a
   * buffer that snapshotInto filled).
   */
  restore(bytes, length = bytes?.length) {
    this.#open();
    const expected = () => `restore takes the Uint8Array that snapshot() returned on a ${this.id} env`; // built only for an error
    if (!(bytes instanceof Uint8Array)) throw new TypeError(`valley-farm: ${expected()}, got ${describe(bytes)}`);
    if (!Number.isInteger(length) || length < 0 || length > bytes.length) {
      throw new RangeError(
        `valley-farm: restore length ${describe(length)} must be an integer from 0 to the buffer's ${bytes.length} bytes`,
      );
    }
    const e = this.#engine;
    if (length > e.snapshotMax) {
      throw new Error(`valley-farm: not a snapshot (${length} bytes, longer than any snapshot); ${expected()}`);
    }
    e.refresh();
    e.u8.set(length === bytes.length ? bytes : bytes.subarray(0, length), e.scratch);
    const code = e.x.vfw_restore(this.#ptr, this.#spec.kind, e.scratch, length, this.#out64);
    if (code !== 0) {
      throw new Error(`valley-farm: cannot restore: ${e.cString(e.x.vf_error_message(code))}; ${expected()}`);
    }
    this.#seed = e.readSeed(this.#out64);
    const o = this.#out64 >> 2;
    this.#step = e.u32[o + 2];
    this.#terminated = e.u32[o + 3] === 1;
  }

  /** Frees the engine memory; every later call but close() throws (closing twice is harmless, as in Gymnasium). */
  close() {
    if (this.#ptr !== 0) this.#ptr = this.#engine.release(this, this.#ptr);
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
    return this.#build(e.i32, this.#obs >> 2);
  }
}

const STATE_TOKEN = Symbol('EnvState');

// What only this module may read or write of an EnvState (set in its static block): the
// address of its block, and the episode it holds.
let stateBlock; // (state, engine, spec) -> its block's address, or 0 unless it is a live state of that engine and kind
let keepEpisode; // (state, seed, step, terminated) records the episode of the state saved into it
let episodeOf; // (state) -> [seed, step, terminated] of the episode it holds
let isState; // (value) -> true for an EnvState that saveState made

/**
 * A copy of one env's full state in engine memory (see FarmEnv.saveState). Its block's address
 * and the kind of env it belongs to are private fields: a caller can neither read nor set them,
 * and an object that merely looks like an EnvState has no such fields, so it is refused.
 */
class EnvState {
  #engine;
  #kind; // the env kind (vf_env_kind) whose state the block holds
  #id;
  #ptr; // the block (envSize bytes); 0 once freed
  #seed = null;
  #step = 0;
  #terminated = false;

  static {
    // #ptr in state: a real EnvState (a brand check that a forged object cannot pass)
    isState = (state) => typeof state === 'object' && state !== null && #ptr in state;
    stateBlock = (state, engine, spec) => (isState(state) && state.#engine === engine && state.#kind === spec.kind ? state.#ptr : 0);
    keepEpisode = (state, seed, step, terminated) => {
      state.#seed = seed;
      state.#step = step;
      state.#terminated = terminated;
    };
    episodeOf = (state) => [state.#seed, state.#step, state.#terminated];
  }

  constructor(token, engine, spec) {
    if (token !== STATE_TOKEN) throw new TypeError('valley-farm: EnvStates come only from env.saveState()');
    this.#engine = engine;
    this.#kind = spec.kind;
    this.#id = spec.id;
    this.#ptr = engine.alloc(engine.envSize);
    engine.registry.register(this, this.#ptr, this);
    Object.freeze(this); // no own property can stand in for one of its getters
  }

  /** The env id whose state it holds. */
  get id() {
    return this.#id;
  }

  /** The episode the state is in: its seed, its step count and whether it has ended. */
  get seed() {
    return this.#seed;
  }

  get step() {
    return this.#step;
  }

  get terminated() {
    return this.#terminated;
  }

  get freed() {
    return this.#ptr === 0;
  }

  /** Releases its memory; a freed state cannot be loaded. */
  free() {
    if (this.#ptr) this.#ptr = this.#engine.release(this, this.#ptr);
  }
}

/** A value as an error about EnvStates shows it: a real one says its env id and whether it is freed. */
function describeState(state) {
  if (!isState(state)) return describe(state);
  return `${state.freed ? 'a freed' : 'an'} EnvState of ${state.id}`;
}

/**
 * Makes one environment. Rejects with an Error listing envIds for an unknown id.
 * Options: render_mode ('ansi', the only one) and events (true: every step's info.events
 * says what happened in it and what each part of the reward was for; a slower step).
 * @param {string} id
 */
export async function make(id, options) {
  const spec = specFor(id);
  const { render_mode: renderMode, events = false } = checkOptions('make', options, ['render_mode', 'events']);
  if (typeof events !== 'boolean') {
    throw new TypeError(
      `valley-farm: make: events ${describe(events)} is not allowed; it is true (every step's info lists its events) or false`,
    );
  }
  if (renderMode !== undefined && renderMode !== 'ansi') {
    throw new RangeError(
      `valley-farm: render_mode ${describe(renderMode)} is not supported; the only render mode is 'ansi' (env.render() returns the map as text)`,
    );
  }
  return new FarmEnv(await loadEngine(), spec, events);
}

// ---- vector environments ------------------------------------------------------------------

const MAX_ENVS = LIMITS.batchMax;

function checkNumEnvs(numEnvs, where) {
  if (!Number.isInteger(numEnvs) || numEnvs < 1 || numEnvs > MAX_ENVS) {
    throw new RangeError(`valley-farm: ${where}: numEnvs ${describe(numEnvs)} is not allowed; it must be an integer from 1 to ${MAX_ENVS}`);
  }
}

/** A seed as a BigInt (its checks are seedHalves'). */
function seedBig(seed) {
  const [lo, hi] = seedHalves(seed);
  return (BigInt(hi) << 32n) | BigInt(lo);
}

// Integer typed arrays whose every element is an integer: only the range needs checking.
const INTEGER_ARRAYS = [Int32Array, Uint8Array, Int8Array, Uint16Array, Int16Array, Uint32Array, Uint8ClampedArray];

// Layout of a vector env's block (every part 8-aligned):
//   [envs][obs][final obs][rewards f64][returns f64][seeds u64][next seeds u64]
//   [lengths i32][actions i32][masks u8][terminated u8][truncated u8][io struct][out 16]
class FarmVecEnv {
  #engine;
  #spec;
  #n;
  #ptr = 0; // the block; 0 once closed
  #envs;
  #obs;
  #final;
  #rewards;
  #returns;
  #seeds;
  #nextSeeds;
  #lengths;
  #actions;
  #masks;
  #terminated;
  #truncated;
  #io;
  #out;
  #withMasks;
  #nextStep; // next-step autoreset (makeVec's autoreset: 'next-step'); else same-step
  #levels; // null: fresh seeds (last seed + n); else BigInt level seeds cycled over
  #nextSeed = null; // the fresh seeds after a seeded reset (seedsAfter); null before one
  #episodeIndex; // per env, with levels: which episode it plays (k in levels[(i + k n) mod L])
  #started = false;
  #views = null; // the result object, re-made only when the memory grows
  #buffer = null;

  constructor(engine, spec, numEnvs, { masks = true, levels = null, autoreset = 'same-step' }) {
    this.#engine = engine;
    this.#spec = spec;
    this.#n = numEnvs;
    this.#withMasks = masks;
    this.#nextStep = autoreset === 'next-step';
    this.#levels = levels;
    this.#episodeIndex = levels ? new Float64Array(numEnvs) : null;
    this.id = spec.id;
    this.obsSize = spec.obsSize;
    // Gymnasium's vector spaces: the batched ones, and those of one env's row
    this.actionSpace = batchedActionSpace(spec.id, numEnvs);
    this.singleActionSpace = actionSpace(spec.id);
    this.observationSpace = batchedObservationSpace(spec.id, numEnvs);
    this.singleObservationSpace = flatObservationSpace(spec.id);
    // Gymnasium's metadata["autoreset_mode"], in this package's words
    this.metadata = Object.freeze({ ...METADATA, autoresetMode: autoreset });
    this.spec = specOf(spec);
    const n = numEnvs;
    const na = spec.actions.length;
    const parts = [
      ['envs', align8(engine.envSize) * n],
      ['obs', n * spec.obsSize * 4],
      ['final', n * spec.obsSize * 4],
      ['rewards', n * 8],
      ['returns', n * 8],
      ['seeds', n * 8],
      ['nextSeeds', n * 8],
      ['lengths', n * 4],
      ['actions', n * 4],
      ['masks', n * na],
      ['terminated', n],
      ['truncated', n],
      ['io', engine.x.vfw_batch_io_size()],
      ['out', 16],
    ];
    const at = {};
    let bytes = 0;
    for (const [name, size] of parts) {
      at[name] = bytes;
      bytes += align8(size);
    }
    this.#ptr = engine.alloc(bytes);
    const p = (name) => this.#ptr + at[name];
    this.#envs = p('envs');
    this.#obs = p('obs');
    this.#final = p('final');
    this.#rewards = p('rewards');
    this.#returns = p('returns');
    this.#seeds = p('seeds');
    this.#nextSeeds = p('nextSeeds');
    this.#lengths = p('lengths');
    this.#actions = p('actions');
    this.#masks = p('masks');
    this.#terminated = p('terminated');
    this.#truncated = p('truncated');
    this.#io = p('io');
    this.#out = p('out');
    engine.refresh();
    engine.u8.fill(0, this.#ptr, this.#ptr + bytes);
    engine.x.vfw_batch_io_init(
      this.#io,
      this.#actions,
      levels ? this.#nextSeeds : 0,
      this.#obs,
      this.#rewards,
      this.#terminated,
      masks ? this.#masks : 0,
      this.#final,
      this.#returns,
      this.#lengths,
      this.#seeds,
      this.#nextStep ? 1 : 0, // the engine's vf_autoreset
    );
    engine.registry.register(this, this.#ptr, this);
  }

  /** The number of envs (read-only: the batch size the engine was given). */
  get numEnvs() {
    return this.#n;
  }

  /**
   * Starts a new episode in every env. Fresh-seed schedule: env i gets seed + i, where
   * seed is given (`reset({ seed })` or `reset(seed)`) or drawn (reported as `seed`). With a
   * fixed level list (makeVec's `levels`), env i plays levels[i mod L] and no seed is taken.
   * Returns the result views (observations, masks, ...) and the base `seed` used.
   */
  reset(options) {
    this.#open();
    let seed;
    if (typeof options === 'number' || typeof options === 'bigint') seed = options;
    else {
      ({ seed } = checkOptions('vec.reset', options, ['seed', 'options']));
      checkResetOptions('vec.reset', options?.options);
    }
    const e = this.#engine;
    if (this.#levels) {
      if (seed !== undefined)
        throw new Error(
          `valley-farm: this vector env plays a fixed list of ${this.#levels.length} levels (makeVec's levels option), so reset() takes no seed`,
        );
      for (let i = 0; i < this.#n; i++) this.#resetOne(i, this.#levelSeed(i, 0));
      this.#episodeIndex.fill(0);
      this.#queueLevelSeeds();
      this.#started = true;
      return { ...this.#result(), seed: null };
    }
    if (seed !== undefined) seedHalves(seed); // checked before it seeds anything
    if (seed !== undefined) this.#nextSeed = seedsAfter(seed);
    else seed = (this.#nextSeed ?? randomSeed)();
    const [lo, hi] = seedHalves(seed);
    const code = e.x.vfw_batch_reset(this.#envs, this.#n, this.#spec.kind, lo, hi, this.#obs);
    if (code !== 0) throw new Error(`valley-farm: vec.reset: ${e.cString(e.x.vf_error_message(code))}`);
    this.#fillMasks();
    this.#started = true;
    return { ...this.#result(), seed };
  }

  /**
   * Starts a new episode in the chosen envs only: env indices[j] with seeds[j] (or, without
   * seeds, the next seed its schedule gives: a fresh random seed, or its next level). Other
   * envs are untouched. Returns the result views, whose rows for these envs are updated.
   */
  resetEnvs(indices, seeds) {
    this.#open();
    const n = this.#n;
    const rule = `indices must be an array of distinct integers from 0 to ${n - 1}`;
    if (!(Array.isArray(indices) || INTEGER_ARRAYS.some((T) => indices instanceof T)))
      throw new TypeError(`valley-farm: resetEnvs: ${rule}, got ${describe(indices)}`);
    const seen = new Set();
    for (const i of indices) {
      if (!Number.isInteger(i) || i < 0 || i >= n)
        throw new RangeError(`valley-farm: resetEnvs: index ${describe(i)} is out of range; ${rule}`);
      if (seen.has(i)) throw new RangeError(`valley-farm: resetEnvs: index ${i} appears twice; ${rule}`);
      seen.add(i);
    }
    let bigSeeds;
    if (seeds !== undefined) {
      if (!Array.isArray(seeds) || seeds.length !== indices.length)
        throw new TypeError(
          `valley-farm: resetEnvs: seeds must be an array with one seed per index (${indices.length}), got ${describe(seeds)}`,
        );
      bigSeeds = seeds.map((s, j) => {
        try {
          return seedBig(s);
        } catch (err) {
          throw new err.constructor(`valley-farm: resetEnvs: seeds[${j}]: ${err.message.replace('valley-farm: ', '')}`);
        }
      });
    }
    if (!this.#started && indices.length < n)
      throw new Error('valley-farm: resetEnvs() before the first reset(): call reset() first, which starts every env');
    indices.forEach((i, j) => {
      let seed = bigSeeds?.[j];
      if (seed === undefined && this.#levels) seed = this.#levelSeed(i, ++this.#episodeIndex[i]);
      this.#resetOne(i, seed ?? seedBig((this.#nextSeed ?? randomSeed)()));
    });
    if (this.#levels) this.#queueLevelSeeds();
    if (indices.length === n) this.#started = true;
    return this.#result();
  }

  /** The seed of env i's episode in progress (a Number, or a BigInt above 2^53 - 1). */
  episodeSeed(i) {
    this.#open();
    if (!Number.isInteger(i) || i < 0 || i >= this.#n)
      throw new RangeError(`valley-farm: episodeSeed: index ${describe(i)} must be an integer from 0 to ${this.#n - 1}`);
    const e = this.#engine;
    e.x.vfw_seed(this.#envs + i * align8(e.envSize), this.#out);
    return e.readSeed(this.#out);
  }

  /**
   * Steps every env in one call into the engine. For an env whose episode ends in this step
   * (terminated[i] = 1):
   *   - rewards[i] is the last step's reward;
   *   - same-step autoreset (the default): observations row i is the FIRST observation of its
   *     next episode, masks row i its mask; finalObservations row i the LAST of the one that
   *     ended;
   *   - next-step autoreset: observations row i is the LAST observation of the episode that
   *     ended; the next step resets env i instead of stepping it (its action ignored, reward
   *     0, terminated 0) and shows the next episode's first;
   *   - episodeReturns[i], episodeLengths[i], episodeSeeds[i] (BigUint64Array) are the ended
   *     episode's return, number of steps and seed.
   * Rows of the bookkeeping views where terminated[i] = 0 hold stale values: read them only
   * where terminated[i] = 1. The next episode's seed is the schedule's: the last seed +
   * numEnvs (env i's k-th episode has seed + i + k numEnvs), or the next level.
   * The returned object and its typed arrays are views into the engine's memory that the
   * next call overwrites: copy what you keep.
   */
  step(actions) {
    this.#open();
    if (!this.#started) throw new Error('valley-farm: step() before the first episodes: call reset() first');
    const e = this.#engine;
    const n = this.#n;
    const max = this.#spec.actions.length;
    const typed = actions instanceof Int32Array || INTEGER_ARRAYS.some((T) => actions instanceof T);
    if (!typed && !Array.isArray(actions)) throw new TypeError(`valley-farm: ${this.#allowedActions()}, got ${describe(actions)}`);
    if (actions.length !== n) throw new RangeError(`valley-farm: ${actions.length} actions for ${n} envs; ${this.#allowedActions()}`);
    // A typed array holds integers already: copied in, the engine finds any out of range
    // (a Uint32Array's values above 2^31 - 1 arrive negative), before anything steps.
    if (!typed)
      for (let i = 0; i < n; i++)
        if (!Number.isInteger(actions[i]) || actions[i] < 0 || actions[i] >= max) throw this.#badAction(actions, i);
    let result = this.#result();
    e.i32.set(actions, this.#actions >> 2);
    if (typed) {
      const first = e.x.vfw_first_bad_action(this.#actions, n, max);
      if (first >= 0) throw this.#badAction(actions, first);
    }
    // the envs whose next level starts in this step: next-step, those the last step ended
    const resetNow = this.#levels && this.#nextStep ? Uint8Array.from(result.terminated) : null;
    e.x.vf_batch_step_io(this.#envs, n, this.#spec.kind, this.#io);
    if (this.#buffer !== e.memory.buffer) result = this.#result();
    if (this.#levels) this.#advanceLevels(resetNow ?? result.terminated);
    return result;
  }

  /** Frees the engine memory; every later call but close() throws (closing twice is harmless). */
  close() {
    if (this.#ptr !== 0) this.#ptr = this.#engine.release(this, this.#ptr);
  }

  #open() {
    if (this.#ptr === 0) throw new Error(`valley-farm: this ${this.id} vector env is closed; make a new one with makeVec('${this.id}', n)`);
  }

  // step()'s errors, built only when one is thrown (not on every step)
  #allowedActions() {
    return `actions must be an integer typed array (Int32Array, Uint8Array, ...) or an array of ${this.#n} integers from 0 to ${this.#spec.actions.length - 1}`;
  }

  #badAction(actions, i) {
    const a = actions[i];
    const Err = typeof a === 'number' ? RangeError : TypeError;
    return new Err(`valley-farm: actions[${i}] is ${describe(a)}; ${this.#allowedActions()}`);
  }

  #resetOne(i, seed) {
    const e = this.#engine;
    e.u8[this.#terminated + i] = 0; // its episode is not over (next-step autoreset reads this)
    const row = this.#obs + i * this.#spec.obsSize * 4; // #spec: a caller can change obsSize, not this
    e.x.vfw_reset(this.#envs + i * align8(e.envSize), this.#spec.kind, Number(seed & 0xffffffffn), Number(seed >> 32n), row);
    if (this.#withMasks) e.x.vf_legal_actions(this.#envs + i * align8(e.envSize), this.#masks + i * this.#spec.actions.length);
  }

  #fillMasks() {
    if (this.#withMasks) this.#engine.x.vf_batch_legal_actions(this.#envs, this.#n, this.#masks);
  }

  #levelSeed(i, k) {
    const L = this.#levels.length;
    return this.#levels[(i + k * this.#n) % L];
  }

  /** Writes each env's next level seed where the engine reads it at an autoreset. */
  #queueLevelSeeds() {
    const e = this.#engine;
    e.refresh();
    const next = new BigUint64Array(e.buffer, this.#nextSeeds, this.#n);
    for (let i = 0; i < this.#n; i++) next[i] = this.#levelSeed(i, this.#episodeIndex[i] + 1);
  }

  /** Envs where `started` is 1 began their next level: queue the one after it. */
  #advanceLevels(started) {
    const e = this.#engine;
    let next = null;
    for (let i = 0; i < this.#n; i++) {
      if (started[i] !== 1) continue;
      next ??= new BigUint64Array(e.buffer, this.#nextSeeds, this.#n);
      this.#episodeIndex[i]++;
      next[i] = this.#levelSeed(i, this.#episodeIndex[i] + 1);
    }
  }

  #result() {
    const e = this.#engine;
    e.refresh();
    if (this.#buffer !== e.buffer) {
      const n = this.#n;
      const b = e.buffer;
      this.#buffer = b;
      this.#views = {
        observations: new Int32Array(b, this.#obs, n * this.#spec.obsSize),
        rewards: new Float64Array(b, this.#rewards, n),
        terminated: new Uint8Array(b, this.#terminated, n),
        truncated: new Uint8Array(b, this.#truncated, n),
        masks: this.#withMasks ? new Uint8Array(b, this.#masks, n * this.#spec.actions.length) : null,
        finalObservations: new Int32Array(b, this.#final, n * this.#spec.obsSize),
        episodeReturns: new Float64Array(b, this.#returns, n),
        episodeLengths: new Int32Array(b, this.#lengths, n),
        episodeSeeds: new BigUint64Array(b, this.#seeds, n),
      };
      const v = this.#views;
      // Gymnasium's vector `infos`: a value per env, and beside each key its `_key` mask of
      // the envs where the value means something (those that ended); next-step autoreset
      // shows the last observation in `observations` itself
      v.infos = {
        ...(this.#nextStep ? {} : { final_obs: v.finalObservations, _final_obs: v.terminated }),
        episode: { r: v.episodeReturns, l: v.episodeLengths, seed: v.episodeSeeds },
        _episode: v.terminated,
      };
    }
    return this.#views;
  }
}

/**
 * Makes numEnvs environments stepped together in one call per step.
 * Options: masks (default true: legal masks in every result), levels (an array of seeds:
 * every episode plays one of them, env i's k-th episode levels[(i + k numEnvs) mod L]),
 * autoreset ('same-step', the default, or 'next-step', as Gymnasium's vector envs: see step()).
 * @param {string} id
 * @param {number} numEnvs an integer from 1 to 65536
 */
export async function makeVec(id, numEnvs, options) {
  const spec = specFor(id);
  checkNumEnvs(numEnvs, 'makeVec');
  const { masks = true, levels, autoreset = 'same-step' } = checkOptions('makeVec', options, ['masks', 'levels', 'autoreset']);
  if (typeof masks !== 'boolean') throw new TypeError(`valley-farm: makeVec's masks option must be true or false, got ${describe(masks)}`);
  if (autoreset !== 'same-step' && autoreset !== 'next-step')
    throw new RangeError(
      `valley-farm: makeVec's autoreset option must be 'same-step' (the default) or 'next-step', got ${describe(autoreset)}`,
    );
  let levelSeeds = null;
  if (levels !== undefined) {
    if (!Array.isArray(levels) || levels.length === 0 || levels.length > 1e7) {
      throw new TypeError(
        `valley-farm: makeVec's levels option must be a non-empty array of seeds (at most 10^7), got ${describe(levels)}`,
      );
    }
    levelSeeds = levels.map((s, j) => {
      try {
        return seedBig(s);
      } catch (err) {
        throw new err.constructor(`valley-farm: makeVec: levels[${j}]: ${err.message.replace('valley-farm: ', '')}`);
      }
    });
  }
  return new FarmVecEnv(await loadEngine(), spec, numEnvs, { masks, levels: levelSeeds, autoreset });
}

/**
 * For benchmarks: numEnvs envs whose run(steps) plays `steps` rounds of uniformly random
 * actions entirely inside the module (one call from JS, the C function the native
 * benchmark calls) and returns the sum of rewards. close() frees them.
 * numEnvs: 1 to 65536; seed: an integer from 0 to 2^32 - 1 (envs reset with seed + i, the
 * actions of the k-th run drawn from seed + k); steps: an integer from 0 to 2^31 - 1.
 */
export async function makeRandomRunner(id, numEnvs, seed = 1) {
  const spec = specFor(id);
  checkNumEnvs(numEnvs, 'makeRandomRunner');
  if (!Number.isInteger(seed) || seed < 0 || seed >= TWO_32) {
    throw new RangeError(`valley-farm: makeRandomRunner: seed ${describe(seed)} is not allowed; it must be an integer from 0 to 2^32 - 1`);
  }
  const e = await loadEngine();
  const envBytes = align8(e.envSize) * numEnvs;
  let ptr = e.alloc(envBytes + numEnvs * spec.obsSize * 4);
  e.x.vfw_batch_reset(ptr, numEnvs, spec.kind, seed, 0, ptr + envBytes);
  let round = 0;
  return {
    run(steps) {
      if (!ptr) throw new Error('valley-farm: this runner is closed');
      if (!Number.isInteger(steps) || steps < 0 || steps > 2 ** 31 - 1) {
        throw new RangeError(`valley-farm: run(steps): steps ${describe(steps)} must be an integer from 0 to 2^31 - 1`);
      }
      return e.x.vfw_batch_run_random(ptr, numEnvs, steps, (seed + round++) >>> 0, ptr + envBytes);
    },
    close() {
      if (ptr) e.release(this, ptr);
      ptr = 0;
    },
  };
}

/**
 * The rules' constants as the engine itself reports them (vf_rules_json): envSpecs[id].rules
 * holds the same, generated from the engine.
 */
export async function rulesFromEngine(id) {
  const spec = specFor(id);
  const e = await loadEngine();
  return JSON.parse(e.text((buf, cap) => e.x.vf_rules_json(spec.kind, buf, cap)));
}

/**
 * The loaded engine's description of itself (vf_spec_json), parsed: what engine_spec.js
 * holds from the build, and is tested against.
 */
export async function specFromEngine() {
  const e = await loadEngine();
  const length = e.x.vf_spec_json(0, 0);
  const buf = e.alloc(length + 1);
  try {
    e.x.vf_spec_json(buf, length + 1);
    return JSON.parse(e.cString(buf, length));
  } finally {
    e.x.free(buf);
  }
}

/** The module's memory size in bytes (for leak tests and curious users). */
export async function engineMemoryBytes() {
  return (await loadEngine()).memory.buffer.byteLength;
}
