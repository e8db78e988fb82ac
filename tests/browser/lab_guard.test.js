// The learner budget's reach in the Lab's sandbox, in Chromium on the built site (its CSP):
// memory a visitor's learner asks for past the 1,024 MB a learner may take is refused however
// it asks (web/src/sandbox/allocationGuard.js, installed in the Worker's global scope before the
// visitor's module is imported), the package's allocations at sizes the visitor chose included.
// Plain arrays, which nothing counts, are the last test's: the heap they fill ends the sandbox's
// process alone (docs/write-a-learner.md).
import { afterEach, describe, expect, it } from 'vitest';
import { browserSuite, openPage } from './page.js';

const suite = browserSuite();
const REFUSED = 'more than the 1,024 MB a learner may take in the Lab';
/** The points of the Lab's curve (run in the page). */
const points = () => Number(document.querySelector('.lab-curve polyline.mean')?.dataset.points ?? 0);
const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let page = null;
afterEach(() => {
  page = null;
});

/** The Lab with the REINFORCE template in the editor, `edit(text)` made of it; Start pressed. */
async function startEdited(edit, steps = 100_000_000) {
  page = await openPage(suite.browser, `${suite.server.url}#/`);
  suite.opened.push(page);
  await page.goto(`${suite.server.url}#/lab?env=BackwardsValleyFarm-v0&algo=reinforce&seed=1&steps=${steps}&threads=1`);
  await page.waitForSelector('main.lab');
  await page.click('button:has-text("Write your own REINFORCE")');
  await page.waitForSelector('[data-testid="lab-code-text"]');
  const text = await page.inputValue('[data-testid="lab-code-text"]');
  const edited = edit(text);
  expect(edited).not.toBe(text);
  await page.fill('[data-testid="lab-code-text"]', edited);
  await page.click('button:has-text("Start")');
  return page;
}

/** The run's error (the status line) once it has stopped in one; the page still answers. */
async function errorOf(timeout = 120_000) {
  await page.waitForSelector('main.lab[data-state="error"]', { timeout });
  const status = await page.textContent('[data-testid="lab-status"]');
  await page.click('button:has-text("Back to the built-in learners")');
  await page.waitForSelector('button:has-text("Open your REINFORCE (kept in this browser)")');
  return status;
}

