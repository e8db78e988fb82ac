// The Lab obeys and keeps, in Chromium on the built site: Pause and Stop take effect within a
// second during PPO's cloning of the planner (counted by the page's worker list and by the CPU
// time of the browser's renderer processes, where the page and its Workers run); Evaluate
// waits for a trained network; while paused, Start asks first; a reload asks first while a
// run is live, then offers the run back (resumed from its checkpoint, or its policy kept);
// the curve's labels are not drawn over; meanwhile no task of the page's main thread takes
// 200 ms of its CPU (Chromium's trace).
import { afterEach, describe, expect, it } from 'vitest';
import { chromiumCpu, coresUsed } from '../bench/chromiumCpu.mjs';
import { browserSuite, longMainThreadTasks, openPage, recordShownSteps } from './page.js';

const suite = browserSuite();

/** CPU seconds the browser's renderer processes (the page, its Workers) have used so far. */
async function rendererCpu(cdp) {
  const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
  return processInfo.filter((p) => p.type === 'renderer').reduce((a, p) => a + p.cpuTime, 0);
}

/** The CPU cores the renderers keep busy over the next `ms` (1 is one core all the time). */
async function coresOver(page, cdp, ms) {
  const before = await rendererCpu(cdp);
  const t0 = Date.now();
  await page.waitForTimeout(ms);
  return ((await rendererCpu(cdp)) - before) / ((Date.now() - t0) / 1000);
}

// an idle page: its timers, the test's tracing and what Chromium does beside it, far under one
// busy Worker (a paused run measured 0.20 cores on a busy machine)
const IDLE_CORES = 0.3;

// a paused or stopped run's Workers: nothing left to run (a running one took 0.26 cores of the
// renderers, Workers and page together, on a machine at load 10)
const IDLE_WORKER_CORES = 0.05;

/** The cores this browser's Web Workers' threads (the learner's) keep busy over the next `ms`, from /proc (Linux; else null). */
async function workerCoresOver(page, ms) {
  const from = chromiumCpu();
  if (!from) return null;
  const t0 = Date.now();
  await page.waitForTimeout(ms);
  return coresUsed(from, chromiumCpu(), (Date.now() - t0) / 1000).workers;
}

/**
 * Whether the run uses no more CPU than an idle page from a second after `action` on. On Linux
 * the Workers' own threads are read: under IDLE_WORKER_CORES, and under a third of what they
 * took just before (the control: they did run). Elsewhere the renderers' CPU: under IDLE_CORES
 * and a third of before. Reading the Workers alone keeps the page's own timers and tracing out
 * of it: on a machine at load 10 a run got 0.26 cores of the renderers and the idle page 0.12.
 */
async function idleAfter(page, cdp, action) {
  const linux = chromiumCpu() !== null;
  const measure = (ms) => (linux ? workerCoresOver(page, ms) : coresOver(page, cdp, ms));
  const before = await measure(1000);
  const at = Date.now();
  await action();
  await page.waitForTimeout(Math.max(0, 1000 - (Date.now() - at)));
  const after = await measure(2000);
  const limit = linux ? IDLE_WORKER_CORES : Math.min(IDLE_CORES, Math.max(0.05, before / 3));
  return { before, after, idle: after < limit && after < before / 3 };
}
// PPO's default run, whose first minutes clone the planner's play (planning, then cloning)
const CLONING_RUN = '#/lab?env=ValleyFarm-v0&algo=ppo&seed=1&steps=35000000&threads=2';

async function lab(route) {
  const page = await openPage(suite.browser, `${suite.server.url}#/`);
  suite.opened.push(page);
  page.on('dialog', (d) => d.accept()); // a reload while a run is live asks first
  await page.goto(`${suite.server.url}${route}`);
  await page.waitForSelector('main.lab');
  await suite.browser.startTracing(page, { categories: ['devtools.timeline'] });
  tracing = true;
  return page;
}
let tracing = false;
afterEach(async () => {
  if (tracing) await suite.browser.stopTracing().catch(() => {}); // a test that failed before it read its trace
  tracing = false;
});

/**
 * The tasks of the page's main thread that took 200 ms or more of its CPU, since lab() opened
 * it (reloads included): their CPU time, not their wall time, which a busy machine stretches.
 */
async function longTasks() {
  const tasks = await longMainThreadTasks(suite.browser, 200);
  tracing = false;
  return tasks;
}

const status = (page) => page.textContent('[data-testid="lab-status"]');
/**
 * Waits until the run is kept at the steps its status line shows (what a pause keeps) and its
 * record is written to storage (data-saved-steps: what a reload finds; the model holds it as soon
 * as the Worker posts it, and a CI run reloaded before the write was done and found the record
 * made at Start), and returns them. Both callers pause after the run has trained, so the steps
 * are above 0: a status line not yet past 0 beside the record made at Start (0 steps, no policy)
 * is not the pause's.
 */
