// best-known.mjs — `npm run best-known [-- --width W]`: plans every test and validation seed
// of every farm with the engine's beam search (scripts/best_known.c, vf_plan_beam), proves
// each plan optimal or finds a better one (vf_plan_prove), and writes
// wasm/data/best-known.json: for each seed its best-known return, the plan that earns it
// (one base-36 character per action) and the upper bound (vf_plan_bound, or the return
// itself once proven). The
// farms run side by side, one process each. tests/js/best_known.test.js replays every
// plan, so the file cannot go stale when the rules change: regenerate it then.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { ensureNativeTools, root, run, say } from '../tools/setup.mjs';
import { SPLITS } from '../wasm/splits.js';
import { envIds } from '../wasm/specs.js';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
// each farm's width is the engine's (vf_plan_width) unless --width names one for both
const WIDTH = arg('--width', null) === null ? null : Number(arg('--width'));
if (WIDTH !== null && (!Number.isInteger(WIDTH) || WIDTH < 1 || WIDTH > 65536)) {
  console.error('[valley-farm] best-known: --width must be a whole number from 1 to 65536');
  process.exit(2);
}
const ENVS = envIds; // every farm the engine has

function plan(env, first, count) {
  return new Promise((resolve, reject) => {
    const args = [env, String(first), String(count), ...(WIDTH === null ? [] : [String(WIDTH)])];
    const child = spawn(`${root}build/valley-farm-best-known`, args);
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => process.stderr.write(d));
    child.on('close', (code) =>
      code === 0
        ? resolve(
            out
              .trim()
              .split('\n')
              .map((l) => JSON.parse(l)),
          )
        : reject(new Error(`${env}: exit ${code}`)),
    );
  });
}

const started = Date.now();
ensureNativeTools();
run('cmake', ['-S', '.', '-B', 'build', '-DCMAKE_C_COMPILER=gcc', '-DCMAKE_BUILD_TYPE=Release'], {
  stdio: ['ignore', 'ignore', 'inherit'],
});
run('cmake', ['--build', 'build', '-j2', '--target', 'valley-farm-best-known'], { stdio: ['ignore', 'ignore', 'inherit'] });
say(`Planning ${Object.values(SPLITS).reduce((a, s) => a + s.count, 0)} seeds of each farm`);
const data = {
  format: 'valley-farm-best-known',
  version: 2,
  // width: { envId: the beam each farm's plans were made with }
  planner: {
    method: 'beam search over full states (vf_plan_beam), the valley by trips; then branch and bound over every play (vf_plan_prove)',
    width: Object.fromEntries(ENVS.map((env) => [env, null])), // filled in as each farm finishes
    // prove: { envId: whether its plans went through vf_plan_prove (env.plan's `prove`) }
    prove: Object.fromEntries(ENVS.map((env) => [env, true])),
  },
  envs: {},
};
await Promise.all(
  ENVS.map(async (env) => {
    data.envs[env] = {};
    for (const [name, { first, count }] of Object.entries(SPLITS)) {
      const rows = await plan(env, first, count);
      data.planner.width[env] = rows[0].width;
      data.envs[env][name] = rows.map((r) => [r.seed, r.best, r.bound, r.actions]);
      const mean = rows.reduce((a, r) => a + r.best, 0) / rows.length;
      const beam = rows.reduce((a, r) => a + r.beam, 0) / rows.length;
      const proven = rows.filter((r) => r.best >= r.bound - 1e-9).length;
      say(`${env} ${name}: mean best-known ${mean.toFixed(2)} (beam alone ${beam.toFixed(2)}), proven optimal ${proven}/${rows.length}`);
    }
  }),
);
data.seconds = Math.round((Date.now() - started) / 1000);
mkdirSync(`${root}wasm/data`, { recursive: true });
// one seed per line: small diffs when a few plans improve
const lines = JSON.stringify(data, null, 1).replace(
  /\[\n\s+(\d+),\n\s+([\d.]+),\n\s+([\d.]+),\n\s+("[0-9a-z]*")\n\s+\]/g,
  '[$1, $2, $3, $4]',
);
writeFileSync(`${root}wasm/data/best-known.json`, `${lines}\n`);
say(`wasm/data/best-known.json written in ${data.seconds} s`);
