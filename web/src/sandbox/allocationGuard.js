// allocationGuard.js — a visitor's learner held to the learner budget while it runs (the Lab's
// "Your learner", learnerBox.js). The Lab refuses settings whose estimate is above the budget
// before Start, but the estimate is the template's (and, in the sandbox, whatever `memory` the
// visitor's learner declares): an edited learner can ask for more than any estimate saw (a 2 GB
// buffer, a replay memory sized by a default of its own), and a browser may grant it, fill the
// machine's memory and end the tab. So each Worker of the run counts what it allocates, whoever
// asks (the visitor's code or the package's at a size the visitor chose), and refuses what would
// take it past the budget, with an error that names the size asked for, what is held, and the
// budget. The error is thrown where the allocation was asked for, so the Lab names the visitor's
// line that led there; the run stops with its curve kept, as for any error of theirs.
//
// installGuard puts the counting constructors in the Worker's global scope before the visitor's
// module is imported, in place of the originals: the global names (so `new Float64Array`,
// `globalThis.ArrayBuffer`, `self.Int8Array` and `Reflect.construct(...)` are all the guarded
// one), and the methods that grow memory in place (ArrayBuffer.prototype.resize,
// SharedArrayBuffer.prototype.grow, WebAssembly.Memory's constructor and grow). It counts:
//  - every typed array and ArrayBuffer (and SharedArrayBuffer) made with a length, until it is
//    collected (a FinalizationRegistry; a view of a buffer costs nothing);
//  - every WebAssembly memory it has seen, at its current size: one made with
//    WebAssembly.Memory, and the learner core's, which the package reports before each of its
//    allocations there (core.js useMemoryCheck: the replay memories, rollouts and networks a
//    visitor's settings size).
// A Worker of the visitor's own would start with the originals: the global Worker refuses.
//
// What it does not see (the browser's own heap limit bounds it, and the Lab ends a sandbox that
// stops answering: learnerWorker.js): plain arrays, objects and strings, memory the engine's
// module takes for vector envs (at most batchMax envs each), WebAssembly a visitor compiles
// with a memory of its own, and an array or buffer made through an existing one's own
// `constructor` (`new array.constructor(n)`). The prototypes' `constructor` is left as it is
// on purpose: replacing it turns off V8's fast path for every typed array's subarray, slice and
// map in the Worker (its "species protector"); a subarray then went through the guard, 26 times
// slower in Node (1,024 ns instead of 39), and the unedited PPO template trained at 0.76 of the
// built-in learner's speed in the Lab. tests/js/allocation_guard_fast_path.test.js checks the
// fast path stays on.

const KINDS = [
  'ArrayBuffer',
  'SharedArrayBuffer',
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float16Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
];
const BUFFERS = ['ArrayBuffer', 'SharedArrayBuffer'];
const PAGE = 65536; // a WebAssembly memory page

/** Where installGuard leaves the guard it installed in a scope (once per Worker). */
export const GUARD = Symbol.for('valley-farm/allocation guard');

const size = (bytes) =>
  bytes < 2 ** 20 ? `${bytes.toLocaleString('en')} bytes` : `${Math.round(bytes / 2 ** 20).toLocaleString('en')} MB`;
const article = (name) => (/^[AEI]/.test(name) ? 'an' : 'a');
const whole = (v) => {
  const n = Number(v);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
};

// Typed arrays of at most this many bytes are not counted: V8 keeps them in the JS heap, as it
// keeps plain arrays (see above), and counting each would cost more than making it (a Lab run
// makes tens of thousands of small arrays and views a second).
const SMALL = 64;

/**
 * A counter of the bytes allocated in `scope` (a Worker's global, or a test's realm) held to
 * `budget`, with the counting constructors of that scope's typed arrays, ArrayBuffer,
 * SharedArrayBuffer and WebAssembly.Memory (those it has), which installGuard puts in place:
 *   constructors   { [name]: constructor } (from, of, BYTES_PER_ELEMENT and instanceof work)
 *   resize, grow   the counting ArrayBuffer.prototype.resize and SharedArrayBuffer.prototype.grow
 *   memoryGrow     the counting WebAssembly.Memory.prototype.grow
 *   reserve(bytes, memory)  refuses `bytes` more of the WebAssembly memory `memory` (counted
 *                  from then on) past the budget: core.js asks it before each allocation
 *   held()         the bytes counted: buffers not yet collected, memories at their size now
 */
