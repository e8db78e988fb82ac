// A policy file in Chromium: the Lab's "Load a policy…" and setAgent({ policy }) hand the
// policy to a Worker that parses and checks it (web/src/worker/policyWorker.js); the page
// builds the network from the checked weights. A policy loaded so plays the actions the
// package plays with it, and a refused file's error names what was wrong.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

  it('an ONNX model from "Load a policy…" and as bytes to setAgent({ policy }) plays the actions the package plays; a bad one is refused by name', async () => {
    const { json, actions } = await policyAndActions();
    const { policyToOnnx } = await import('../../wasm/learn/onnx.js');
    const bytes = policyToOnnx(json);
    const page = await openPage(suite.browser, suite.server.url);
    suite.opened.push(page);
    await page.goto(`${suite.server.url}#/lab`);
    await page.waitForSelector('main.lab');
    await page.setInputFiles('main.lab input[type=file]', {
      name: 'small.onnx',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(bytes),
    });
    await page.waitForFunction(() => location.hash === '#/' && document.querySelector('.board'));
    const names = await page.evaluate(() => window.valleyFarm.actionNames());
    const index = (a) => (typeof a === 'string' ? names.indexOf(a) : a);
    expect((await playedOn(page)).actions.map(index)).toEqual(actions.map(index));
    await page.evaluate((list) => window.valleyFarm.setAgent({ policy: new Uint8Array(list).buffer }), Array.from(bytes));
    expect((await playedOn(page)).actions.map(index)).toEqual(actions.map(index));
    const refused = await page.evaluate(
      async (list) => {
        try {
          await window.valleyFarm.setAgent({ policy: new Uint8Array(list) });
          return 'loaded';
        } catch (e) {
          return e.message;
        }
      },
      Array.from(bytes.subarray(0, 100)),
    );
    expect(refused).toMatch(/ONNX: not an ONNX model|ONNX: .*(graph|weight|input)/);
  });

  // The largest file a page takes (MAX_POLICY_FILE_BYTES) with the most rows it can hold: a
  // trained table's rows, then rows of zeros under short keys no observation makes. The page's
  // main thread is watched through the Long Tasks API (every task of 50 ms or more), and
  // compared with a control in the same page: the trained table alone, loaded the same way
  // (the same Worker, the same switch to the game page). A busy machine lengthens both.
  it('the largest tabular-q file holds the page no longer than a small one does, plus 200 ms, and plays the actions the package plays', async () => {
    const { createLearner, loadPolicy } = await import('../../wasm/learn/index.js');
    const { MAX_POLICY_FILE_BYTES } = await import('../../web/src/model/policyFile.js');
    const { make, envSpecs } = await import('../../wasm/index.js');
    const env = 'BackwardsValleyFarm-v0';
    const learner = await createLearner({ env, algo: 'tabular-q', seed: 4, numEnvs: 8 });
    await learner.trainFor(50_000);
    const trained = JSON.parse(JSON.stringify(learner.policy().toJSON()));
    learner.dispose();
    const zeros = Array(envSpecs[env].actions.length).fill(0);
    const rowBytes = (key) => JSON.stringify([key, zeros]).length + 1;
    let room = MAX_POLICY_FILE_BYTES - JSON.stringify(trained).length;
    const filler = [];
    for (let i = 0; room >= rowBytes(i.toString(36)); i++) {
      filler.push([i.toString(36), zeros]);
      room -= rowBytes(i.toString(36));
    }
    const big = JSON.stringify({ ...trained, table: [...trained.table, ...filler] });
    expect(big.length).toBeLessThanOrEqual(MAX_POLICY_FILE_BYTES);
    expect(big.length).toBeGreaterThan(MAX_POLICY_FILE_BYTES - 100);

    // the package's actions with the trained table on SEED
    const policy = await loadPolicy(trained);
    const game = await make(env);
    let { observation, info } = game.reset({ seed: SEED });
    const actions = [];
    for (let done = false; !done;) {
      const action = policy.act(observation, { ...info, legal: game.legalActions() });
      actions.push(action);
      const r = game.step(action);
      ({ observation, info } = r);
      done = r.terminated || r.truncated;
    }
    game.close();

    const page = await openPage(suite.browser, suite.server.url);
    suite.opened.push(page);
    /** Loads `text` through the Lab's "Load a policy…"; the longest main-thread task (ms) from choosing it to its playing on the game page. */
    const longestTask = async (name, text) => {
      await page.goto(`${suite.server.url}#/lab`);
      await page.waitForSelector('main.lab');
      await page.evaluate(() => {
        window.tasks = [];
        window.taskWatch = new PerformanceObserver((list) => window.tasks.push(...list.getEntries().map((e) => e.duration)));
        window.taskWatch.observe({ type: 'longtask' });
        // the Lab's note when it refuses the file, else null
        window.refusal = () => {
          const note = document.querySelector('.lab-note')?.textContent ?? '';
          return /is not a policy this page can load|Could not use the policy/.test(note) ? note : null;
        };
      });
      // from a file on disk: a buffer would be rebuilt from base64 by script in the page, a long task of the test's own
      const path = join(await mkdtemp(join(tmpdir(), 'vf-policy-')), name);
      await writeFile(path, text);
      await page.setInputFiles('main.lab input[type=file]', path);
      // playing on the game page, or refused (the test then shows the Lab's note)
      await page.waitForFunction(
        (name) => (location.hash === '#/' && window.valleyFarm.app.runner.customTitle?.includes(name)) || window.refusal(),
        name,
      );
      expect(await page.evaluate(() => window.refusal())).toBeNull();
      return page.evaluate(async () => {
        await new Promise((r) => setTimeout(r, 100)); // the last task's entry
        window.taskWatch.disconnect();
        return Math.max(0, ...window.tasks);
      });
    };
    const control = await longestTask('small.json', JSON.stringify(trained));
    const largest = await longestTask('largest.json', big);
    expect(largest, `control: ${control} ms; ${filler.length + trained.table.length} rows`).toBeLessThan(control + 200);
    const names = await page.evaluate(() => window.valleyFarm.actionNames());
    const index = (a) => (typeof a === 'string' ? names.indexOf(a) : a);
    expect((await playedOn(page)).actions.map(index)).toEqual(actions.map(index));
  }, 300_000); // a 20 MB file parsed and checked twice over on a busy machine, besides the training
});
