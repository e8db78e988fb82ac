// view-limited.mjs — `npm run view-limited`: the view-limited agent (vf_view_act: the planner over
// completions of what the agent has seen, scripts/view_limited.c) on the test split, for a few
// numbers of completions, and the control that decides the same way with the whole farm in view
// (completions 0). Writes docs/runs/view-limited/<env>.json, one run per setting, each with every
// seed's [seed, return, actions (one base-36 character each)] and the CPU seconds an episode
// took, then the view-limited rows of wasm/data/baselines.json (scripts/baselines.mjs).
//
//   npm run view-limited -- [--env ID] [--completions 0,1,4,16] [--width W] [--seeds N] [--jobs J]
//
// --seeds N plays the first N test seeds (all 1,000 by default); --width, the planner's beam,
// defaults to each farm's WIDTH below; --jobs runs that many settings side by side. A run takes
// hours on one core: each setting's lines go to build/view-limited/ as they come, and a run
// started again goes on from the seed after the last one written.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { ensureNativeTools, root, run, say } from '../tools/setup.mjs';
import { SPLITS } from '../wasm/splits.js';
import { envIds } from '../wasm/specs.js';
import { updateViewLimited } from './baselines.mjs';

// The beam each farm's agent plans with (every step plans once per completion): as wide as
// a run of 1,000 seeds affords on a shared 2-core machine; wider plans more (the Benchmark
// page gives what the same beam reaches with the whole farm in view).
export const WIDTH = { 'ValleyFarm-v0': 10, 'BackwardsValleyFarm-v0': 100 };
export const AGENT_SEED = 1; // the agent's own stream (never an episode's seed)

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const fail = (message) => {
  console.error(`[valley-farm] view-limited: ${message}`);
  process.exit(2);
};
const whole = (text, name, low, high) => {
  const n = Number(text);
  if (!Number.isInteger(n) || n < low || n > high) fail(`${name} must be a whole number from ${low} to ${high}, got '${text}'`);
  return n;
};

const envs = arg('--env') === undefined ? envIds : [arg('--env')];
for (const env of envs) if (!envIds.includes(env)) fail(`--env must be one of ${envIds.join(', ')}, got '${env}'`);
const completions = String(arg('--completions', '0,1,4,16'))
  .split(',')
  .map((k) => whole(k, '--completions', 0, 1024));
const seeds = whole(arg('--seeds', String(SPLITS.test.count)), '--seeds', 1, SPLITS.test.count);
const jobs = whole(arg('--jobs', '1'), '--jobs', 1, 8);
const widthOf = (env) => (arg('--width') === undefined ? WIDTH[env] : whole(arg('--width'), '--width', 1, 65536));

const partial = (env, k, width) => `${root}build/view-limited/${env}-k${k}-w${width}.jsonl`;
const linesOf = (file) =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.endsWith('}'))
        .map((l) => JSON.parse(l))
    : [];

/** Plays the seeds of one setting not played yet, appending each line to its file. */
function play(env, k, width) {
  const file = partial(env, k, width);
  const done = linesOf(file).length;
  // a line cut short when a run was stopped is dropped before the next one is appended
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  if (text && !text.endsWith('\n'))
    writeFileSync(
      file,
      linesOf(file)
        .map((l) => `${JSON.stringify(l)}\n`)
        .join(''),
    );
  const count = seeds - done;
  if (count <= 0) return Promise.resolve();
  say(`${env}, ${k ? `${k} completions` : 'whole farm in view'}, width ${width}: seeds ${done + 1}-${seeds} of the test split`);
  return new Promise((resolve, reject) => {
    const child = spawn(`${root}build/valley-farm-view-limited`, [
      env,
      String(SPLITS.test.first + done),
      String(count),
      String(k),
      String(width),
      String(AGENT_SEED),
    ]);
    const out = createWriteStream(file, { flags: 'a' });
    child.stdout.pipe(out);
    child.stderr.on('data', (d) => process.stderr.write(d));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${env} with ${k} completions: exit ${code}`))));
  });
}

ensureNativeTools();
run('cmake', ['-S', '.', '-B', 'build', '-DCMAKE_C_COMPILER=gcc', '-DCMAKE_BUILD_TYPE=Release'], {
  stdio: ['ignore', 'ignore', 'inherit'],
});
run('cmake', ['--build', 'build', '-j2', '--target', 'valley-farm-view-limited'], { stdio: ['ignore', 'ignore', 'inherit'] });
mkdirSync(`${root}build/view-limited`, { recursive: true });
mkdirSync(`${root}docs/runs/view-limited`, { recursive: true });

const queue = envs.flatMap((env) => completions.map((k) => [env, k, widthOf(env)]));
await Promise.all(
  Array.from({ length: jobs }, async () => {
    while (queue.length) await play(...queue.shift());
  }),
);

for (const env of envs) {
  const file = `${root}docs/runs/view-limited/${env}.json`;
  const data = existsSync(file)
    ? JSON.parse(readFileSync(file, 'utf8'))
    : { format: 'valley-farm-view-limited', version: 1, env, runs: [] };
  for (const k of completions) {
    const width = widthOf(env);
    const rows = linesOf(partial(env, k, width)).slice(0, seeds);
    const expected = Array.from({ length: rows.length }, (_, i) => SPLITS.test.first + i);
    if (rows.some((r, i) => r.seed !== expected[i] || r.completions !== k || r.width !== width))
      throw new Error(`${partial(env, k, width)} is not the test split's seeds in order for this setting: delete it and run again`);
    const entry = {
      completions: k,
      width,
      agentSeed: AGENT_SEED,
      cpuSecondsPerEpisode: Math.round(rows.reduce((a, r) => a + r.ms, 0) / rows.length) / 1000,
      seeds: rows.map((r) => [r.seed, r.return, r.actions]),
    };
    data.runs = data.runs.filter((r) => r.completions !== k).concat([entry]);
    data.runs.sort((a, b) => a.completions - b.completions);
    say(
      `${env}, ${k ? `${k} completions` : 'whole farm in view'}: ${rows.length} seeds, mean ${(rows.reduce((a, r) => a + r.return, 0) / rows.length).toFixed(2)}`,
    );
  }
  // one seed per line: small diffs when a run grows
  writeFileSync(
    file,
    `${JSON.stringify(data, null, 2).replace(/\[\n\s+(\d+),\n\s+([\d.]+),\n\s+("[0-9a-z]*")\n\s+\]/g, '[$1, $2, $3]')}\n`,
  );
  say(`${file.slice(root.length)} written`);
}
updateViewLimited();
