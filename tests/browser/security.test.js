// Hostile embedders and hostile code, in Chromium. A page on ANOTHER origin frames the site
// and sends it messages; code that the site did not ship (setAgent({ code }), the editor)
// runs in a sandbox with an opaque origin. A tiny server records what reaches it.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSuite, openPage, root } from './page.js';

const suite = browserSuite();

/**
 * The built site (dist/) on its own tiny server, plus /secret: a private URL of the site's
 * origin that answers "TOP SECRET" (with no CORS header) and records the Cookie header of
 * every request, so the test can tell whether sandboxed code reached it with credentials.
 */
const site = { url: null, hits: [], server: null };
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.svg': 'image/svg+xml' };
beforeAll(async () => {
  site.server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (path === '/secret') {
      site.hits.push(req.headers.cookie ?? '');
      res.end('TOP SECRET');
      return;
    }
    const file = normalize(join(root, 'dist', path === '/' ? 'index.html' : path));
    if (!file.startsWith(join(root, 'dist'))) return res.writeHead(403).end();
    try {
      const body = await readFile(file);
      res.setHeader('Content-Type', TYPES[extname(file)] ?? 'application/octet-stream');
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((r) => site.server.listen(0, '127.0.0.1', r));
  site.url = `http://127.0.0.1:${site.server.address().port}/`;
});
afterAll(() => new Promise((r) => site.server.close(r)));

/** A page on another origin (localhost vs 127.0.0.1: different origins) that frames the site. */
async function hostileServer(siteUrl, query) {
  const server = createServer((req, res) => {
    res.setHeader('Content-Type', 'text/html');
    res.end(`<!doctype html><title>hostile</title><iframe id="f" src="${siteUrl}${query}" width="800" height="600"></iframe>`);
  });
  await new Promise((r) => server.listen(0, 'localhost', r));
  return { url: `http://localhost:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) };
}

/** Resolves once the game framed in the hostile page listens to messages (its handle and messages are installed together). */
async function framedGameStarted(page) {
  await page.waitForFunction(() => document.getElementById('f').contentWindow && true);
  const framed = page.frames().find((f) => f !== page.mainFrame());
  await framed.waitForFunction(() => window.valleyFarm);
}

/** Sends one message from the hostile page to the framed site and waits for its reply. */
function callFromHostile(page, method, args, waitMs = 8000) {
  return page.evaluate(
    ([method, args, waitMs]) =>
      new Promise((resolve) => {
        const frame = document.getElementById('f');
        const id = Math.random();
        const timer = setTimeout(() => resolve({ timeout: true }), waitMs);
        window.addEventListener('message', (e) => {
          if (e.data?.id === id) {
            clearTimeout(timer);
            resolve(e.data);
          }
        });
        frame.contentWindow.postMessage({ type: 'valley-farm', id, method, args }, '*');
      }),
    [method, args, waitMs],
  );
}

const probeCode = (secretUrl) => `
async function reset() {
  const out = [];
  try { const r = await fetch('${secretUrl}', { credentials: 'include' }); out.push('fetch-read:' + (await r.text())); } catch (e) { out.push('fetch:' + e.name); }
  try { indexedDB.open('x'); out.push('idb:open'); } catch (e) { out.push('idb:' + e.name); }
  try { await caches.keys(); out.push('caches:open'); } catch (e) { out.push('caches:' + (e.name || 'none')); }
  out.push('origin:' + self.origin);
  throw new Error('probe ' + out.join(' '));
}
function act() { return 0; }`;

describe('code the site did not ship', () => {
  it("runs with an opaque origin: no storage, and the site's responses cannot be read", async () => {
    const page = await openPage(suite.browser, site.url);
    suite.opened.push(page);
    const siteOrigin = new URL(site.url).origin;
    // the site's own storage, for the code to try to read
    await page.evaluate(async () => {
      document.cookie = 'session=secret-cookie; path=/';
      await new Promise((r) => {
        const req = indexedDB.open('site-db');
        req.onsuccess = r;
        req.onerror = r;
      });
    });
    const error = await page.evaluate(
      async (code) => {
        await window.valleyFarm.setAgent({ code });
        try {
          await window.valleyFarm.run({ episodes: 1 });
          return 'no error';
        } catch (e) {
          return e.message;
        }
      },
      probeCode(`${site.url}secret`),
    );
    expect(error).toMatch(/probe /);
    expect(error).not.toContain('TOP SECRET');
    // if the request reached the server at all, it carried no cookie of the site
    expect(site.hits.every((cookie) => !cookie.includes('secret-cookie'))).toBe(true);
    expect(error).toContain('origin:null');
    expect(error).not.toMatch(/fetch-read:/); // the site's response was never readable
    expect(error).not.toContain('idb:open');
    expect(error).not.toContain('caches:open');
    expect(error).not.toContain(siteOrigin);
    page.errors = page.errors.filter((e) => !/Content Security Policy|Failed to fetch|CORS|net::ERR/.test(e));
  });

  it("a visitor's learner in the Lab runs with an opaque origin too: no storage or cookie, and the site's responses cannot be read", async () => {
    const page = await openPage(suite.browser, site.url);
    suite.opened.push(page);
    await page.evaluate(() => (document.cookie = 'session=secret-cookie; path=/'));
    await page.goto(`${site.url}#/lab?env=BackwardsValleyFarm-v0&algo=reinforce&seed=1&steps=50000`);
    await page.click('button:has-text("Write your own REINFORCE")');
    const template = await page.inputValue('[data-testid="lab-code-text"]');
    const head = 'export async function createReinforce(env, config, seed, { threads = 1 } = {}) {';
    // the code agents' probes, where the visitor's learner starts (one line: the template's lines stay)
    const probe = probeCode(`${site.url}secret`)
      .replace(/^\s*async function reset\(\) \{/, '')
      .replace(/\}\s*function act\(\) \{ return 0; \}\s*$/, '')
      .replace(
        "out.push('origin:'",
        "try { out.push('ls:' + localStorage.length); } catch (e) { out.push('ls:' + e.name); }\n  out.push('cookie:' + (typeof document === 'undefined' ? 'none' : document.cookie));\n  out.push('origin:'",
      )
      .replaceAll('\n', ' ');
    expect(template).toContain(head);
    await page.fill('[data-testid="lab-code-text"]', template.replace(head, `${head} ${probe}`));
    await page.click('button:has-text("Start")');
    await page.waitForSelector('main.lab[data-state="error"]', { timeout: 60_000 });
    const error = await page.textContent('[data-testid="lab-status"]');
    expect(error).toMatch(/probe .*origin:null/);
    expect(error).toMatch(/line \d+ of your learner/);
    expect(error).not.toContain('TOP SECRET');
    expect(error).not.toMatch(/fetch-read:|idb:open|caches:open|ls:\d|secret-cookie/);
    expect(error).toContain('cookie:none');
    expect(site.hits.every((cookie) => !cookie.includes('secret-cookie'))).toBe(true);
    page.errors = page.errors.filter((e) => !/Content Security Policy|Failed to fetch|CORS|net::ERR/.test(e));
  }, 120_000);

  it('still plays: an agent from the editor runs in the sandbox and its actions land', async () => {
    const page = await openPage(suite.browser, suite.server.url);
    suite.opened.push(page);
    const returns = await page.evaluate(async () => {
      await window.valleyFarm.setAgent({ code: 'function act(o) { return "wait"; }' });
      return window.valleyFarm.run({ episodes: 1 });
    });
    expect(returns).toEqual([0]);
    expect(await page.evaluate(() => window.valleyFarm.status().step)).toBe(50);
  });
});

