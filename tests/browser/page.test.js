// End to end in Debian's Chromium: the built page (dist/) served on localhost. Plays both
// farms by keyboard and by click, runs the heuristic agent and code from the editor, imports
// a replay, opens a share link and a broken one — and fails on any console error. Saves a
// screenshot of each farm (and a phone-width one) to tests/artifacts/.
import { describe, it, expect } from 'vitest';
import { browserSuite, openPage, screenshotPath } from './page.js';

const suite = browserSuite();

async function open(hash = '', size) {
  const page = await openPage(suite.browser, suite.server.url + hash, size);
  suite.opened.push(page);
  return page;
}
const stat = (page, name) => page.locator(`[data-stat="${name}"]`).textContent();
const blur = (page) => page.evaluate(() => document.activeElement?.blur());

/** The move (0..3) that is legal now and the cell it leads to. */
async function legalMove(page) {
  return page.evaluate(() => {
    const h = window.valleyFarm;
    const legal = h.legalActions();
    const { x, y } = h.state().agent;
    const a = [0, 1, 2, 3].find((i) => legal[i] === 1);
    const to = [
      [x, y - 1],
      [x, y + 1],
      [x + 1, y],
      [x - 1, y],
    ][a];
    return { a, x: to[0], y: to[1] };
  });
}

describe('playing by hand', () => {
  it('ValleyFarm-v0: keyboard and click move the farmer, and the status panel follows', async () => {
    const page = await open();
    await page.fill('#seed-input', '42');
    await page.click('button:has-text("New episode")');
    expect(await page.locator('[data-testid="episode-seed"]').textContent()).toBe('42');
    expect(await stat(page, 'stepsLeft')).toBe('50');
    await blur(page);

    const move = await legalMove(page);
    await page.keyboard.press(['ArrowUp', 'ArrowDown', 'ArrowRight', 'ArrowLeft'][move.a]);
    expect(await stat(page, 'stepsLeft')).toBe('49');
    expect(await page.evaluate(() => window.valleyFarm.state().agent)).toEqual({ x: move.x, y: move.y });
    expect(await stat(page, 'legal')).toContain('✓ legal');

    const next = await legalMove(page);
    await page.click(`g.cell[data-x="${next.x}"][data-y="${next.y}"]`);
    expect(await stat(page, 'stepsLeft')).toBe('48');
    expect(await page.evaluate(() => window.valleyFarm.state().agent)).toEqual({ x: next.x, y: next.y });

    await page.keyboard.press('h'); // nothing to harvest on the path: illegal, a step spent
    expect(await stat(page, 'stepsLeft')).toBe('47');
    expect(await stat(page, 'legal')).toContain('illegal');
    expect(await stat(page, 'lastAction')).toContain('harvest');

    await page.keyboard.press('n');
    expect(await stat(page, 'stepsLeft')).toBe('50');
    await page.screenshot({ path: screenshotPath('valley-farm.png') });
  });

  it('BackwardsValleyFarm-v0: tabs switch farm; keys turn, move and insult', async () => {
    const page = await open();
    await page.click('button.tab:has-text("Backwards Valley Farm")');
    await page.waitForSelector('[data-stat="farmValue"]');
    await page.fill('#seed-input', '7');
    await page.keyboard.press('Enter');
    await blur(page);
    expect(await stat(page, 'stepsLeft')).toBe('40');
    await page.keyboard.press('d');
    expect(await stat(page, 'facing')).toBe('east');
    await page.keyboard.press('i');
    expect(await stat(page, 'stepsLeft')).toBe('38');
    await page.click('button:has-text("Agent\'s eyes")');
    expect(await page.locator('g.cell[data-kind="unknown"]').count()).toBeGreaterThan(0);
    await page.click('button:has-text("World")');
    await page.screenshot({ path: screenshotPath('backwards-valley-farm.png') });
  });

  it('fits a phone: 390 px wide, no sideways scrolling', async () => {
    const page = await open('', { width: 390, height: 844 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: screenshotPath('valley-farm-phone.png'), fullPage: false });
  });
});

