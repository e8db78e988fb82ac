// Network policies as ONNX models (wasm/learn/onnx.js): what onnxruntime computes from an
// exported model is what the learner core computes from the policy, a model read back plays as
// the policy did, a torch-shaped graph (actor and critic side by side) becomes one network with
// the same logits, and a bad model is refused with a message that names its fault.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import * as ort from 'onnxruntime-node';
import onnxProto from 'onnx-proto';
import { make } from '../../wasm/index.js';
import { createLearner, loadNetPolicy, loadPolicy } from '../../wasm/learn/index.js';
import { ALLOWED_OPS, METADATA, loadOnnxPolicy, onnxToPolicy, policyToOnnx } from '../../wasm/learn/onnx.js';
import { MAX_WEIGHTS } from '../../wasm/learn/limits.js';
import { algorithms } from '../../wasm/learn/registry.js';

const { onnx } = onnxProto;
const root = fileURLToPath(new URL('../..', import.meta.url));
const fixture = JSON.parse(readFileSync(join(root, 'tests/js/fixtures/ppo-policies-624fbe8.json'), 'utf8'));
const V = 'ValleyFarm-v0';
const dir = mkdtempSync(join(tmpdir(), 'valley-farm-onnx-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const clone = (o) => JSON.parse(JSON.stringify(o));

/** A network policy's JSON, untrained, of these settings (a small run: no planner, few envs). */
async function untrained(algo, settings) {
  const small = algo === 'dqn' ? {} : { imitate: 0, numEnvs: 8, nSteps: 16 };
  const learner = await createLearner({ env: V, algo, seed: 7, threads: 1, ...small, ...settings });
  const json = clone(learner.policy().toJSON());
  learner.dispose();
  return json;
}

/**
 * `count` inputs the policy's network read while it played seeds from 1 on (the engine's
 * features through its perception and frames, as the learners see them), and what the learner
 * core's network gave for each: { F, features (count × F), outputs (count × its outputs) }.
 */
async function recorded(json, count) {
  const heads = json.algo === 'dqn' ? 'q' : 'logits';
  const p = await loadNetPolicy(json, heads);
  const F = p.frames.size;
  const features = new Float32Array(count * F);
  const outputs = new Float32Array(count * p.net.outputs);
  const env = await make(json.env);
  let n = 0;
  for (let seed = 1; n < count; seed++) {
    let { observation, info } = env.reset({ seed });
    let over = false;
    for (let t = 0; !over && n < count; t++) {
      const a = p.act(observation, { ...info, step: t, legal: env.legalActions() });
      features.set(p.frames.frames, n * F);
      outputs.set(p.outputs(false), n * p.net.outputs); // the same frames again: a network without state
      n++;
      const r = env.step(a);
      ({ observation, info } = r);
      over = r.terminated || r.truncated;
    }
  }
  env.close();
  p.dispose();
  return { F, features, outputs, width: outputs.length / count };
}

/** The largest difference between a and b, each relative to the larger of 1 and |b|. */
function worst(a, b) {
  let most = 0;
  for (let i = 0; i < a.length; i++) most = Math.max(most, Math.abs(a[i] - b[i]) / Math.max(1, Math.abs(b[i])));
  return most;
}

/** Runs a model's bytes in onnxruntime on count × F features: its outputs by name. */
async function run(bytes, features, count, F) {
  const session = await ort.InferenceSession.create(bytes);
  return session.run({ features: new ort.Tensor('float32', features, [count, F]) });
}

/** The policies the comparisons run: the pinned trained ppo policies, and untrained ones of other shapes. */
async function policies() {
  const deeper = await untrained('ppo', { hidden: [16, 8], history: 3, memory: 0 });
  // an untrained policy's logits start near 0: scaled up, so that 1e-5 is a real bound on them
  const head = deeper.weights.length - 4;
  deeper.weights[head].values = deeper.weights[head].values.map((v) => v * 300);
  return [
    ['the trained ppo policy for BackwardsValleyFarm-v0 (memory 1)', fixture['BackwardsValleyFarm-v0'].policy],
    ['the trained ppo policy for ValleyFarm-v0 (memory 1)', fixture[V].policy],
    ['a ppo policy of two hidden layers over history 3', deeper],
    ['a dqn policy (ReLU, action values)', await untrained('dqn', { hidden: [16] })],
  ];
}

describe('an exported policy runs in onnxruntime as it runs in the learner core', () => {
  it('onnxruntime gives the learner core’s logits and value (or action values) on 1,000 recorded feature vectors, within 1e-5', async () => {
    for (const [what, json] of await policies()) {
      const rec = await recorded(json, 1000);
      const out = await run(policyToOnnx(json), rec.features, 1000, rec.F);
      const A = (json.algo === 'dqn' ? out.q_values : out.logits).dims[1];
      const core = { logits: [], value: [] };
      for (let i = 0; i < 1000; i++) {
        const row = rec.outputs.subarray(i * rec.width, (i + 1) * rec.width);
        core.logits.push(...row.subarray(0, A));
        core.value.push(...row.subarray(A));
      }
      if (json.algo === 'dqn') {
        expect(out.q_values.dims, what).toEqual([1000, A]);
        expect(worst(out.q_values.data, core.logits), what).toBeLessThanOrEqual(1e-5);
      } else {
        expect(out.logits.dims, what).toEqual([1000, A]);
        expect(out.value.dims, what).toEqual([1000, 1]);
        expect(worst(out.logits.data, core.logits), what).toBeLessThanOrEqual(1e-5);
        expect(worst(out.value.data, core.value), what).toBeLessThanOrEqual(1e-5);
      }
      // the recorded inputs are not all alike: the comparison saw many states
      expect(
        new Set(Array.from({ length: 1000 }, (_, i) => rec.features.subarray(i * rec.F, (i + 1) * rec.F).join())).size,
      ).toBeGreaterThan(50);
    }
  }, 120_000);

  it('a model read back is the same policy: its weights exactly, and the same actions on 5 seeds', async () => {
    for (const [what, json] of await policies()) {
      const bytes = policyToOnnx(json);
      const back = onnxToPolicy(bytes);
      expect(back.env, what).toBe(json.env);
      expect(back.config.hidden).toEqual(json.config.hidden);
      back.weights.forEach((w, i) =>
        expect(Array.from(w.values), `${what}: weights[${i}]`).toEqual(json.weights[i].values.map(Math.fround)),
      );
      const [a, b] = [await loadPolicy(json), await loadOnnxPolicy(bytes)];
      const env = await make(json.env);
      for (let seed = 1; seed <= 5; seed++) {
        const played = [];
        for (const p of [a, b]) {
          let { observation, info } = env.reset({ seed });
          const actions = [];
          for (let over = false; !over;) {
            const act = p.act(observation, { ...info, legal: env.legalActions() });
            actions.push(act);
            const r = env.step(act);
            ({ observation, info } = r);
            over = r.terminated || r.truncated;
          }
          played.push(actions);
        }
        expect(played[1], `${what}, seed ${seed}`).toEqual(played[0]);
      }
      env.close();
      a.dispose();
      b.dispose();
    }
  }, 120_000);
});

// ---- a graph as torch writes one -----------------------------------------------------------

/** A float32 initializer as torch writes it (raw little-endian bytes). */
const raw = (name, dims, values) => ({ name, dataType: 1, dims, rawData: new Uint8Array(Float32Array.from(values).buffer) });
const info = (name, width) => ({
  name,
  type: { tensorType: { elemType: 1, shape: { dim: [{ dimParam: 'batch' }, { dimValue: width }] } } },
});

/**
 * An actor and a critic side by side, each two tanh layers of `h` units, as torch.onnx.export
 * writes nn.Linear (Gemm, kernels [out, in], transB 1), the critic's last layer as MatMul and
 * Add (as some exporters write a Linear): a model with no network of ours behind it.
 */
function torchShaped({ F, A, h = 6, seed = 1, metadata = { env: V, memory: '0' } }) {
  let s = seed;
  const r = () => ((s = (s * 16807) % 2147483647) / 2147483647 - 0.5) * 1.5;
  const rand = (n) => Array.from({ length: n }, r);
  const init = [];
  const nodes = [];
  const linear = (name, x, i, o, { matmul = false } = {}) => {
    if (matmul) {
      init.push(raw(`${name}.W`, [i, o], rand(i * o)), raw(`${name}.b`, [o], rand(o)));
      nodes.push({ opType: 'MatMul', input: [x, `${name}.W`], output: [`${name}.mm`], name: `${name}.mm` });
      nodes.push({ opType: 'Add', input: [`${name}.b`, `${name}.mm`], output: [`${name}.out`], name: `${name}.add` });
    } else {
      init.push(raw(`${name}.weight`, [o, i], rand(i * o)), raw(`${name}.bias`, [o], rand(o)));
      nodes.push({
        opType: 'Gemm',
        input: [x, `${name}.weight`, `${name}.bias`],
        output: [`${name}.out`],
        name,
        attribute: [
          { name: 'transB', type: 2, i: 1 },
          { name: 'alpha', type: 1, f: 1 },
        ],
      });
    }
    return `${name}.out`;
  };
  const tanh = (x) => {
    nodes.push({ opType: 'Tanh', input: [x], output: [`${x}.tanh`], name: `${x}.tanh` });
    return `${x}.tanh`;
  };
  const a = tanh(linear('actor.2', tanh(linear('actor.0', 'features', F, h)), h, h));
  const c = tanh(linear('critic.2', tanh(linear('critic.0', 'features', F, h)), h, h));
  linear('actor.4', a, h, A);
  linear('critic.4', c, h, 1, { matmul: true });
  nodes.push({ opType: 'Identity', input: ['actor.4.out'], output: ['logits'], name: 'out.logits' });
  nodes.push({ opType: 'Identity', input: ['critic.4.out'], output: ['value'], name: 'out.value' });
  const model = onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: '', version: 14 }],
    producerName: 'pytorch',
    metadataProps: Object.entries(metadata).map(([k, v]) => ({ key: METADATA[k], value: v })),
    graph: {
      name: 'torch_jit',
      node: nodes,
      initializer: init,
      input: [info('features', F)],
      output: [info('logits', A), info('value', 1)],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}

const F0 = 365; // ValleyFarm-v0's features without memory, history 1 (checked below against the policy's frames)

describe('a torch-shaped graph plays on our learner core', () => {
  it('its actor and critic side by side become one network with the logits and value onnxruntime gives, within 1e-5', async () => {
    const bytes = torchShaped({ F: F0, A: 12 });
    const json = onnxToPolicy(bytes);
    expect(json.config).toEqual({ hidden: [12, 12], history: 1, memory: 0 }); // 6 + 6 units a layer
    const rec = await recorded(json, 1000);
    expect(rec.F).toBe(F0);
    const out = await run(bytes, rec.features, 1000, F0);
    const core = { logits: [], value: [] };
    for (let i = 0; i < 1000; i++) {
      const row = rec.outputs.subarray(i * 13, (i + 1) * 13);
      core.logits.push(...row.subarray(0, 12));
      core.value.push(row[12]);
    }
    expect(worst(out.logits.data, core.logits)).toBeLessThanOrEqual(1e-5);
    expect(worst(out.value.data, core.value)).toBeLessThanOrEqual(1e-5);
    // the logits are not all near 0: the bound means something
    expect(Math.max(...core.logits.map(Math.abs))).toBeGreaterThan(0.5);
  }, 60_000);
});

// ---- refusals ------------------------------------------------------------------------------

/** A model's bytes with `change(model)` made to it. */
function changed(bytes, change) {
  const model = onnx.ModelProto.decode(bytes);
  change(model);
  return onnx.ModelProto.encode(model).finish();
}

describe('a bad model is refused with a message that names its fault', () => {
  const good = () => torchShaped({ F: F0, A: 12 });
  const cases = [
    ['bytes that are no protobuf', () => new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 1, 2]), /not an ONNX model/],
    ['a JSON file', () => new TextEncoder().encode('{"format":"valley-farm-policy"}'), /not an ONNX model|IR version/],
    [
      'a disallowed op (Sigmoid for Tanh)',
      () => changed(good(), (m) => (m.graph.node.find((n) => n.opType === 'Tanh').opType = 'Sigmoid')),
      new RegExp(`Sigmoid.*not allowed.*${ALLOWED_OPS.join(', ')}`),
    ],
    [
      'a layer wider than the learner’s limit (300 + 300 units side by side)',
      () => torchShaped({ F: F0, A: 12, h: 300 }),
      /layers 600, 600.*1 to 4 layers of at most 512 units/,
    ],
    [
      'a NaN weight',
      () =>
        changed(good(), (m) => {
          const t = m.graph.initializer[2];
          new DataView(t.rawData.buffer, t.rawData.byteOffset).setFloat32(4, NaN, true);
        }),
      /weight "actor\.2\.weight" has NaN at 1; every weight must be a finite number/,
    ],
    ['features of the wrong size', () => torchShaped({ F: F0 + 3, A: 12 }), /"features" must be float32 \[N, 365\].*got \[N, 368\]/],
    [
      'the wrong number of actions',
      () => torchShaped({ F: F0, A: 11 }),
      /"logits" must have 12 values a row \(ValleyFarm-v0 has 12 actions\), got 11/,
    ],
    ['no env in its metadata', () => torchShaped({ F: F0, A: 12, metadata: {} }), /names no env.*valley-farm:env/],
    [
      'an unknown env',
      () => torchShaped({ F: F0, A: 12, metadata: { env: 'Nope-v0' } }),
      /"valley-farm:env" is "Nope-v0"; it must be one of/,
    ],
    ['opset 7', () => changed(good(), (m) => (m.opsetImport[0].version = 7)), /opset 7; this package reads opsets 9 to 21/],
    ['an op of another domain', () => changed(good(), (m) => (m.opsetImport[0].domain = 'com.microsoft')), /op set "com\.microsoft"/],
    ['a Gemm with alpha 2', () => changed(good(), (m) => (m.graph.node[0].attribute[1].f = 2)), /alpha 2.*allowed: alpha 1/],
    [
      'a float64 weight',
      () => changed(good(), (m) => (m.graph.initializer[0].dataType = 11)),
      /weight "actor\.0\.weight" is of data type 11; weights must be float32/,
    ],
    [
      'weights shorter than their shape',
      () => changed(good(), (m) => (m.graph.initializer[1].rawData = m.graph.initializer[1].rawData.subarray(4))),
      /"actor\.0\.bias" has 20 bytes of data, not the 24 of its shape/,
    ],
    [
      'an output after fewer hidden layers than the other',
      () => changed(good(), (m) => (m.graph.node.find((n) => n.name === 'out.value').input = ['actor.0.out'])),
      /same number of hidden layers \(at least 1\), got logits 2, value 0/,
    ],
    [
      'an output that is an activation, not a head',
      () => changed(good(), (m) => (m.graph.node.find((n) => n.name === 'out.value').input = ['critic.2.out.tanh'])),
      /"value" must be a dense layer's sum/,
    ],
    [
      'a renamed output',
      () => changed(good(), (m) => (m.graph.output[0].name = 'probs')),
      /outputs are "probs", "value"; they must be "logits" and "value"/,
    ],
  ];
  for (const [what, bytes, message] of cases)
    it(`${what} is refused`, () => {
      expect(() => onnxToPolicy(bytes())).toThrow(message);
    });

  it('a model larger than the largest network is refused by its size, before it is parsed', () => {
    expect(() => onnxToPolicy(new Uint8Array(4 * 2 ** 22 + 2 ** 20 + 1))).toThrow(/bytes; a policy's model is at most/);
  });

  it('a recurrent policy and a tabular-q table are not exported, and say why', async () => {
    await expect(untrained('ppo', { hidden: [8], recurrent: 8 }).then(policyToOnnx)).rejects.toThrow(/recurrent policy.*GRU.*recurrent 0/);
    const table = await createLearner({ env: V, algo: 'tabular-q', seed: 1 });
    expect(() => policyToOnnx(clone(table.policy().toJSON()))).toThrow(/tabular-q policy has no network.*ppo, reinforce, dqn/);
    table.dispose();
  });
});

