// setup.mjs — makes sure what the build and the tests need is on this machine, installing
// what is missing where it can (Debian/Ubuntu as root), and otherwise stopping with a
// message that names exactly what to install. It never skips anything silently.
//
//   node tools/setup.mjs            Node packages, C toolchain, Emscripten
//   node tools/setup.mjs --browser  ... and Chromium for the browser tests
//
// Only Node built-ins here: this runs before node_modules exists.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));

/** Environment for running Emscripten: Debian's emcc needs Node's global module path. */
export const emccEnv = { ...process.env, NODE_PATH: [process.env.NODE_PATH, '/usr/share/nodejs'].filter(Boolean).join(':') };

// Progress goes to stderr, so that a command's real output (bench --json) stays clean.
export function say(message) {
  console.error(`\n[valley-farm] ${message}`);
}

/** Runs a command in the repository, echoing it; throws if it fails. */
export function run(cmd, args, options = {}) {
  console.error(`$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...options });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed with exit code ${r.status}`);
}

export function has(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

// ---- Node packages ----------------------------------------------------------------------

const stampFile = `${root}node_modules/.valley-farm-lock-hash`;

/** Runs `npm ci` when node_modules is missing or older than package-lock.json. */
export function ensureNodeModules() {
  const lockHash = createHash('sha256')
    .update(readFileSync(`${root}package-lock.json`))
    .digest('hex');
  const stamp = existsSync(stampFile) ? readFileSync(stampFile, 'utf8') : '';
  if (stamp === lockHash) return;
  say(
    existsSync(`${root}node_modules`)
      ? 'package-lock.json changed: reinstalling Node packages (npm ci)'
      : 'Installing Node packages (npm ci)',
  );
  // onnxruntime-node bundles its CPU runtime; its install script would fetch CUDA binaries from
  // outside the npm registry (.npmrc says the same to a plain `npm ci`)
  run('npm', ['ci', '--no-audit', '--no-fund'], { env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip' } });
  writeFileSync(stampFile, lockHash);
}

// ---- system packages --------------------------------------------------------------------

let aptUpdated = false;

export function canUseApt() {
  return process.platform === 'linux' && process.getuid?.() === 0 && existsSync('/etc/debian_version') && has('apt-get');
}

/**
 * Makes sure `command` exists, installing Debian package `pkg` when it does not.
 * `manual` tells users elsewhere what to install. `apt`: whether installing with apt-get is
 * possible here (Debian/Ubuntu as root); tests pass false to see the message others get.
 */
export function ensureCommand(command, pkg, manual, { apt = canUseApt() } = {}) {
  if (has(command)) return;
  if (!apt) {
    throw new Error(
      `'${command}' is missing and can only be installed automatically on Debian/Ubuntu as root.\n` +
        `Please install it yourself: ${manual}\nthen run the command again.`,
    );
  }
  say(`'${command}' is missing: installing Debian's '${pkg}' package (apt-get install ${pkg})`);
  aptInstall(pkg);
  if (!has(command)) throw new Error(`installed '${pkg}' but '${command}' is still not on PATH`);
}

/** Installs Debian packages with apt-get (updating its lists once per run). Root on Debian only. */
export function aptInstall(...pkgs) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    run('apt-get', ['update', '-q'], { env });
    aptUpdated = true;
  }
  run('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...pkgs], { env });
}

/** cmake, a C compiler and make, for the native engine and its tests. */
export function ensureNativeTools() {
  ensureCommand('cmake', 'cmake', 'CMake >= 3.16 (https://cmake.org/download/ or your package manager)');
  ensureCommand('make', 'make', 'GNU make');
  ensureCommand('gcc', 'gcc', 'GCC (any C11 compiler works for the library; the tests use gcc and clang)');
  ensureCommand('clang', 'clang', 'Clang (the sanitizer test build uses it)');
}

/** Emscripten, for the WebAssembly build. */
export function ensureEmscripten() {
  ensureCommand(
    'emcc',
    'emscripten',
    'Emscripten: your package manager (Debian/Ubuntu: apt-get install emscripten) or the emsdk (https://emscripten.org/docs/getting_started/downloads.html), with emcc on PATH',
  );
}

/** The path of a Chromium/Chrome for the browser tests. */
export function ensureChromium() {
  for (const path of [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser']) {
    if (path && existsSync(path)) return path;
  }
  ensureCommand('chromium', 'chromium', 'Chromium or Google Chrome, and set CHROMIUM_PATH to its executable');
  return execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    ensureNodeModules();
    ensureNativeTools();
    ensureEmscripten();
    if (process.argv.includes('--browser')) ensureChromium();
    say('setup: everything is in place');
  } catch (err) {
    console.error(`\n[valley-farm] setup failed: ${err.message}`);
    process.exit(1);
  }
}
