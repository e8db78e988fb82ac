// Saved policies are checked as data before any network exists (policyCheck.js), and loading,
// refusing and disposing leave nothing behind in the learner core: a policy can come from anyone.
import { describe, expect, it } from 'vitest';
import { createLearner, loadPolicy } from '../../wasm/learn/index.js';
import { checkPolicyJSON } from '../../wasm/learn/policyCheck.js';
import { loadCore } from '../../wasm/learn/core.js';
import { make } from '../../wasm/index.js';

const V = 'ValleyFarm-v0';
const B = 'BackwardsValleyFarm-v0';

/** A valid ppo policy as plain JSON (untrained: its weights are the initial ones). */
async function ppoJSON(settings = {}) {
  const learner = await createLearner({ env: V, algo: 'ppo', seed: 1, numEnvs: 2, nSteps: 4, memory: 0, imitate: 0, ...settings });
  const json = JSON.parse(JSON.stringify(learner.policy().toJSON()));
  learner.dispose();
  return json;
}

const clone = (o) => JSON.parse(JSON.stringify(o));

/** The learner core's memory: it grows for a network and never shrinks, so a leak shows. */
const coreBytes = async () => (await loadCore()).memory.buffer.byteLength;

describe('a policy is checked as data before any network exists', () => {
  it('a huge network asked for by a few bytes is refused by its settings, before the core allocates anything', async () => {
    const json = await ppoJSON();
    const before = await coreBytes();
    const huge = { ...json, config: { ...json.config, hidden: Array(12).fill(4096) } };
    await expect(loadPolicy(huge)).rejects.toThrow(
      /ppo policy's setting hidden must be an array of 1 to 4 layer sizes, each a whole number from 1 to 512/,
    );
    const deep = { ...json, config: { ...json.config, hidden: Array(40).fill(4096) } };
    expect(() => checkPolicyJSON(deep)).toThrow(/hidden must be an array of 1 to 4 layer sizes/);
    const tooMany = { ...json, config: { ...json.config, history: 16, memory: 1, hidden: [512, 512, 512, 512] } };
    expect(() => checkPolicyJSON(tooMany)).toThrow(/the network would have \d+ weights, more than the 4194304 allowed/);
    expect(await coreBytes()).toBe(before);
  });

  it('every weight must be a finite number, and the error names its path and what is allowed', async () => {
    const json = await ppoJSON();
    for (const bad of [NaN, null, 'NaN', '0.5', Infinity, {}]) {
      const j = clone(json);
      j.weights[2].values[17] = bad;
      expect(() => checkPolicyJSON(j), String(bad)).toThrow(/the policy's weights\[2\]\.values\[17\] must be a finite number, got /);
    }
    const big = clone(json);
    big.weights[1].values[3] = 3.5e38; // finite as a double, Infinity as the core's float32: every probability would be NaN
    expect(() => checkPolicyJSON(big)).toThrow(
      /the policy's weights\[1\]\.values\[3\] must be a number a float32 holds \(at most 3.4e38 in size\), got 3.5e\+38/,
    );
    big.weights[1].values[3] = -3.4e38; // within float32
    expect(() => checkPolicyJSON(big)).not.toThrow();
    const j = clone(json);
    j.weights[2].values[17] = NaN; // what JSON.parse can never give, but a caller can
    await expect(loadPolicy(j)).rejects.toThrow(/weights\[2\]\.values\[17\] must be a finite number, got null/);
  });

  it("weights as Float32Arrays (what the page's policy Worker hands back) load and act as the JSON lists do; a NaN among them is refused by its path", async () => {
    const json = await ppoJSON();
    const floats = { ...json, weights: json.weights.map((w) => ({ ...w, values: Float32Array.from(w.values) })) };
    const [fromLists, fromFloats] = await Promise.all([loadPolicy(clone(json)), loadPolicy(floats)]);
    const env = await make(V);
    const { observation, info } = env.reset({ seed: 5 });
    const legal = env.legalActions();
    expect(fromFloats.act(observation, { ...info, legal })).toBe(fromLists.act(observation, { ...info, legal }));
    env.close();
    fromLists.dispose();
    fromFloats.dispose();
    const bad = { ...floats, weights: floats.weights.map((w) => ({ ...w, values: w.values.slice() })) };
    bad.weights[2].values[17] = NaN;
    expect(() => checkPolicyJSON(bad)).toThrow(/the policy's weights\[2\]\.values\[17\] must be a finite number, got /);
  });

  it('the weights must be the count and shapes its settings imply', async () => {
    const json = await ppoJSON();
    const short = clone(json);
    short.weights.pop();
    expect(() => checkPolicyJSON(short)).toThrow(
      /expected 8 arrays in the shapes its network's \(365x64, 64, 64x64, 64, 64x12, 12, 64x1, 1\)/,
    );
    const shape = clone(json);
    shape.weights[0].shape = [64, 365];
    expect(() => checkPolicyJSON(shape)).toThrow(/weights\[0\]\.shape must be \[365, 64\], got \[64,365\]/);
    const values = clone(json);
    values.weights[1].values.push(0);
    expect(() => checkPolicyJSON(values)).toThrow(/weights\[1\]\.values must be an array of 64 numbers, got 65 values/);
    // a policy whose settings imply another network (history 2) does not fit these weights
    const history = { ...clone(json), config: { ...json.config, history: 2 } };
    expect(() => checkPolicyJSON(history)).toThrow(/weights\[0\]\.shape must be \[730, 64\]/);
  });

  it("a policy's settings must be within the ranges a learner has", async () => {
    const json = await ppoJSON();
    expect(() => checkPolicyJSON({ ...json, config: { ...json.config, gamma: 5 } })).toThrow(
      /setting gamma must be a number from 0 to 1, got 5/,
    );
    expect(() => checkPolicyJSON({ ...json, config: { ...json.config, hidden: 'abc' } })).toThrow(/setting hidden must be an array/);
    const { hidden, ...noLayers } = json.config;
    expect(hidden).toEqual([64, 64]);
    expect(() => checkPolicyJSON({ ...json, config: noLayers })).toThrow(/the policy's config.hidden must be an array of layer sizes/);
    expect(() => checkPolicyJSON({ ...json, config: { ...json.config, memory: 2 } })).toThrow(
      /memory must be a whole number from 0 to 1, got 2/,
    );
    expect(() => checkPolicyJSON({ ...json, env: 'Nope-v0' })).toThrow(/env "Nope-v0" is unknown/);
    expect(() => checkPolicyJSON({ ...json, version: 2 })).toThrow(/this package reads version 1/);
    expect(() => checkPolicyJSON([])).toThrow(/not a valley-farm policy/);
  });

  it('a tabular-q policy: each row is a key and one finite number per action, within a cap', () => {
    const table = (rows) => ({ format: 'valley-farm-policy', version: 1, env: B, algo: 'tabular-q', config: {}, table: rows });
    const row = Array(11).fill(0);
    expect(() => checkPolicyJSON(table([['k', row]]))).not.toThrow();
    expect(() =>
      checkPolicyJSON(
        table([
          ['k', row],
          ['j', [...row.slice(1), 'NaN']],
        ]),
      ),
    ).toThrow(/the policy's table\[1\]\[1\]\[10\] must be a finite number, got "NaN"/);
    expect(() => checkPolicyJSON(table([['k', row.slice(1)]]))).toThrow(/table\[0\]\[1\] must be 11 numbers \(one per action\)/);
    expect(() => checkPolicyJSON(table([[1, row]]))).toThrow(/table\[0\] must be a row \[key, 11 numbers\]/);
    expect(() => checkPolicyJSON({ ...table([]), config: { alpha: 7 } })).toThrow(/alpha must be a number from 0 to 1, got 7/);
  });
});

describe("the learner core's memory is freed on every path", () => {
  it('100 valid loads (disposed) and 100 refused loads leave the core as large as one load left it', async () => {
    const json = await ppoJSON();
    const nan = clone(json);
    nan.weights[3].values[0] = 'NaN';
    const big = { ...json, config: { ...json.config, hidden: Array(12).fill(4096) } };
    const env = await make(V);
    const { observation, info } = env.reset({ seed: 1 });
    (await loadPolicy(json)).dispose();
    const before = await coreBytes();
    for (let i = 0; i < 100; i++) {
      const p = await loadPolicy(json);
      expect(p.act(observation, { ...info, legal: env.legalActions() })).toBeLessThan(12);
      p.dispose();
    }
    env.close();
    for (let i = 0; i < 100; i++) await expect(loadPolicy(i % 2 ? nan : big)).rejects.toThrow(/valley-farm\/learn/);
    expect(await coreBytes()).toBe(before); // a leaked network of ~100 KB each would have grown it
  }, 120_000);

  it("a learner's dispose() frees what it took in the core: 20 more learners leave it as large as one left it", async () => {
    const settings = { env: V, algo: 'ppo', seed: 1, numEnvs: 2, nSteps: 4, minibatch: 8, imitate: 0, threads: 1 };
    const once = await createLearner(settings);
    await once.trainFor(8);
    once.dispose();
    const before = await coreBytes();
    for (let i = 0; i < 20; i++) {
      const learner = await createLearner(settings);
      await learner.trainFor(8);
      learner.dispose();
    }
    expect(await coreBytes()).toBe(before);
  });
});