describe('npx valley-farm export', () => {
  const cli = (...args) => {
    try {
      return {
        code: 0,
        out: execFileSync(process.execPath, [join(root, 'wasm/cli/index.mjs'), ...args], { cwd: dir, encoding: 'utf8', stdio: 'pipe' }),
      };
    } catch (err) {
      return { code: err.status, out: `${err.stdout}${err.stderr}` };
    }
  };

  it('writes a model onnxruntime runs, never replaces a file without --force, and refuses a file that is no policy', async () => {
    writeFileSync(join(dir, 'p.json'), JSON.stringify(fixture[V].policy));
    expect(cli('export', 'p.json', '--onnx', 'p.onnx').code).toBe(0);
    const bytes = readFileSync(join(dir, 'p.onnx'));
    expect(Buffer.from(policyToOnnx(fixture[V].policy)).equals(bytes)).toBe(true);
    writeFileSync(join(dir, 'keep.onnx'), 'mine');
    const refused = cli('export', 'p.json', '--onnx', 'keep.onnx');
    expect(refused.code).toBe(2);
    expect(refused.out).toMatch(/--onnx keep\.onnx exists: give --force to replace it/);
    expect(readFileSync(join(dir, 'keep.onnx'), 'utf8')).toBe('mine');
    expect(cli('export', 'p.json', '--onnx', 'keep.onnx', '--force').code).toBe(0);
    expect(readFileSync(join(dir, 'keep.onnx')).equals(bytes)).toBe(true);
    expect(cli('export', 'p.json').out).toMatch(/--onnx FILE is required/);
    expect(cli('export', 'p.json', '--onnx', 'p.txt').out).toMatch(/name a file ending in \.onnx/);
    writeFileSync(join(dir, 'no.json'), '{"format":"other"}');
    const notPolicy = cli('export', 'no.json', '--onnx', 'no.onnx');
    expect(notPolicy.code).toBe(2);
    expect(notPolicy.out).toMatch(/not a valley-farm policy/);
    expect(() => readFileSync(join(dir, 'no.onnx'))).toThrow();
  }, 60_000);

  it('eval plays an .onnx policy as it plays the policy it came from', () => {
    const args = ['--env', V, '--seeds', '1..3', '--greedy', '--json'];
    const fromJson = JSON.parse(cli('eval', 'p.json', ...args).out);
    const fromOnnx = JSON.parse(cli('eval', 'p.onnx', ...args).out);
    expect(fromOnnx.returns).toEqual(fromJson.returns);
    expect(fromOnnx.actions).toBe(fromJson.actions);
  }, 60_000);
});

