// The Lab's memory estimate against what Chromium takes: for a PPO run of 1, 2 and 8 threads,
// the resident memory the browser's renderer processes (the page and its Workers) gain once a
// run trains is within a factor of the estimate the Lab shows (estimateMemory, with
// THREAD_BYTES for each of its threads). Measured from /proc (Linux), each process's VmRSS.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserSuite, openPage } from './page.js';

const suite = browserSuite();

/** The resident bytes of each of the browser's renderer processes: Map pid -> bytes. */
async function renderers(cdp) {
  const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
  const bytes = new Map();
  for (const p of processInfo.filter((q) => q.type === 'renderer')) {
    let status;
    try {
      status = readFileSync(`/proc/${p.id}/status`, 'utf8');
    } catch (err) {
      if (err.code === 'ENOENT') continue; // a process that ended since it was listed
      throw new Error(`this test reads each renderer's memory from /proc (Linux): ${err.message}`);
    }
    bytes.set(p.id, Number(/^VmRSS:\s+(\d+) kB/m.exec(status)[1]) * 1024);
  }
  return bytes;
}

/**
 * Collects every Worker's garbage (the page's session reaches only the page's), and waits until
 * each has done so (a Worker answers between its own tasks: 8 busy ones took seconds). A
 * reading taken before then counts some of the run's garbage (at 8 threads a megabyte or two a
 * second; 5-9 when every thread sent its sums to every other).
 */
async function collectWorkers(cdp) {
  const { targetInfos } = await cdp.send('Target.getTargets');
  const sessions = [];
  for (const t of targetInfos.filter((x) => x.type === 'worker')) {
    try {
      sessions.push((await cdp.send('Target.attachToTarget', { targetId: t.targetId, flatten: false })).sessionId);
    } catch {
      // a Worker that ended since it was listed
    }
  }
  const answered = new Map(); // sessionId -> resolve: its collection is done, or its Worker ended
  const onMessage = ({ sessionId, message }) => JSON.parse(message).id === 1 && answered.get(sessionId)?.();
  const onDetached = ({ sessionId }) => answered.get(sessionId)?.();
  cdp.on('Target.receivedMessageFromTarget', onMessage);
  cdp.on('Target.detachedFromTarget', onDetached);
  try {
    await Promise.all(
      sessions.map(async (sessionId) => {
        const done = new Promise((resolve) => answered.set(sessionId, resolve));
        const message = JSON.stringify({ id: 1, method: 'HeapProfiler.collectGarbage' });
        const sent = await cdp.send('Target.sendMessageToTarget', { sessionId, message }).then(
          () => true,
          () => false, // its Worker ended
        );
        if (sent) await done;
        await cdp.send('Target.detachFromTarget', { sessionId }).catch(() => {});
      }),
    );
  } finally {
    cdp.off('Target.receivedMessageFromTarget', onMessage);
    cdp.off('Target.detachedFromTarget', onDetached);
  }
}

/**
 * The resident bytes of the page's own processes (its Workers are threads of them) once they
 * have settled after a garbage collection: three readings a second apart within `within` bytes
 * of each other (a page just loaded gives memory back for some seconds; a run makes garbage
 * again between a collection and its reading), the least of them. Other renderers (the
 * previous test's page, still exiting; a spare one the browser keeps) move on their own and
 * are left out.
 */
async function settled(page, session, cdp, pids, within) {
  const readings = [];
  for (let k = 0; k < 20; k++) {
    await session.send('HeapProfiler.collectGarbage');
    await collectWorkers(cdp);
    const bytes = await renderers(cdp);
    readings.push(pids.reduce((sum, pid) => sum + (bytes.get(pid) ?? 0), 0));
    const last = readings.slice(-3);
    if (last.length === 3 && Math.max(...last) - Math.min(...last) < within) return Math.min(...last);
    await page.waitForTimeout(1000);
  }
  return Math.min(...readings.slice(-3));
}

const MB = 2 ** 20;
// The page's own renderer processes are measured (other renderers move on their own), after
// every heap's garbage (the Workers' too, each waited for), once the page's start-up memory is
// given back. So measured on this 2-core machine (load 13-20, with and without two more busy
// loops), runs of 1, 2 and 8 threads took 21.5-22.5, 28.3-30.1 and 64.3-78.4 MB.
// Without a collection a run's memory moves too much for a bound this tight: its threads'
// messages leave garbage Chromium collects late (the last test holds it within a wider one).
// When this test did not wait for the Workers' collections, 8 threads read 67-84 MB alone and
// 230-275 MB in full runs (issue 46); waiting, no reading can count garbage older than the
// collection before it.

