// learn.mjs — `npm run bench:learn`: how fast PPO learns, default settings (but for cloning
// the planner first, whose time is not steps), on each farm:
//  1. env steps/s of the learner core against TensorFlow.js (the `tfjs` setting, the former
//     path), one worker each, in Node, measured in alternating windows of one run (as
//     `npm run bench` alternates), so that a busy machine slows both alike;
//  2. the core's scaling with workers in Node: 1, 2, … up to the cores of this machine, the
//     counts' windows alternating;
//  3. the Lab's Worker(s) in Chromium against Node, for 1 worker and for all cores (so also
//     the Lab's own scaling, its Workers against its one): the built site, new runs of 1 and
//     of all Workers in turn (1 k k 1 1 k), each rate read from the Lab's own status line
//     (messages, progress and the page included) over 8 s after a warm-up, beside a Node
//     window of about as many steps just before it; medians of the three runs of each, and
//     the scaling the median of the three pairs' ratios;
//  4. from the committed reference runs (docs/runs), the wall time at which each farm's
//     validation mean first passed the heuristic's, and whether the test split confirms it
//     (the run's final policy against the heuristic on the same test seeds, paired).
// Rates count the rollouts' forward passes and the updates; each skips a warm-up. Run it on
// an idle machine: other work on the cores lowers the figures of part 2 and 3 most.
// `--quick` for short windows, `--json` for one JSON object per line, `--lab` for part 3 alone, `--env ID` for one farm. A benchmark, not a
// test: nothing passes or fails.
import { availableParallelism } from 'node:os';
import { readFileSync } from 'node:fs';
import { createLearner } from '../../wasm/learn/index.js';
import { envIds } from '../../wasm/index.js';
import { referenceRuns } from '../../scripts/baselines.mjs';
import { heuristicValidation, pairedOverHeuristic, timeToHeuristic } from '../../web/src/model/timeToHeuristic.js';
import { ensureBuilt, launch, serve } from '../browser/page.js';

const json = process.argv.includes('--json');
const quick = process.argv.includes('--quick');
const labOnly = process.argv.includes('--lab'); // part 3 alone
const envFlag = process.argv.indexOf('--env');
const farms = envFlag > 0 ? [process.argv[envFlag + 1]] : envIds; // `--env ID`: one farm
if (!farms.every((id) => envIds.includes(id))) {
  console.error(`bench:learn: --env must be one of ${envIds.join(', ')}, got ${farms[0]}`);
  process.exit(2);
}
const ROLLOUT = 64 * 64; // the default rollout
const WARM = 4 * ROLLOUT;
const WINDOW = (quick ? 6 : 24) * ROLLOUT;
const ROUNDS = 3;
const LAB_WINDOW = (quick ? 64 : 192) * ROLLOUT; // Node's window beside each Lab run: about 5 s at 2 workers
const LAB_SECONDS = quick ? 3 : 8; // a Lab run's window
const SCALE_WINDOW = (quick ? 16 : 64) * ROLLOUT;
const TARGETS = { coreOverTf: 4, scaling: 0.85, workerOverNode: 0.8, minutesToHeuristic: 5 };
const log = (...a) => (json ? console.error(...a) : console.log(...a));
const out = [];
const report = (row) => {
  out.push(row);
  if (json) console.log(JSON.stringify(row));
};
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x) => Math.round(x).toLocaleString('en');
// a value beside its target, rounded down: 1.698 shows as 1.69, never as a 1.70 that missed 1.7
const down = (x) => (Math.floor(x * 100) / 100).toFixed(2);

// the default settings, but for cloning the planner first: the rate is of PPO's own steps
async function warmLearner(env, settings) {
  const learner = await createLearner({ env, algo: 'ppo', seed: 1, imitate: 0, ...settings });
  await learner.trainFor(WARM);
  return learner;
}

async function windowRate(learner, window = WINDOW) {
  const t0 = performance.now();
  await learner.trainFor(window);
  return window / ((performance.now() - t0) / 1000);
}

/** Part 1: the core against TensorFlow.js, one worker each, windows alternating. */
async function coreAgainstTf(env) {
  const core = await warmLearner(env, { workers: 1 });
  const tf = await warmLearner(env, { workers: 1, tfjs: 1 });
  const rates = { core: [], tf: [] };
  for (let r = 0; r < ROUNDS; r++) {
    rates.core.push(await windowRate(core));
    rates.tf.push(await windowRate(tf));
  }
  core.dispose();
  tf.dispose();
  const row = { part: 'core-vs-tfjs', env, core: median(rates.core), tfjs: median(rates.tf) };
  row.ratio = row.core / row.tfjs;
  report(row);
  return row;
}

/**
 * Part 2: the core with 1 … k workers in Node: one learner for each count, their windows
 * alternating (medians of ROUNDS), each window long enough (SCALE_WINDOW) that a busy
 * moment of the machine does not decide it.
 */
