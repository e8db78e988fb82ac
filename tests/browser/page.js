// page.js — the browser tests' fixture: builds the page when dist/ is missing or older than
// its sources, serves dist/ with Vite's preview server on a free localhost port, and
// drives Debian's Chromium through playwright-core. Console errors and page errors are
// collected so every test can insist there were none.
import { existsSync, statSync, readdirSync, mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, preview } from 'vite';
import { chromium } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const artifacts = join(root, 'tests/artifacts');
const config = join(root, 'web/vite.config.js');

function newestMtime(dir, { markdown = false } = {}) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    // web/ and wasm/ prose: the build never reads it (and writes web/README.md's sizes)
    if (!markdown && entry.name.endsWith('.md')) continue;
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p, { markdown }) : statSync(p).mtimeMs);
  }
  return newest;
}

/** Builds dist/ when it is missing or older than web/, wasm/ or the rules the docs pages render (docs/rules/). */
export async function ensureBuilt() {
  const index = join(root, 'dist/index.html');
  const sources = Math.max(
    newestMtime(join(root, 'web')),
    newestMtime(join(root, 'wasm')),
    newestMtime(join(root, 'docs/rules'), { markdown: true }),
  );
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return;
  // the site as `npm run build` makes it: Vitest sets NODE_ENV=test, which Vite would keep
  // (Preact's development build, a heavier bundle than the one visitors get)
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: config, logLevel: 'warn' });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}

/**
 * Serves the repository's own files as any static server would (no bundler), plus `pages`
 * ({ path: html }), on a free port; returns { url, close }.
 */
export async function serveRepository(pages = {}) {
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.json': 'application/json', '.wasm': 'application/wasm' };
  const server = createServer(async (req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    if (Object.hasOwn(pages, path)) return res.writeHead(200, { 'content-type': 'text/html' }).end(pages[path]);
    if (path === '/favicon.ico') return res.writeHead(204).end(); // the browser asks; not a failure
    const file = normalize(join(root, path));
    if (!file.startsWith(root)) return res.writeHead(403).end();
    let body;
    try {
      body = await readFile(file);
    } catch {
      return res.writeHead(404).end();
    }
    res.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' }).end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((resolve) => server.close(resolve)) };
}

/**
 * Registers a suite's hooks for pages beside the repository's files: a plain static server
 * (serveRepository with `pages`) and Chromium, once. Returns { server, browser }, filled in once
 * the suite starts.
 */
export function repositorySuite(pages) {
  const suite = { server: null, browser: null };
  beforeAll(async () => {
    suite.server = await serveRepository(pages);
    suite.browser = await launch();
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.close();
  });
  return suite;
}

/** Serves dist/ on a free port; returns { url, close }. */
export async function serve() {
  const server = await preview({
    configFile: config,
    logLevel: 'warn',
    preview: { port: 0, host: '127.0.0.1', strictPort: false, open: false },
  });
  const { port } = server.httpServer.address();
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.httpServer.close(resolve)) };
}

// Playwright gives a navigation, a selector or a function 30 s by default, and a page of this
// site has taken longer on a busy machine (a 2 MB Lab link's page.goto). Every page gets
// WAIT_MS instead: its waits stay below the test's own limit (tests/vitest.config.js, 120 s).
export const WAIT_MS = 90_000;

/** Chromium, whose every new context (browser.newPage's too) waits up to WAIT_MS. */
export async function launch() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(WAIT_MS);
    return context;
  };
  browser.newPage = async (options) => (await browser.newContext(options)).newPage();
  return browser;
}

/** A new page that records console errors and uncaught errors into page.errors. */
export async function openPage(browser, url, { width = 1200, height = 900 } = {}) {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  page.errors = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') page.errors.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => page.errors.push(`page: ${err.message}`));
  await page.goto(url);
  await page.waitForFunction(() => window.valleyFarm && document.querySelector('.board'));
  return page;
}

/**
 * The tasks of the browser's renderer main threads (a page's, and its frames') that took `ms`
 * or more of their thread's CPU, from the trace `browser.startTracing(page, { categories:
 * ['devtools.timeline'] })` began (this stops it): their CPU time, not their wall time, which
 * a busy machine stretches. ['250 ms', ...]
 */
export async function longMainThreadTasks(browser, ms = 200) {
  const trace = JSON.parse(await browser.stopTracing());
  const events = trace.traceEvents ?? trace;
  const main = new Set(events.filter((e) => e.name === 'thread_name' && e.args.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  return events
    .filter((e) => e.name === 'RunTask' && main.has(`${e.pid}:${e.tid}`) && e.tdur >= ms * 1000)
    .map((e) => `${Math.round(e.tdur / 1000)} ms`);
}

export function screenshotPath(name) {
  mkdirSync(artifacts, { recursive: true });
  return join(artifacts, name);
}

/**
 * Registers a browser suite's hooks: build, serve and launch once; after each test, fail on
 * any console error of the pages it opened (push them to `opened`), then close them.
 * Returns { server, browser, opened }, filled in once the suite starts.
 */
export function browserSuite() {
  const suite = { server: null, browser: null, opened: [] };
  beforeAll(async () => {
    await ensureBuilt();
    suite.server = await serve();
    suite.browser = await launch();
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.close();
  });
  afterEach(async () => {
    for (const p of suite.opened.splice(0)) {
      expect(p.errors, 'console errors').toEqual([]);
      await p.context().close();
    }
  });
  return suite;
}

/**
 * From now on, every step count the Lab's status line shows while running, in order, into
 * window.shownSteps (a resumed run's first is where it was kept).
 */
export async function recordShownSteps(page) {
  await page.evaluate(() => {
    window.shownSteps = [];
    const line = document.querySelector('[data-testid="lab-status"]');
    new MutationObserver(() => {
      const m = /^running: ([\d,]+) \//.exec(line.textContent);
      if (m) window.shownSteps.push(Number(m[1].replace(/,/g, '')));
    }).observe(line, { childList: true, characterData: true, subtree: true });
  });
}