describe('a hostile page on another origin that frames the site', () => {
  it('cannot run code through postMessage without the opt-in, but can read and play', async () => {
    const hostile = await hostileServer(suite.server.url, '');
    try {
      const page = await suite.browser.newPage();
      await page.goto(hostile.url);
      await framedGameStarted(page);
      const refused = await callFromHostile(page, 'setAgent', [{ code: "function act() { fetch('/secret'); return 0; }" }]);
      expect(refused.ok).toBe(false);
      expect(refused.error).toMatch(/allow=code/);
      const status = await callFromHostile(page, 'status', []);
      expect(status.ok).toBe(true);
      await page.close();
    } finally {
      await hostile.close();
    }
  });

  it('with origin= naming someone else, its messages get no answer at all', async () => {
    const hostile = await hostileServer(suite.server.url, '?origin=https://docs.example');
    try {
      const page = await suite.browser.newPage();
      await page.goto(hostile.url);
      await framedGameStarted(page); // it listens, and does not answer
      const r = await callFromHostile(page, 'status', [], 2500);
      expect(r.timeout).toBe(true);
      await page.close();
    } finally {
      await hostile.close();
    }
  });
});

describe('Content Security Policy', () => {
  it('the built pages carry a policy without inline script, and no page breaks it', async () => {
    const html = await readFile(join(root, 'dist/index.html'), 'utf8');
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'wasm-unsafe-eval'/);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // every script has a src
    const sandbox = await readFile(join(root, 'dist/sandbox.html'), 'utf8');
    expect(sandbox).toMatch(/Content-Security-Policy/);
    const context = await suite.browser.newContext();
    const violations = [];
    await context.exposeFunction('reportViolation', (v) => violations.push(v));
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => window.reportViolation(`${e.violatedDirective} ${e.blockedURI}`));
    });
    const page = await context.newPage();
    for (const hash of [
      '',
      '#/docs',
      '#/docs/api',
      '#/docs/valley',
      '#/docs/backwards',
      '#/docs/tutorial',
      '#/docs/embed',
      '#/embed?env=ValleyFarm-v0&seed=7',
    ]) {
      // every script and chunk the page fetches (docs widgets, embeds' frames) is in before the next
      await page.goto(`${site.url}${hash}`, { waitUntil: 'networkidle' });
    }
    // the sandbox in use: an editor agent and a docs example both run there. In a page of its
    // own: the embed may still be settling its address, which would interrupt a goto in its page
    const play = await context.newPage();
    await play.goto(site.url);
    await play.waitForFunction(() => window.valleyFarm);
    await play.evaluate(async () => {
      await window.valleyFarm.setAgent({ code: 'function act() { return "wait"; }' });
      await window.valleyFarm.run({ episodes: 1 });
    });
    expect(violations).toEqual([]);
    await context.close();
  });
});
