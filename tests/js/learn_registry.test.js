// A learner is one module: registered (registry.js), it is trained, checked, estimated, saved,
// loaded and offered by the command line with no other file naming it. The fixture
// tests/js/fixtures/banditLearner.js is such a module; docs/adding-a-learner.md lists the files
// a new learner touches, and this test is what holds that list true.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  algorithms,
  checkPolicyJSON,
  createLearner,
  estimateMemory,
  lessMemory,
  loadPolicy,
  registerLearner,
  runDefaultsOf,
  THREAD_BYTES,
} from '../../wasm/learn/index.js';
import { help, main, parse } from '../../wasm/cli/train.mjs';
import { learner as bandit } from './fixtures/banditLearner.js';
import { envIds, make } from '../../wasm/index.js';

const V = envIds[0];
const B = envIds[1]; // where a few hundred steps earn rewards, so the values it learns differ
const builtIn = Object.keys(algorithms);
registerLearner(bandit);

describe('a learner registered from one file', () => {
  it("may declare settings that follow the run's length (runDefaults); one that names no setting of its own is refused", () => {
    expect(runDefaultsOf(algorithms.ppo, 5000)).toEqual({ anneal: 5000 });
    expect(runDefaultsOf(algorithms.ppo)).toEqual({});
    expect(runDefaultsOf(algorithms['tabular-q'], 5000)).toEqual({});
    expect(() => registerLearner({ ...bandit, name: 'bandit-run', runDefaults: (steps) => ({ horizon: steps }) })).toThrow(
      /runDefaults\(steps\) must give some of its settings, got horizon/,
    );
  });

  it('is listed beside the built-in learners, after them', () => {
    expect(builtIn).toEqual(expect.arrayContaining(['tabular-q', 'ppo']));
    expect(Object.keys(algorithms)).toEqual([...builtIn, 'bandit']);
    expect(algorithms.bandit.defaults).toEqual({ numEnvs: 4, epsilon: 0.5 });
  });

  it('trains through createLearner, and its policy saves and loads through loadPolicy to the same actions', async () => {
    const l = await createLearner({ env: B, algo: 'bandit', seed: 3, numEnvs: 2 });
    expect(l.config).toMatchObject({ env: B, algo: 'bandit', seed: 3, numEnvs: 2, epsilon: 0.5 });
    const p = await l.trainFor(400);
    expect(p.steps).toBe(400);
    const json = JSON.parse(JSON.stringify(l.policy().toJSON()));
    expect(json).toMatchObject({ algo: 'bandit', config: { numEnvs: 2, epsilon: 0.5 } });
    expect(json.values.some((v) => v !== 0)).toBe(true); // it learned something
    const again = await loadPolicy(json);
    const env = await make(B);
    let { observation, info } = env.reset({ seed: 11 });
    for (let t = 0; t < 20; t++) {
      const legal = env.legalActions();
      const a = l.policy().act(observation, { ...info, legal });
      expect(again.act(observation, { ...info, legal })).toBe(a);
      const r = env.step(a);
      if (r.terminated) break;
      ({ observation, info } = r);
    }
    env.close();
    l.dispose();
  });

  it("has its settings checked against its own limits, and its memory estimated, by the package's checks", async () => {
    await expect(createLearner({ env: V, algo: 'bandit', epsilon: 2 })).rejects.toThrow(
      'valley-farm/learn: bandit setting epsilon must be a number from 0 to 1, got 2',
    );
    await expect(createLearner({ env: V, algo: 'bandit', history: 4 })).rejects.toThrow(
      "valley-farm/learn: bandit has no setting 'history'; its settings are numEnvs, epsilon",
    );
    // over the budget, a run is told to lower the settings its learner declares size its memory
    expect(lessMemory({ ...bandit, memorySettings: { numEnvs: 'fewer envs' } })).toBe('use fewer envs (numEnvs)');
    expect(lessMemory(bandit, { threads: 2 })).toBe('use fewer threads'); // it declares none
    // its vector env grows with numEnvs; its one thread costs the same either way
    expect(estimateMemory(V, 'bandit', { numEnvs: 8 }) - THREAD_BYTES).toBe(
      2 * (estimateMemory(V, 'bandit', { numEnvs: 4 }) - THREAD_BYTES),
    );
  });

  it('has its saved policies checked by its own checkPolicy before they load', async () => {
    const l = await createLearner({ env: V, algo: 'bandit' });
    const json = l.policy().toJSON();
    l.dispose();
    expect(() => checkPolicyJSON(json)).not.toThrow();
    const values = [...json.values];
    values[2] = null;
    expect(() => checkPolicyJSON({ ...json, values })).toThrow("the policy's values[2] must be a finite number, got null");
    await expect(loadPolicy({ ...json, config: { epsilon: -1 } })).rejects.toThrow(
      "bandit policy's setting epsilon must be a number from 0 to 1",
    );
  });

  it('cannot be saved to resume, since it declares no resume: the error names the learners that can', async () => {
    const l = await createLearner({ env: V, algo: 'bandit' });
    await expect(l.checkpoint()).rejects.toThrow('bandit runs are not saved to resume (ppo runs are)');
    l.dispose();
  });
});

