// The docs end to end in Debian's Chromium, on the built site (dist/, built and served by the
// page's own fixture, tests/browser/page.js): every docs page opens with no console error,
// one widget per farm shows its rule, an API example runs in its Web Worker (and an endless
// one is stopped), the tutorial plots its returns, every internal link and anchor resolves,
// and — once the #/embed route is wired — the embed view plays.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, expect } from 'vitest';
import { browserSuite, root } from './page.js';

// The docs pages (web/src/docs/index.jsx PAGES) and their section ids.
const PAGES = ['', 'valley', 'backwards', 'api', 'tutorial', 'embed'];
const routerSources = ['web/src/main.jsx', 'web/src/components/App.jsx', 'web/src/model/route.js']
  .map((p) => {
    try {
      return readFileSync(join(root, p), 'utf8');
    } catch {
      return '';
    }
  })
  .join('\n');
const embedWired = /docs\/Embed\.jsx/.test(routerSources);

const suite = browserSuite();

/** A page at `#/docs<path>`, recording console and page errors. */
async function docs(path = '', { width = 1200, height = 900 } = {}) {
  const context = await suite.browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  page.errors = [];
  page.on('console', (m) => m.type() === 'error' && page.errors.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => page.errors.push(`page: ${e.message}`));
  suite.opened.push(page);
  await page.goto(`${suite.server.url}#/docs${path}`);
  await page.waitForSelector('.docs-page');
  return page;
}

/** Waits until the page's widgets have their boards (each widget has its own engine). */
const widgetsReady = (page) => page.waitForFunction(() => !document.querySelector('.docs-widget-loading'));
const fact = (widget, key) => widget.locator(`[data-fact="${key}"] dd`).textContent();

