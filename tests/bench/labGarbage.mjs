// labGarbage.mjs — how fast a Lab run's memory grows in Chromium when nothing forces a garbage
// collection (issue 46): the page's renderer's resident memory (/proc VmRSS, Linux) and each
// Worker's JS heap (CDP Runtime.getHeapUsage), read every few seconds against the run's steps.
// A measurement, not a test: its numbers follow the machine.
//
//   node tests/bench/labGarbage.mjs [threads=8] [seconds=60] [extra link settings, e.g. minibatch=256]
//
// Serves dist/ (npm run build first) and drives /usr/bin/chromium (or CHROMIUM_PATH).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { preview } from 'vite';
import { chromium } from 'playwright-core';

const [threads = 8, seconds = 60, extra = ''] = process.argv.slice(2);
const MB = 2 ** 20;
const config = fileURLToPath(new URL('../../web/vite.config.js', import.meta.url));

const rss = (pid) => {
  try {
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
  } catch {
    return 0;
  }
};

async function renderers(cdp) {
  const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
  return processInfo.filter((q) => q.type === 'renderer').map((q) => q.id);
}

/** Every Worker's { used, total } JS heap bytes, through a session of its own. */
async function workerHeaps(cdp) {
  const { targetInfos } = await cdp.send('Target.getTargets');
  const heaps = [];
  for (const t of targetInfos.filter((x) => x.type === 'worker')) {
    let sessionId;
    try {
      ({ sessionId } = await cdp.send('Target.attachToTarget', { targetId: t.targetId, flatten: false }));
    } catch {
      continue;
    }
    const answer = new Promise((resolve) => {
      const on = ({ sessionId: s, message }) => {
        const m = JSON.parse(message);
        if (s === sessionId && m.id === 1) {
          cdp.off('Target.receivedMessageFromTarget', on);
          resolve(m.result);
        }
      };
      cdp.on('Target.receivedMessageFromTarget', on);
    });
    await cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: 1, method: 'Runtime.getHeapUsage' }) });
    const r = await Promise.race([answer, new Promise((resolve) => setTimeout(() => resolve(null), 5000))]);
    await cdp.send('Target.detachFromTarget', { sessionId }).catch(() => {});
    if (r) heaps.push({ used: r.usedSize, total: r.totalSize, backing: r.backingStorageSize ?? 0 });
  }
  return heaps;
}

const server = await preview({ configFile: config, logLevel: 'warn', preview: { port: 0, host: '127.0.0.1', open: false } });
const url = `http://127.0.0.1:${server.httpServer.address().port}/`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
try {
  const cdp = await browser.newBrowserCDPSession();
  const others = new Set(await renderers(cdp));
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${url}#/lab?env=ValleyFarm-v0&algo=ppo&seed=1&steps=100000000&threads=${threads}&imitate=0${extra ? `&${extra}` : ''}`);
  await page.waitForSelector('main.lab');
  const estimate = Number(await page.getAttribute('[data-testid="lab-memory"]', 'data-bytes'));
  const pids = (await renderers(cdp)).filter((p) => !others.has(p));
  await page.waitForTimeout(5000);
  const base = pids.reduce((s, p) => s + rss(p), 0);
  await page.click('button:has-text("Start")');
  const t0 = Date.now();
  console.log(`threads ${threads} ${extra}: estimate ${(estimate / MB).toFixed(1)} MB; base RSS ${(base / MB).toFixed(0)} MB`);
  console.log('s\tsteps\tRSS+MB\tworkers used/total MB');
  while (Date.now() - t0 < seconds * 1000) {
    await page.waitForTimeout(5000);
    const status = await page.textContent('[data-testid="lab-status"]');
    const steps = Number(/([\d,]+) \//.exec(status)?.[1].replace(/,/g, '') ?? 0);
    const heaps = await workerHeaps(cdp);
    const mem = pids.reduce((s, p) => s + rss(p), 0);
    const used = heaps.reduce((s, h) => s + h.used, 0);
    const total = heaps.reduce((s, h) => s + h.total, 0);
    console.log(
      `${Math.round((Date.now() - t0) / 1000)}\t${steps}\t${((mem - base) / MB).toFixed(0)}\t${(used / MB).toFixed(0)}/${(total / MB).toFixed(0)} (${heaps.length})`,
    );
  }
} finally {
  await browser.close();
  await new Promise((resolve) => server.httpServer.close(resolve));
}
