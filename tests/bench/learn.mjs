// learn.mjs — `npm run bench:learn`: how fast the learners learn, default settings (but for
// PPO's cloning of the planner first, whose time is not steps), on each farm:
//  1. PPO against another build of the package (`--against REV`, a commit of this repository,
//     by default the one before the learner core knew no loss: built once into a folder of its
//     own), one thread each, in Node, measured in alternating windows of one process (as
//     `npm run bench` alternates), in env steps per CPU-second of the process (only the window's
//     learner is working then), so that other work on the machine does not count;
//  1b. PPO with a memory it learns (a GRU, `recurrent`) against the feed-forward default, one
//     thread each, alternating the same way (the recurrent-policy issue: at least half the speed);
//  2. PPO's scaling with threads in Node: 1, 2, … up to the cores of this machine, the counts'
//     windows alternating; and REINFORCE's and DQN's env steps/s on 1 thread and on all;
//  3. the Lab's threads (Web Workers) in Chromium against Node, for 1 thread and for all cores
//     (so also the Lab's own scaling): the built site, new runs of 1 and of all threads in turn
//     (1 k k 1 1 k), each rate read from the Lab's own status line (messages, progress and the
//     page included) over its first 8 s after a warm-up and over the 8 s after those (settled:
//     a new page's V8 compiles the learner's code on background threads in its first seconds,
//     on the idle core beside 1 Worker but on the Workers' own cores beside k), beside a Node
//     window of about as many steps just before it, after as long a warm-up; medians of the
//     three runs of each, and the scaling the median of the three pairs' ratios; with, on
//     Linux, the cores the Lab's Workers and the rest of Chromium used (chromiumCpu.mjs);
//     and, on all cores, the Lab's "Your learner" (the unedited PPO template, in the code
//     sandbox) against the built-in PPO in the same browser, new runs in turn (b y y b b y):
//     the median of the three pairs' ratios;
//  4. from the committed reference runs (docs/runs), the wall time at which each farm's
//     validation mean first passed the heuristic's, and whether the test split confirms it
//     (the run's final policy against the heuristic on the same test seeds, paired).
// Rates count the rollouts' forward passes and the updates; each skips a warm-up. Run it on
// an idle machine: other work on the cores lowers the figures of part 2 and 3 most. Before and
// after each farm's parts 2 and 3 it measures every core's native speed at one moment
// (coreBalance.mjs) and prints the bound that puts on any run's scaling, so a slow or busy core
// shows as such and not as slow code.
// `--quick` for short windows, `--json` for one JSON object per line, `--lab` for part 3 alone,
// `--before` for part 1 alone, `--recurrent` for part 1b alone,
// `--env ID` for one farm, `--against REV` for part 1's other build. A benchmark, not a test:
// nothing passes or fails.
import { availableParallelism, tmpdir } from 'node:os';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createLearner } from '../../wasm/learn/index.js';
import { envIds } from '../../wasm/index.js';
import { referenceRuns } from '../../scripts/baselines.mjs';
import { heuristicValidation, pairedOverHeuristic, timeToHeuristic } from '../../web/src/model/timeToHeuristic.js';
import { ensureBuilt, launch, serve } from '../browser/page.js';
import { coreBalance, describeBalance, judgeScaling } from './coreBalance.mjs';
import { chromiumCpu, coresUsed } from './chromiumCpu.mjs';

