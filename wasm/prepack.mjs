// prepack.mjs — `npm pack` / `npm publish` never ship a package without its engine: the
// .wasm is built when it is missing or older than the C sources, and packing stops with a
// message if it cannot be built.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const wasm = join(root, 'wasm/valley_farm.wasm');

/** The newest modification time among the files the module is built from. */
function newestSource() {
  const files = ['wasm/exports.c', 'wasm/exported_functions.json', 'CMakeLists.txt'];
  for (const dir of ['core/include', 'core/src']) for (const f of readdirSync(join(root, dir))) files.push(`${dir}/${f}`);
  return Math.max(...files.map((f) => statSync(join(root, f)).mtimeMs));
}

function isWasm(file) {
  const head = readFileSync(file).subarray(0, 4);
  return head.length === 4 && head[0] === 0 && head[1] === 0x61 && head[2] === 0x73 && head[3] === 0x6d;
}

export function checkWasm() {
  if (existsSync(wasm) && isWasm(wasm) && statSync(wasm).mtimeMs >= newestSource()) return 'up to date';
  return existsSync(wasm) ? 'stale' : 'missing';
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const state = checkWasm();
  if (state !== 'up to date') {
    console.error(`[valley-farm] prepack: wasm/valley_farm.wasm is ${state}; building it first`);
    try {
      const { buildWasm } = await import('./build.mjs');
      buildWasm({ stdio: ['ignore', 'ignore', 'inherit'] });
    } catch (err) {
      console.error(
        `[valley-farm] prepack: refusing to pack without the engine: wasm/valley_farm.wasm could not be built (${err.message}). Run \`npm run build:wasm\` (it needs Emscripten; \`npm test\` installs it) and pack again.`,
      );
      process.exit(1);
    }
    if (checkWasm() !== 'up to date') {
      console.error('[valley-farm] prepack: refusing to pack: wasm/valley_farm.wasm is still missing or stale after the build.');
      process.exit(1);
    }
  }
}
