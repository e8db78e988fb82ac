// prepack.mjs — `npm pack` / `npm publish` never ship a package without its engine and its
// learner core: each .wasm is built when it is missing or older than its C sources, and packing stops with a
// message if it cannot be built.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// each module the package ships, and the files it is built from (a change to the build
// itself, CMakeLists.txt, rebuilds what it changes when cmake runs: it is not listed here)
const MODULES = [
  {
    file: 'wasm/valley_farm.wasm',
    sources: ['wasm/exports.c', 'wasm/exported_functions.json', 'core/include/valley_farm.h', 'core/src/'],
  },
  {
    file: 'wasm/learn/learner.wasm',
    sources: ['wasm/learner_exports.c', 'wasm/learner_exported_functions.json', 'core/include/valley_farm_learn.h', 'core/learn/'],
  },
];

/** The newest modification time among these files (a name ending in / is every file of that folder). */
function newest(sources) {
  const files = sources.flatMap((f) => (f.endsWith('/') ? readdirSync(join(root, f)).map((g) => `${f}${g}`) : [f]));
  return Math.max(...files.map((f) => statSync(join(root, f)).mtimeMs));
}

function isWasm(file) {
  const head = readFileSync(file).subarray(0, 4);
  return head.length === 4 && head[0] === 0 && head[1] === 0x61 && head[2] === 0x73 && head[3] === 0x6d;
}

/** 'up to date', or what is wrong with the first module that is not ('wasm/x.wasm is stale'). */
export function checkWasm() {
  for (const m of MODULES) {
    const file = join(root, m.file);
    if (!existsSync(file)) return `${m.file} is missing`;
    if (!isWasm(file) || statSync(file).mtimeMs < newest(m.sources)) return `${m.file} is stale`;
  }
  return 'up to date';
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const state = checkWasm();
  if (state !== 'up to date') {
    console.error(`[valley-farm] prepack: ${state}; building the modules first`);
    try {
      const { buildWasm } = await import('./build.mjs');
      buildWasm({ stdio: ['ignore', 'ignore', 'inherit'] });
    } catch (err) {
      console.error(
        `[valley-farm] prepack: refusing to pack without the engine and the learner core: they could not be built (${err.message}). Run \`npm run build:wasm\` (it needs Emscripten; \`npm test\` installs it) and pack again.`,
      );
      process.exit(1);
    }
    const after = checkWasm();
    if (after !== 'up to date') {
      console.error(`[valley-farm] prepack: refusing to pack: ${after} after the build.`);
      process.exit(1);
    }
  }
}
