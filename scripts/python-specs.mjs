// python-specs.mjs — writes python/valley_farm/data/specs.json, the Python package's copy of
// what wasm/specs.js says about each farm that the engine's C API does not (tile names and
// walkability, the observation's fields, bounds and flat layout, species, moods, facings).
// Generated, never edited: python/tests/test_specs.py fails when it is not this script's
// output. Run after changing wasm/specs.js:
//
//   node scripts/python-specs.mjs
import { writeFileSync } from 'node:fs';
import { envSpecs } from '../wasm/specs.js';

const out = new URL('../python/valley_farm/data/specs.json', import.meta.url);

/** The JSON text the Python package reads (exported for the test that checks it). */
export function specsJson() {
  return `${JSON.stringify(envSpecs, null, 1)}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(out, specsJson());
  console.error(`wrote ${out.pathname}`);
}
