// engine.js — loading the engine: the WebAssembly build of the C engine (wasm/valley_farm.wasm,
// a standalone module with no generated glue), instantiated once for the whole package, and
// the Engine object every env, vector env, agent and feature reader shares (env.js, vec.js,
// agents/, learn/features.js).
//
// Sizes and layouts come from the engine's description of itself (engine_spec.js, generated
// from vf_spec_json at build time), never from calls or constants of their own. One check at
// load holds the two together: the module's vf_spec_json must be exactly the text
// engine_spec.js was generated from, or the load fails saying which file to rebuild.
import engineDescription from './engine_spec.js';
import { engineSpec } from './specs.js';
import { describe, specFor } from './errors.js';
import { readLocalFile, stubImports } from './standalone.js';

const TWO_32 = 2 ** 32;
const { limits: LIMITS, layouts: LAYOUTS } = engineSpec;

// Bundlers (Vite, webpack, Parcel) see this literal pattern and ship the .wasm beside the
// bundle, rewriting the URL to where they put it. (Where no URL can be formed, as in a
// script bundled without modules, the engine comes from useEngineBytes instead.)
const wasmUrl = urlOrNull(() => new URL('./valley_farm.wasm', import.meta.url));
// The same file named through a variable, which bundlers leave alone: where this module
// is a file on disk (Node, and test runners that rewrite the URL above) it is read from there.
const WASM_FILE = 'valley_farm.wasm';
let enginePromise = null;
let engineBytes = null; // set by useEngineBytes
let loaded = null; // the Engine, once loadEngine has resolved

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
export function loadEngine() {
  enginePromise ??= instantiate().then(
    (instance) => (loaded = new Engine(instance)),
    (err) => {
      enginePromise = null; // a failed load (say, the network) may be retried by the next call
      throw err;
    },
  );
  return enginePromise;
}

/**
 * The engine if it has been loaded (by any make, makeVec, createAgent or loadEngine before),
 * for the synchronous calls that need it; else an error saying what to await first.
 */
export function loadedEngine(where) {
  if (loaded) return loaded;
  throw new Error(`valley-farm: ${where} needs the engine loaded first: await loadEngine() (or any make() or makeVec()) before it`);
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

/** The module's vf_spec_json, as text. */
function specText(x, memory) {
  const length = x.vf_spec_json(0, 0);
  const buf = x.malloc(length + 1);
  if (!buf) throw new RangeError(`valley-farm: out of WebAssembly memory reading the engine's description (${length} bytes)`);
  try {
    x.vf_spec_json(buf, length + 1);
    return new TextDecoder().decode(new Uint8Array(memory.buffer, buf, length));
  } finally {
    x.free(buf);
  }
}

/** The instantiated module, with typed-array views that follow memory growth. */
class Engine {
  constructor(instance) {
    this.x = instance.exports;
    this.memory = instance.exports.memory;
    // The one check that the module is the one engine_spec.js describes: every size, offset
    // and list below is read from the spec, so a module built from other sources (a stale
    // engine_spec.js, or a .wasm from another version) must not run at all.
    this.specText = specText(this.x, this.memory);
    if (this.specText !== JSON.stringify(engineDescription)) {
      throw new Error(
        "valley-farm: valley_farm.wasm and wasm/engine_spec.js describe different engines (the module's vf_spec_json differs from the generated file). " +
          `${WASM_FIX}; \`npm run build:wasm\` rewrites both.`,
      );
    }
    this.envSize = LAYOUTS.env.bytes;
    this.snapshotMax = LIMITS.snapshotMax;
    this.obsMax = LIMITS.obsMax;
    this.textMax = LIMITS.textMax;
    this.scratch = this.alloc(this.textMax); // text and snapshot transfers, used one call at a time
    this.refresh();
    this.decoder = new TextDecoder();
    // why an action is illegal (vf_why): the engine's codes and sentences, index = vf_why
    this.whys = engineSpec.whys;
    // the codes of step events (vf_event_kind), index = kind; 0 is none
    this.events = engineSpec.events;
    // frees a block (an env, a vector env, an agent) if its object is collected without close()
    this.registry = new FinalizationRegistry((ptr) => this.x.free(ptr));
  }

  /**
   * Views go stale when the memory grows (emscripten issue 6747): re-make them then. Growing
   * detaches the old buffer, so a view of length 0 says so, without reading memory.buffer (a
   * getter that cost a twentieth of a single env's step).
   */
  refresh() {
    if (this.u8 !== undefined && this.u8.length !== 0) return;
    this.buffer = this.memory.buffer;
    this.u8 = new Uint8Array(this.buffer);
    this.i32 = new Int32Array(this.buffer);
    this.f32 = new Float32Array(this.buffer);
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
  return JSON.parse(specText(e.x, e.memory));
}

/** The module's memory size in bytes (for leak tests and curious users). */
export async function engineMemoryBytes() {
  return (await loadEngine()).memory.buffer.byteLength;
}
