// REINFORCE and DQN trained in the Lab in Chromium, each picked in the Lab's own form: a small
// budget on two threads of the learner core, the curve gets points, the run finishes, the
// status reports the learner's own losses, Evaluate scores the policy on the test split, and
// the downloaded file is that learner's policy: it passes the policy checker, and played in
// Node on the same seeds it scores what the page said.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../wasm/evaluate.js';
import { checkPolicyJSON, loadPolicy } from '../../wasm/learn/index.js';
import { splitSeeds } from '../../wasm/splits.js';
import { browserSuite, openPage } from './page.js';

const suite = browserSuite();

// Generous: a loaded machine trains, and plays 1,000 test episodes, several times slower.
const RUN_MS = 240_000;

const LEARNERS = [
  {
    algo: 'reinforce',
    env: 'ValleyFarm-v0',
    steps: 65_536,
    done: 65_600, // whole updates, each an episode of every env: 16 envs × 50 steps
    settings: { numEnvs: 16, minibatch: 256 },
    losses: /; policy -?[\d.e-]+, value [\d.e-]+, entropy [\d.e-]+/,
    act: 'sample',
  },
  {
    algo: 'dqn',
    env: 'BackwardsValleyFarm-v0',
    steps: 40_960,
    done: 40_960,
    // gradient steps from 4,096 env steps on (a td loss in the status says they happened)
    settings: { numEnvs: 16, learningStarts: 4096, bufferSize: 20000, trainEvery: 16, batchSize: 64 },
    losses: /; td [\d.e-]+, q -?[\d.e-]+, epsilon [\d.e-]+/,
    act: 'greedy',
  },
];

/** The mean return of a policy file on the test split, played in Node as the Lab plays it. */
async function testMean(json) {
  const policy = await loadPolicy(json);
  try {
    const { returns } = await evaluate(policy, { env: json.env, seeds: splitSeeds('test') });
    return returns.reduce((a, b) => a + b, 0) / returns.length;
  } finally {
    policy.dispose();
  }
}

describe('the Lab trains each learner on the learner core', () => {
  for (const { algo, env, steps, done, settings, losses, act } of LEARNERS) {
    it(
      `${algo}: picked in the form, it trains to its budget, evaluates, and downloads its own policy, which passes the checker and scores what the page said`,
      {
        timeout: 2 * RUN_MS,
      },
      async () => {
        const page = await openPage(suite.browser, `${suite.server.url}#/`);
        suite.opened.push(page);
        await page.goto(`${suite.server.url}#/lab?env=${env}&algo=tabular-q&seed=4&steps=${steps}&threads=2`);
        await page.waitForSelector('main.lab');
        await page.selectOption('.lab-settings label:has-text("Learner") select', algo);
        await page.waitForFunction((a) => location.hash.includes(`algo=${a}`), algo);
        await page.click('.lab-learner summary');
        for (const [name, value] of Object.entries(settings)) {
          const input = `.lab-learner label:has(.lab-setting-name:text-is("${name}")) input`;
          await page.fill(input, String(value));
          await page.press(input, 'Tab');
          // taken (the summary names it) before the next: a render of the last change could reset a field being filled
          await page.waitForFunction(
            (text) => document.querySelector('.lab-learner summary').textContent.includes(text),
            `${name} ${value}`,
          );
        }
        const summary = Object.entries(settings)
          .map(([k, v]) => `${k} ${v}`)
          .sort();
        const shown = (await page.textContent('.lab-learner summary'))
          .replace(/^Learner settings: /, '')
          .split(', ')
          .sort();
        expect(shown).toEqual(summary);

        await page.click('button:has-text("Start")');
        await page.waitForSelector('main.lab[data-state="done"]', { timeout: RUN_MS });
        const points = await page.$eval('.lab-curve polyline.mean', (el) => Number(el.dataset.points));
        expect(points).toBeGreaterThanOrEqual(2);
        const status = await page.textContent('[data-testid="lab-status"]');
        const [budget, trained] = [steps, done].map((n) => n.toLocaleString('en'));
        expect(status).toMatch(
          new RegExp(`^done: ${trained} / ${budget} steps, [\\d,]+ steps/s \\(learner core, 2 threads\\), [\\d,]+ episodes`),
        );
        expect(status).toMatch(losses);
        expect(Number(status.match(/([\d,]+) episodes/)[1].replace(/,/g, ''))).toBeGreaterThan(0);

        await page.click('button:has-text("Evaluate on the test split")');
        await page.waitForSelector('[data-testid="lab-evaluation"]', { timeout: RUN_MS });
        const evaluation = await page.textContent('[data-testid="lab-evaluation"]');
        const scored = evaluation.match(new RegExp(`^Test split, 1,000 seeds, the policy after ${trained} steps: mean return (-?[\\d.]+)`));
        expect(scored, evaluation).not.toBeNull();

        const [dl] = await Promise.all([page.waitForEvent('download'), page.click('button:has-text("Download")')]);
        const json = JSON.parse(await readFile(await dl.path(), 'utf8'));
        expect(() => checkPolicyJSON(json)).not.toThrow();
        expect(json).toMatchObject({ algo, env, act, config: { ...settings, shards: 8 } });
        expect(json.run).toMatchObject({ seed: 4, steps: done, where: 'lab' });
        // the score on the page is this file's: Node plays it on the same seeds (a policy draws
        // its actions from each episode's seed), to the digits the page shows
        const decimals = scored[1].split('.')[1]?.length ?? 0;
        expect(Math.abs((await testMean(json)) - Number(scored[1]))).toBeLessThanOrEqual(0.5 * 10 ** -decimals + 1e-9);
      },
    );
  }
});