const json = process.argv.includes('--json');
const quick = process.argv.includes('--quick');
const labOnly = process.argv.includes('--lab'); // part 3 alone
const beforeOnly = process.argv.includes('--before'); // part 1 alone
const recurrentOnly = process.argv.includes('--recurrent'); // part 1b alone
// part 1's other build: by default the last commit whose learner core computed PPO's loss in C
const againstFlag = process.argv.indexOf('--against');
const AGAINST = againstFlag > 0 ? process.argv[againstFlag + 1] : '624fbe8';
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
const PAIRS = quick ? 3 : 9; // part 1's A B B A pairs of windows
const LAB_WINDOW = (quick ? 64 : 192) * ROLLOUT; // Node's window beside each Lab run: about 5 s at 2 workers
const LAB_SECONDS = quick ? 3 : 8; // a Lab run's window
const SCALE_WINDOW = (quick ? 16 : 64) * ROLLOUT;
// part 1b's recurrent layers: GRUs of half and all the width of the default hidden layers (the
// recurrent state's product has only a few sequences a shard, so its cost grows faster than
// its width), and the LSTM of half (the `lstm` setting: 4 gates where a GRU has 3). The
// recurrent-policy issue's speed target is the recurrent learner's as its runs train it
// (docs/benchmark.md: a GRU of 32 units); the GRU of 64 and the LSTM are measured beside it,
// with no target.
const RECURRENT = [
  { units: 32, lstm: 0, target: true },
  { units: 64, lstm: 0, target: false },
  { units: 32, lstm: 1, target: false },
];
const cellName = (lstm) => (lstm ? 'LSTM' : 'GRU');
const TARGETS = {
  overBefore: 0.95,
  recurrentOverFeedForward: 0.5,
  scaling: 0.85,
  workerOverNode: 0.8,
  codeOverBuiltIn: 0.8,
  minutesToHeuristic: 5,
};
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
async function warmLearner(env, settings, create = createLearner, algo = 'ppo') {
  const learner = await create({ env, algo, seed: 1, ...(algo === 'ppo' && { imitate: 0 }), ...settings });
  await learner.trainFor(WARM);
  return learner;
}

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * valley-farm/learn as commit `rev` built it: the commit's files in a folder of their own
 * (under the system's temporary folder, kept between runs), its WebAssembly built there.
 */
async function learnAt(rev) {
  const sha = execFileSync('git', ['-C', root, 'rev-parse', '--short=12', rev], { encoding: 'utf8' }).trim();
  const dir = join(tmpdir(), `valley-farm-at-${sha}`);
  if (!existsSync(join(dir, 'wasm/learn/learner.wasm'))) {
    log(`Building ${rev} (${sha}) in ${dir}…`);
    mkdirSync(dir, { recursive: true });
    execFileSync('sh', ['-c', `git -C "${root}" archive ${sha} | tar -x -C "${dir}"`]);
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules')); // its build's tools (read only)
    execFileSync(process.execPath, [join(dir, 'wasm/build.mjs')], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const module = await import(pathToFileURL(join(dir, 'wasm/learn/index.js')).href);
  // before threads, a run's threads were its `workers` setting
  const threadsOf = (n) => (Object.hasOwn(module.algorithms.ppo.defaults, 'workers') ? { workers: n } : { threads: n });
  return { sha, create: module.createLearner, threadsOf };
}

async function windowRate(learner, window = WINDOW) {
  const t0 = performance.now();
  await learner.trainFor(window);
  return window / ((performance.now() - t0) / 1000);
}

/** Env steps per CPU-second of this process (its threads included) over a window of training. */
async function cpuRate(learner, window = WINDOW) {
  const t0 = process.cpuUsage();
  await learner.trainFor(window);
  const { user, system } = process.cpuUsage(t0);
  return window / ((user + system) / 1e6);
}

/**
 * Two learners' env steps per CPU-second, one thread each, windows alternating in A B B A
 * pairs: each pair's ratio B / A (a moment of the machine lands on both alike), their median,
 * and each side's median rate.
 */
async function paired(a, b) {
  const rates = { a: [], b: [] };
  const ratios = [];
  for (let r = 0; r < PAIRS; r++) {
    const pair = [await cpuRate(a), await cpuRate(b), await cpuRate(b), await cpuRate(a)];
    rates.a.push(pair[0], pair[3]);
    rates.b.push(pair[1], pair[2]);
    ratios.push((pair[1] + pair[2]) / (pair[0] + pair[3]));
  }
  a.dispose();
  b.dispose();
  return { a: median(rates.a), b: median(rates.b), ratio: median(ratios), pairs: ratios };
}

/** Part 1: PPO against another build's, one thread each. */
async function againstBefore(env, before) {
  const then = await warmLearner(env, before.threadsOf(1), before.create);
  const now = await warmLearner(env, { threads: 1 });
  const p = await paired(then, now);
  const row = { part: 'ppo-vs-before', env, against: before.sha, now: p.b, before: p.a, ratio: p.ratio, pairs: p.pairs };
  report(row);
  return row;
}

/**
 * Part 1b: PPO with a memory it learns (a GRU of `units`, the `recurrent` setting, or with
 * `lstm` an LSTM) against the default feed-forward PPO, one thread each: what the recurrent
 * layer, its sequences and its backward through time cost a step.
 */
async function memoryAgainstNone(env, { units, lstm, target }) {
  const none = await warmLearner(env, { threads: 1 });
  const recurrent = await warmLearner(env, { threads: 1, recurrent: units, lstm });
  const p = await paired(none, recurrent);
  const row = { part: 'ppo-recurrent', env, units, lstm, target, recurrent: p.b, feedForward: p.a, ratio: p.ratio, pairs: p.pairs };
  report(row);
  return row;
}

/**
 * Part 2: a learner with 1 … k threads in Node: one learner for each count, their windows
 * alternating (medians of ROUNDS), each window long enough (SCALE_WINDOW) that a busy
 * moment of the machine does not decide it.
 */
async function scaling(env, counts, algo = 'ppo') {
  const learners = [];
  for (const threads of counts) learners.push(await warmLearner(env, { threads }, createLearner, algo));
  const rates = counts.map(() => []);
  for (let r = 0; r < ROUNDS; r++) for (let i = 0; i < counts.length; i++) rates[i].push(await windowRate(learners[i], SCALE_WINDOW));
  for (const l of learners) l.dispose();
  const rows = counts.map((threads, i) => ({ threads, rate: median(rates[i]) }));
  const one = rows[0].rate;
  for (const r of rows)
    report({
      part: 'scaling',
      env,
      algo,
      threads: r.threads,
      stepsPerSec: r.rate,
      speedup: r.rate / one,
      efficiency: r.rate / one / r.threads,
    });
  return rows;
}

/**
 * Part 3: a new run in the Lab, read from its status line: `early`, its steps/s over the
 * LAB_SECONDS after WARM steps (its first seconds, when the new page's V8 also compiles the
 * learner's code in the background), and `settled`, over the LAB_SECONDS after those; and over
 * the settled window, the cores its Workers and the rest of Chromium used (chromiumCpu.mjs)
 * and its steps per CPU-second of the Workers (null off Linux).
 */
async function inLab(browser, url, env, workers, { code = false } = {}) {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${url}#/lab?env=${env}&algo=ppo&seed=1&steps=1000000000&threads=${workers}&imitate=0`);
  await page.waitForSelector('main.lab');
  if (code) await page.click('button:has-text("Write your own PPO")'); // the template as it opens, unedited
  await page.click('button:has-text("Start")');
  const number = (text) => Number(text.replaceAll(',', ''));
  const shown = async () => {
    const m = /([\d,]+) \/ [\d,]+ steps, ([\d,]+) steps\/s/.exec(await page.$eval('[data-testid="lab-status"]', (el) => el.textContent));
    if (errors.length) throw new Error(`the Lab failed: ${errors[0]}`);
    return m ? { steps: number(m[1]), rate: number(m[2]), at: performance.now() } : { steps: 0 };
  };
  // The status gives the learner's steps and their mean rate since it began, both from the
  // moment it reported them, so steps / rate is the learner's own clock then. Read after the
  // warm-up and every LAB_SECONDS after it, not in between: polling the page takes a share of
  // the cores the Workers use (every 20 ms cost them 20 %).
  const rate = (x, y) => (y.steps - x.steps) / (y.steps / y.rate - x.steps / x.rate);
  const wait = () => new Promise((r) => setTimeout(r, LAB_SECONDS * 1000));
  let a = await shown();
  for (; a.steps < WARM; a = await shown()) await new Promise((r) => setTimeout(r, 250));
  await wait();
  const b = await shown();
  const cpuFrom = chromiumCpu();
  await wait();
  const c = await shown();
  const cores = coresUsed(cpuFrom, chromiumCpu(), (c.at - b.at) / 1000);
  await page.close();
  const settled = rate(b, c);
  return { early: rate(a, b), settled, cores, perWorkerCpu: cores ? settled / cores.workers : null };
}

/**
 * Part 3 for one farm: runs of 1 and of all the cores' Workers in turn (1 k k 1 1 k, so a
 * slow patch of the machine lands on both), each a new Lab run beside a Node window of the
 * same workers just before it (after LAB_SECONDS of training, as the Lab's settled window).
 * The Lab's scaling is the median of the three pairs' ratios, in its first seconds and settled.
 * `between()` runs after each pair but the last: the cores are measured there too, since a
 * core of this VM can slow for a minute in the middle of the part (an idle run gave pairs of
 * 1.23, 1.61 and 0.92 with balanced cores before and after, its rerun 1.99, 1.66 and 1.51).
 */
async function labRuns(browser, url, env, cores, between = async () => {}) {
  const order = cores > 1 ? [1, cores, cores, 1, 1, cores] : [1, 1, 1];
  const runs = [];
  for (const workers of order) {
    if (runs.length === 2 || runs.length === 4) await between();
    log(`${env}: Node, then the Lab with ${workers} worker(s) in Chromium…`);
    const learner = await warmLearner(env, { threads: workers });
    await learner.trainFor(1e12, { until: performance.now() + LAB_SECONDS * 1000 });
    const node = await windowRate(learner, LAB_WINDOW);
    learner.dispose();
    const lab = await inLab(browser, url, env, workers);
    runs.push({ workers, node, ...lab });
    log(
      `  ${Math.round(lab.early)} steps/s in its first ${LAB_SECONDS} s, ${Math.round(lab.settled)} in the next${cpuText(lab)}; Node ${Math.round(node)}`,
    );
  }
  const of = (mine, key) => median(mine.map((r) => r[key]));
  const rows = [...new Set(order)].map((workers) => {
    const mine = runs.filter((r) => r.workers === workers);
    const row = { part: 'lab-vs-node', env, workers, lab: of(mine, 'settled'), labEarly: of(mine, 'early'), node: of(mine, 'node') };
    if (mine[0].cores)
      Object.assign(row, {
        workerCores: median(mine.map((r) => r.cores.workers)),
        restCores: median(mine.map((r) => r.cores.rest)),
        perWorkerCpu: of(mine, 'perWorkerCpu'),
      });
    row.ratio = row.lab / row.node;
    report(row);
    return row;
  });
  if (cores === 1) return { rows, scaling: null };
  const pairsOf = (key) =>
    [0, 2, 4].map((i) => {
      const [x, y] = [runs[i], runs[i + 1]];
      return x.workers === 1 ? y[key] / x[key] : x[key] / y[key];
    });
  const pairs = pairsOf('settled');
  const early = pairsOf('early');
  const scaling = { part: 'lab-scaling', env, workers: cores, speedup: median(pairs), pairs, early: median(early), earlyPairs: early };
  report(scaling);
  return { rows, scaling };
}

/** A Lab run's CPU over its settled window, for the log. */
function cpuText({ cores, perWorkerCpu }) {
  if (!cores) return '';
  return ` (its Workers used ${cores.workers.toFixed(2)} cores, ${fmt(perWorkerCpu)} steps per CPU-second of theirs; the rest of Chromium ${cores.rest.toFixed(2)} cores)`;
}

/** Every core's native speed now (coreBalance.mjs), logged and kept for the summary: `when` says around what. */
async function balance(rows, env, when) {
  const b = await coreBalance();
  // the loop's own farm is `loop`: `env` names the part it was measured around
  const row = { part: 'core-balance', ...b, loop: b.env, env, when };
  log(`  ${describeBalance(b)}`);
  report(row);
  rows.balance.push(row);
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

/** Part 3, "Your learner": the unedited PPO template against the built-in PPO, on all cores, runs in turn. */
async function codeRuns(browser, url, env, cores) {
  const order = [false, true, true, false, false, true];
  const runs = [];
  for (const code of order) {
    log(`${env}: the Lab's ${code ? 'PPO template in the sandbox' : 'built-in PPO'} on ${cores} thread(s)…`);
    runs.push({ code, rate: (await inLab(browser, url, env, cores, { code })).settled });
  }
  const pairs = [0, 2, 4].map((i) => {
    const [x, y] = [runs[i], runs[i + 1]];
    return x.code ? x.rate / y.rate : y.rate / x.rate;
  });
  const row = {
    part: 'lab-code',
    env,
    workers: cores,
    code: median(runs.filter((r) => r.code).map((r) => r.rate)),
    builtIn: median(runs.filter((r) => !r.code).map((r) => r.rate)),
    ratio: median(pairs),
    pairs,
  };
  report(row);
  return row;
}

/** Part 3, in Chromium on the built site: the Lab's threads against Node, and a visitor's learner against the built-in. */
async function labParts(farms, cores, rows) {
  log('Building the site (when its sources changed)…');
  await ensureBuilt();
  const server = await serve();
  const browser = await launch();
  try {
    for (const env of farms) {
      await balance(rows, env, 'before the Lab');
      const { rows: lab, scaling } = await labRuns(browser, server.url, env, cores, () => balance(rows, env, 'between pairs in the Lab'));
      await balance(rows, env, 'after the Lab');
      rows.lab.push(...lab);
      if (scaling) rows.labScaling.push(scaling);
      rows.labCode.push(await codeRuns(browser, server.url, env, cores));
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

async function main() {
  const cores = availableParallelism();
  const counts = [...new Set([1, 2, cores].filter((k) => k <= cores))];
  const rows = { before: [], recurrent: [], scale: [], others: [], lab: [], labScaling: [], labCode: [], balance: [] };
  const before = labOnly || recurrentOnly ? null : await learnAt(AGAINST);
  for (const env of labOnly ? [] : farms) {
    if (!recurrentOnly) {
      log(`${env}: PPO against ${AGAINST}'s, one thread each…`);
      rows.before.push(await againstBefore(env, before));
      if (beforeOnly) continue;
    }
    for (const layer of RECURRENT) {
      log(
        `${env}: PPO with a recurrent layer (${cellName(layer.lstm)}) of ${layer.units} units against the feed-forward default, one thread each…`,
      );
      rows.recurrent.push(await memoryAgainstNone(env, layer));
    }
    if (recurrentOnly) continue;
    log(`${env}: PPO on ${counts.join(', ')} threads…`);
    await balance(rows, env, 'before the threads in Node');
    rows.scale.push({ env, rows: await scaling(env, counts) });
    for (const algo of ['reinforce', 'dqn']) {
      log(`${env}: ${algo} on 1 and ${cores} threads…`);
      rows.others.push({ env, algo, rows: await scaling(env, [...new Set([1, cores])], algo) });
    }
    await balance(rows, env, 'after the threads in Node');
  }
  if (!beforeOnly && !recurrentOnly) await labParts(farms, cores, rows);
  const heuristic = timeToHeuristics();
  if (json) return;

  const mark = (ok) => (ok ? 'met    ' : 'NOT MET');
  // what the cores allowed around a part (coreBalance.mjs): the bounds measured before, after and (the Lab) between its pairs
  const bounds = (env, part) => rows.balance.filter((r) => r.env === env && r.when.endsWith(part) && r.bound).map((r) => r.bound);
  const allowed = (env, part) => {
    const b = bounds(env, part);
    return b.length ? `; the cores allowed at most ${down(Math.min(...b))}` : '';
  };
  const scalingMark = (speedup, target, env, part) => judgeScaling(speedup, target, bounds(env, part)).padEnd(7);
  console.log(
    `\nPPO, default network, windows of ${WINDOW.toLocaleString('en')} env steps after ${WARM.toLocaleString('en')} of warm-up (medians of ${ROUNDS}; against ${AGAINST}: env steps per CPU-second, the median of ${PAIRS} A B B A pairs' ratios)\n`,
  );
  console.log(`| env | this build, 1 thread | ${AGAINST}'s, 1 thread | this / ${AGAINST} |`);
  console.log('|---|---:|---:|---:|');
  for (const r of rows.before) console.log(`| ${r.env} | ${fmt(r.now)} | ${fmt(r.before)} | ${r.ratio.toFixed(2)} |`);
  if (rows.recurrent.length) {
    console.log('\n| env | recurrent layer | PPO feed-forward (default), 1 thread | PPO recurrent, 1 thread | recurrent / feed-forward |');
    console.log('|---|---:|---:|---:|---:|');
    for (const r of rows.recurrent)
      console.log(`| ${r.env} | ${cellName(r.lstm)} of ${r.units} | ${fmt(r.feedForward)} | ${fmt(r.recurrent)} | ${r.ratio.toFixed(2)} |`);
  }
  console.log('\n| env | learner | threads | steps/s (Node) | × one thread | per thread |');
  console.log('|---|---|---:|---:|---:|---:|');
  for (const s of [...rows.scale.map((x) => ({ ...x, algo: 'ppo' })), ...rows.others])
    for (const r of s.rows)
      console.log(
        `| ${s.env} | ${s.algo} | ${r.threads} | ${fmt(r.rate)} | ${(r.rate / s.rows[0].rate).toFixed(2)} | ${(r.rate / s.rows[0].rate / r.threads).toFixed(2)} |`,
      );
  console.log(
    `\n| env | threads | the Lab in Chromium: first ${LAB_SECONDS} s | next ${LAB_SECONDS} s | Node | Lab / Node | the Lab's Workers: cores, steps per CPU-second | the rest of Chromium: cores |`,
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows.lab)
    console.log(
      `| ${r.env} | ${r.workers} | ${fmt(r.labEarly)} | ${fmt(r.lab)} | ${fmt(r.node)} | ${r.ratio.toFixed(2)} | ${r.workerCores === undefined ? '–' : `${r.workerCores.toFixed(2)}, ${fmt(r.perWorkerCpu)}`} | ${r.restCores === undefined ? '–' : r.restCores.toFixed(2)} |`,
    );
  console.log(`\n| env | threads | your learner (the PPO template) | the built-in PPO | template / built-in (median of pairs) |`);
  console.log('|---|---:|---:|---:|---:|');
  for (const r of rows.labCode) console.log(`| ${r.env} | ${r.workers} | ${fmt(r.code)} | ${fmt(r.builtIn)} | ${r.ratio.toFixed(2)} |`);
  console.log('\nFrom the committed reference runs (docs/runs, default settings):\n');
  console.log('| env | heuristic (validation) | validation first above it | run | test mean | run − heuristic on the test seeds, paired |');
  console.log('|---|---:|---|---|---:|---|');
  const interval = (p) => `${p.mean >= 0 ? '+' : ''}${p.mean.toFixed(2)} (${p.ci95[0].toFixed(2)} – ${p.ci95[1].toFixed(2)})`;
  for (const r of heuristic)
    console.log(
      `| ${r.env} | ${r.heuristicValidation.toFixed(2)} | ${r.seconds === null ? 'never' : `${(r.seconds / 60).toFixed(1)} min (${(r.steps / 1e6).toFixed(1)} M steps)`} | ${(r.runSteps / 1e6).toFixed(0)} M steps, ${(r.runSeconds / 60).toFixed(1)} min | ${r.test.toFixed(2)} | ${interval(r.paired)} |`,
    );
  console.log(
    '\nThe cores around the scaling parts (the native loop on every core at once; a 2-thread run waits for its slower thread):\n',
  );
  for (const r of rows.balance) console.log(`  ${r.env}, ${r.when}: ${describeBalance(r)}`);
  console.log(
    `\nTargets (the learning issue), on this ${cores}-core machine (n/a: a speed-up below its target while the cores around it allowed less than the target, so the cores may be what missed it):`,
  );
  for (const r of rows.before)
    console.log(
      `  ${mark(r.ratio >= TARGETS.overBefore)}  ${r.env}: PPO, this build / ${AGAINST}'s, 1 thread: ${down(r.ratio)} (target ${TARGETS.overBefore})`,
    );
  for (const r of rows.recurrent.filter((x) => x.target))
    console.log(
      `  ${mark(r.ratio >= TARGETS.recurrentOverFeedForward)}  ${r.env}: PPO with memory (${cellName(r.lstm)} ${r.units}) / without, 1 thread: ${down(r.ratio)} (median of ${r.pairs.length} pairs; target ${TARGETS.recurrentOverFeedForward})`,
    );
  for (const s of rows.scale) {
    const last = s.rows[s.rows.length - 1];
    const eff = last.rate / s.rows[0].rate / last.threads;
    console.log(
      `  ${scalingMark(eff * last.threads, TARGETS.scaling * last.threads, s.env, 'in Node')}  ${s.env}: PPO on ${last.threads} threads gives ${down(eff * last.threads)} × one (target ${(TARGETS.scaling * last.threads).toFixed(2)}${allowed(s.env, 'in Node')})`,
    );
  }
  // the same target in the Lab: its k threads against its one, from part 3's alternating runs
  for (const { env, speedup, pairs, early } of rows.labScaling)
    console.log(
      `  ${scalingMark(speedup, TARGETS.scaling * cores, env, 'the Lab')}  ${env}: the Lab's ${cores} threads give ${down(speedup)} × its one after its first ${LAB_SECONDS} s (median of ${pairs.map(down).join(', ')}; ${down(early)} in them; target ${(TARGETS.scaling * cores).toFixed(2)}${allowed(env, 'the Lab')})`,
    );
  for (const r of rows.lab)
    console.log(
      `  ${mark(r.ratio >= TARGETS.workerOverNode)}  ${r.env}, ${r.workers} thread(s): Lab / Node ${down(r.ratio)} (target ${TARGETS.workerOverNode})`,
    );
  for (const r of rows.labCode)
    console.log(
      `  ${mark(r.ratio >= TARGETS.codeOverBuiltIn)}  ${r.env}, ${r.workers} thread(s): your learner (the PPO template) / the built-in PPO ${down(r.ratio)} (median of ${r.pairs.map(down).join(', ')}; target ${TARGETS.codeOverBuiltIn})`,
    );
  for (const r of heuristic.filter((r) => r.labDefault))
    console.log(
      `  ${mark(r.seconds !== null && r.seconds <= TARGETS.minutesToHeuristic * 60 && r.paired.ci95[0] > 0)}  ${r.env}: validation above the heuristic after ${r.seconds === null ? 'never' : `${(r.seconds / 60).toFixed(1)} min`}, and on the test seeds the run − heuristic ${interval(r.paired)} (target: within ${TARGETS.minutesToHeuristic} min, the test's paired interval above 0)`,
    );
}

await main();
