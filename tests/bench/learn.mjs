// learn.mjs — `npm run bench:learn`: how fast PPO trains (env steps per second, the rollout's
// forward passes and the updates included, default settings), in Node and in the Lab's Web
// Worker in Chromium, for each farm, and the Worker's rate against Node's.
//
// Node trains through valley-farm/learn as a user's script would; the browser runs the
// built site (tests/browser/page.js builds and serves it) and reads the Lab's own status
// line, so the figure includes everything the Lab does (messages, progress, the page).
// Each figure skips the first WARM steps (TensorFlow.js compiles its kernels then); Node's is
// the median of three windows.
// `--json` prints one JSON object per line. A benchmark, not a test: nothing passes or fails.
import { createLearner, tfBackend } from '../../wasm/learn/index.js';
import { envIds } from '../../wasm/index.js';
import { ensureBuilt, launch, serve } from '../browser/page.js';

const json = process.argv.includes('--json');
const quick = process.argv.includes('--quick');
const WARM = 16_384;
const STEPS = quick ? 40_960 : 200_704; // after WARM; multiples of one rollout (64 x 64)
const TARGET = 0.7; // the learning issue's goal for the Worker, as a share of Node's rate
const NODE_TARGET = 30_000; // its goal for Node on one core, env steps/s
const log = (...a) => (json ? console.error(...a) : console.log(...a));

/** Node's rate: the median of three windows of STEPS (one window swings by several % here). */
async function inNode(env) {
  const learner = await createLearner({ env, algo: 'ppo', seed: 1 });
  await learner.trainFor(WARM);
  const rates = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    await learner.trainFor(STEPS);
    rates.push(STEPS / ((performance.now() - t0) / 1000));
  }
  learner.dispose();
  return { stepsPerSec: rates.sort((a, b) => a - b)[1], backend: await tfBackend() };
}

/** Steps/s of the Lab's Worker between WARM and WARM + STEPS, read from its status line. */
async function inBrowser(browser, url, env) {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${url}#/lab?env=${env}&algo=ppo&seed=1&steps=${WARM + STEPS + 8192}`);
  await page.waitForSelector('main.lab');
  await page.click('button:has-text("Start")');
  const stepsShown = () =>
    page.$eval('[data-testid="lab-status"]', (el) => {
      const m = /([\d,]+) \/ [\d,]+ steps, [\d,]+ steps\/s(?: \(TensorFlow\.js (\w+) backend\))?/.exec(el.textContent);
      return m ? { steps: Number(m[1].replaceAll(',', '')), backend: m[2] ?? null } : { steps: 0, backend: null };
    });
  const until = async (n) => {
    for (;;) {
      const s = await stepsShown();
      if (s.steps >= n) return { ...s, at: performance.now() };
      if (errors.length) throw new Error(`the Lab failed: ${errors[0]}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const a = await until(WARM);
  const b = await until(WARM + STEPS);
  await page.close();
  return { stepsPerSec: (b.steps - a.steps) / ((b.at - a.at) / 1000), backend: b.backend };
}

async function main() {
  log('Building the site (when its sources changed)...');
  await ensureBuilt();
  const server = await serve();
  const browser = await launch();
  const rows = [];
  try {
    for (const env of envIds) {
      const node = await inNode(env);
      const worker = await inBrowser(browser, server.url, env);
      rows.push({ env, node, worker, ratio: worker.stepsPerSec / node.stepsPerSec });
    }
  } finally {
    await browser.close();
    await server.close();
  }
  if (json) {
    for (const r of rows)
      console.log(
        JSON.stringify({
          ...r,
          target: TARGET,
          met: r.ratio >= TARGET,
          nodeTarget: NODE_TARGET,
          nodeMet: r.node.stepsPerSec >= NODE_TARGET,
        }),
      );
    return;
  }
  console.log(`\nPPO, default settings, ${STEPS.toLocaleString('en')} env steps after ${WARM.toLocaleString('en')} of warm-up\n`);
  console.log('| env | Node steps/s | Lab Worker steps/s (Chromium) | Worker / Node |');
  console.log('|---|---:|---:|---:|');
  for (const r of rows)
    console.log(
      `| ${r.env} | ${Math.round(r.node.stepsPerSec).toLocaleString('en')} (${r.node.backend}) | ${Math.round(r.worker.stepsPerSec).toLocaleString('en')} (${r.worker.backend}) | ${r.ratio.toFixed(2)} |`,
    );
  console.log(
    `\nTargets (the learning issue): Node at least ${NODE_TARGET.toLocaleString('en')} steps/s on one core; the Worker at least ${TARGET} x Node.`,
  );
  const mark = (ok) => (ok ? 'met    ' : 'NOT MET');
  for (const r of rows) {
    console.log(
      `  ${mark(r.node.stepsPerSec >= NODE_TARGET)}  ${r.env}, Node: ${Math.round(r.node.stepsPerSec).toLocaleString('en')} steps/s`,
    );
    console.log(`  ${mark(r.ratio >= TARGET)}  ${r.env}, Worker / Node: ${r.ratio.toFixed(2)}`);
  }
}

await main();
