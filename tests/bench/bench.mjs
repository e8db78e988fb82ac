// bench.mjs — `npm run bench`: how fast each path runs, on this machine, in one run.
//
//   1. native C, tight loop (vf_batch_run_random)           1 env and a batch of 1024
//   2. WebAssembly, the same loop inside the module, one call from JS       batch of 1024
//   3. the vector env through the JS API (makeVec)           1, 64 and 1024 envs
//   4. the single env through the JS API (make(...).step)
//   5. search support: snapshot() / restore() (bytes) and saveState() / loadState()
//      (in-memory copies), operations per second
//
// The vector env runs as learners use it: legal masks and episode bookkeeping on (the
// default); `vec-nomask` is the same at 1024 envs with masks off, to show their cost.
//
// Random actions, automatic resets, every observation written. Each measurement is
// repeated (median and min–max reported), then the ratios and the targets (TARGETS, met
// or not). `--json` prints one JSON object per line instead of the table (results, then
// "ratio", "target" and "machine" lines); `--quick` runs shorter measurements (a smoke run).
// (`npm run -s bench -- --json` keeps npm's own banner out of stdout too.)
// This is a benchmark, not a test: nothing here passes or fails on speed.
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { statSync } from 'node:fs';
import { buildWasm } from '../../wasm/build.mjs';
import { ensureNativeTools, root, run } from '../../wasm/setup.mjs';

const json = process.argv.includes('--json');
const quick = process.argv.includes('--quick');
const REPEATS = quick ? 3 : 7;
const STEPS = quick ? 2_000_000 : 20_000_000; // env-steps per repeat for the in-engine paths
const JS_STEPS = quick ? 300_000 : 3_000_000; // per repeat for the JS API paths

const log = (...a) => (json ? console.error(...a) : console.log(...a));

// Builds what is measured; their output goes to stderr, so stdout is only the results.
function buildAll() {
  const quiet = { stdio: ['ignore', 'ignore', 'inherit'] };
  ensureNativeTools();
  run('cmake', ['-S', '.', '-B', 'build', '-DCMAKE_C_COMPILER=gcc', '-DCMAKE_BUILD_TYPE=Release'], quiet);
  run('cmake', ['--build', 'build', '-j2', '--target', 'valley-farm-bench'], quiet);
  buildWasm({ stdio: ['ignore', 2, 2] });
}

// The targets of the benchmark issue (#6), for one core of the CI machine kind. Reported
// next to the results, never enforced: speed depends on the machine.
const TARGETS = [
  { name: 'wasm batch of 1024, steps/s', goal: 30e6, rate: true, of: (e) => e.wasm.stepsPerSec },
  { name: 'wasm / native (1024)', goal: 0.8, of: (e) => e.wasm.stepsPerSec / e.native.stepsPerSec },
  { name: 'vec 1024 / native (1024)', goal: 0.7, of: (e) => e.vec.stepsPerSec / e.native.stepsPerSec },
  { name: 'single step, steps/s', goal: 3e6, rate: true, of: (e) => e.single.stepsPerSec },
];

function summarize(rates) {
  const sorted = [...rates].sort((a, b) => a - b);
  const round = Math.round;
  return { stepsPerSec: round(sorted[sorted.length >> 1]), min: round(sorted[0]), max: round(sorted.at(-1)), repeats: sorted.length };
}

function measure(fn, steps) {
  fn(Math.max(1, Math.floor(steps / 10))); // warm-up: let the JIT and caches settle
  const rates = [];
  for (let r = 0; r < REPEATS; r++) {
    const t0 = performance.now();
    fn(steps);
    rates.push(steps / ((performance.now() - t0) / 1000));
  }
  return summarize(rates);
}

// xorshift32 with a multiply-shift to [0, n) (as the engine's generator does; a `%` would
// cost an integer division per action): cheap random actions in JS, so the bench measures
// the env rather than the action source
function makeRandom(seed) {
  let s = seed >>> 0 || 1;
  return (n) => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return Math.floor((s >>> 0) * n * 2.3283064365386963e-10); // * 2^-32
  };
}

