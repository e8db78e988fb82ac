// run.mjs — builds the libFuzzer harnesses with clang, ASan and UBSan, runs them, and
// measures how much of the C their corpora reach: `npm run fuzz -- [seconds]` (default 300),
// and `npm test` for a short fixed budget.
//   fuzz_engine.c   every public C function of the engine, with arguments of every kind
//   fuzz_planner.c  beam search and proof from played and crafted states
//   fuzz_learn.c    the learner core's API: layouts of any size, calls in any order with any
//                   rows, counts and indices
//   fuzz_python.c   the Python binding's methods (python/src/engine.c) with Python objects of
//                   every kind, in a CPython embedded in the fuzzer (Debian's python3-dev, NumPy)
//   fuzz_view.c     the view-limited agent: completions and actions of played and altered views
// Each reads its committed seed corpus (tests/fuzz/corpus/<harness>/: inputs the fuzzers
// found, minimised with -merge=1, and one written by hand, named for the path it reaches);
// new inputs go to build-fuzz/corpus/<harness>/ (ignored), crashes to build-fuzz/. Then a
// second build of each, instrumented for source coverage (clang -fprofile-instr-generate
// -fcoverage-mapping), runs over both corpora once, and llvm-cov reports the share of each
// part's lines (core/src, core/learn, python/src) its harnesses reach. Exits non-zero on any
// finding, or below a part's coverage floor.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { canUseApt, ensureCommand, ensureNativeTools, root, run, say } from '../../tools/setup.mjs';
import { ensurePython, PYTHON } from '../../scripts/python.mjs';

const FLAGS = ['-std=c11', '-O1', '-g', '-fsanitize=fuzzer,address,undefined', '-fno-sanitize-recover=all', '-Wall', '-Wextra', '-Werror'];
const COVERAGE_FLAGS = ['-std=c11', '-O1', '-g', '-fsanitize=fuzzer', '-fprofile-instr-generate', '-fcoverage-mapping'];

// The harnesses, with the share of the time each gets (the engine's runs are many and cheap,
// the planner's few and long, the binding's start an interpreter first) and the part of the C
// whose lines each is counted in. `python`: built with the binding against libpython.
const HARNESSES = [
  { name: 'fuzz_engine', share: 3 / 10, part: 'core/src' },
  { name: 'fuzz_planner', share: 3 / 20, part: 'core/src' },
  { name: 'fuzz_view', share: 3 / 20, part: 'core/src' },
  { name: 'fuzz_learn', share: 1 / 5, part: 'core/learn' },
  { name: 'fuzz_python', share: 1 / 5, part: 'python/src', python: true },
];

const cSources = (folder) => () =>
  readdirSync(`${root}${folder}`)
    .filter((f) => f.endsWith('.c'))
    .map((f) => `${root}${folder}/${f}`);
const PYTHON_SOURCES = [`${root}python/src/engine.c`, `${root}python/src/agents.c`];

// Each part of the C: its sources, and the least share of their lines its harnesses' corpora
// must reach: a harness that loses reach (a public function no longer called, a new one never)
// fails the run. The committed corpora alone reach more; docs/speed.md states the figures.
const PARTS = {
  'core/src': { sources: cSources('core/src'), floor: 95 },
  'core/learn': { sources: cSources('core/learn'), floor: 95 },
  // python/src's lines out of a fuzzer's reach, about 9 %: failed allocations, and the paths of
  // a forked child and of two threads calling at once, which test_cannot_crash.py takes
  'python/src': { sources: () => PYTHON_SOURCES, floor: 85 },
};

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

/** What the binding's harness compiles and links with: CPython's and NumPy's headers, libpython. */
function pythonFlags() {
  ensurePython({ modules: [['numpy', 'python3-numpy']] });
  const [include, numpy, library] = execFileSync(
    PYTHON,
    [
      '-c',
      "import sysconfig, numpy; print(sysconfig.get_paths()['include']); print(numpy.get_include()); print('python' + sysconfig.get_config_var('LDVERSION'))",
    ],
    { encoding: 'utf8' },
  )
    .trim()
    .split('\n');
  // the binding's own build's warning exceptions (python/setup.py): CPython's method tables
  return {
    cflags: [`-I${include}`, `-I${numpy}`, '-Wno-missing-field-initializers', '-Wno-cast-function-type'],
    libs: [`-l${library}`, '-lpthread'],
  };
}

// what each harness links: its part's C; the binding's harness the engine's too
const linked = ({ part, python }) => (python ? [...PARTS['core/src'].sources(), ...PYTHON_SOURCES] : PARTS[part].sources());