describe('the command line offers a registered learner', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vf-registry-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('in --help and --algo, with its settings as options', () => {
    expect(help()).toContain('bandit settings (with --algo bandit)');
    expect(help()).toMatch(/--epsilon X\s+the share of random legal actions while it learns/);
    expect(parse(['--env', V, '--algo', 'bandit', '--epsilon', '0.25']).settings).toEqual({ epsilon: 0.25 });
    expect(() => parse(['--env', V, '--algo', 'bandit', '--alpha', '0.5'])).toThrow(
      "--alpha is not a bandit setting; bandit's settings are --num-envs, --epsilon",
    );
    expect(() => parse(['--env', V, '--algo', 'bandit', '--checkpoint-every', '1e6'])).toThrow(
      '--checkpoint-every saves ppo runs (bandit runs cannot be resumed)',
    );
  });

  it('and `valley-farm train --algo bandit` writes a policy that loads', async () => {
    const out = join(dir, 'bandit.json');
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const status = await main(['--env', V, '--algo', 'bandit', '--steps', '200', '--eval-episodes', '1', '--out', out]);
    vi.restoreAllMocks();
    expect(status, errors.mock.calls.join('\n')).toBe(0);
    const policy = await loadPolicy(JSON.parse(readFileSync(out, 'utf8')));
    expect(policy.algo).toBe('bandit');
  });
});

describe('registerLearner', () => {
  const broken = (changes) => () => registerLearner({ ...bandit, name: 'broken', ...changes });

  it('refuses a declaration that lacks a limit, a doc or a function, or whose default is out of its range, naming what is wrong', () => {
    expect(broken({ limits: { numEnvs: bandit.limits.numEnvs } })).toThrow(
      "registerLearner: learner broken's limits must name exactly its settings (numEnvs, epsilon), got numEnvs",
    );
    expect(broken({ docs: { numEnvs: 'envs', epsilon: '' } })).toThrow("learner broken's docs.epsilon must be a sentence");
    expect(broken({ defaults: { numEnvs: 100, epsilon: 0.5 } })).toThrow(
      "learner broken's default numEnvs 100 is not a whole number from 1 to 64",
    );
    expect(broken({ checkPolicy: undefined })).toThrow('learner broken needs checkPolicy, a function');
    expect(broken({ name: 'Broken Learner' })).toThrow("a learner's name is lower-case letters, digits and dashes");
    // the settings a run over the budget is told to lower must be its own, each with words
    expect(broken({ memorySettings: { nSteps: 'shorter rollouts' } })).toThrow(
      "learner broken's memorySettings must map some of its settings to what less of each is ({ numEnvs: 'fewer envs' })",
    );
    expect(broken({ memorySettings: { numEnvs: '' } })).toThrow("learner broken's memorySettings must map some of its settings");
    expect(Object.keys(algorithms)).not.toContain('broken');
  });

  it('refuses a second learner of a name already registered', () => {
    expect(() => registerLearner({ ...bandit, name: 'ppo' })).toThrow('registerLearner: learner ppo is registered already');
    expect(algorithms.ppo.title).toBe('PPO');
  });
});
