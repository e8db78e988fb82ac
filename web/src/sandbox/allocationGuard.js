// allocationGuard.js — a visitor's learner held to the learner budget while it runs (the Lab's
// "Your learner", learnerBox.js). The Lab refuses settings whose estimate is above the budget
// before Start, but the estimate is the template's: an edited learner can ask for more than
// any estimate saw (a 2 GB buffer), and a browser may grant it, fill the machine's memory and
// end the tab. So the visitor's module makes its typed arrays and ArrayBuffers with the
// constructors this file gives it (learnerBox.js declares them at the top of the module, on its
// first line, so every other line stays where the visitor wrote it), which refuse one that would
// take what the module holds in this Worker past the budget, with an error that names the size
// asked for, what is held, and the budget. The error is thrown where the visitor's code asked,
// so the Lab names that line; the run stops with its curve kept, as for any error of theirs.
//
// What it does not see: buffers the package's own code makes (its large ones are in the learner
// core, whose memory has its own maximum and says "out of WebAssembly memory" past it), and
// plain arrays and objects, which the browser's own heap limit bounds.

const KINDS = [
  'ArrayBuffer',
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
];

/** Where learnerBox.js leaves the guarded constructors for the visitor's module to read. */
export const GUARDED = Symbol.for('valley-farm/guarded constructors');

const size = (bytes) =>
  bytes < 2 ** 20 ? `${bytes.toLocaleString('en')} bytes` : `${Math.round(bytes / 2 ** 20).toLocaleString('en')} MB`;

/**
 * The bytes `new Type(first, …)` allocates: a length's worth (a number, or a string that is
 * one), an array-like's (an array, another typed array), 0 for a view of a buffer.
 */
function requested(first, unit, isBuffer) {
  if (first === null || (typeof first !== 'object' && typeof first !== 'function')) {
    const n = Number(first);
    return Number.isFinite(n) && n > 0 ? Math.floor(n) * (isBuffer ? 1 : unit) : 0;
  }
  if (isBuffer || first instanceof ArrayBuffer || (typeof SharedArrayBuffer === 'function' && first instanceof SharedArrayBuffer)) return 0;
  const length = Number(first.length);
  return Number.isFinite(length) && length > 0 ? Math.floor(length) * unit : 0;
}

/**
 * The typed-array and ArrayBuffer constructors of `scope`, each refusing an allocation that
 * would take the bytes they have made and not yet seen collected past `budget`: { [name]:
 * constructor } (the others as they are: from, of, BYTES_PER_ELEMENT and instanceof work).
 * `held()` says how many bytes that is.
 */
export function guardAllocations(budget, scope = globalThis) {
  let held = 0;
  const collected = new FinalizationRegistry((bytes) => (held -= bytes));
  const guarded = {};
  for (const name of KINDS) {
    const Type = scope[name];
    if (typeof Type !== 'function') continue;
    const unit = Type.BYTES_PER_ELEMENT ?? 1;
    guarded[name] = new Proxy(Type, {
      construct(target, args, newTarget) {
        const bytes = requested(args[0], unit, name === 'ArrayBuffer');
        if (bytes > 0 && held + bytes > budget)
          throw new RangeError(
            `your learner asked for ${/^[AEI]/.test(name) ? 'an' : 'a'} ${name} of ${size(bytes)}${held > 0 ? ` beside the ${size(held)} it holds` : ''}, more than the ${size(budget)} a learner may take in the Lab`,
          );
        const made = Reflect.construct(target, args, newTarget);
        if (bytes > 0) {
          held += bytes;
          collected.register(name === 'ArrayBuffer' ? made : made.buffer, bytes); // held while any view of it is
        }
        return made;
      },
    });
  }
  Object.defineProperty(guarded, 'held', { value: () => held });
  return guarded;
}

/**
 * The line learnerBox.js puts before the visitor's first line: their module's own bindings of
 * the guarded constructors (read from scope[GUARDED]), which every use of those names in the
 * module then means. No newline: the visitor's lines keep their numbers.
 */
export function guardLine(guarded) {
  return `const { ${Object.keys(guarded).join(', ')} } = globalThis[Symbol.for(${JSON.stringify(GUARDED.description)})]; `;
}
