// The module exports only what the JS API calls: an export nobody calls is size and surface
// for nothing (the C API itself is the header's, for native callers).
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

it('every function wasm/exported_functions.json exports is called from the JS API', () => {
  const exported = JSON.parse(read('wasm/exported_functions.json')).map((name) => name.slice(1));
  const callers = ['wasm/engine.js', 'wasm/env.js', 'wasm/vec.js', 'wasm/features.js', 'wasm/agents/index.js', 'wasm/spec_gen.mjs']
    .map(read)
    .join('\n');
  const called = new Set([...callers.matchAll(/\bx\.([a-z_0-9]+)\b/g)].map((m) => m[1]));
  expect(exported.filter((name) => !called.has(name))).toEqual([]);
});
