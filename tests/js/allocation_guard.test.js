// A visitor's learner held to the learner budget while it runs (web/src/sandbox/allocationGuard.js):
// typed arrays, ArrayBuffers and WebAssembly memories refuse what would pass the budget, naming
// the size and the budget, and otherwise behave as the constructors they stand for; installed in
// a Worker's global scope, the guard is every global way there to the constructors, while the
// typed arrays' prototypes are left to V8's fast path (allocationGuard.js says why;
// allocation_guard_fast_path.test.js checks it). The installed guard
// is tried in a fresh realm of its own (node:vm), as a Worker's global would be; in Chromium,
// tests/browser/lab_guard.test.js. (In the js project, in Node: in the web project's happy-dom,
// two full runs of all three projects could not load this file, 'No such built-in module: node:',
// while it passed alone and in the web project alone.)
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { MEMORY_BUDGET } from '../../wasm/learn/index.js';
import { GUARD, guardAllocations, installGuard } from '../../web/src/sandbox/allocationGuard.js';

const MB = 2 ** 20;

describe("a visitor's learner's allocations", () => {
  it('a 2 GB typed array is refused before it is made, naming its size and the learner budget', () => {
    const g = guardAllocations(MEMORY_BUDGET).constructors;
    expect(() => new g.Float64Array(2 ** 28)).toThrow(
      /^your learner asked for a Float64Array of 2,048 MB, more than the 1,024 MB a learner may take in the Lab$/,
    );
    expect(() => new g.ArrayBuffer(2 ** 31)).toThrow(/an ArrayBuffer of 2,048 MB/);
    expect(() => g.Float32Array.from({ length: 2 ** 29 })).toThrow(/a Float32Array of 2,048 MB/);
  });

  it('what it holds counts towards the budget: the allocation that would pass it is refused, naming what is held', () => {
    const guard = guardAllocations(1000);
    const g = guard.constructors;
    const kept = [new g.Float32Array(100), new g.Uint8Array(500)]; // 400 + 500 bytes held
    expect(guard.held()).toBe(900);
    expect(() => new g.Int32Array(26)).toThrow(
      /^your learner asked for an Int32Array of 104 bytes beside the 900 bytes it holds, more than the 1,000 bytes a learner may take in the Lab$/,
    );
    expect(new g.Int32Array(25).length).toBe(25); // 1,000 bytes: at the budget, not past it
    expect(kept).toHaveLength(2);
  });

  it('the guarded constructors make the same arrays: views of a buffer cost nothing, from, of and instanceof work', () => {
    const guard = guardAllocations(128);
    const g = guard.constructors;
    const buffer = new g.ArrayBuffer(128);
    const view = new g.Float64Array(buffer, 8, 15); // all of the buffer's 128 bytes past the first 8
    expect(guard.held()).toBe(128);
    expect(view).toBeInstanceOf(Float64Array);
    expect(view).toBeInstanceOf(g.Float64Array);
    expect(g.Float64Array.BYTES_PER_ELEMENT).toBe(8);
    expect(Array.from(new Float64Array(new g.ArrayBuffer(0)))).toEqual([]);
    const small = guardAllocations(1000);
    expect(Array.from(small.constructors.Int16Array.of(1, 2, 3))).toEqual([1, 2, 3]);
    expect(Array.from(small.constructors.Uint8Array.from([4, 5]))).toEqual([4, 5]);
    expect(small.held()).toBe(0); // arrays of at most 64 bytes live in the JS heap, as plain arrays do: not counted
    expect(small.constructors.Float64Array.from({ length: 100 }, (_, i) => i)[99]).toBe(99);
    expect(small.held()).toBe(800);
  });

  it("the learner core's allocations (reserve) count its memory at its size now, and refuse what would pass the budget", () => {
    const guard = guardAllocations(4 * 65536);
    const memory = new WebAssembly.Memory({ initial: 2 }); // the core's, made outside the guard
    guard.reserve(65536, memory); // fits: 128 KiB held + 64 KiB
    expect(guard.held()).toBe(2 * 65536);
    memory.grow(1); // the core's malloc grows it inside the module: seen at its size now
    expect(guard.held()).toBe(3 * 65536);
    expect(() => guard.reserve(2 * 65536, memory)).toThrow(
      /^your learner asked for 131,072 bytes in the learner core beside the 196,608 bytes it holds, more than the 262,144 bytes a learner may take in the Lab$/,
    );
  });
});

