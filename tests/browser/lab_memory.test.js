// The Lab's memory estimate against what Chromium takes: for PPO runs of 1, 2 and 4 threads,
// the resident memory the browser's renderer processes (the page and its Workers) gain once a
// run trains is within a factor of the estimate the Lab shows (estimateMemory, with
// THREAD_BYTES for each of its threads). Measured from /proc (Linux), each process's VmRSS.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { browserSuite, openPage } from './page.js';

const suite = browserSuite();

/** The resident bytes of the browser's renderer processes. */
async function rendererBytes(cdp) {
  const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
  let bytes = 0;
  for (const p of processInfo.filter((q) => q.type === 'renderer')) {
    let status;
    try {
      status = readFileSync(`/proc/${p.id}/status`, 'utf8');
    } catch (err) {
      if (err.code === 'ENOENT') continue; // a process that ended since it was listed
      throw new Error(`this test reads each renderer's memory from /proc (Linux): ${err.message}`);
    }
    bytes += Number(/^VmRSS:\s+(\d+) kB/m.exec(status)[1]) * 1024;
  }
  return bytes;
}

/**
 * The renderers' memory once it has settled after a garbage collection: three readings a
 * second apart within 2 MB (a page just loaded gives memory back for some seconds).
 */
async function settled(page, session, cdp) {
  const readings = [];
  for (let k = 0; k < 20; k++) {
    await session.send('HeapProfiler.collectGarbage');
    readings.push(await rendererBytes(cdp));
    const last = readings.slice(-3);
    if (last.length === 3 && Math.max(...last) - Math.min(...last) < 2e6) return last[2];
    await page.waitForTimeout(1000);
  }
  return readings.at(-1);
}

const MB = 2 ** 20;
// What the renderers hold moves with the machine's load (their Workers' garbage is collected
// late when they get little CPU): the same 4-thread run measured 0.84 and 1.74 of its estimate
// on this busy 2-core machine. Within half to twice is what the measurement can tell.

describe("the Lab's memory estimate", () => {
  it.each([1, 2, 4])('for a PPO run of %i thread(s) is within half to twice what Chromium takes', async (threads) => {
    const page = await openPage(suite.browser, `${suite.server.url}#/`);
    suite.opened.push(page);
    const session = await page.context().newCDPSession(page);
    const cdp = await page.context().browser().newBrowserCDPSession();
    await page.goto(`${suite.server.url}#/lab?env=ValleyFarm-v0&algo=ppo&seed=1&steps=100000000&threads=${threads}&imitate=0`);
    await page.waitForSelector('main.lab');
    const estimate = Number(await page.getAttribute('[data-testid="lab-memory"]', 'data-bytes'));
    const before = await settled(page, session, cdp);
    await page.click('button:has-text("Start")');
    await page.waitForFunction(() => /steps\/s/.test(document.querySelector('[data-testid="lab-status"]').textContent), null, {
      timeout: 60_000,
    });
    await page.waitForTimeout(3000); // a few rollouts and updates: every buffer in use
    const taken = (await settled(page, session, cdp)) - before;
    await page.click('button:has-text("Stop")');
    const ratio = taken / estimate;
    expect(ratio, `estimate ${Math.round(estimate / MB)} MB, Chromium took ${Math.round(taken / MB)} MB`).toBeGreaterThan(0.5);
    expect(ratio, `estimate ${Math.round(estimate / MB)} MB, Chromium took ${Math.round(taken / MB)} MB`).toBeLessThan(2);
  });
});