async function keptAtPause(page) {
  await page.waitForFunction(() => {
    const shown = /([\d,]+) \/ [\d,]+ steps/.exec(document.querySelector('[data-testid="lab-status"]').textContent);
    const steps = shown?.[1].replace(/,/g, '');
    const main = document.querySelector('main.lab');
    return shown && Number(steps) > 0 && main.dataset.keptSteps === steps && main.dataset.savedSteps === steps;
  });
  return Number(await page.getAttribute('main.lab', 'data-kept-steps'));
}
const runThreads = (page) => page.workers().filter((w) => w.url().includes('threadWorker')).length;

describe('the Lab obeys during cloning', () => {
  it("Pause during PPO's cloning stops the CPU within a second; Evaluate waits for the cloned network", async () => {
    const page = await lab(CLONING_RUN);
    const cdp = await page.context().browser().newBrowserCDPSession();
    await page.click('button:has-text("Start")');
    await page.waitForFunction(
      () => /planned [1-9][\d,]* \//.test(document.querySelector('[data-testid="lab-status"]').textContent),
      null,
      {
        timeout: 90_000,
      },
    );
    expect(await status(page)).toMatch(/about [\d a-z]+ left|estimating the time left/);
    expect(await page.isEnabled('button:has-text("Evaluate on the test split")')).toBe(false); // planning: no network to score yet
    expect(runThreads(page)).toBe(1); // PPO's second worker: the Lab's own Worker holds the first
    const cpu = await idleAfter(page, cdp, () => page.click('button:has-text("Pause")'));
    expect(cpu.idle, `cores: ${cpu.before.toFixed(2)} before the pause, ${cpu.after.toFixed(2)} from a second after it`).toBe(true);
    expect(await page.getAttribute('main.lab', 'data-state')).toBe('paused');
    expect(runThreads(page)).toBe(1); // paused, not ended: Resume goes on
    expect(await longTasks()).toEqual([]);
  });

  it("Stop during PPO's cloning stops the CPU within a second, and PPO's own Worker goes with the run", async () => {
    const page = await lab(CLONING_RUN);
    const cdp = await page.context().browser().newBrowserCDPSession();
    await page.click('button:has-text("Start")');
    await page.waitForFunction(
      () => /planned [1-9][\d,]* \//.test(document.querySelector('[data-testid="lab-status"]').textContent),
      null,
      {
        timeout: 90_000,
      },
    );
    const cpu = await idleAfter(page, cdp, () => page.click('button:has-text("Stop")'));
    expect(cpu.idle, `cores: ${cpu.before.toFixed(2)} before the stop, ${cpu.after.toFixed(2)} from a second after it`).toBe(true);
    expect(await page.getAttribute('main.lab', 'data-state')).toBe('stopped');
    expect(runThreads(page)).toBe(0);
  });
});