async function scaling(env, counts) {
  const learners = [];
  for (const workers of counts) learners.push(await warmLearner(env, { workers }));
  const rates = counts.map(() => []);
  for (let r = 0; r < ROUNDS; r++) for (let i = 0; i < counts.length; i++) rates[i].push(await windowRate(learners[i], SCALE_WINDOW));
  for (const l of learners) l.dispose();
  const rows = counts.map((workers, i) => ({ workers, rate: median(rates[i]) }));
  const one = rows[0].rate;
  for (const r of rows)
    report({ part: 'scaling', env, workers: r.workers, stepsPerSec: r.rate, speedup: r.rate / one, efficiency: r.rate / one / r.workers });
  return rows;
}

/** Part 3: steps/s of a new run in the Lab over LAB_SECONDS after WARM steps, read from its status line. */
async function inLab(browser, url, env, workers) {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${url}#/lab?env=${env}&algo=ppo&seed=1&steps=1000000000&workers=${workers}&imitate=0`);
  await page.waitForSelector('main.lab');
  await page.click('button:has-text("Start")');
  const number = (text) => Number(text.replaceAll(',', ''));
  const shown = async () => {
    const m = /([\d,]+) \/ [\d,]+ steps, ([\d,]+) steps\/s/.exec(await page.$eval('[data-testid="lab-status"]', (el) => el.textContent));
    if (errors.length) throw new Error(`the Lab failed: ${errors[0]}`);
    return m ? { steps: number(m[1]), rate: number(m[2]) } : { steps: 0 };
  };
  // The status gives the learner's steps and their mean rate since it began, both from the
  // moment it reported them, so steps / rate is the learner's own clock then. Read after the
  // warm-up and LAB_SECONDS after it, not in between: polling the page takes a share of the
  // cores the Workers use (every 20 ms cost them 20 %).
  let a = await shown();
  for (; a.steps < WARM; a = await shown()) await new Promise((r) => setTimeout(r, 250));
  await new Promise((r) => setTimeout(r, LAB_SECONDS * 1000));
  const b = await shown();
  await page.close();
  return (b.steps - a.steps) / (b.steps / b.rate - a.steps / a.rate);
}

/**
 * Part 3 for one farm: runs of 1 and of all the cores' Workers in turn (1 k k 1 1 k, so a
 * slow patch of the machine lands on both), each a new Lab run beside a Node window of the
 * same workers just before it. The Lab's scaling is the median of the three pairs' ratios.
 */
async function labRuns(browser, url, env, cores) {
  const order = cores > 1 ? [1, cores, cores, 1, 1, cores] : [1, 1, 1];
  const runs = [];
  for (const workers of order) {
    log(`${env}: Node, then the Lab with ${workers} worker(s) in Chromium…`);
    const learner = await warmLearner(env, { workers });
    const node = await windowRate(learner, LAB_WINDOW);
    learner.dispose();
    runs.push({ workers, node, lab: await inLab(browser, url, env, workers) });
  }
  const rows = [...new Set(order)].map((workers) => {
    const mine = runs.filter((r) => r.workers === workers);
    const row = { part: 'lab-vs-node', env, workers, lab: median(mine.map((r) => r.lab)), node: median(mine.map((r) => r.node)) };
    row.ratio = row.lab / row.node;
    report(row);
    return row;
  });
  if (cores === 1) return { rows, scaling: null };
  const pairs = [0, 2, 4].map((i) => {
    const [x, y] = [runs[i], runs[i + 1]];
    return x.workers === 1 ? y.lab / x.lab : x.lab / y.lab;
  });
  const scaling = { part: 'lab-scaling', env, workers: cores, speedup: median(pairs), pairs };
  report(scaling);
  return { rows, scaling };
}

/** Part 4: the first validation point of each farm's default-settings run at or above the heuristic's validation mean. */
function timeToHeuristics() {
  const baselines = JSON.parse(readFileSync(new URL('../../wasm/data/baselines.json', import.meta.url), 'utf8'));
  const rows = [];
  const defaults = referenceRuns().filter((run) => run.algo === 'ppo' && !Object.keys(run.settings ?? {}).length);
  for (const run of defaults) {
    const heuristic = heuristicValidation(baselines, run.env);
    const first = timeToHeuristic(run, heuristic);
    const row = {
      part: 'time-to-heuristic',
      env: run.env,
      heuristicValidation: heuristic,
      seconds: first?.seconds ?? null,
      steps: first?.steps ?? null,
      runSeconds: run.seconds,
      runSteps: run.steps,
      test: run.test.mean,
      paired: pairedOverHeuristic(baselines, run),
      // the Lab's default run is the farm's shortest of default settings (a longer one shows how far PPO gets with time)
      labDefault: run.steps === Math.min(...defaults.filter((r) => r.env === run.env).map((r) => r.steps)),
      command: run.command,
    };
    report(row);
    rows.push(row);
  }
  return rows;
}

