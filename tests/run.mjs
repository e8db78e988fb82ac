// run.mjs — `npm test`: sets up what is missing, builds, and runs every suite in order,
// stopping at the first failure:
//   0. the house style: Prettier and clang-format (`npm run format` applies it)
//   1. native engine, gcc -O3 (on x86, its SSE2 paths)                          ctest
//   2. native engine, clang, ASan + UBSan, portable paths (no x86 intrinsics)   ctest
//   3. the C API and the planner fuzzed for FUZZ_SECONDS in all (libFuzzer, ASan + UBSan; `npm run
//      fuzz` for longer), and the share of core/src their corpora reach (llvm-cov)
//   4. WebAssembly build, then the page build (Vite, into dist/)
//   5. the type declarations (wasm/index.d.ts) checked against tests/types/usage.ts by tsc
//   6. Vitest: JS API in Node, page components, end to end in Chromium (tests/js, web, browser)
//   7. the Python package: pip install ./python, pytest against it, again under ASan + UBSan
// Only Node built-ins until setup has installed node_modules.
import { readFileSync } from 'node:fs';
import { ensureChromium, ensureNodeModules, ensureNativeTools, root, run, say } from '../tools/setup.mjs';
import { buildWasm } from '../wasm/build.mjs';
import { fuzz } from './fuzz/run.mjs';
import { format } from '../scripts/format.mjs';
import { pythonSuite } from '../scripts/python.mjs';

const FUZZ_SECONDS = 30;

const started = Date.now();
const quietConfigure = { stdio: ['ignore', 'ignore', 'inherit'] };

function nativeSuite(dir, compiler, extra, label) {
  say(`Native tests, ${label}`);
  run('cmake', ['-S', '.', '-B', dir, `-DCMAKE_C_COMPILER=${compiler}`, ...extra], quietConfigure);
  run('cmake', ['--build', dir, '-j2']);
  run('ctest', ['--test-dir', dir, '--output-on-failure']);
}

try {
  say('Setup');
  ensureNodeModules();
  ensureNativeTools();
  const chromium = ensureChromium();

  format({ write: false });

  nativeSuite('build', 'gcc', ['-DCMAKE_BUILD_TYPE=Release'], 'gcc -O3 (build/)');
  // the portable code paths here, the x86 ones above (on x86), the WebAssembly ones in Vitest
  nativeSuite(
    'build-asan',
    'clang',
    ['-DCMAKE_BUILD_TYPE=RelWithDebInfo', '-DVF_SANITIZE=ON', '-DVF_PORTABLE=ON'],
    'clang, portable code paths, AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/)',
  );

  fuzz(FUZZ_SECONDS);

  buildWasm();
  const { buildSite } = await import('../web/build.mjs');
  await buildSite();

  say('Type declarations (tsc -p tests/types)');
  run('npx', ['tsc', '-p', 'tests/types']);

  say('JS API, page and browser tests (Vitest)');
  const report = 'build/vitest-report.json';
  run(
    'npx',
    ['vitest', 'run', '--config', 'tests/vitest.config.js', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    {
      env: { ...process.env, CHROMIUM_PATH: chromium },
    },
  );
  const { numPassedTests, numFailedTests } = JSON.parse(readFileSync(`${root}${report}`, 'utf8'));

  pythonSuite();

  say(`All tests passed in ${Math.round((Date.now() - started) / 1000)} s (root: ${root})`);
  console.log(`vitest: ${numPassedTests} passed, ${numFailedTests} failed`);
} catch (err) {
  console.error(`\n[valley-farm] npm test failed: ${err.message}`);
  process.exit(1);
}
