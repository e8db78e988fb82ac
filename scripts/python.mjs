// python.mjs — the Python package's suite (python/): makes sure Debian's Python pieces are
// here; builds ./python's sdist and its wheel, installs each into a fresh venv and checks it
// runs there (so a file missing from the sdist fails); installs the wheel into a venv under
// build/ and runs the pytest suite against the INSTALLED package, from a directory where the
// source tree is not importable; then the same under AddressSanitizer + UndefinedBehaviorSanitizer.
//
//   node scripts/python.mjs            what tests/run.mjs runs (pythonSuite)
//   node scripts/python.mjs --no-asan  without the sanitizer pass
//   VF_GYMNASIUM_SRC=<a Gymnasium source checkout> node scripts/python.mjs
//                                      the suite once more with that Gymnasium importable
//
// Every venv sees the system's packages (--system-site-packages: NumPy, pytest, PyTorch from
// Debian) and pip never reaches the network (--no-index, --no-build-isolation, --no-deps):
// the lines docs/python.md gives for Debian and Ubuntu.
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import { aptInstall, canUseApt, root, run, say } from '../tools/setup.mjs';

export const PYTHON = '/usr/bin/python3';

// What the package, its tests and the PPO example's tests need: [module to import, Debian package].
const MODULES = [
  ['numpy', 'python3-numpy'],
  ['pytest', 'python3-pytest'],
  ['hypothesis', 'python3-hypothesis'],
  ['venv', 'python3-venv'],
  ['setuptools', 'python3-setuptools'],
  ['torch', 'python3-torch'],
  ['onnx', 'python3-onnx'], // reads ONNX policies (valley_farm.load_onnx), and checks torch's export
];

function pythonHas(module) {
  return spawnSync(PYTHON, ['-c', `import ${module}`], { stdio: 'ignore' }).status === 0;
}

function pythonHeader() {
  const include = execFileSync(PYTHON, ['-c', "import sysconfig; print(sysconfig.get_paths()['include'])"], { encoding: 'utf8' });
  return `${include.trim()}/Python.h`;
}

/** Debian's python3 with its headers and `modules` (by default all the suite needs: NumPy, pytest, Hypothesis, venv, setuptools and PyTorch). */
export function ensurePython({ apt = canUseApt(), modules = MODULES } = {}) {
  const missing = [];
  if (!existsSync(PYTHON)) missing.push('python3');
  else {
    if (!existsSync(pythonHeader())) missing.push('python3-dev');
    for (const [module, pkg] of modules) if (!pythonHas(module)) missing.push(pkg);
  }
  if (missing.length === 0) return;
  if (!apt) {
    throw new Error(
      `the Python suite needs Debian's ${missing.join(', ')} (or Python >= 3.9 at ${PYTHON} with its headers, NumPy, pytest, Hypothesis, venv, ` +
        'setuptools >= 66 and PyTorch); they can only be installed automatically on Debian/Ubuntu as root. Please install them and run the command again.',
    );
  }
  say(`Python pieces missing: installing Debian's ${missing.join(' ')}`);
  aptInstall(...missing);
}

const PIP_OFFLINE = ['--no-index', '--no-deps'];

/** The one file in `dir` whose name matches `pattern`, with its path. */
function builtFile(dir, pattern) {
  const name = readdirSync(dir).find((f) => pattern.test(f));
  if (!name) throw new Error(`no file matching ${pattern} in ${dir}`);
  return `${dir}/${name}`;
}

/**
 * ./python's wheel, built (warnings as errors) into `wheels` by a venv under build/ that sees
 * the system's packages, as `pip wheel ./python` does from a checkout; returns the venv's
 * python and the wheel.
 */
function buildWheel(dir, wheels, env = process.env) {
  const python = `${dir}/bin/python`;
  if (!existsSync(python)) run(PYTHON, ['-m', 'venv', '--system-site-packages', dir]);
  // setuptools reuses object files it finds newer than their sources: a build with other
  // flags (the sanitizer pass) must start from none
  rmSync(`${root}python/build`, { recursive: true, force: true });
  rmSync(wheels, { recursive: true, force: true });
  const buildEnv = { ...env, CFLAGS: `${env.CFLAGS ?? ''} -Werror`.trim() };
  run(python, ['-m', 'pip', 'wheel', '-q', '--no-build-isolation', ...PIP_OFFLINE, './python', '-w', wheels], { env: buildEnv });
  return { python, wheel: builtFile(wheels, /^valley_farm-.*\.whl$/) };
}

/** ./python's sdist in `dir`, by setuptools' PEP 517 hook (what `python -m build --sdist` calls). */
function buildSdist(dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  run(PYTHON, ['-c', `from setuptools import build_meta; build_meta.build_sdist(${JSON.stringify(dir)})`], { cwd: `${root}python` });
  return builtFile(dir, /^valley[-_]farm-.*\.tar\.gz$/);
}

/**
 * Installs `what` (a wheel, or an sdist pip builds) into a fresh venv at `dir`, with pip run
 * from `pip` (a venv that has it: --without-pip saves the new one seconds), and checks there,
 * from a directory outside the checkout, that it imports, reports its versions, steps both
 * kinds of env and evaluates on its reference data.
 */