export function guardAllocations(budget, scope = globalThis) {
  let buffersHeld = 0;
  const records = new WeakMap(); // buffer -> { bytes } counted for it
  const collected = new FinalizationRegistry((record) => (buffersHeld -= record.bytes));
  const memories = new Set(); // WeakRefs of the WebAssembly memories counted
  const seen = new WeakSet();
  const AB = scope.ArrayBuffer;
  const SAB = scope.SharedArrayBuffer;
  /** Whether `x` is a buffer (the first argument of a view). */
  const isBufferArg = (x) => (AB !== undefined && x instanceof AB) || (SAB !== undefined && x instanceof SAB);

  const held = () => {
    let sum = buffersHeld;
    for (const ref of memories) {
      const m = ref.deref();
      if (m) sum += m.buffer.byteLength;
      else memories.delete(ref);
    }
    return sum;
  };
  /** Throws unless `bytes` more fit in the budget; `what(size)` says what was asked for ('a Float64Array of 2,048 MB'). */
  const refuse = (what, bytes) => {
    if (!(bytes > 0)) return;
    const h = held();
    if (h + bytes > budget)
      throw new RangeError(
        `your learner asked for ${what(size(bytes))}${h > 0 ? ` beside the ${size(h)} it holds` : ''}, more than the ${size(budget)} a learner may take in the Lab`,
      );
  };
  const count = (buffer, bytes) => {
    if (!bytes) return;
    let record = records.get(buffer);
    if (!record) {
      records.set(buffer, (record = { bytes: 0 }));
      collected.register(buffer, record); // held while any view of it is
    }
    record.bytes += bytes;
    buffersHeld += bytes;
  };
  const watch = (memory) => {
    if (seen.has(memory)) return;
    seen.add(memory);
    memories.add(new WeakRef(memory));
  };

  const constructors = {};
  for (const name of KINDS) {
    const Type = scope[name];
    if (typeof Type !== 'function') continue;
    const unit = Type.BYTES_PER_ELEMENT ?? 1;
    const isBuffer = BUFFERS.includes(name);
    // the trap runs for every view the package makes (tens of thousands a second): a view and
    // a small array go straight through
    constructors[name] = new Proxy(Type, {
      construct(target, args, newTarget) {
        const first = args[0];
        let asked;
        if (first !== null && typeof first === 'object') {
          if (!isBuffer && isBufferArg(first)) return Reflect.construct(target, args, newTarget); // a view: nothing new
          asked = isBuffer ? 0 : whole(first.length) * unit; // an array-like's length (an iterable's is counted once made)
        } else asked = whole(first) * (isBuffer ? 1 : unit);
        if (asked > 0 && asked <= SMALL) return Reflect.construct(target, args, newTarget);
        refuse((s) => `${article(name)} ${name} of ${s}`, asked);
        const made = Reflect.construct(target, args, newTarget);
        if (made.byteLength > SMALL) count(isBuffer ? made : made.buffer, made.byteLength);
        return made;
      },
    });
  }

  /** A method that grows a buffer in place to `length` bytes, counted. */
  const growing = (original, what) =>
    function (length) {
      const before = this.byteLength;
      refuse(what, whole(length) - before);
      const r = original.call(this, length);
      count(this, this.byteLength - before);
      return r;
    };
  const resize =
    scope.ArrayBuffer?.prototype.resize && growing(scope.ArrayBuffer.prototype.resize, (s) => `an ArrayBuffer resized ${s} larger`);
  const grow =
    scope.SharedArrayBuffer?.prototype.grow &&
    growing(scope.SharedArrayBuffer.prototype.grow, (s) => `a SharedArrayBuffer grown ${s} larger`);

  const Memory = scope.WebAssembly?.Memory;
  let memoryGrow = null;
  if (typeof Memory === 'function') {
    constructors.Memory = new Proxy(Memory, {
      construct(target, args, newTarget) {
        refuse((s) => `a WebAssembly memory of ${s}`, whole(args[0]?.initial) * PAGE);
        const made = Reflect.construct(target, args, newTarget);
        watch(made);
        return made;
      },
    });
    const original = Memory.prototype.grow;
    memoryGrow = function (pages) {
      watch(this);
      refuse((s) => `a WebAssembly memory grown ${s} larger`, whole(pages) * PAGE);
      return original.call(this, pages);
    };
  }

  const reserve = (bytes, memory) => {
    if (memory) watch(memory);
    refuse((s) => `${s} in the learner core`, whole(bytes));
  };
  return { constructors, resize, grow, memoryGrow, reserve, held };
}

/** Sets `obj[key]` to `value` for good: code that comes after cannot put anything else there. */
const fix = (obj, key, value) => Object.defineProperty(obj, key, { value, writable: false, configurable: false, enumerable: false });

/**
 * Puts a guard of `budget` bytes (guardAllocations) in place in `scope`, a Worker's global,
 * for all code that runs there from now on; once per scope (the second call returns the
 * first's guard). `Worker` then refuses: the run's threads are the package's, each guarded.
 */
export function installGuard(scope, budget) {
  if (scope[GUARD]) return scope[GUARD];
  const guard = guardAllocations(budget, scope);
  for (const [name, guarded] of Object.entries(guard.constructors)) {
    const owner = name === 'Memory' ? scope.WebAssembly : scope;
    fix(owner, name, guarded);
  }
  // a memory's own constructor is guarded too: no fast path of V8's hangs on it (see above for
  // the typed arrays' and buffers', which are left alone)
  if (guard.constructors.Memory) fix(scope.WebAssembly.Memory.prototype, 'constructor', guard.constructors.Memory);
  if (guard.resize) fix(scope.ArrayBuffer.prototype, 'resize', guard.resize);
  if (guard.grow) fix(scope.SharedArrayBuffer.prototype, 'grow', guard.grow);
  if (guard.memoryGrow) fix(scope.WebAssembly.Memory.prototype, 'grow', guard.memoryGrow);
  if (typeof scope.Worker === 'function')
    fix(scope, 'Worker', function Worker() {
      throw new Error(
        "your learner cannot start Workers of its own in the Lab: its run's threads are the package's (startThreads), each held to the learner budget",
      );
    });
  fix(scope, GUARD, guard);
  return guard;
}
