// A policy file in Chromium: the Lab's "Load a policy…" and setAgent({ policy }) hand the
// policy to a Worker that parses and checks it (web/src/worker/policyWorker.js); the page
// builds the network from the checked weights. A policy loaded so plays the actions the
// package plays with it, and a refused file's error names what was wrong.
import { describe, expect, it } from 'vitest';
import { browserSuite, openPage } from './page.js';

const suite = browserSuite();
const SEED = 7;

/** A small ppo policy's JSON and the actions the package plays with it on SEED, in Node. */
async function policyAndActions() {
  const { createLearner, loadPolicy } = await import('../../wasm/learn/index.js');
  const { make } = await import('../../wasm/index.js');
  const learner = await createLearner({ env: 'ValleyFarm-v0', algo: 'ppo', seed: 3, hidden: [16], numEnvs: 2, nSteps: 8, minibatch: 16 });
  const json = JSON.parse(JSON.stringify(learner.policy().toJSON()));
  learner.dispose();
  const policy = await loadPolicy(JSON.parse(JSON.stringify(json)));
  const env = await make('ValleyFarm-v0');
  let { observation, info } = env.reset({ seed: SEED });
  const actions = [];
  for (;;) {
    const action = await policy.act(observation, { ...info, legal: env.legalActions() }); // as the page's runner asks
    actions.push(action);
    const r = env.step(action);
    if (r.terminated || r.truncated) break;
    ({ observation, info } = r);
  }
  env.close();
  policy.dispose();
  return { json, actions };
}

/** Chooses `text` as the file of the Lab's "Load a policy…"; the Lab's note or the game page. */
async function upload(page, name, text) {
  await page.goto(`${suite.server.url}#/lab`);
  await page.waitForSelector('main.lab');
  await page.setInputFiles('main.lab input[type=file]', { name, mimeType: 'application/json', buffer: Buffer.from(text) });
}

/** The actions the page's agent plays on SEED, from its replay record. */
const playedOn = (page) =>
  page.evaluate(async (seed) => {
    window.valleyFarm.reset(seed);
    await window.valleyFarm.run({ episodes: 1 });
    return window.valleyFarm.replay();
  }, SEED);

describe('a policy file is parsed and checked off the page, then played', () => {
  it('a policy from the Lab\'s "Load a policy…" and from setAgent({ policy }) plays the actions the package plays', async () => {
    const { json, actions } = await policyAndActions();
    const page = await openPage(suite.browser, suite.server.url);
    suite.opened.push(page);
    await upload(page, 'small.json', JSON.stringify(json));
    await page.waitForFunction(() => location.hash === '#/' && document.querySelector('.board'));
    const fromFile = await playedOn(page);
    expect(fromFile).toMatchObject({ env: 'ValleyFarm-v0', seed: SEED });
    const names = await page.evaluate(() => window.valleyFarm.actionNames());
    const index = (a) => (typeof a === 'string' ? names.indexOf(a) : a);
    expect(fromFile.actions.map(index)).toEqual(actions.map(index));
    await page.evaluate((json) => window.valleyFarm.setAgent({ policy: json }), json);
    expect((await playedOn(page)).actions.map(index)).toEqual(actions.map(index));
  });

  it("a refused file's error names what was wrong, and the game in progress goes on", async () => {
    const { json } = await policyAndActions();
    const page = await openPage(suite.browser, suite.server.url);
    suite.opened.push(page);
    const bad = structuredClone(json);
    bad.weights[1].values[3] = 'oops';
    await upload(page, 'bad.json', JSON.stringify(bad));
    await page.waitForSelector('.lab-note');
    expect(await page.textContent('.lab-note')).toMatch(
      /^bad\.json is not a policy this page can load: .*weights\[1\]\.values\[3\] must be a finite number, got "oops"/,
    );
    await upload(page, 'half.json', JSON.stringify(json).slice(0, 5000));
    await page.waitForFunction(() => /half\.json/.test(document.querySelector('.lab-note')?.textContent));
    expect(await page.textContent('.lab-note')).toMatch(/^half\.json is not a policy this page can load: half\.json is not JSON: /);
    const refused = await page.evaluate(async (bad) => {
      try {
        await window.valleyFarm.setAgent({ policy: bad });
        return 'loaded';
      } catch (e) {
        return e.message;
      }
    }, bad);
    expect(refused).toMatch(/weights\[1\]\.values\[3\] must be a finite number/);
  });
});