describe('docs pages', () => {
  it('every page opens without a console error, widgets and code boxes included', async () => {
    const page = await docs('');
    for (const slug of PAGES) {
      await page.goto(`${suite.server.url}#/docs${slug ? `/${slug}` : ''}`);
      await page.waitForSelector(`.docs-page[data-page="${slug || 'home'}"]`);
      await widgetsReady(page);
      expect(await page.locator('.docs-error').count(), slug).toBe(0);
    }
    await page.waitForTimeout(300); // let the embeds' iframes start
  });

  it('valley widget: feed the cow, wait 5 steps, one product is pending; 5 more, two', async () => {
    const page = await docs('/valley/animals');
    await widgetsReady(page);
    const w = page.locator('[data-widget="valley-feed"]');
    await w.locator('[data-action="feed"]').click();
    await w.locator('[data-action="wait"][data-times="5"]').click();
    expect(await fact(w, 'pending')).toBe('1');
    await w.locator('[data-action="wait"][data-times="5"]').click();
    expect(await fact(w, 'pending')).toBe('2');
    await w.locator('[data-action="reset"]').click();
    expect(await fact(w, 'pending')).toBe('0');
    // another widget on the page was never touched
    expect(await fact(page.locator('[data-widget="valley-crop"]'), 'last')).toBe('none yet');
  });

  it('backwards widget: water the crop in front and it is back to Seed; insult and the villager turns Friendly', async () => {
    const page = await docs('/backwards/actions');
    await widgetsReady(page);
    const crop = page.locator('[data-widget="backwards-crop"]');
    expect(await fact(crop, 'stage')).not.toContain('Seed');
    await crop.locator('[data-action="water"]').click();
    expect(await fact(crop, 'stage')).toBe('Seed (stage 0)');
    const v = page.locator('[data-widget="backwards-insult"]');
    await v.locator('[data-action="insult"]').click();
    expect(await fact(v, 'mood')).toBe('Friendly');
    expect(await fact(v, 'bonus')).toContain('paid');
  });

  it('an API example runs in its Web Worker and shows its output; an endless one is stopped', async () => {
    const page = await docs('/api/step');
    const ex = page.locator('[data-example="step"]');
    await ex.locator('.docs-run').click();
    // (each wait is the page's, page.js: a sandbox's frame and Workers may take seconds to start)
    await page.waitForSelector('[data-example="step"] .docs-code-output[data-status="done"]');
    const out = await ex.locator('.docs-code-output').textContent();
    expect(out).toContain('fed: true feed left: 2');
    expect(out).toContain('fed again: false step 3');
    const endless = page.locator('[data-example="endless"]');
    await endless.locator('.docs-run').click();
    await page.waitForSelector('[data-example="endless"] .docs-code-output[data-status="error"]');
    expect(await endless.locator('.docs-code-output').textContent()).toMatch(/Stopped after 3 s/);
    // the page stayed responsive: a widget-free page still answers
    expect(await page.evaluate(() => 1 + 1)).toBe(2);
  });

  it('the tutorial plays the reader’s agent and plots one dot per episode', async () => {
    const page = await docs('/tutorial');
    await page.locator('[data-step="1"]').click();
    await page.locator('.docs-num').fill('12');
    await page.locator('.docs-tutorial .docs-run').click();
    await page.waitForSelector('.docs-tutorial .status-done');
    expect(await page.locator('.docs-tutorial .plot circle.dot').count()).toBe(12);
    expect(await page.locator('[data-table="runs"] tbody tr').count()).toBe(1);
  });

  it('phone width: the docs fit without sideways scrolling', async () => {
    const page = await docs('/valley', { width: 390, height: 800 });
    await widgetsReady(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
  });
});

describe('link checker', () => {
  it('every internal link and anchor in the docs resolves', async () => {
    const page = await docs('');
    const seen = new Set();
    const queue = PAGES.map((s) => `#/docs${s ? `/${s}` : ''}`);
    const bad = [];
    while (queue.length) {
      const hash = queue.shift();
      if (seen.has(hash)) continue;
      seen.add(hash);
      await page.goto(`${suite.server.url}${hash}`);
      if (hash === '#/' || hash === '#') {
        await page.waitForSelector('.board');
        continue;
      }
      if (hash.startsWith('#/lab')) {
        await page.waitForSelector('main.lab'); // the Lab, a page of the site as the game is
        continue;
      }
      await page.waitForSelector('.docs-page');
      const state = await page.evaluate((h) => {
        const section = h.split('/')[3];
        const pageEl = document.querySelector('.docs-page');
        return {
          notFound: pageEl.dataset.page === 'not-found',
          badSection: !!document.querySelector('.docs-main > .docs-error'),
          anchor: section ? !!document.getElementById(`docs-${pageEl.dataset.page}-${section}`) : true,
          links: [...document.querySelectorAll('a[href]')].map((a) => a.getAttribute('href')),
          frames: [...document.querySelectorAll('iframe[src]')].map((f) => f.getAttribute('src')),
        };
      }, hash);
      if (state.notFound || state.badSection || !state.anchor) bad.push(hash);
      for (const href of state.links) {
        if (href.startsWith('#/docs') || href === '#/' || href.startsWith('#/lab')) queue.push(href);
        else if (href.startsWith('#')) bad.push(`${hash} -> ${href} (a bare anchor would leave the docs)`);
        else if (!/^(https?:|mailto:)/.test(href)) {
          const res = await page.request.get(new URL(href, suite.server.url).href);
          if (!res.ok()) bad.push(`${hash} -> ${href} (HTTP ${res.status()})`);
        }
      }
      for (const src of state.frames) {
        const res = await page.request.get(new URL(src, suite.server.url).href);
        if (!res.ok()) bad.push(`${hash} -> iframe ${src} (HTTP ${res.status()})`);
      }
    }
    expect(bad).toEqual([]);
    expect(seen.size).toBeGreaterThan(PAGES.length + 20); // the sections were followed too
  });
});

describe('embed', () => {
  it.skipIf(!embedWired)('index.html#/embed?… shows a live farm with no page chrome, and plays', async () => {
    const page = await docs('');
    await page.goto(`${suite.server.url}index.html#/embed?env=ValleyFarm-v0&seed=7&view=world&controls=1`);
    await page.waitForSelector('.vf-embed .board');
    expect(await page.locator('.docs-nav, .foot').count()).toBe(0);
    expect(await page.locator('[data-stat="stepsLeft"]').textContent()).toBe('50');
    await page.locator('.vf-embed [data-action="north"]').click();
    expect(await page.locator('[data-stat="stepsLeft"]').textContent()).toBe('49');
    await page.locator('.vf-embed [data-action="reset"]').click();
    expect(await page.locator('[data-stat="stepsLeft"]').textContent()).toBe('50');
  });

  it.skipIf(!embedWired)('the docs’ own iframes show the embed', async () => {
    const page = await docs('/embed');
    const frame = page.frameLocator('iframe.docs-embed-frame').first();
    await frame.locator('.vf-embed .board').waitFor(); // the page's wait (page.js)
    expect(await frame.locator('[data-stat="stepsLeft"]').textContent()).toBe('50');
  });
});