describe('the guard installed in a Worker-like global scope: every global way to the constructors is the guarded one', () => {
  /** A fresh realm with the guard installed (a budget of `budget` bytes) and a Worker constructor to refuse. */
  function realm(budget = 64 * MB) {
    const context = vm.createContext({});
    const scope = vm.runInContext('globalThis', context);
    scope.Worker = function Worker() {};
    installGuard(scope, budget);
    const run = (code) => vm.runInContext(code, context);
    return { scope, run };
  }

  // each is a way code could reach a constructor the guard did not hand it (on main, all but the
  // first made their 128 MB: only the module's own names were guarded)
  it.each([
    ['new Float64Array(n)', 'new Float64Array(2 ** 24)', /a Float64Array of 128 MB/],
    ['globalThis.Float64Array', 'new globalThis.Float64Array(2 ** 24)', /a Float64Array of 128 MB/],
    ['self.ArrayBuffer (globalThis by another name)', 'const self = globalThis; new self.ArrayBuffer(2 ** 27)', /an ArrayBuffer of 128 MB/],
    ['Reflect.construct', 'Reflect.construct(Uint8Array, [2 ** 27])', /a Uint8Array of 128 MB/],
    ['a subclass', 'class Mine extends Int32Array {} new Mine(2 ** 25)', /an Int32Array of 128 MB/],
    ['from an iterable', 'Float64Array.from({ length: 2 ** 24 })', /a Float64Array of 128 MB/],
    [
      'ArrayBuffer.prototype.resize',
      'new ArrayBuffer(8, { maxByteLength: 2 ** 28 }).resize(2 ** 27)',
      /an ArrayBuffer resized 128 MB larger/,
    ],
    ['WebAssembly.Memory, initial', 'new WebAssembly.Memory({ initial: 2048 })', /a WebAssembly memory of 128 MB/],
    ['WebAssembly.Memory, grown', 'new WebAssembly.Memory({ initial: 1 }).grow(2048)', /a WebAssembly memory grown 128 MB larger/],
    [
      "a memory's own constructor",
      'new (new WebAssembly.Memory({ initial: 1 }).constructor)({ initial: 2048 })',
      /a WebAssembly memory of 128 MB/,
    ],
  ])('%s is refused past the budget', (_, code, refusal) => {
    const { run } = realm();
    expect(() => run(code)).toThrow(refusal);
  });

  it('what it allows is made and counted: buffers until collected, memories at their size', () => {
    const { scope, run } = realm();
    run('globalThis.kept = [new Float64Array(2 ** 20), new ArrayBuffer(1024, { maxByteLength: 2 ** 24 })]; kept[1].resize(2 ** 20)');
    expect(scope[GUARD].held()).toBe(8 * MB + MB);
    run('globalThis.memory = new WebAssembly.Memory({ initial: 16 }); memory.grow(16)');
    expect(scope[GUARD].held()).toBe(9 * MB + 2 * MB);
    // 11 MB held: 53 MB more fit a 64 MB budget, 54 do not
    expect(() => run('new Uint8Array(54 * 2 ** 20)')).toThrow(/a Uint8Array of 54 MB beside the 11 MB it holds, more than the 64 MB/);
    expect(run('new Uint8Array(53 * 2 ** 20).length')).toBe(53 * MB);
  });

  it('cannot be put back or taken away, and Workers of its own are refused', () => {
    const { scope, run } = realm();
    const guarded = scope.Float64Array;
    run('globalThis.Float64Array = function () {}; delete globalThis.Float64Array');
    expect(scope.Float64Array).toBe(guarded);
    // (the realm's own TypeError: read-only)
    expect(() => run("'use strict'; globalThis.ArrayBuffer = null")).toThrow(/read only property 'ArrayBuffer'/);
    expect(() => run("'use strict'; WebAssembly.Memory.prototype.constructor = Object")).toThrow(/read only property 'constructor'/);
    expect(() => run("new Worker('data:,')")).toThrow(/your learner cannot start Workers of its own in the Lab/);
    expect(installGuard(scope, 1)).toBe(scope[GUARD]); // once per scope: a second install is the first
  });
});
