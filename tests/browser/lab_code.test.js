// "Your learner" in the Lab, in Chromium on the built site: the editor opened on a template,
// Start trains the visitor's code in the code sandbox with the Lab's curve, and the Lab's
// buttons work on its policy; an endless loop in the visitor's code is ended by Stop.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { browserSuite, openPage } from './page.js';

const suite = browserSuite();
const points = () => Number(document.querySelector('.lab-curve polyline.mean')?.dataset.points ?? 0);

/** The Lab on REINFORCE's settings, with the editor open on its template. */
async function labWithTemplate(steps) {
  const page = await openPage(suite.browser, `${suite.server.url}#/`);
  suite.opened.push(page);
  await page.goto(`${suite.server.url}#/lab?env=BackwardsValleyFarm-v0&algo=reinforce&seed=1&steps=${steps}`);
  await page.waitForSelector('main.lab');
  await page.click('button:has-text("Write your own REINFORCE")');
  await page.waitForSelector('[data-testid="lab-code-text"]');
  return page;
}

describe('your learner in the Lab', () => {
  it('the unedited REINFORCE template trains with the curve, stops, evaluates, downloads a reinforce policy and plays it', async () => {
    const page = await labWithTemplate(100_000_000);
    expect(await page.textContent('[data-testid="lab-memory"]')).toMatch(
      /^Memory: about [\d,]+ MB .*your learner is estimated as the reinforce it started from/,
    );
    await page.click('button:has-text("Start")');
    await page.waitForFunction(points, null, { timeout: 90_000 });
    // the run has kept a policy (FIRST_KEEP_MS): whether or not it stops within the Lab's grace, it stays
    await page.waitForSelector('main.lab:not([data-kept-steps=""])', { timeout: 90_000 });
    await page.click('button:has-text("Stop")');
    await page.waitForSelector('main.lab[data-state="stopped"]', { timeout: 10_000 });
    expect(await page.textContent('[data-testid="lab-status"]')).toMatch(/^stopped: [\d,]+ \/ 100,000,000 steps/);
    await page.click('button:has-text("Evaluate on the test split")');
    await page.waitForSelector('[data-testid="lab-evaluation"]', { timeout: 90_000 });
    expect(await page.textContent('[data-testid="lab-evaluation"]')).toMatch(/^Test split, 1,000 seeds, the policy after [\d,]+ steps/);
    const [dl] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download', exact: true }).click()]);
    expect(dl.suggestedFilename()).toMatch(/^backwards-my-reinforce-seed1-\d+steps-.*\.json$/);
    const json = JSON.parse(await readFile(await dl.path(), 'utf8'));
    expect(json.algo).toBe('reinforce');
    const [js] = await Promise.all([page.waitForEvent('download'), page.click('button:has-text("Download .js")')]);
    expect(js.suggestedFilename()).toBe('my-reinforce.js');
    expect(await readFile(await js.path(), 'utf8')).toBe(await page.inputValue('[data-testid="lab-code-text"]'));
    await page.click('button:has-text("Play it on the game page")');
    await page.waitForFunction(() => location.hash === '#/' && document.querySelector('.board'));
    expect(await page.evaluate(() => window.valleyFarm.run({ episodes: 1 }))).toHaveLength(1);
    expect(await page.textContent('.agent-choice')).toMatch(/your learner from reinforce/);
  }, 300_000);

  it('an endless loop in the learner is ended by Stop, and the curve stays', async () => {
    const page = await labWithTemplate(100_000_000);
    const text = await page.inputValue('[data-testid="lab-code-text"]');
    // after 100,000 steps, the coordinator never returns from trainFor
    const looping = text.replace(
      '    trainFor(steps, { until } = {}) {',
      '    trainFor(steps, { until } = {}) { if (stats.steps >= 100_000) for (;;) {}',
    );
    expect(looping).not.toBe(text);
    await page.fill('[data-testid="lab-code-text"]', looping);
    await page.click('button:has-text("Start")');
    // the last progress the loop lets through is at 100,000 steps or more
    await page.waitForFunction(
      () => {
        const m = /running: ([\d,]+) \//.exec(document.querySelector('[data-testid="lab-status"]').textContent);
        return m && Number(m[1].replaceAll(',', '')) >= 100_000;
      },
      null,
      { timeout: 120_000 },
    );
    await page.waitForTimeout(1000);
    const kept = await page.evaluate(points);
    expect(kept).toBeGreaterThan(0);
    const t0 = Date.now();
    await page.click('button:has-text("Stop")');
    await page.waitForSelector('main.lab[data-state="stopped"]', { timeout: 10_000 }); // generous: the Lab ends it after 0.5 s
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(await page.textContent('[data-testid="lab-run-note"]')).toMatch(/did not stop within .* its Worker was ended/);
    expect(await page.evaluate(points)).toBe(kept);
    expect(await page.$$eval('iframe[title="code sandbox"]', (f) => f.length)).toBe(0); // the sandbox, and every Worker of the run, gone
  }, 300_000);

  it('a reload keeps the edited learner, and its share link opens it in the editor of another tab, not started', async () => {
    const page = await labWithTemplate(50_000);
    const edited = `// my own REINFORCE\n${await page.inputValue('[data-testid="lab-code-text"]')}`;
    await page.fill('[data-testid="lab-code-text"]', edited);
    await page.waitForTimeout(1500); // kept 0.5 s after the last keystroke
    await page.reload();
    await page.waitForSelector('main.lab');
    await page.click('button:has-text("Open your REINFORCE (kept in this browser)")');
    expect(await page.inputValue('[data-testid="lab-code-text"]')).toBe(edited);
    await page.click('button:has-text("Share link to this learner")');
    const link = await page.inputValue('[data-testid="lab-code-link"]');
    expect(link).toMatch(/#\/lab\?env=BackwardsValleyFarm-v0&algo=reinforce&.*&learner=reinforce&allow=code&code=[\w-]+$/);
    const other = await openPage(suite.browser, `${suite.server.url}#/`); // a new context: none of the first tab's storage
    suite.opened.push(other);
    await other.goto(link);
    await other.waitForSelector('[data-testid="lab-code-note"]');
    expect(await other.textContent('[data-testid="lab-code-note"]')).toMatch(/is in the editor below: read it before you press Start/);
    expect(await other.inputValue('[data-testid="lab-code-text"]')).toBe(edited);
    expect(await other.getAttribute('main.lab', 'data-state')).toBe('idle');
    await other.goto(link.replace('&allow=code', ''));
    await other.waitForFunction(() => /was not opened/.test(document.querySelector('[data-testid="lab-code-note"]')?.textContent ?? ''));
  }, 300_000);
});
