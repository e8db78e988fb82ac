// The Lab's allocation guard (web/src/sandbox/allocationGuard.js) leaves V8's fast path for
// typed arrays on. V8 makes the arrays of subarray, slice and map directly while no typed
// array's prototype.constructor (nor its Symbol.species) was ever changed in the isolate; once
// one is, each asks the constructor (in Node a subarray 1,024 ns instead of 39), and a visitor's
// learner in the Lab trained at 0.76 of the built-in learner's speed. The isolate's flag is only
// visible with V8's natives syntax, so a Node of its own checks it with the guard installed in
// its global scope, as the Lab's Worker has it. (In Node, not happy-dom: it starts a process.)
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const guardUrl = new URL('../../web/src/sandbox/allocationGuard.js', import.meta.url).href;

it("the installed guard leaves the typed arrays' prototypes alone, so V8's fast path for subarray, slice and map stays on", () => {
  const script = `
    const { installGuard } = await import(${JSON.stringify(guardUrl)});
    const protector = new Function('return %TypedArraySpeciesProtector()');
    const before = protector();
    globalThis.Worker = function Worker() {};
    installGuard(globalThis, 2 ** 26);
    const array = new Float32Array(2 ** 20);
    console.log(JSON.stringify({ before, after: protector(), guarded: globalThis.Float32Array !== array.constructor, sub: array.subarray(8).length }));`;
  const out = execFileSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
  });
  expect(JSON.parse(out)).toEqual({ before: true, after: true, guarded: true, sub: 2 ** 20 - 8 });
});
