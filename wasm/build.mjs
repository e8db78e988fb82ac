// build.mjs — builds wasm/valley_farm.wasm (and valley_farm_play.wasm, the same without the
// planner, for the page; and wasm/learn/learner.wasm, the learners' core) from the C sources
// with Emscripten (the same CMakeLists.txt as the native build, run through emcmake), then
// regenerates wasm/engine_spec.js from the engine (spec_gen.mjs). Incremental: cmake
// rebuilds only what changed.
import { statSync } from 'node:fs';
import { emccEnv, ensureEmscripten, ensureNativeTools, root, run, say } from '../tools/setup.mjs';

/** Builds the module; `stdio` routes the tools' output (the default shows it). */
export function buildWasm({ stdio = 'inherit' } = {}) {
  ensureNativeTools();
  ensureEmscripten();
  say('Building the WebAssembly engine (wasm/valley_farm.wasm)');
  run('emcmake', ['cmake', '-S', '.', '-B', 'build-wasm', '-DCMAKE_BUILD_TYPE=Release'], {
    env: emccEnv,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  run('cmake', ['--build', 'build-wasm', '-j2'], { env: emccEnv, stdio });
  // valley_farm_play.wasm: the same without the planner, for the page's main thread
  for (const name of ['valley_farm.wasm', 'valley_farm_play.wasm', 'learn/learner.wasm']) {
    const { size } = statSync(`${root}wasm/${name}`);
    say(`wasm/${name}: ${size} bytes (${(size / 1024).toFixed(1)} KiB)`);
  }
  // a child process, so that buildWasm stays synchronous for its callers
  run(process.execPath, [`${root}wasm/spec_gen.mjs`], { stdio });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    buildWasm();
  } catch (err) {
    console.error(`\n[valley-farm] wasm build failed: ${err.message}`);
    process.exit(1);
  }
}