describe('agents', () => {
  it('the heuristic plays episodes as fast as possible while the page stays responsive', async () => {
    const page = await open();
    // how long a task queued now waits to run: the median of five round trips (one sample can
    // meet a garbage collection; a runner that blocked would slow all five)
    const taskLag = () =>
      page.evaluate(async () => {
        const lags = [];
        for (let i = 0; i < 5; i++) {
          const t = performance.now();
          await new Promise((r) => setTimeout(r, 0));
          lags.push(performance.now() - t);
        }
        return lags.sort((a, b) => a - b)[2];
      });
    // the control: one step by hand and the page's render of it (the median of five), what a
    // slice of the runner's play ends with too; a busy machine stretches both alike
    const byHand = await page.evaluate(async () => {
      const costs = [];
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        window.valleyFarm.step('wait');
        await new Promise((r) => setTimeout(r, 0));
        costs.push(performance.now() - t);
      }
      return costs.sort((a, b) => a - b)[2];
    });
    await page.check('input[name="agent"][value="heuristic"]');
    await page.evaluate(() => window.valleyFarm.setSpeed(Infinity));
    await page.click('button:has-text("Play")');
    await page.waitForFunction(() => window.valleyFarm.runnerStats().episodes >= 20);
    // the runner yields after each slice of 8 ms of play and its render: a task waits about that
    expect(await taskLag(), `a step by hand: ${byHand} ms`).toBeLessThan(2 * byHand + 100);
    await page.waitForFunction(() => window.valleyFarm.runnerStats().stepsPerSecond > 0);
    await page.click('button:has-text("Pause")');
    const stats = await page.evaluate(() => window.valleyFarm.runnerStats());
    expect(stats.playing).toBe(false);
    expect(Number((await stat(page, 'episodes')).replace(/,/g, ''))).toBeGreaterThanOrEqual(20);
    await page.waitForSelector('[data-mean="heuristic"]');
    const h = Number(await page.locator('[data-mean="heuristic"]').textContent());
    const r = Number(await page.locator('[data-mean="random"]').textContent());
    expect(h).toBeGreaterThan(r);
    expect(stats.returns.reduce((s, x) => s + x, 0) / stats.returns.length).toBeGreaterThan(r);
  });

  it('code from the editor runs in a worker; an endless loop is stopped and reported', async () => {
    const page = await open();
    await page.fill('#agent-code', 'function act(obs) {\n  return obs.stepsLeft % 2 ? "east" : "west";\n}');
    await page.click('button:has-text("Run code")');
    await page.waitForFunction(() => window.valleyFarm.status().step >= 3);
    await page.click('button:has-text("Pause")');
    expect(await page.locator('input[name="agent"][value="custom"]').isChecked()).toBe(true);

    await page.fill('#agent-code', 'function act() { for (;;) {} }');
    await page.click('button:has-text("Run code")');
    await page.waitForSelector('.runner-error'); // the page's wait (page.js): starting the sandbox may take seconds
    expect(await page.locator('.runner-error').textContent()).toMatch(/ran for more than 1 s \(an endless loop\?\)/);
    await blur(page); // still playable by hand
    const before = Number(await stat(page, 'stepsLeft'));
    await page.keyboard.press(' ');
    expect(Number(await stat(page, 'stepsLeft'))).toBe(before - 1);

    await page.fill('#agent-code', 'function act( {');
    await page.click('button:has-text("Run code")');
    expect(await page.locator('.code-error').textContent()).toMatch(/Your code did not load: SyntaxError/);
  });
});