function installFresh(pip, dir, what) {
  rmSync(dir, { recursive: true, force: true });
  run(PYTHON, ['-m', 'venv', '--system-site-packages', '--without-pip', dir]);
  const env = { ...process.env, CFLAGS: `${process.env.CFLAGS ?? ''} -Werror`.trim() };
  run(pip, ['-m', 'pip', '--python', `${dir}/bin/python`, 'install', '-q', '--no-build-isolation', ...PIP_OFFLINE, what], { env });
  const version = execFileSync(`${dir}/bin/python`, ['-m', 'valley_farm', '--version'], { cwd: dir, encoding: 'utf8' }).trim();
  if (!/^valley_farm \d+\.\d+\.\d+ \(engine \d+\.\d+\.\d+, spec \d+\)$/.test(version))
    throw new Error(`python -m valley_farm --version printed ${JSON.stringify(version)} in ${dir}`);
  run(`${dir}/bin/python`, ['-c', SMOKE], { cwd: dir });
  say(`${what.split('/').at(-1)} installs into a fresh venv and runs: ${version}`);
}

// What installFresh runs: both kinds of env, both autoreset modes, and the reference data
// evaluate reads (data/*.json must be in the package).
const SMOKE = `
import numpy as np, valley_farm
env = valley_farm.make("ValleyFarm-v0")
env.reset(seed=1)
assert env.step(0)[4]["action_mask"].dtype == np.int8
vec = valley_farm.make_vec("BackwardsValleyFarm-v0", 4, autoreset_mode="next_step", threads=2)
vec.reset(seed=1)
vec.step(np.zeros(4, np.int32))
result = valley_farm.evaluate("heuristic", "BackwardsValleyFarm-v0", split="test", episodes=4)
assert result["normalized"]["mean"] > 0, result
`;

/** pytest on python/tests, run from build/ so that only the installed package is importable. */
function pytest(python, env = process.env, extra = []) {
  const cwd = `${root}build`;
  mkdirSync(cwd, { recursive: true });
  run(python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', ...extra, `${root}python/tests`], { cwd, env });
}

/** The whole Python suite; tests/run.mjs calls it after the WebAssembly build (the parity tests run node). */
export function pythonSuite({ asan = true } = {}) {
  ensurePython();
  say('Python package: its sdist and its wheel, each installed into a fresh venv; the wheel into build/pyenv, then pytest against it');
  const { python: plain, wheel } = buildWheel(`${root}build/pyenv`, `${root}build/wheels`);
  installFresh(plain, `${root}build/venv-wheel`, wheel);
  installFresh(plain, `${root}build/venv-sdist`, buildSdist(`${root}build/sdist`));
  run(plain, ['-m', 'pip', 'install', '-q', ...PIP_OFFLINE, '--force-reinstall', wheel]);
  pytest(plain);
  // Gymnasium cannot be pip-installed here (no registry): where VF_GYMNASIUM_SRC names a source
  // checkout of it, the suite runs again with it importable, so test_gymnasium.py runs and the
  // envs are Gymnasium's subclasses (docs/python.md, "Run against Gymnasium itself").
  const gymnasium = process.env.VF_GYMNASIUM_SRC;
  if (gymnasium) {
    if (!existsSync(`${gymnasium}/gymnasium/__init__.py`)) {
      throw new Error(`VF_GYMNASIUM_SRC=${gymnasium} is not a Gymnasium source checkout (it has no gymnasium/__init__.py)`);
    }
    say(`Python package with Gymnasium from ${gymnasium}`);
    pytest(plain, { ...process.env, PYTHONPATH: gymnasium }, ['-m', 'not slow']);
  }
  if (!asan) return;
  say('Python package under AddressSanitizer + UndefinedBehaviorSanitizer (build/pyenv-asan)');
  const runtime = execFileSync('gcc', ['-print-file-name=libasan.so'], { encoding: 'utf8' }).trim();
  const flags = '-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer';
  const buildEnv = { ...process.env, CFLAGS: flags, LDFLAGS: '-fsanitize=address,undefined' };
  const { python, wheel: asanWheel } = buildWheel(`${root}build/pyenv-asan`, `${root}build/wheels-asan`, buildEnv);
  run(python, ['-m', 'pip', 'install', '-q', ...PIP_OFFLINE, '--force-reinstall', asanWheel]);
  // CPython itself is not built with ASan: its runtime is preloaded, and leak checks are off
  // (the interpreter keeps memory to its exit on purpose). The slow parity and PPO tests are
  // left to the plain pass.
  const env = { ...process.env, LD_PRELOAD: runtime, ASAN_OPTIONS: 'detect_leaks=0', UBSAN_OPTIONS: 'print_stacktrace=1' };
  pytest(python, env, ['-m', 'not slow']);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    pythonSuite({ asan: !process.argv.includes('--no-asan') });
  } catch (err) {
    console.error(`\n[valley-farm] Python suite failed: ${err.message}`);
    process.exit(1);
  }
}
