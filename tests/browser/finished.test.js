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
