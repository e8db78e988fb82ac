// python.mjs — the Python package's suite (python/): makes sure Debian's Python pieces are
// here, installs ./python into a venv under build/ and runs its pytest suite against the
// INSTALLED package, from a directory where the source tree is not importable; then the
// same under AddressSanitizer + UndefinedBehaviorSanitizer.
//
//   node scripts/python.mjs            what tests/run.mjs runs (pythonSuite)
//   node scripts/python.mjs --no-asan  without the sanitizer pass
//   VF_GYMNASIUM_SRC=<a Gymnasium source checkout> node scripts/python.mjs
//                                      the suite once more with that Gymnasium importable
//
// The venv sees the system's packages (--system-site-packages: NumPy, pytest, PyTorch from
// Debian) and pip never reaches the network (--no-index, --no-build-isolation).
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import { aptInstall, canUseApt, root, run, say } from '../tools/setup.mjs';

export const PYTHON = '/usr/bin/python3';

// What the package, its tests and the PPO example's test need: [module to import, Debian package].
const MODULES = [
  ['numpy', 'python3-numpy'],
  ['pytest', 'python3-pytest'],
  ['hypothesis', 'python3-hypothesis'],
  ['venv', 'python3-venv'],
  ['setuptools', 'python3-setuptools'],
  ['torch', 'python3-torch'],
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

/**
 * A venv under build/ that sees the system's packages, with ./python built as a wheel (the
 * one command the README gives, warnings as errors) into `wheels` and installed from there.
 */
function venvWithPackage(dir, wheels, env = process.env) {
  const python = `${dir}/bin/python`;
  if (!existsSync(python)) run(PYTHON, ['-m', 'venv', '--system-site-packages', dir]);
  // setuptools reuses object files it finds newer than their sources: a build with other
  // flags (the sanitizer pass) must start from none
  rmSync(`${root}python/build`, { recursive: true, force: true });
  rmSync(wheels, { recursive: true, force: true });
  const buildEnv = { ...env, CFLAGS: `${env.CFLAGS ?? ''} -Werror`.trim() };
  run(python, ['-m', 'pip', 'wheel', '-q', '--no-build-isolation', '--no-index', '--no-deps', './python', '-w', wheels], { env: buildEnv });
  const wheel = readdirSync(wheels).find((f) => /^valley_farm-.*\.whl$/.test(f));
  if (!wheel) throw new Error(`no valley_farm wheel in ${wheels}`);
  run(python, ['-m', 'pip', 'install', '-q', '--no-index', '--no-deps', '--force-reinstall', `${wheels}/${wheel}`]);
  return python;
}

/** pytest on python/tests, run from build/ so that only the installed package is importable. */
function pytest(python, env = process.env, extra = []) {
  const cwd = `${root}build`;
  mkdirSync(cwd, { recursive: true });
  run(python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', ...extra, `${root}python/tests`], { cwd, env });
}

/** The whole Python suite; tests/run.mjs calls it after the WebAssembly build (the parity tests run node). */
export function pythonSuite({ asan = true } = {}) {
  ensurePython();
  say('Python package: a wheel of ./python installed into build/pyenv, then pytest against the installed package');
  const plain = venvWithPackage(`${root}build/pyenv`, `${root}build/wheels`);
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
  const python = venvWithPackage(`${root}build/pyenv-asan`, `${root}build/wheels-asan`, buildEnv);
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