async function main() {
  const cores = availableParallelism();
  const counts = [...new Set([1, 2, cores].filter((k) => k <= cores))];
  const rows = { tf: [], scale: [], lab: [], labScaling: [] };
  for (const env of labOnly ? [] : farms) {
    log(`${env}: the learner core against TensorFlow.js, one worker each…`);
    rows.tf.push(await coreAgainstTf(env));
    log(`${env}: the core with ${counts.join(', ')} workers…`);
    rows.scale.push({ env, rows: await scaling(env, counts) });
  }
  log('Building the site (when its sources changed)…');
  await ensureBuilt();
  const server = await serve();
  const browser = await launch();
  try {
    for (const env of farms) {
      const { rows: lab, scaling } = await labRuns(browser, server.url, env, cores);
      rows.lab.push(...lab);
      if (scaling) rows.labScaling.push(scaling);
    }
  } finally {
    await browser.close();
    await server.close();
  }
  const heuristic = timeToHeuristics();
  if (json) return;

  const mark = (ok) => (ok ? 'met    ' : 'NOT MET');
  console.log(
    `\nPPO, default network, windows of ${WINDOW.toLocaleString('en')} env steps after ${WARM.toLocaleString('en')} of warm-up (medians of ${ROUNDS})\n`,
  );
  console.log('| env | learner core, 1 worker | TensorFlow.js, 1 worker | core / TF.js |');
  console.log('|---|---:|---:|---:|');
  for (const r of rows.tf) console.log(`| ${r.env} | ${fmt(r.core)} | ${fmt(r.tfjs)} | ${r.ratio.toFixed(2)} |`);
  console.log('\n| env | workers | steps/s (Node) | × one worker | per worker |');
  console.log('|---|---:|---:|---:|---:|');
  for (const s of rows.scale)
    for (const r of s.rows)
      console.log(
        `| ${s.env} | ${r.workers} | ${fmt(r.rate)} | ${(r.rate / s.rows[0].rate).toFixed(2)} | ${(r.rate / s.rows[0].rate / r.workers).toFixed(2)} |`,
      );
  console.log('\n| env | workers | the Lab in Chromium | Node | Lab / Node |');
  console.log('|---|---:|---:|---:|---:|');
  for (const r of rows.lab) console.log(`| ${r.env} | ${r.workers} | ${fmt(r.lab)} | ${fmt(r.node)} | ${r.ratio.toFixed(2)} |`);
  console.log('\nFrom the committed reference runs (docs/runs, default settings):\n');
  console.log('| env | heuristic (validation) | validation first above it | run | test mean | run − heuristic on the test seeds, paired |');
  console.log('|---|---:|---|---|---:|---|');
  const interval = (p) => `${p.mean >= 0 ? '+' : ''}${p.mean.toFixed(2)} (${p.ci95[0].toFixed(2)} – ${p.ci95[1].toFixed(2)})`;
  for (const r of heuristic)
    console.log(
      `| ${r.env} | ${r.heuristicValidation.toFixed(2)} | ${r.seconds === null ? 'never' : `${(r.seconds / 60).toFixed(1)} min (${(r.steps / 1e6).toFixed(1)} M steps)`} | ${(r.runSteps / 1e6).toFixed(0)} M steps, ${(r.runSeconds / 60).toFixed(1)} min | ${r.test.toFixed(2)} | ${interval(r.paired)} |`,
    );
  console.log(`\nTargets (the learning issue), on this ${cores}-core machine:`);
  for (const r of rows.tf)
    console.log(`  ${mark(r.ratio >= TARGETS.coreOverTf)}  ${r.env}: core / TensorFlow.js ${down(r.ratio)} (target ${TARGETS.coreOverTf})`);
  for (const s of rows.scale) {
    const last = s.rows[s.rows.length - 1];
    const eff = last.rate / s.rows[0].rate / last.workers;
    console.log(
      `  ${mark(eff >= TARGETS.scaling)}  ${s.env}: ${last.workers} workers give ${down(eff * last.workers)} × one (target ${(TARGETS.scaling * last.workers).toFixed(2)})`,
    );
  }
  // the same target in the Lab: its k Workers against its one, from part 3's alternating runs
  for (const { env, speedup, pairs } of rows.labScaling)
    console.log(
      `  ${mark(speedup >= TARGETS.scaling * cores)}  ${env}: the Lab's ${cores} Workers give ${down(speedup)} × its one (median of ${pairs.map(down).join(', ')}; target ${(TARGETS.scaling * cores).toFixed(2)})`,
    );
  for (const r of rows.lab)
    console.log(
      `  ${mark(r.ratio >= TARGETS.workerOverNode)}  ${r.env}, ${r.workers} worker(s): Lab / Node ${down(r.ratio)} (target ${TARGETS.workerOverNode})`,
    );
  for (const r of heuristic.filter((r) => r.labDefault))
    console.log(
      `  ${mark(r.seconds !== null && r.seconds <= TARGETS.minutesToHeuristic * 60 && r.paired.ci95[0] > 0)}  ${r.env}: validation above the heuristic after ${r.seconds === null ? 'never' : `${(r.seconds / 60).toFixed(1)} min`}, and on the test seeds the run − heuristic ${interval(r.paired)} (target: within ${TARGETS.minutesToHeuristic} min, the test's paired interval above 0)`,
    );
}

await main();
