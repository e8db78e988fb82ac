// run.mjs — builds the libFuzzer harness (tests/fuzz/fuzz_engine.c) with clang, ASan and
// UBSan, and runs it: `npm run fuzz -- [seconds]` (default 300), and `npm test` for a short
// fixed budget. The committed seed corpus (tests/fuzz/corpus/) is read; new inputs go to
// build-fuzz/corpus/ (ignored), crashes to build-fuzz/. Exits non-zero on any finding.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { canUseApt, ensureNativeTools, root, run, say } from '../../scripts/setup.mjs';

const FLAGS = ['-std=c11', '-O1', '-g', '-fsanitize=fuzzer,address,undefined', '-fno-sanitize-recover=all', '-Wall', '-Wextra', '-Werror'];

/** clang's libFuzzer runtime comes with Debian's libclang-rt-14-dev: installed when missing. */
function ensureFuzzerRuntime() {
  const probe = () =>
    spawnSync(
      'sh',
      ['-c', `echo 'int LLVMFuzzerTestOneInput(const char*d,long n){return 0;}' | clang -x c -fsanitize=fuzzer - -o /dev/null`],
      { stdio: 'ignore' },
    ).status === 0;
  if (probe()) return;
  if (!canUseApt())
    throw new Error(
      "clang cannot link libFuzzer here: install clang's runtime libraries (Debian/Ubuntu: apt-get install libclang-rt-14-dev) and run again",
    );
  say("clang's libFuzzer runtime is missing: installing Debian's libclang-rt-14-dev");
  run('apt-get', ['install', '-y', '-q', '--no-install-recommends', 'libclang-rt-14-dev'], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (!probe()) throw new Error('installed libclang-rt-14-dev but clang still cannot link libFuzzer');
}

export function fuzz(seconds) {
  ensureNativeTools();
  ensureFuzzerRuntime();
  const out = `${root}build-fuzz`;
  mkdirSync(`${out}/corpus`, { recursive: true });
  const sources = readdirSync(`${root}core/src`)
    .filter((f) => f.endsWith('.c'))
    .map((f) => `${root}core/src/${f}`);
  say(`Fuzzing the C API for ${seconds} s (libFuzzer, ASan + UBSan; tests/fuzz/fuzz_engine.c)`);
  execFileSync(
    'clang',
    [...FLAGS, `-I${root}core/include`, `-I${root}core/src`, ...sources, `${root}tests/fuzz/fuzz_engine.c`, '-o', `${out}/fuzz_engine`],
    { stdio: 'inherit' },
  );
  const result = spawnSync(
    `${out}/fuzz_engine`,
    [`-max_total_time=${seconds}`, '-print_final_stats=1', `-artifact_prefix=${out}/`, `${out}/corpus`, `${root}tests/fuzz/corpus`],
    { encoding: 'utf8' },
  );
  const log = result.stderr ?? '';
  const runs = /Done (\d+) runs in (\d+) second/.exec(log);
  const cov = [...log.matchAll(/cov: (\d+) ft: (\d+)/g)].at(-1);
  if (result.status !== 0) {
    console.error(log.split('\n').slice(-60).join('\n'));
    throw new Error(
      `the fuzzer found a failure (exit ${result.status}); the input is in build-fuzz/ (replay: build-fuzz/fuzz_engine <file>)`,
    );
  }
  say(
    `fuzzing: ${runs ? `${runs[1]} executions in ${runs[2]} s` : 'done'}, ${cov ? `${cov[1]} edges, ${cov[2]} features` : ''}, no findings`,
  );
  return { executions: runs ? Number(runs[1]) : 0 };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = process.argv[2];
  const seconds = arg === undefined ? 300 : Number(arg);
  if (!Number.isInteger(seconds) || seconds < 1) {
    console.error(`[valley-farm] fuzz: the budget must be a whole number of seconds, got '${arg}'`);
    process.exit(2);
  }
  try {
    fuzz(seconds);
  } catch (err) {
    console.error(`\n[valley-farm] fuzz failed: ${err.message}`);
    process.exit(1);
  }
}