function build(harness, flags, output) {
  const { name, python } = harness;
  const py = python ? pythonFlags() : { cflags: [], libs: [] };
  execFileSync(
    'clang',
    [
      ...flags,
      ...py.cflags,
      `-I${root}core/include`,
      `-I${root}core/src`,
      ...linked(harness),
      `${root}tests/fuzz/${name}.c`,
      '-lm',
      ...py.libs,
      '-o',
      output,
    ],
    { stdio: 'inherit' },
  );
}

// CPython keeps objects until its exit on purpose: no leak checks for the binding's harness
const runEnv = ({ python }) => (python ? { ...process.env, ASAN_OPTIONS: 'detect_leaks=0' } : process.env);

/** Runs one harness for `seconds`; throws on a finding. */
function runHarness(harness, seconds) {
  const { name } = harness;
  mkdirSync(`${OUT}/corpus/${name}`, { recursive: true });
  build(harness, FLAGS, `${OUT}/${name}`);
  const result = spawnSync(
    `${OUT}/${name}`,
    [`-max_total_time=${seconds}`, '-print_final_stats=1', `-artifact_prefix=${OUT}/`, ...corpora(name)],
    { encoding: 'utf8', maxBuffer: 64 * 2 ** 20, env: runEnv(harness) },
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

/** The lines of `sources` that the harnesses' profiles reach, as llvm-cov counts them. */
function linesReached(dir, harnesses, profile, sources) {
  const binaries = harnesses.map(({ name }) => `${dir}/${name}`);
  execFileSync('llvm-profdata', ['merge', '-sparse', ...harnesses.map(({ name }) => `${dir}/${name}.profraw`), '-o', `${dir}/${profile}`]);
  const report = JSON.parse(
    execFileSync(
      'llvm-cov',
      [
        'export',
        '-summary-only',
        binaries[0],
        ...binaries.slice(1).flatMap((b) => ['-object', b]),
        `-instr-profile=${dir}/${profile}`,
        ...sources,
      ],
      { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 },
    ),
  );
  const { covered, count, percent } = report.data[0].totals.lines;
  return { percent, covered, lines: count };
}

/**
 * The share of each part's lines its harnesses' corpora reach (committed and found), as
 * llvm-cov counts them: { [part]: { percent, covered, lines } }.
 */
export function coverage() {
  ensureCommand('llvm-profdata', 'llvm', "LLVM's tools (llvm-profdata, llvm-cov), of the version of clang");
  ensureCommand('llvm-cov', 'llvm', "LLVM's tools (llvm-profdata, llvm-cov), of the version of clang");
  const dir = `${OUT}/coverage`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const harness of HARNESSES) {
    const { name } = harness;
    build(harness, COVERAGE_FLAGS, `${dir}/${name}`);
    for (const c of corpora(name)) mkdirSync(c, { recursive: true });
    // -runs=0: run every input of the corpora once, then stop
    const result = spawnSync(`${dir}/${name}`, ['-runs=0', ...corpora(name)], {
      encoding: 'utf8',
      env: { ...runEnv(harness), LLVM_PROFILE_FILE: `${dir}/${name}.profraw` },
      maxBuffer: 64 * 2 ** 20,
    });
    if (result.status !== 0)
      throw new Error(`the coverage build of ${name} failed on its corpus:\n${result.stderr.split('\n').slice(-20).join('\n')}`);
  }
  const result = {};
  for (const [part, { sources }] of Object.entries(PARTS))
    result[part] = linesReached(
      dir,
      HARNESSES.filter((h) => h.part === part),
      `${part.replace('/', '-')}.profdata`,
      sources(),
    );
  return result;
}

export function fuzz(seconds) {
  ensureNativeTools();
  ensureFuzzerRuntime();
  say(`Fuzzing the C API for ${seconds} s (libFuzzer, ASan + UBSan; tests/fuzz/${HARNESSES.map((h) => `${h.name}.c`).join(', ')})`);
  let executions = 0;
  for (const harness of HARNESSES) executions += runHarness(harness, Math.max(1, Math.round(seconds * harness.share)));
  const c = coverage();
  say(
    `fuzzing: the corpora reach ${Object.entries(c)
      .map(([part, x]) => `${x.percent.toFixed(1)} % of ${part}'s lines (${x.covered} of ${x.lines})`)
      .join(', ')} (llvm-cov)`,
  );
  for (const [part, x] of Object.entries(c))
    if (x.percent < PARTS[part].floor)
      throw new Error(
        `the fuzz corpora reach ${x.percent.toFixed(1)} % of ${part}'s lines, below ${PARTS[part].floor} %: a harness lost reach (llvm-cov show on build-fuzz/coverage/'s binaries with -instr-profile=build-fuzz/coverage/${part.replace('/', '-')}.profdata ${part}/*.c lists the lines)`,
      );
  return { executions, coverage: Object.fromEntries(Object.entries(c).map(([part, x]) => [part, x.percent])) };
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
