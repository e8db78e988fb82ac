// messageGarbage.mjs — what a message between Web Workers leaves in Chromium's memory when
// nothing forces a collection (issue 46): `threads` Workers joined all to all by
// MessageChannels, each sending every other a message a round and waiting for theirs (as
// exchange.js once did every minibatch), for 20 s; prints the renderer's resident memory
// gained per message. A measurement, not a test. On this machine: 1.3-2.2 KB a message,
// whatever it carried (a number, 16 floats or 7,437 floats moved; 16 KB for 7,437 copied).
//
//   node tests/bench/messageGarbage.mjs ["threads=8&n=7437&mode=moved" …]
//   mode: moved (a Float32Array of n, its buffer transferred and sent back in), copied, number
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const page = `<!doctype html><script type="module">
const q = new URLSearchParams(location.search);
const T = Number(q.get('threads') ?? 8), n = Number(q.get('n') ?? 7437), mode = q.get('mode') ?? 'moved';
const ports = Array.from({ length: T }, () => new Array(T).fill(null));
for (let i = 0; i < T; i++) for (let j = i + 1; j < T; j++) { const c = new MessageChannel(); ports[i][j] = c.port1; ports[j][i] = c.port2; }
window.rounds = 0;
for (let t = 0; t < T; t++) {
  const w = new Worker('worker.js');
  if (t === 0) w.onmessage = (e) => (window.rounds = e.data);
  w.postMessage({ t, n, mode, ports: ports[t] }, ports[t].filter(Boolean));
}
</script>`;

const worker = `onmessage = async (e) => {
  const { t, n, mode, ports } = e.data;
  const peers = ports.filter(Boolean).map((port) => ({ port, inbox: [], waiting: null, spare: null }));
  for (const p of peers) p.port.onmessage = (ev) => (p.waiting ? (p.waiting(ev.data), (p.waiting = null)) : p.inbox.push(ev.data));
  const received = (p) => (p.inbox.length ? p.inbox.shift() : new Promise((r) => (p.waiting = r)));
  const mine = new Float32Array(n).fill(t);
  const work = new Float32Array(20000);
  for (let round = 1; ; round++) {
    for (let k = 0; k < work.length; k++) work[k] = Math.sin(k + round); // some work between rounds
    for (const p of peers) {
      if (mode === 'number') p.port.postMessage(round);
      else if (mode === 'copied') p.port.postMessage(mine);
      else {
        const m = p.spare?.length === n ? p.spare : new Float32Array(n);
        p.spare = null;
        m.set(mine);
        p.port.postMessage(m, [m.buffer]);
      }
    }
    const parts = await Promise.all(peers.map(received));
    if (mode === 'moved') parts.forEach((x, j) => (peers[j].spare = x));
    if (t === 0 && round % 50 === 0) postMessage(round);
  }
};`;

const server = createServer((req, res) => {
  const js = req.url.startsWith('/worker.js');
  res.writeHead(200, { 'content-type': js ? 'text/javascript' : 'text/html' });
  res.end(js ? worker : page);
}).listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const url = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
const rss = (pid) => {
  try {
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
  } catch {
    return 0;
  }
};
try {
  const cdp = await browser.newBrowserCDPSession();
  const renderers = async () =>
    (await cdp.send('SystemInfo.getProcessInfo')).processInfo.filter((p) => p.type === 'renderer').map((p) => p.id);
  const cases = process.argv.slice(2);
  for (const query of cases.length ? cases : ['threads=8&n=7437', 'threads=8&n=16', 'threads=8&mode=number', 'threads=8&mode=copied']) {
    const others = new Set(await renderers());
    const tab = await browser.newPage();
    await tab.goto(`${url}?${query}`);
    const pids = (await renderers()).filter((p) => !others.has(p));
    await tab.waitForTimeout(2000);
    const r0 = await tab.evaluate(() => window.rounds);
    const m0 = pids.reduce((s, p) => s + rss(p), 0);
    await tab.waitForTimeout(20_000);
    const r1 = await tab.evaluate(() => window.rounds);
    const m1 = pids.reduce((s, p) => s + rss(p), 0);
    const T = Number(new URLSearchParams(query).get('threads') ?? 8);
    const messages = (r1 - r0) * T * (T - 1);
    console.log(
      `${query}: ${messages} messages in 20 s, +${((m1 - m0) / 2 ** 20).toFixed(0)} MB, ${((m1 - m0) / messages).toFixed(0)} B a message`,
    );
    await tab.context().close();
  }
} finally {
  await browser.close();
  server.close();
}
