// A visitor's learner held to the learner budget while it runs (web/src/sandbox/allocationGuard.js):
// its module's typed arrays and ArrayBuffers refuse what would pass the budget, naming the size
// and the budget, and otherwise behave as the constructors they stand for.
import { describe, expect, it } from 'vitest';
import { MEMORY_BUDGET } from '../../wasm/learn/index.js';
import { GUARDED, guardAllocations, guardLine } from '../../web/src/sandbox/allocationGuard.js';

describe("a visitor's learner's allocations", () => {
  it('a 2 GB typed array is refused before it is made, naming its size and the learner budget', () => {
    const g = guardAllocations(MEMORY_BUDGET);
    expect(() => new g.Float64Array(2 ** 28)).toThrow(
      /^your learner asked for a Float64Array of 2,048 MB, more than the 1,024 MB a learner may take in the Lab$/,
    );
    expect(() => new g.ArrayBuffer(2 ** 31)).toThrow(/an ArrayBuffer of 2,048 MB/);
    expect(() => g.Float32Array.from({ length: 2 ** 29 })).toThrow(/a Float32Array of 2,048 MB/);
    expect(g.held()).toBe(0);
  });

  it('what it holds counts towards the budget: the allocation that would pass it is refused, naming what is held', () => {
    const g = guardAllocations(1000);
    const kept = [new g.Float32Array(100), new g.Uint8Array(500)]; // 400 + 500 bytes held
    expect(g.held()).toBe(900);
    expect(() => new g.Int32Array(26)).toThrow(
      /^your learner asked for an Int32Array of 104 bytes beside the 900 bytes it holds, more than the 1,000 bytes a learner may take in the Lab$/,
    );
    expect(new g.Int32Array(25).length).toBe(25); // 1,000 bytes: at the budget, not past it
    expect(kept).toHaveLength(2);
  });

  it('the guarded constructors make the same arrays: views of a buffer cost nothing, from, of and instanceof work', () => {
    const g = guardAllocations(64);
    const buffer = new g.ArrayBuffer(64);
    const view = new g.Float64Array(buffer, 8, 7); // all of the buffer's 64 bytes past the first 8
    expect(g.held()).toBe(64);
    expect(view).toBeInstanceOf(Float64Array);
    expect(view).toBeInstanceOf(g.Float64Array);
    expect(g.Float64Array.BYTES_PER_ELEMENT).toBe(8);
    expect(Array.from(new Float64Array(new g.ArrayBuffer(0)))).toEqual([]);
    const small = guardAllocations(100);
    expect(Array.from(small.Int16Array.of(1, 2, 3))).toEqual([1, 2, 3]);
    expect(Array.from(small.Uint8Array.from([4, 5]))).toEqual([4, 5]);
    expect(small.held()).toBe(8);
  });

  it("the guard's line gives the code that follows it the guarded constructors, on that code's first line", () => {
    const g = guardAllocations(1024);
    globalThis[GUARDED] = g;
    try {
      const line = guardLine(g);
      expect(line).not.toContain('\n');
      // the line, then a module's body as a function's (the same scoping of its const declarations)
      const body = new Function(`${line}return { make: (n) => new Float64Array(n), raw: () => globalThis.Float64Array };`);
      const mod = body();
      expect(mod.make(128)).toHaveLength(128);
      expect(() => mod.make(129)).toThrow(/a Float64Array of 1,032 bytes beside the 1,024 bytes it holds/);
      expect(mod.raw()).toBe(Float64Array); // the global itself is left as it is
    } finally {
      delete globalThis[GUARDED];
    }
  });
});