describe("the Lab's memory estimate", () => {
  // The browser's first page takes memory at start-up that it gives back some seconds later,
  // which would read as a run's memory going down: open one first and let it go.
  beforeAll(async () => {
    const page = await openPage(suite.browser, `${suite.server.url}#/`);
    await page.goto(`${suite.server.url}#/lab`);
    await page.waitForSelector('main.lab');
    await page.waitForTimeout(3000);
    await page.context().close();
  }, 60_000);

  it.each([1, 2, 8])(
    'for a PPO run of %i thread(s) is within half to twice what Chromium takes',
    async (threads) => {
      const cdp = await suite.browser.newBrowserCDPSession();
      const others = await renderers(cdp);
      const page = await openPage(suite.browser, `${suite.server.url}#/`);
      suite.opened.push(page);
      const session = await page.context().newCDPSession(page);
      await page.goto(`${suite.server.url}#/lab?env=ValleyFarm-v0&algo=ppo&seed=1&steps=100000000&threads=${threads}&imitate=0`);
      await page.waitForSelector('main.lab');
      const estimate = Number(await page.getAttribute('[data-testid="lab-memory"]', 'data-bytes'));
      const pids = [...(await renderers(cdp)).keys()].filter((pid) => !others.has(pid));
      expect(pids.length, "the page's renderer process, new since the test began").toBeGreaterThan(0);
      // A page that just loaded gives back tens of MB some seconds later (not every time): read
      // its memory once that is past, or the run's would seem to shrink.
      await page.waitForTimeout(10_000);
      const before = await settled(page, session, cdp, pids, 2 * MB);
      await page.click('button:has-text("Start")');
      await page.waitForFunction(() => /steps\/s/.test(document.querySelector('[data-testid="lab-status"]').textContent), null, {
        timeout: 60_000,
      });
      await page.waitForTimeout(threads * 4000); // a few rollouts and updates on every thread: every buffer in use
      // a running run makes garbage again between a collection and the reading: readings
      // within a twentieth of the estimate of each other
      const taken = (await settled(page, session, cdp, pids, Math.max(2 * MB, estimate / 20))) - before;
      console.log(`lab_memory: ${threads} thread(s): estimate ${(estimate / MB).toFixed(1)} MB, taken ${(taken / MB).toFixed(1)} MB`);
      await page.click('button:has-text("Stop")');
      const ratio = taken / estimate;
      expect(ratio, `estimate ${Math.round(estimate / MB)} MB, Chromium took ${Math.round(taken / MB)} MB`).toBeGreaterThan(0.5);
      expect(ratio, `estimate ${Math.round(estimate / MB)} MB, Chromium took ${Math.round(taken / MB)} MB`).toBeLessThan(2);
    },
    300_000, // 8 threads on a loaded 2-core machine: each collection waits for 8 busy Workers
  );

  // Unforced, what a visitor's tab takes. Each message between Workers leaves 1.3-2 KB of
  // Chromium's own memory that only a full collection frees (tests/bench/labGarbage.mjs), so
  // this follows the messages a minibatch sends: 56 when every thread sent its sums to every
  // other (+354 MB after these 3,600 minibatches, 4.1 times the estimate), 14 since they go
  // through thread 0 (exchange.js: +165 and +176 MB, 1.9-2.1 times). Counted in the run's
  // steps, not in seconds: the limit is the test's, generous for a busy machine.
  it('for a PPO run of 8 threads is more than a third of what Chromium takes after 3,600 minibatches, no collection forced', async () => {
    const cdp = await suite.browser.newBrowserCDPSession();
    const others = await renderers(cdp);
    const page = await openPage(suite.browser, `${suite.server.url}#/`);
    suite.opened.push(page);
    const session = await page.context().newCDPSession(page);
    await page.goto(`${suite.server.url}#/lab?env=ValleyFarm-v0&algo=ppo&seed=1&steps=100000000&threads=8&imitate=0`);
    await page.waitForSelector('main.lab');
    const estimate = Number(await page.getAttribute('[data-testid="lab-memory"]', 'data-bytes'));
    const pids = [...(await renderers(cdp)).keys()].filter((pid) => !others.has(pid));
    await page.waitForTimeout(10_000); // the page's start-up memory given back, as above
    const before = await settled(page, session, cdp, pids, 2 * MB);
    await page.click('button:has-text("Start")');
    // the defaults' update: 64 envs x 64 steps, 3 epochs of 4 minibatches of 1024
    const updates = 300;
    await page.waitForFunction(
      (steps) =>
        Number(/([\d,]+) \//.exec(document.querySelector('[data-testid="lab-status"]').textContent)?.[1].replace(/,/g, '')) >= steps,
      updates * 64 * 64,
      { timeout: 600_000, polling: 250 }, // 50 s on this 2-core machine at load 6-9
    );
    const bytes = await renderers(cdp);
    const taken = pids.reduce((sum, pid) => sum + (bytes.get(pid) ?? 0), 0) - before;
    console.log(
      `lab_memory: 8 threads, ${updates * 12} minibatches unforced: estimate ${(estimate / MB).toFixed(1)} MB, taken ${(taken / MB).toFixed(1)} MB`,
    );
    await page.click('button:has-text("Stop")');
    expect(taken / estimate, `estimate ${Math.round(estimate / MB)} MB, Chromium took ${Math.round(taken / MB)} MB`).toBeLessThan(3);
  }, 900_000);
});
