// coreBalance.mjs — how fast each core of this machine runs at one moment, so a reader of a
// scaling figure can tell a slow core from slow code. The cores of a virtual machine do not
// always run at the same speed (the native loop has run at 46 M steps/s on one core and 31 M on
// the other at the same moment), and a run whose threads wait for each other at every minibatch
// goes at its slowest thread's pace: k threads can give at most k × slowest / fastest times
// one thread on the fastest core, whatever the code.
//
// The native engine loop (build/valley-farm-bench --serve, the same loop `npm run bench` times)
// runs on every core at once, each copy pinned to its core by taskset, at this process's
// priority (so it gets what the learners measured beside it got). For each core: its speed
// (steps per CPU-second: how fast the core is when it runs) and its rate (steps per wall
// second: also how much of the core other work left). Linux only; elsewhere, or without
// taskset or the native build, it says why instead.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const nativeBench = `${root}build/valley-farm-bench`;

/** The cores this process may run on (Linux: its affinity list, "0-1,4"), or null. */
function allowedCores() {
  const m = /^Cpus_allowed_list:\s*(\S+)/m.exec(readFileSync('/proc/self/status', 'utf8'));
  if (!m) return null;
  return m[1].split(',').flatMap((part) => {
    const [a, b = a] = part.split('-').map(Number);
    return Array.from({ length: b - a + 1 }, (_, i) => a + i);
  });
}

/** Builds the native bench as `npm run bench` does, if it is missing; false if it cannot. */
function ensureNativeBench() {
  if (existsSync(nativeBench)) return true;
  try {
    const quiet = { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] };
    execFileSync('cmake', ['-S', '.', '-B', 'build', '-DCMAKE_BUILD_TYPE=Release'], quiet);
    execFileSync('cmake', ['--build', 'build', '-j2', '--target', 'valley-farm-bench'], quiet);
    return existsSync(nativeBench);
  } catch {
    return false;
  }
}

/** One pinned copy's run of `steps` steps: its speed (steps per CPU-second) and rate (per wall second). */
function runPinned(core, env, steps) {
  return new Promise((resolve, reject) => {
    const child = spawn('taskset', ['-c', String(core), nativeBench, '--serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
    const lines = createInterface({ input: child.stdout });
    const t0 = performance.now();
    child.on('error', reject);
    lines.once('line', (line) => {
      const wall = (performance.now() - t0) / 1000;
      const r = JSON.parse(line);
      // the loop also ran an untimed tenth of its rounds first (bench_native.c); the wall clock counts it
      const rounds = r.steps / r.envs;
      const played = (rounds + Math.max(1, Math.floor(rounds / 10))) * r.envs;
      child.stdin.end();
      resolve({ core, speed: r.stepsPerSec, rate: played / wall });
    });
    child.on('exit', (code) => code !== 0 && reject(new Error(`valley-farm-bench on core ${core} exited with code ${code}`)));
    child.stdin.write(`${env} 1024 ${steps}\n`);
  });
}

/**
 * Every allowed core's native speed and rate at the same moment, and `bound`: the most a run
 * of as many threads as cores can scale over one thread (cores × the slowest rate / the
 * fastest). { skipped: why } where it cannot be measured.
 */
export async function coreBalance({ env = 'ValleyFarm-v0', steps = 20_000_000 } = {}) {
  if (process.platform !== 'linux') return { skipped: 'not Linux (taskset pins the copies)' };
  const cores = allowedCores();
  if (!cores || cores.length < 2) return { skipped: 'fewer than 2 cores' };
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
  } catch {
    return { skipped: 'no taskset (util-linux)' };
  }
  if (!ensureNativeBench()) return { skipped: `no ${nativeBench} (cmake could not build it)` };
  const each = await Promise.all(cores.map((core) => runPinned(core, env, steps)));
  const rates = each.map((c) => c.rate);
  return { env, cores: each, bound: (cores.length * Math.min(...rates)) / Math.max(...rates) };
}

/** One line for a reader: each core's speed and rate, and the bound. */
export function describeBalance(balance) {
  if (balance.skipped) return `cores: not measured (${balance.skipped})`;
  const m = (x) => `${(x / 1e6).toFixed(1)} M`;
  const cores = balance.cores.map((c) => `core ${c.core} ${m(c.speed)} steps/CPU-s, ${m(c.rate)} steps/s`).join('; ');
  return `cores now (the native loop on each at once): ${cores}; so ${balance.cores.length} threads give at most ${balance.bound.toFixed(2)} × one`;
}

/**
 * A k-thread speed-up against its target, given the bounds the cores allowed around its run
 * (each `bound` above): 'met' when it reached the target; 'n/a' when it did not and the cores
 * themselves allowed less than the target at a moment around it, so a slow core, not the code,
 * may be what missed it; else 'NOT MET'.
 */
export function judgeScaling(speedup, target, bounds) {
  if (speedup >= target) return 'met';
  if (bounds.length && Math.min(...bounds) < target) return 'n/a';
  return 'NOT MET';
}