describe('the ONNX rules are one file for both bindings (wasm/data/onnx-rules.json)', () => {
  it("its limits are the network learners' limits: the weights, history, memory and hidden layers of ppo, reinforce and dqn", async () => {
    const rules = JSON.parse(readFileSync(new URL('../../wasm/data/onnx-rules.json', import.meta.url), 'utf8'));
    expect(rules.maxWeights).toBe(MAX_WEIGHTS);
    for (const algo of ['ppo', 'reinforce', 'dqn']) {
      const { limits } = algorithms[algo];
      expect({ algo, history: rules.historyMax, memory: rules.memoryMax }).toEqual({
        algo,
        history: limits.history.max,
        memory: limits.memory.max,
      });
      expect({ algo, most: rules.hidden.most, units: rules.hidden.units }).toEqual({
        algo,
        most: limits.hidden.most,
        units: limits.hidden.units,
      });
    }
  });

  it('the export writes the opset and IR version it names, within what the import reads', () => {
    const rules = JSON.parse(readFileSync(new URL('../../wasm/data/onnx-rules.json', import.meta.url), 'utf8'));
    expect(rules.exportOpset).toBeGreaterThanOrEqual(rules.opsets.min);
    expect(rules.exportOpset).toBeLessThanOrEqual(rules.opsets.max);
    expect(rules.exportIrVersion).toBeGreaterThanOrEqual(rules.irVersions.min);
    expect(rules.exportIrVersion).toBeLessThanOrEqual(rules.irVersions.max);
  });
});