describe("the learner budget reaches every way a visitor's learner can ask for memory", () => {
  // each line goes first in the module (line 1), so it runs as the module is imported; on main
  // every one of them was made (1.5 to 2 GB each), and the run trained on
  it.each([
    ['globalThis.Float64Array', 'new globalThis.Float64Array(2 ** 28);', 'a Float64Array of 2,048 MB'],
    ['self.ArrayBuffer', 'new self.ArrayBuffer(1.5 * 2 ** 30);', 'an ArrayBuffer of 1,536 MB'],
    ['Reflect.construct', 'Reflect.construct(Uint8Array, [1.5 * 2 ** 30]);', 'a Uint8Array of 1,536 MB'],
    ['WebAssembly.Memory', 'new WebAssembly.Memory({ initial: 24_576 });', 'a WebAssembly memory of 1,536 MB'],
    ['WebAssembly.Memory grow', 'new WebAssembly.Memory({ initial: 1 }).grow(24_576);', 'a WebAssembly memory grown 1,536 MB larger'],
    [
      'ArrayBuffer.prototype.resize',
      'new ArrayBuffer(8, { maxByteLength: 2 ** 31 }).resize(1.5 * 2 ** 30);',
      'an ArrayBuffer resized 1,536 MB larger',
    ],
    // the package's allocation in the learner core at a size the visitor chose: samples for a
    // replay memory of 2^24 states (its second block passes the budget)
    [
      "the learner core's samples (the package's allocation)",
      "const kit = await import('valley-farm/learn'); new kit.Samples(await kit.loadCore(), 2 ** 24, 8, { actions: 11 });",
      /[\d,]+ MB in the learner core beside the [\d,]+ MB it holds/,
    ],
    ['a Worker of its own', "new Worker('data:text/javascript,');", /cannot start Workers of its own/],
  ])(
    '%s is refused at the line that asked, the run stopped, the page answering',
    async (_, line, refusal) => {
      await startEdited((text) => `${line}\n${text}`);
      const status = await errorOf();
      expect(status).toContain('(line 1 of your learner)');
      if (typeof refusal === 'string')
        expect(status).toMatch(
          new RegExp(`your learner asked for ${escaped(refusal)}( beside the [\\d,]+ (bytes|MB) it holds)?, ${REFUSED}`),
        );
      else expect(status).toMatch(refusal);
      expect(page.errors ?? []).toEqual([]);
    },
    200_000,
  );

  it("a visitor's settings cannot take the package past the budget at run time: rollouts sized by the learner's own default are refused in the learner core", async () => {
    // the Lab estimates the template's settings (numEnvs 64, about 80 MB); the visitor's learner
    // makes its own default numEnvs 65,536 (its limit raised to match) and declares no memory,
    // so the sandbox's createLearner estimates nothing, and the package sizes every shard's
    // rollout (samples in the learner core) by it: 8 shards of 327,680 steps
    await startEdited((text) =>
      text
        .replace('  numEnvs: 64,', '  numEnvs: 65_536,')
        .replace('  numEnvs: whole(1, 1024),', '  numEnvs: whole(1, 65_536),')
        .replace(/\n {2}memory,\n/, '\n'),
    );
    expect(await errorOf(200_000)).toMatch(
      new RegExp(`your learner asked for [\\d,]+ (bytes|MB) in the learner core beside the [\\d,]+ MB it holds, ${REFUSED}`),
    );
  }, 300_000);

  it("a heap filled with plain arrays ends the code sandbox's process alone: the Lab's page goes on, and reports the silent run with its curve kept", async () => {
    // Playwright takes a crash of any frame of a page for the page's own and answers no more
    // calls on it, so the page is watched through a CDP session of its own, and the crash of
    // each target through the browser's
    const browserCdp = await suite.browser.newBrowserCDPSession();
    const crashed = [];
    const types = new Map();
    browserCdp.on('Target.targetCreated', (e) => types.set(e.targetInfo.targetId, e.targetInfo.type));
    browserCdp.on('Target.targetCrashed', (e) => crashed.push(types.get(e.targetId) ?? 'unknown'));
    await browserCdp.send('Target.setDiscoverTargets', { discover: true });
    const start = await startEdited((text) =>
      text.replace(
        'trainFor(steps, { until } = {}) {',
        'trainFor(steps, { until } = {}) {\n      if (stats.steps >= 20_000) { const hog = []; for (;;) hog.push(new Array(2 ** 20).fill(0.5)); }',
      ),
    );
    const cdp = await start.context().newCDPSession(start);
    const ask = async (expression) => (await cdp.send('Runtime.evaluate', { expression, returnByValue: true })).result.value;
    const lab = () =>
      ask(
        `[document.querySelector('main.lab')?.dataset.state, document.querySelector('[data-testid="lab-status"]')?.textContent, (${points})()]`,
      );
    let seen = await lab();
    for (let waited = 0; seen[0] !== 'error' && waited < 240_000; waited += 500) {
      await new Promise((r) => setTimeout(r, 500));
      seen = await lab();
    }
    const [state, status, curve] = seen;
    expect(state, status).toBe('error');
    expect(status).toMatch(/^your learner stopped answering for 30 s while it trained \(a Worker of it out of memory/);
    expect(curve, 'the curve is kept').toBeGreaterThan(0);
    // the sandbox's frame ended, the page did not: it still answers, and goes back to the built-in learners
    expect(crashed).toContain('iframe');
    expect(crashed).not.toContain('page');
    await ask(`[...document.querySelectorAll('button')].find((b) => b.textContent === 'Back to the built-in learners').click()`);
    let back = false;
    for (let waited = 0; !back && waited < 30_000; waited += 250) {
      back = await ask(`[...document.querySelectorAll('button')].some((b) => /^Open your REINFORCE/.test(b.textContent))`);
      if (!back) await new Promise((r) => setTimeout(r, 250));
    }
    expect(back).toBe(true);
    await browserCdp.detach();
    start.errors = []; // Playwright's own view of the page ended with the frame
  }, 360_000);
});