describe('the Lab keeps', () => {
  it('while paused, Start asks before it ends the run; a reload asks first, then offers the run back, and it resumes from its checkpoint', async () => {
    // a small PPO run (its checkpoint exists wherever a call of trainFor ends, once cloning is over)
    const page = await lab('#/lab?env=ValleyFarm-v0&algo=ppo&seed=1&steps=10000000&imitate=0&numEnvs=8&nSteps=16&threads=1');
    await page.click('button:has-text("Start")');
    await page.waitForFunction(() => Number(document.querySelector('.lab-curve polyline.mean')?.dataset.points ?? 0) >= 3, null, {
      timeout: 60_000,
    });
    await page.click('button:has-text("Pause")');
    await page.waitForSelector('main.lab[data-state="paused"]');
    const kept = await keptAtPause(page);
    const points = Number(await page.getAttribute('.lab-curve polyline.mean', 'data-points'));
    const first = await page.textContent('.lab-curve circle.dot title');
    await page.click('button:has-text("Start")');
    expect(await page.textContent('[data-testid="lab-confirm"]')).toMatch(/^Start a new run\? The paused run ends, and its policy with it/);
    await page.click('button:has-text("Keep the paused run")');
    expect(await page.getAttribute('main.lab', 'data-state')).toBe('paused');
    expect(await page.locator('[data-testid="lab-confirm"]').count()).toBe(0);

    let asked = null;
    page.once('dialog', (d) => (asked = d.type()));
    await page.reload();
    expect(asked).toBe('beforeunload');
    await page.waitForSelector('main.lab[data-state="interrupted"]');
    expect(await status(page)).toBe(
      `interrupted: the page was closed while this run was going, at ${kept.toLocaleString('en')} / 10,000,000 steps`,
    );
    expect(Number(await page.getAttribute('.lab-curve polyline.mean', 'data-points'))).toBe(points);
    // every step count the status line shows from here on
    await recordShownSteps(page);
    await page.click('button:has-text("Resume the run")');
    await page.waitForFunction((n) => Number(document.querySelector('.lab-curve polyline.mean').dataset.points) > n, points, {
      timeout: 60_000,
    });
    // from its checkpoint: the first steps shown are the kept ones (a run from 0 would show fewer), and the curve goes on
    expect((await page.evaluate(() => window.shownSteps))[0]).toBe(kept);
    expect(await page.textContent('.lab-curve circle.dot title')).toBe(first);
    await page.click('button:has-text("Stop")');
    await page.waitForSelector('main.lab[data-state="stopped"]');
    expect(await longTasks()).toEqual([]);
  });

  it('a run without a checkpoint comes back after a reload with its policy, to evaluate and to play', async () => {
    const page = await lab('#/lab?env=BackwardsValleyFarm-v0&algo=tabular-q&seed=1&steps=100000000');
    await page.click('button:has-text("Start")');
    await page.waitForFunction(() => Number(document.querySelector('.lab-curve polyline.mean')?.dataset.points ?? 0) >= 2, null, {
      timeout: 60_000,
    });
    await page.click('button:has-text("Pause")');
    await page.waitForSelector('main.lab[data-state="paused"]');
    const kept = await keptAtPause(page);
    await page.reload();
    await page.waitForSelector('main.lab[data-state="interrupted"]');
    expect(await page.textContent('[data-testid="lab-kept"]')).toMatch(
      /It cannot go on: its learner kept no checkpoint of it, but its policy is kept\./,
    );
    await page.click('button:has-text("Keep its policy")');
    await page.waitForSelector('main.lab[data-state="stopped"]');
    await page.click('button:has-text("Evaluate on the test split")');
    await page.waitForSelector('[data-testid="lab-evaluation"]', { timeout: 60_000 });
    expect(await page.textContent('[data-testid="lab-evaluation"]')).toContain(`the policy after ${kept.toLocaleString('en')} steps`);
    expect(await page.textContent('[data-testid="lab-evaluation-heuristic"]')).toMatch(
      /^The heuristic on the same seeds: 37\.96 \(37\.45 – 38\.47\)/,
    );
    expect(await longTasks()).toEqual([]);
    await page.click('button:has-text("Play it on the game page")');
    await page.waitForFunction(() => location.hash === '#/' && document.querySelector('.board'));
    expect(await page.textContent('.agent-choice')).toContain(`Your trained policy (tabular-q, ${kept.toLocaleString('en')} steps)`);
    expect(await page.evaluate(() => window.valleyFarm.run({ episodes: 1 }))).toHaveLength(1);
  });

  it("the curve's labels are drawn where no curve goes, none over another", async () => {
    // long enough for a curve of several points however fast the learner steps
    const page = await lab('#/lab?env=ValleyFarm-v0&algo=tabular-q&seed=1&steps=2000000');
    await page.click('button:has-text("Start")');
    await page.waitForSelector('main.lab[data-state="done"]', { timeout: 60_000 });
    const overlaps = await page.evaluate(() => {
      const svg = document.querySelector('.lab-curve svg');
      const plot = svg.querySelector('.axis').getBBox(); // the plot's area: the curves are drawn in it
      const boxes = [...svg.querySelectorAll('.guide text')].map((t) => ({ name: t.textContent, box: t.getBBox() }));
      const points = [...svg.querySelectorAll('polyline')].map((l) => [...l.points].map((p) => ({ x: p.x, y: p.y })));
      const meet = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
      // a segment crosses a box where some of its points, sampled finely, fall in it
      const crosses = (p, q, b) =>
        Array.from({ length: 101 }, (_, k) => ({ x: p.x + ((q.x - p.x) * k) / 100, y: p.y + ((q.y - p.y) * k) / 100 })).some(
          (s) => s.x >= b.x && s.x <= b.x + b.width && s.y >= b.y && s.y <= b.y + b.height,
        );
      const found = [];
      const width = svg.viewBox.baseVal.width;
      for (const { name, box } of boxes) {
        if (box.x < plot.x + plot.width) found.push(`${name}: inside the plot, where a curve may go`);
        if (points.some((line) => line.some((p, i) => i > 0 && crosses(line[i - 1], p, box)))) found.push(`${name}: a curve crosses it`);
        if (box.x + box.width > width) found.push(`${name}: cut off at the right`);
        for (const other of boxes) if (other.name !== name && meet(box, other.box)) found.push(`${name}: over ${other.name}`);
      }
      return { found, labels: boxes.length, points: points.flat().length };
    });
    expect(overlaps.labels).toBe(4); // random, heuristic, the view-limited planner, best known
    expect(overlaps.points).toBeGreaterThan(3);
    expect(overlaps.found).toEqual([]);
    expect(await longTasks()).toEqual([]);
  });
});
