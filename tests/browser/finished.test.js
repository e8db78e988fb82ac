// The game, finished (issue 33), in Debian's Chromium on the built site: each bug that a
// visitor met gets a test here. Fails on any console or page error (browserSuite).
import { describe, it, expect } from 'vitest';
import { browserSuite } from './page.js';

const suite = browserSuite();

/** A page at `route` with the game (or the embed) drawn. */
async function open(route = '#/', { width = 1200, height = 900, mobile = false } = {}) {
  const context = await suite.browser.newContext({
    viewport: { width, height },
    ...(mobile ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
  });
  const page = await context.newPage();
  page.errors = [];
  page.on('console', (m) => m.type() === 'error' && page.errors.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => page.errors.push(`page: ${e.message}`));
  suite.opened.push(page);
  await page.goto(`${suite.server.url}${route}`);
  await page.waitForSelector('.board');
  return page;
}
const stat = (page, name) => page.locator(`[data-stat="${name}"]`).textContent();
const blur = (page) => page.evaluate(() => document.activeElement?.blur());

describe('a bad seed', () => {
  it('switching farm with a bad seed in the box keeps the farm in play, says what is wrong, and keys still play', async () => {
    const page = await open();
    await page.fill('#seed-input', 'abc');
    await page.click('button.tab:has-text("Backwards Valley Farm")');
    await page.waitForSelector('.message-error');
    expect(await page.locator('.message-error').textContent()).toMatch(/The seed you typed is "abc"; a seed must be a whole number/);
    // the page shows one farm: the valley's header, card, board and status agree
    expect(await page.evaluate(() => window.valleyFarm.status().env)).toBe('ValleyFarm-v0');
    expect(await page.locator('button.tab[aria-pressed="true"]').textContent()).toBe('Valley Farm');
    expect(await page.locator('.blurb strong').textContent()).toBe('Valley Farm');
    expect(await page.locator('[data-stat="farmValue"]').count()).toBe(0);
    await blur(page);
    await page.keyboard.press(' ');
    expect(await stat(page, 'stepsLeft')).toBe('49');
    // a good seed then switches
    await page.fill('#seed-input', '7');
    await page.click('button.tab:has-text("Backwards Valley Farm")');
    await page.waitForSelector('[data-stat="farmValue"]');
    expect(await page.locator('[data-testid="episode-seed"]').textContent()).toBe('7');
  });
});

describe('one numbering', () => {
  it("the event log's villager is the status panel's villager of that number (both from the engine's 0-based index)", async () => {
    const page = await open();
    const gift = await page.evaluate(async () => {
      const h = window.valleyFarm;
      h.reset(3);
      await h.setAgent('heuristic');
      for (let i = 0; i < 50; i++) {
        await h.app.runner.stepOnce();
        const e = h.app.session.log.find((ev) => ev.text.startsWith('gift to villager'));
        if (e) return e.text;
      }
      return null;
    });
    const [, who, after] = gift.match(/^gift to villager (\d+): relationship [\d.]+ → ([\d.]+)/);
    const row = page.locator('.status .stat', { has: page.locator(`dt:text-is("villager ${who}")`) });
    expect(await row.locator('dd').getAttribute('data-stat')).toBe(`relationship-${who}`);
    // the observation rounds the relationship to the nearest 5, halves up (62.5 → 65)
    expect(Number((await row.locator('dd').textContent()).split(' ')[0])).toBe(Math.floor(Number(after) / 5 + 0.5) * 5);
    const cell = await page.evaluate((i) => {
      const v = window.valleyFarm.state().villagers[Number(i)];
      return document.querySelector(`g.cell[data-x="${v.x}"][data-y="${v.y}"]`).getAttribute('aria-label');
    }, who);
    expect(cell).toMatch(new RegExp(`^Villager ${who},`));
  });
});

describe('a phone, 375 × 667, touch', () => {
  const PHONE = { width: 375, height: 667, mobile: true };
  const box = (page, selector) =>
    page.evaluate((s) => {
      const r = document.querySelector(s).getBoundingClientRect();
      return { top: r.top + scrollY, bottom: r.bottom + scrollY, width: r.width, height: r.height };
    }, selector);

  it.each([
    ['ValleyFarm-v0', 'Valley Farm'],
    ['BackwardsValleyFarm-v0', 'Backwards Valley Farm'],
  ])('%s: the first screen shows the board, the board and the action pad fit one screen, every target is ≥ 44 px', async (envId, title) => {
    const page = await open('#/', PHONE);
    await page.locator(`button.tab[title="${envId}"]`).tap();
    await page.waitForFunction((t) => document.querySelector('.blurb strong')?.textContent === t, title);
    expect(await page.locator('[data-testid="how-to"]').count()).toBe(1); // a first visit: the card shows, after the pad
    const board = await box(page, '.board');
    expect(board.bottom).toBeLessThanOrEqual(667);
    const pad = await box(page, '.actions .pad');
    expect(pad.top).toBeGreaterThan(board.top);
    expect(pad.bottom - board.top).toBeLessThanOrEqual(667);
    // every control one plays with, and the header's, is at least 44 × 44 px
    const small = await page.evaluate(() =>
      [...document.querySelectorAll('button.action, .toolbar button, .tab, .top a, .how-to button')]
        .map((b) => ({ name: b.dataset.action ?? b.textContent.trim(), r: b.getBoundingClientRect() }))
        .filter(({ r }) => r.width < 44 || r.height < 44)
        .map(({ name, r }) => `${name} ${Math.round(r.width)}×${Math.round(r.height)}`),
    );
    expect(small).toEqual([]);
    // each action button holds its own contents (no badge or name sticking out)
    const spill = await page.evaluate(() =>
      [...document.querySelectorAll('button.action')]
        .filter((b) => {
          const r = b.getBoundingClientRect();
          return [...b.querySelectorAll('.action-name, kbd')].some((c) => {
            const k = c.getBoundingClientRect();
            return k.width > 0 && (k.left < r.left - 0.5 || k.right > r.right + 0.5);
          });
        })
        .map((b) => b.dataset.action),
    );
    expect(spill).toEqual([]);
  });

  it.each([
    '#/',
    '#/docs',
    '#/docs/valley',
    '#/docs/backwards',
    '#/docs/api',
    '#/docs/tutorial',
    '#/docs/embed',
    '#/docs/benchmark',
    '#/docs/training',
    '#/docs/speed',
    '#/docs/architecture',
    '#/lab',
    '#/embed?env=valley&seed=7',
  ])('%s has no sideways scroll', async (route) => {
    const context = await suite.browser.newContext({ viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    page.errors = [];
    page.on('pageerror', (e) => page.errors.push(`page: ${e.message}`));
    suite.opened.push(page);
    await page.goto(`${suite.server.url}${route}`);
    await page.waitForSelector('h1');
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });
});

describe('small ones', () => {
  it('the how-to card has the focus on "Got it" first, and Escape closes it', async () => {
    const page = await open();
    await page.waitForSelector('[data-testid="how-to"]');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Got it');
    await page.locator('#seed-input').focus(); // Escape works from anywhere on the page
    await page.keyboard.press('Escape');
    expect(await page.locator('[data-testid="how-to"]').count()).toBe(0);
  });

  it.each([1200, 900])('at %i px, every action button holds its name and its key badge (backwards "compliment")', async (width) => {
    const page = await open('#/', { width });
    await page.click('button.tab[title="BackwardsValleyFarm-v0"]');
    await page.waitForSelector('button[data-action="compliment"]');
    const spilling = () =>
      [...document.querySelectorAll('button.action')]
        .filter((b) => {
          const r = b.getBoundingClientRect();
          return [...b.querySelectorAll('.action-name, kbd')].some((c) => {
            const k = c.getBoundingClientRect();
            return k.left < r.left - 0.5 || k.right > r.right + 0.5 || k.bottom > r.bottom + 0.5;
          });
        })
        .map((b) => b.dataset.action);
    // the layout settles over a few frames after the switch (fonts, the new farm's panels),
    // which a busy machine may stretch to seconds: a button that still spills after 30 s fails
    await expect.poll(() => page.evaluate(spilling), { timeout: 30_000, intervals: [100] }).toEqual([]);
  });

  it("the backwards farm's empty event log speaks of the backwards farm", async () => {
    const page = await open();
    await page.click('button.tab[title="BackwardsValleyFarm-v0"]');
    await page.waitForSelector('[data-stat="farmValue"]');
    const text = await page.locator('.event-empty').textContent();
    expect(text).toMatch(/ripe fields/);
    expect(text).not.toMatch(/plant|gift/);
  });

  it('Space after clicking a move button waits, and does not repeat the move', async () => {
    const page = await open();
    await page.fill('#seed-input', '42');
    await page.keyboard.press('Enter');
    const { move, x, y } = await page.evaluate(() => {
      const legal = window.valleyFarm.legalActions();
      const { x, y } = window.valleyFarm.state().agent;
      return { move: ['north', 'south', 'east', 'west'][[0, 1, 2, 3].find((a) => legal[a] === 1)], x, y };
    });
    await page.click(`button[data-action="${move}"]`);
    const after = await page.evaluate(() => window.valleyFarm.state().agent);
    expect(after).not.toEqual({ x, y });
    await page.keyboard.press('Space');
    expect(await stat(page, 'lastAction')).toContain('wait');
    expect(await page.evaluate(() => window.valleyFarm.state().agent)).toEqual(after);
  });

  it("a shared replay's message says the return it reached", async () => {
    const link = await (async () => {
      const page = await open();
      return page.evaluate(async () => {
        window.valleyFarm.reset(5);
        await window.valleyFarm.setAgent('heuristic');
        await window.valleyFarm.run({ episodes: 1 });
        return { url: window.valleyFarm.shareLink(), ret: window.valleyFarm.replay().ret };
      });
    })();
    const page = await open(link.url.slice(link.url.indexOf('#')));
    await page.waitForSelector('[data-testid="replay-position"]');
    expect(await page.locator('.message').textContent()).toContain(`return ${Math.round(link.ret * 100) / 100}.`);
  });
});

describe('the embed answers messages', () => {
  /**
   * A parent page that frames `src`, waits for ready, sends `calls` one after another (each
   * when the one before has its reply: a read is answered at once, ahead of calls still
   * waiting), and resolves with everything it got.
   */
  async function drive(src, calls) {
    const context = await suite.browser.newContext();
    const parent = await context.newPage();
    parent.errors = [];
    parent.on('pageerror', (err) => parent.errors.push(err.message));
    suite.opened.push(parent);
    await parent.setContent('<!doctype html><title>embedding page</title><body></body>');
    return parent.evaluate(
      ({ src, calls }) =>
        new Promise((resolve, reject) => {
          const got = [];
          const frame = document.createElement('iframe');
          frame.src = src;
          window.addEventListener('message', (e) => {
            if (e.data?.type !== 'valley-farm') return;
            got.push(e.data);
            const next = e.data.event === 'ready' ? 0 : calls.findIndex((c) => c.id === e.data.id) + 1;
            if (next === calls.length) resolve(got);
            else if (next > 0 || e.data.event === 'ready') frame.contentWindow.postMessage({ type: 'valley-farm', ...calls[next] }, '*');
          });
          document.body.append(frame);
          setTimeout(() => reject(new Error(`no replies: ${JSON.stringify(got)}`)), 20000);
        }),
      { src, calls },
    );
  }

  it('#/embed announces ready and answers status and step, as the game page does', async () => {
    const got = await drive(`${suite.server.url}#/embed?env=backwards&seed=7`, [
      { id: 1, method: 'status' },
      { id: 2, method: 'step', args: ['east'] },
      { id: 3, method: 'status' },
    ]);
    expect(got[0]).toEqual({ type: 'valley-farm', event: 'ready', envIds: ['ValleyFarm-v0', 'BackwardsValleyFarm-v0'], allowCode: false });
    expect(got.find((r) => r.id === 1)).toMatchObject({ ok: true, result: { env: 'BackwardsValleyFarm-v0', seed: 7, step: 0 } });
    expect(got.find((r) => r.id === 2)).toMatchObject({ ok: true, result: { info: { step: 1 } } });
    expect(got.find((r) => r.id === 3)).toMatchObject({ ok: true, result: { step: 1 } });
  });

  it("the embed keeps the game page's opt-ins: code runs only with allow=code", async () => {
    const code = { id: 1, method: 'setAgent', args: [{ code: 'function act() { return "wait"; }' }] };
    const off = await drive(`${suite.server.url}#/embed?env=valley&seed=3`, [code]);
    expect(off.find((r) => r.id === 1)).toMatchObject({ ok: false, error: expect.stringMatching(/allow=code/) });
    const on = await drive(`${suite.server.url}?allow=code#/embed?env=valley&seed=3`, [code]);
    expect(on[0]).toMatchObject({ event: 'ready', allowCode: true });
    expect(on.find((r) => r.id === 1)).toMatchObject({ ok: true });
  });
});