async function main() {
  log('Building (native and WebAssembly)...');
  buildAll();
  const api = await import('../../wasm/index.js');
  const results = [];
  const add = (r) => {
    results.push(r);
    if (json) console.log(JSON.stringify(r));
  };

  const nativeLines = execFileSync(`${root}build/valley-farm-bench`, ['--steps', String(STEPS), '--repeats', String(REPEATS)], { encoding: 'utf8' });
  for (const line of nativeLines.trim().split('\n')) add(JSON.parse(line));

  for (const id of api.envIds) {
    const n = api.envSpecs[id].actions.length;
    const runner = await api.makeRandomRunner(id, 1024);
    add({ env: id, path: 'wasm', envs: 1024, ...measure((steps) => runner.run(Math.ceil(steps / 1024)), STEPS) });
    runner.close();

    // The vector env steps through actions drawn beforehand, as a policy hands them over:
    // drawing them here, one xorshift chain per action, took 4 ns each, as much as a sixth
    // of a vector step, and that is the action source's time, not the env's. 1024 batches
    // of actions, used in turn.
    for (const [envs, masks] of [[1, true], [64, true], [1024, true], [1024, false]]) {
      const rand = makeRandom(7);
      const pool = Int32Array.from({ length: 1024 * envs }, () => rand(n));
      const batches = Array.from({ length: 1024 }, (_, k) => pool.subarray(k * envs, (k + 1) * envs));
      const vec = await api.makeVec(id, envs, { masks });
      vec.reset(1);
      add({
        env: id,
        path: masks ? 'vec' : 'vec-nomask',
        envs,
        ...measure((steps) => {
          for (let t = 0, rounds = Math.ceil(steps / envs); t < rounds; t++) vec.step(batches[t & 1023]);
        }, envs === 1 ? JS_STEPS : STEPS / 4),
      });
      vec.close();
    }

    const env = await api.make(id);
    env.reset({ seed: 1 });
    const rand = makeRandom(11);
    add({
      env: id,
      path: 'single',
      envs: 1,
      ...measure((steps) => {
        for (let t = 0; t < steps; t++) if (env.step(rand(n)).terminated) env.reset({ seed: t });
      }, JS_STEPS),
    });
    // search support: the state after a few steps, saved and put back over and over
    env.reset({ seed: 2 });
    for (let t = 0; t < 5; t++) env.step(t % n);
    const bytes = env.snapshot();
    const saved = env.saveState();
    const ops = quick ? 100_000 : 500_000;
    const per = (name, fn) => add({ env: id, path: name, envs: 1, unit: 'ops/s', ...measure(fn, ops) });
    per('snapshot', (k) => {
      for (let i = 0; i < k; i++) env.snapshot();
    });
    per('restore', (k) => {
      for (let i = 0; i < k; i++) env.restore(bytes);
    });
    per('saveState', (k) => {
      for (let i = 0; i < k; i++) env.saveState(saved);
    });
    per('loadState', (k) => {
      for (let i = 0; i < k; i++) env.loadState(saved);
    });
    saved.free();
    env.close();
  }

  const wasmSize = statSync(`${root}wasm/valley_farm.wasm`).size;
  const ratios = [];
  const targets = [];
  for (const id of api.envIds) {
    const find = (path, envs) => results.find((r) => r.env === id && r.path === path && r.envs === envs);
    const e = { native: find('native', 1024), wasm: find('wasm', 1024), vec: find('vec', 1024), single: find('single', 1) };
    ratios.push({ env: id, path: 'ratio', wasmOverNative: e.wasm.stepsPerSec / e.native.stepsPerSec, vec1024OverNative: e.vec.stepsPerSec / e.native.stepsPerSec });
    for (const t of TARGETS) {
      const value = t.of(e);
      targets.push({ env: id, path: 'target', target: t.name, goal: t.goal, value: t.rate ? Math.round(value) : Number(value.toFixed(3)), met: value >= t.goal });
    }
  }
  const machine = { path: 'machine', cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, node: process.version, wasmBytes: wasmSize };
  if (json) {
    for (const r of [...ratios, ...targets]) console.log(JSON.stringify(r));
    console.log(JSON.stringify(machine));
    return;
  }
  const fmt = (x) => (x >= 1e6 ? `${(x / 1e6).toFixed(1)} M` : `${(x / 1e3).toFixed(0)} k`);
  console.log(`\n${machine.cpu}, ${machine.cores} cores, Node ${machine.node}; wasm/valley_farm.wasm ${wasmSize} bytes`);
  console.log(`median of ${REPEATS} repeats, random actions, automatic resets\n`);
  console.log('| env | path | envs | steps/s (median) | min – max |');
  console.log('|---|---|---:|---:|---:|');
  for (const r of results.filter((r) => !r.unit)) console.log(`| ${r.env} | ${r.path} | ${r.envs} | ${fmt(r.stepsPerSec)} | ${fmt(r.min)} – ${fmt(r.max)} |`);
  console.log('\n| env | search operation | ops/s (median) | min – max |');
  console.log('|---|---|---:|---:|');
  for (const r of results.filter((r) => r.unit)) console.log(`| ${r.env} | ${r.path} | ${fmt(r.stepsPerSec)} | ${fmt(r.min)} – ${fmt(r.max)} |`);
  console.log('');
  for (const r of ratios) {
    console.log(`${r.env}: wasm / native (1024) = ${r.wasmOverNative.toFixed(2)}, vec 1024 / native (1024) = ${r.vec1024OverNative.toFixed(2)}`);
  }
  console.log('\nTargets (issue #6; on one core of the CI machine kind, so only a guide elsewhere):');
  for (const t of targets) {
    const show = (x) => (x >= 1e6 ? fmt(x) : x.toFixed(2));
    console.log(`  ${t.met ? 'met    ' : 'NOT MET'}  ${t.env}: ${t.target} = ${show(t.value)} (goal ≥ ${show(t.goal)})`);
  }
}

await main();