describe('record and replay', () => {
  it('imports a replay file and steps through it; a bad file gets a message', async () => {
    const page = await open();
    const replay = { env: 'BackwardsValleyFarm-v0', seed: 11, actions: ['north', 'east', 'wait', 'insult'] };
    await page.setInputFiles('[data-testid="import-file"]', {
      name: 'r.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(replay)),
    });
    await page.waitForSelector('[data-testid="replay-position"]');
    expect(await page.locator('[data-testid="replay-position"]').textContent()).toBe('step 0 / 4');
    await blur(page);
    await page.keyboard.press(']');
    await page.keyboard.press(']');
    expect(await page.locator('[data-testid="replay-position"]').textContent()).toBe('step 2 / 4');
    await page.keyboard.press('[');
    expect(await page.locator('[data-testid="replay-position"]').textContent()).toBe('step 1 / 4');

    await page.setInputFiles('[data-testid="import-file"]', {
      name: 'bad.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{"env":"ValleyFarm-v0","seed":1,"actions":[0,99]}'),
    });
    await page.waitForSelector('.message-error');
    expect(await page.locator('.message-error').textContent()).toMatch(/Could not open "bad.json"\. The replay's actions\[1\] is 99/);
    expect(await page.locator('[data-testid="replay-position"]').textContent()).toBe('step 1 / 4');
  });

  it('a share link reproduces the episode in another tab', async () => {
    const page = await open();
    await page.evaluate(() => window.valleyFarm.reset(123));
    await page.evaluate(() => window.valleyFarm.run({ episodes: 1 }));
    await page.evaluate(() => window.valleyFarm.reset(123));
    await page.evaluate(async () => {
      window.valleyFarm.setAgent('heuristic');
      for (let i = 0; i < 20; i++) await window.valleyFarm.app.runner.stepOnce();
    });
    const original = await page.evaluate(() => ({ state: window.valleyFarm.state(), link: window.valleyFarm.shareLink() }));
    await page.click('button:has-text("Share link")');
    expect(await page.inputValue('#share-link')).toBe(original.link);

    const other = await open(original.link.slice(original.link.indexOf('#')));
    await other.waitForSelector('[data-testid="replay-position"]');
    expect(await other.locator('[data-testid="replay-position"]').textContent()).toBe('step 0 / 20');
    await other.click('button[aria-label="Last step"]');
    expect(await other.evaluate(() => window.valleyFarm.state())).toEqual(original.state);
  });

  it('a broken share link says what is wrong, and the game stays playable', async () => {
    const page = await open('#replay=1.V.abc.00');
    await page.waitForSelector('.message-error');
    expect(await page.locator('.message-error').textContent()).toMatch(
      /This link's replay could not be opened\. The share link's seed is "abc"/,
    );
    await blur(page);
    await page.keyboard.press(' ');
    expect(await stat(page, 'stepsLeft')).toBe('49');
  });
});

describe('embedding', () => {
  it('a parent page drives the game in an iframe through postMessage', async () => {
    const context = await suite.browser.newContext();
    const parent = await context.newPage();
    parent.errors = [];
    parent.on('pageerror', (err) => parent.errors.push(err.message));
    suite.opened.push(parent);
    await parent.setContent('<!doctype html><title>embedding page</title><body></body>');
    const replies = await parent.evaluate(
      (src) =>
        new Promise((resolve, reject) => {
          const got = [];
          const frame = document.createElement('iframe');
          frame.src = src;
          window.addEventListener('message', (e) => {
            if (e.data?.type !== 'valley-farm') return;
            got.push(e.data);
            if (e.data.event === 'ready') {
              frame.contentWindow.postMessage({ type: 'valley-farm', id: 1, method: 'reset', args: [5] }, '*');
              frame.contentWindow.postMessage({ type: 'valley-farm', id: 2, method: 'step', args: ['wait'] }, '*');
              frame.contentWindow.postMessage({ type: 'valley-farm', id: 3, method: 'fly', args: [] }, '*');
            }
            if (e.data.id === 3) resolve(got);
          });
          document.body.append(frame);
          setTimeout(() => reject(new Error(`no replies: ${JSON.stringify(got)}`)), 20000);
        }),
      suite.server.url,
    );
    expect(replies[0]).toMatchObject({ event: 'ready', envIds: ['ValleyFarm-v0', 'BackwardsValleyFarm-v0'] });
    expect(replies.find((r) => r.id === 1)).toMatchObject({ ok: true, result: { info: { seed: 5, step: 0 } } });
    expect(replies.find((r) => r.id === 2)).toMatchObject({ ok: true, result: { reward: 0, info: { step: 1 } } });
    expect(replies.find((r) => r.id === 3)).toMatchObject({ ok: false, error: expect.stringMatching(/Unknown method "fly"/) });
  });
});
