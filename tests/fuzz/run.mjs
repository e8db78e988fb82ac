// run.mjs — builds the libFuzzer harnesses with clang, ASan and UBSan, runs them, and
// measures how much of core/src their corpus reaches: `npm run fuzz -- [seconds]` (default
// 300), and `npm test` for a short fixed budget.
//   fuzz_engine.c   every public C function, with arguments of every kind
//   fuzz_planner.c  beam search and proof from played and crafted states
//   fuzz_view.c     the view-limited agent: completions and actions of played and altered views
// Each reads its committed seed corpus (tests/fuzz/corpus/<harness>/: inputs the fuzzers
// found, minimised with -merge=1, and one written by hand, named for the path it reaches);
// new inputs go to build-fuzz/corpus/<harness>/ (ignored), crashes to build-fuzz/. Then a
// second build of each, instrumented for source coverage (clang -fprofile-instr-generate
// -fcoverage-mapping), runs over both corpora once, and llvm-cov reports the share of
// core/src's lines reached. Exits non-zero on any finding, or below COVERAGE_FLOOR.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { canUseApt, ensureCommand, ensureNativeTools, root, run, say } from '../../tools/setup.mjs';

const FLAGS = ['-std=c11', '-O1', '-g', '-fsanitize=fuzzer,address,undefined', '-fno-sanitize-recover=all', '-Wall', '-Wextra', '-Werror'];
const COVERAGE_FLAGS = ['-std=c11', '-O1', '-g', '-fsanitize=fuzzer', '-fprofile-instr-generate', '-fcoverage-mapping'];

// The harnesses, with the share of the time each gets: the engine's runs are many and cheap,
// the planner's few and long.
const HARNESSES = [
  { name: 'fuzz_engine', share: 1 / 2 },
  { name: 'fuzz_planner', share: 1 / 4 },
  { name: 'fuzz_view', share: 1 / 4 },
];

// The least share of core/src's lines the corpora must reach: a harness that loses reach
// (a public function no longer called, a new one never) fails the run. The committed corpora
// alone reach more; README.md states the figure.
const COVERAGE_FLOOR = 95;

const OUT = `${root}build-fuzz`;
const corpora = (name) => [`${OUT}/corpus/${name}`, `${root}tests/fuzz/corpus/${name}`];

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

const coreSources = () =>
  readdirSync(`${root}core/src`)
    .filter((f) => f.endsWith('.c'))
    .map((f) => `${root}core/src/${f}`);

function build(name, flags, output) {
  execFileSync(
    'clang',
    [...flags, `-I${root}core/include`, `-I${root}core/src`, ...coreSources(), `${root}tests/fuzz/${name}.c`, '-lm', '-o', output],
    { stdio: 'inherit' },
  );
}

/** Runs one harness for `seconds`; throws on a finding. */
function runHarness(name, seconds) {
  mkdirSync(`${OUT}/corpus/${name}`, { recursive: true });
  build(name, FLAGS, `${OUT}/${name}`);
  const result = spawnSync(
    `${OUT}/${name}`,
    [`-max_total_time=${seconds}`, '-print_final_stats=1', `-artifact_prefix=${OUT}/`, ...corpora(name)],
    { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 },
  );
  const log = result.stderr ?? '';
  const runs = /Done (\d+) runs in (\d+) second/.exec(log);
  const cov = [...log.matchAll(/cov: (\d+) ft: (\d+)/g)].at(-1);
  if (result.status !== 0) {
    console.error(log.split('\n').slice(-60).join('\n'));
    throw new Error(
      `the fuzzer found a failure in ${name} (exit ${result.status}); the input is in build-fuzz/ (replay: build-fuzz/${name} <file>)`,
    );
  }
  say(
    `${name}: ${runs ? `${runs[1]} executions in ${runs[2]} s` : 'done'}, ${cov ? `${cov[1]} edges, ${cov[2]} features` : ''}, no findings`,
  );
  return runs ? Number(runs[1]) : 0;
}

/**
 * The share of core/src's lines the harnesses' corpora reach (committed and found), as
 * llvm-cov counts them: { percent, covered, lines }.
 */
export function coverage() {
  ensureCommand('llvm-profdata', 'llvm', "LLVM's tools (llvm-profdata, llvm-cov), of the version of clang");
  ensureCommand('llvm-cov', 'llvm', "LLVM's tools (llvm-profdata, llvm-cov), of the version of clang");
  const dir = `${OUT}/coverage`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const binaries = [];
  for (const { name } of HARNESSES) {
    const binary = `${dir}/${name}`;
    build(name, COVERAGE_FLAGS, binary);
    for (const c of corpora(name)) mkdirSync(c, { recursive: true });
    // -runs=0: run every input of the corpora once, then stop
    const result = spawnSync(binary, ['-runs=0', ...corpora(name)], {
      encoding: 'utf8',
      env: { ...process.env, LLVM_PROFILE_FILE: `${dir}/${name}.profraw` },
      maxBuffer: 64 * 2 ** 20,
    });
    if (result.status !== 0)
      throw new Error(`the coverage build of ${name} failed on its corpus:\n${result.stderr.split('\n').slice(-20).join('\n')}`);
    binaries.push(binary);
  }
  execFileSync('llvm-profdata', [
    'merge',
    '-sparse',
    ...HARNESSES.map(({ name }) => `${dir}/${name}.profraw`),
    '-o',
    `${dir}/all.profdata`,
  ]);
  const report = JSON.parse(
    execFileSync(
      'llvm-cov',
      [
        'export',
        '-summary-only',
        binaries[0],
        ...binaries.slice(1).flatMap((b) => ['-object', b]),
        `-instr-profile=${dir}/all.profdata`,
        ...coreSources(),
      ],
      { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 },
    ),
  );
  const { covered, count, percent } = report.data[0].totals.lines;
  return { percent, covered, lines: count };
}

export function fuzz(seconds) {
  ensureNativeTools();
  ensureFuzzerRuntime();
  say(`Fuzzing the C API for ${seconds} s (libFuzzer, ASan + UBSan; tests/fuzz/${HARNESSES.map((h) => `${h.name}.c`).join(', ')})`);
  let executions = 0;
  for (const { name, share } of HARNESSES) executions += runHarness(name, Math.max(1, Math.round(seconds * share)));
  const c = coverage();
  say(`fuzzing: the corpora reach ${c.percent.toFixed(1)} % of core/src's lines (${c.covered} of ${c.lines}, llvm-cov)`);
  if (c.percent < COVERAGE_FLOOR)
    throw new Error(
      `the fuzz corpora reach ${c.percent.toFixed(1)} % of core/src's lines, below ${COVERAGE_FLOOR} %: a harness lost reach (llvm-cov show build-fuzz/coverage/${HARNESSES[0].name}${HARNESSES.slice(
        1,
      )
        .map(({ name }) => ` -object build-fuzz/coverage/${name}`)
        .join('')} -instr-profile=build-fuzz/coverage/all.profdata core/src/*.c lists the lines)`,
    );
  return { executions, coverage: c.percent };
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
