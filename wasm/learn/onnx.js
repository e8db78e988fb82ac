// onnx.js — a network policy as an ONNX model, and an ONNX model back as a network policy, so a
// policy crosses languages: one trained here runs in onnxruntime (Python, C++, anywhere), and
// one trained in torch plays on the page, through the learner core like any policy of ours.
//
//   const bytes = policyToOnnx(json);        // a ppo, reinforce or dqn policy file -> .onnx bytes
//   const json = onnxToPolicy(bytes);        // .onnx bytes, checked as data -> a policy file
//   const policy = await loadOnnxPolicy(bytes); // both: plays it as loadPolicy's policies play
//
// The model: input `features` float32 [N, F], the frames the policy's network reads (the
// engine's features of each observation, vf_features, then with memory its memory's, stacked
// over `history` steps, oldest first: F = width × history, perception.js); outputs `logits`
// [N, A] and `value` [N, 1] for a policy of logits (ppo, reinforce), or `q_values` [N, A] for
// one of action values (dqn). Which env and settings the features are of is in the model's
// metadata (METADATA below). docs/python.md ("Policies as ONNX") says the same for users.
//
// An ONNX file is a stranger's data: onnxToPolicy reads it with protobuf, then checks
// everything before any network exists: its size, IR version and opset, each op against
// ALLOWED_OPS, the graph's shape (dense layers of one activation, heads on the last), every
// size against the learner's limits and every weight finite; an error says what was wrong and
// what is allowed. A graph whose heads have hidden layers of their own (torch's usual actor
// and critic, side by side) becomes one network whose layers hold both, block-diagonally: the
// zeros between them add exactly nothing, so the logits are the same.
import onnxProto from 'onnx-proto';
import { envSpecs } from '../index.js';
import { MAX_WEIGHTS, shown } from './limits.js';
import { POLICY_FORMAT } from './policyFile.js';
import { checkPolicyJSON } from './policyCheck.js';
import { loadPolicy } from './index.js';
import { learnerOf } from './registry.js';
import RULES from '../data/onnx-rules.json' with { type: 'json' };
import { networkInputs } from './perception.js';
import { ACT_MODES } from './netPolicy.js';

const { onnx } = onnxProto;
const FLOAT = onnx.TensorProto.DataType.FLOAT;

// The rules an ONNX policy is held to live in wasm/data/onnx-rules.json, which the Python
// package reads too (valley_farm/onnx_policy.py): one source for both bindings.

/** The opset the export writes, and the opsets the import reads (the allowed ops mean the same in all). */
export const ONNX_OPSET = RULES.exportOpset;
export const ONNX_OPSETS = Object.freeze({ ...RULES.opsets });
/** The IR versions the import reads (the export writes opset 13's, RULES.exportIrVersion). */
export const ONNX_IR_VERSIONS = Object.freeze({ ...RULES.irVersions });
/**
 * The ops a policy's graph may use: a dense layer is Gemm (alpha and beta 1, transA 0), or
 * MatMul then Add of a bias; then Tanh or Relu; Identity passes a tensor on (torch writes some).
 */
export const ALLOWED_OPS = Object.freeze([...RULES.ops]);
/** The most nodes a graph may have: 4 hidden layers for each of 3 heads, 3 ops each, and room. */
export const MAX_NODES = RULES.maxNodes;
/** The largest .onnx file read: MAX_WEIGHTS float32 weights and 1 MiB for the rest. */
export const MAX_ONNX_BYTES = 4 * MAX_WEIGHTS + RULES.bytesBesideWeights;
/** The names of the graph's input and outputs. */
export const ONNX_NAMES = Object.freeze({ ...RULES.names });
/**
 * The model's metadata (metadata_props): which env the features are of and the network's
 * settings. Only env is required; the others default to history 1, memory 0, algo ppo (dqn for
 * a model of q_values) and act greedy.
 */
export const METADATA = Object.freeze({ ...RULES.metadata });

const fail = (what) => new Error(`valley-farm/learn: ONNX: ${what}`);
const ACTIVATION_OPS = { Tanh: 'tanh', Relu: 'relu' };

// ---- export ---------------------------------------------------------------------------------

/**
 * The ONNX model (bytes) of a network policy file (checked first, as loadPolicy checks it):
 * dense layers as Gemm then Tanh (or Relu for a policy of action values), its heads as Gemm.
 * A tabular-q policy (a table, no network) and a recurrent one are refused.
 */
export function policyToOnnx(json) {
  checkPolicyJSON(json);
  if (!Array.isArray(json.weights))
    throw fail(`a ${json.algo} policy has no network to export (ONNX export takes the network policies: ppo, reinforce, dqn)`);
  if ((json.config.recurrent ?? 0) > 0)
    throw fail(
      `a recurrent policy (recurrent ${json.config.recurrent}: ${json.config.lstm === 1 ? 'an LSTM' : 'a GRU'} that keeps a state from step to step) cannot be exported; train one with recurrent 0`,
    );
  const A = envSpecs[json.env].actions.length;
  const hidden = json.config.hidden;
  const q = json.weights.length === 2 * hidden.length + 2; // one head, of action values (else logits and a value)
  const history = json.config.history ?? 1;
  const memory = json.config.memory ?? 0;
  const F = networkInputs(json.env, { history, memory });
  const tensors = [];
  const nodes = [];
  const weight = (name, w) => {
    tensors.push({ name, dataType: FLOAT, dims: w.shape, floatData: Array.from(w.values) });
    return name;
  };
  let x = ONNX_NAMES.input;
  hidden.forEach((_, i) => {
    const W = weight(`hidden${i}.kernel`, json.weights[2 * i]);
    const b = weight(`hidden${i}.bias`, json.weights[2 * i + 1]);
    nodes.push({ opType: 'Gemm', input: [x, W, b], output: [`hidden${i}.sum`], name: `hidden${i}` });
    nodes.push({ opType: q ? 'Relu' : 'Tanh', input: [`hidden${i}.sum`], output: [`hidden${i}.out`], name: `hidden${i}.activation` });
    x = `hidden${i}.out`;
  });
  const heads = q ? [ONNX_NAMES.q] : [ONNX_NAMES.logits, ONNX_NAMES.value];
  heads.forEach((name, h) => {
    const at = 2 * hidden.length + 2 * h;
    const W = weight(`${name}.kernel`, json.weights[at]);
    const b = weight(`${name}.bias`, json.weights[at + 1]);
    nodes.push({ opType: 'Gemm', input: [x, W, b], output: [name], name });
  });
  const valueInfo = (name, width) => ({
    name,
    type: { tensorType: { elemType: FLOAT, shape: { dim: [{ dimParam: 'N' }, { dimValue: width }] } } },
  });
  const meta = { env: json.env, algo: json.algo, history, memory, act: q ? 'greedy' : (json.act ?? 'greedy') };
  const model = onnx.ModelProto.create({
    irVersion: RULES.exportIrVersion,
    opsetImport: [{ domain: '', version: ONNX_OPSET }],
    producerName: 'valley-farm',
    docString: `A ${json.algo} policy for ${json.env}: features [N, ${F}] -> ${heads.join(', ')} (docs/python.md, "Policies as ONNX")`,
    metadataProps: Object.entries(meta).map(([k, v]) => ({ key: METADATA[k], value: String(v) })),
    graph: {
      name: 'valley-farm-policy',
      node: nodes,
      initializer: tensors,
      input: [valueInfo(ONNX_NAMES.input, F)],
      output: heads.map((name) => valueInfo(name, name === ONNX_NAMES.value ? 1 : A)),
    },
  });
  return onnx.ModelProto.encode(model).finish();
}

// ---- import ---------------------------------------------------------------------------------

const num = (v) => (typeof v === 'object' && v !== null ? v.toNumber() : Number(v)); // int64 as a Long or a number

/** The model's metadata as settings, each checked. */
function settingsOf(model, heads) {
  const props = {};
  for (const p of model.metadataProps ?? []) props[p.key] = p.value;
  const env = props[METADATA.env];
  if (env === undefined)
    throw fail(
      `the model names no env: its metadata_props must have "${METADATA.env}" (one of ${Object.keys(envSpecs).join(', ')}), the farm whose features it reads`,
    );
  if (!Object.hasOwn(envSpecs, env))
    throw fail(`the model's "${METADATA.env}" is ${shown(env)}; it must be one of ${Object.keys(envSpecs).join(', ')}`);
  const whole = (key, fallback, min, max) => {
    const text = props[METADATA[key]];
    if (text === undefined) return fallback;
    const v = Number(text);
    if (!/^\d+$/.test(text) || v < min || v > max)
      throw fail(`the model's "${METADATA[key]}" must be a whole number from ${min} to ${max}, got ${shown(text)}`);
    return v;
  };
  const algo = props[METADATA.algo] ?? (heads === 'q' ? 'dqn' : 'ppo');
  const learner = learnerOf(algo, ` in the model's "${METADATA.algo}"`);
  const historyMax = learner.limits?.history?.max ?? 1;
  const history = whole('history', 1, 1, historyMax);
  const memory = whole('memory', 0, 0, learner.limits?.memory?.max ?? 0);
  const act = props[METADATA.act] ?? 'greedy';
  if (!ACT_MODES.includes(act)) throw fail(`the model's "${METADATA.act}" must be ${ACT_MODES.join(' or ')}, got ${shown(act)}`);
  return { env, algo, learner, history, memory, act };
}

/** An initializer's values as a Float32Array of its shape (float32 only, every value finite). */
function tensorValues(t) {
  const name = shown(t.name);
  if (t.dataType !== FLOAT) throw fail(`weight ${name} is of data type ${t.dataType}; weights must be float32 (type ${FLOAT})`);
  if (t.dataLocation === onnx.TensorProto.DataLocation.EXTERNAL || (t.externalData ?? []).length > 0)
    throw fail(`weight ${name} is stored outside the file (external data); a policy's weights must be inside it`);
  const dims = (t.dims ?? []).map(num);
  if (dims.length < 1 || dims.length > 2 || dims.some((d) => !Number.isInteger(d) || d < 1 || d > MAX_WEIGHTS))
    throw fail(`weight ${name} has shape [${dims.join(', ')}]; a weight is a vector or a matrix of at most ${MAX_WEIGHTS} values`);
  const size = dims.reduce((a, b) => a * b, 1);
  if (size > MAX_WEIGHTS) throw fail(`weight ${name} has ${size} values, more than the ${MAX_WEIGHTS} a network may have`);
  let values;
  if (t.rawData?.length) {
    if (t.rawData.length !== 4 * size) throw fail(`weight ${name} has ${t.rawData.length} bytes of data, not the ${4 * size} of its shape`);
    const view = new DataView(t.rawData.buffer, t.rawData.byteOffset, t.rawData.byteLength);
    values = new Float32Array(size);
    for (let i = 0; i < size; i++) values[i] = view.getFloat32(4 * i, true); // ONNX's raw data is little-endian
  } else {
    if ((t.floatData ?? []).length !== size)
      throw fail(`weight ${name} has ${(t.floatData ?? []).length} values, not the ${size} of its shape`);
    values = Float32Array.from(t.floatData);
  }
  for (let i = 0; i < size; i++)
    if (!Number.isFinite(values[i])) throw fail(`weight ${name} has ${values[i]} at ${i}; every weight must be a finite number`);
  return { dims, values };
}

/** Throws unless `node`'s attributes are those allowed for its op (Gemm's: alpha = beta = 1, transA = 0). */
function checkAttributes(node) {
  const attrs = node.attribute ?? [];
  if (node.opType !== 'Gemm') {
    if (attrs.length)
      throw fail(`node ${shown(node.name)} (${node.opType}) has attributes (${attrs.map((a) => a.name).join(', ')}); it takes none`);
    return { transB: 0 };
  }
  const got = { alpha: 1, beta: 1, transA: 0, transB: 0 };
  for (const a of attrs) {
    if (!Object.hasOwn(got, a.name))
      throw fail(`Gemm node ${shown(node.name)} has attribute ${shown(a.name)}; allowed: alpha, beta, transA, transB`);
    got[a.name] = a.name === 'alpha' || a.name === 'beta' ? a.f : num(a.i);
  }
  if (got.alpha !== 1 || got.beta !== 1 || got.transA !== 0 || (got.transB !== 0 && got.transB !== 1))
    throw fail(
      `Gemm node ${shown(node.name)} has alpha ${got.alpha}, beta ${got.beta}, transA ${got.transA}, transB ${got.transB}; allowed: alpha 1, beta 1, transA 0, transB 0 or 1`,
    );
  return got;
}

/** A kernel [in, out] from an initializer (transposed when the op reads it transposed). */
function kernel(w, transposed, where) {
  if (w.dims.length !== 2) throw fail(`${where}'s kernel must be a matrix, got shape [${w.dims.join(', ')}]`);
  if (!transposed) return { rows: w.dims[0], cols: w.dims[1], values: w.values };
  const [r, c] = w.dims;
  const out = new Float32Array(r * c);
  for (let i = 0; i < r; i++) for (let j = 0; j < c; j++) out[j * r + i] = w.values[i * c + j];
  return { rows: c, cols: r, values: out };
}

/**
 * What each tensor of the graph is: the input, a weight, a dense layer's sum ({ linear, from,
 * W, b }) or an activation of one ({ act, of }). Anything else is refused, naming the node.
 */
function readGraph(graph, weights) {
  const values = new Map([[ONNX_NAMES.input, { input: true }]]);
  const get = (name, node) => {
    if (values.has(name)) return values.get(name);
    if (weights.has(name)) return { weight: weights.get(name), name };
    throw fail(`node ${shown(node.name)} reads ${shown(name)}, which no earlier node, input or weight makes (nodes must be in order)`);
  };
  const isFeatures = (v) => v.input || v.act;
  for (const node of graph.node) {
    const where = `${node.opType} node ${shown(node.name || node.output?.[0])}`;
    if (!ALLOWED_OPS.includes(node.opType))
      throw fail(`${shown(node.opType)} node ${shown(node.name)} is not allowed; the allowed ops are ${ALLOWED_OPS.join(', ')}`);
    if (node.domain && node.domain !== 'ai.onnx')
      throw fail(`${where} is of domain ${shown(node.domain)}; only the default ONNX domain is allowed`);
    if ((node.output ?? []).length !== 1) throw fail(`${where} has ${(node.output ?? []).length} outputs; each allowed op has one`);
    const { transB } = checkAttributes(node);
    const ins = (node.input ?? []).map((n) => get(n, node));
    let made;
    if (node.opType === 'Identity' && ins.length === 1) made = ins[0];
    else if ((node.opType === 'Tanh' || node.opType === 'Relu') && ins.length === 1 && ins[0].linear)
      made = { act: ACTIVATION_OPS[node.opType], of: ins[0] };
    else if (
      node.opType === 'Gemm' &&
      (ins.length === 2 || ins.length === 3) &&
      isFeatures(ins[0]) &&
      ins[1].weight &&
      (ins.length === 2 || ins[2].weight)
    ) {
      const W = kernel(ins[1].weight, transB === 1, where);
      made = { linear: true, from: ins[0], W, b: ins[2]?.weight ?? null, where };
    } else if (node.opType === 'MatMul' && ins.length === 2 && isFeatures(ins[0]) && ins[1].weight) {
      made = { linear: true, from: ins[0], W: kernel(ins[1].weight, false, where), b: null, where };
    } else if (node.opType === 'Add' && ins.length === 2 && ins.some((v) => v.linear && !v.b) && ins.some((v) => v.weight)) {
      const sum = ins.find((v) => v.linear);
      made = { ...sum, b: ins.find((v) => v.weight).weight };
    } else
      throw fail(
        `${where} does not make a dense layer: a layer is Gemm(x, kernel, bias) or Add(MatMul(x, kernel), bias) of the input or an activation, then Tanh or Relu; heads are layers without one`,
      );
    values.set(node.output[0], made);
  }
  return values;
}

/** A dense layer's bias as out values ([out] or [1, out]), zeros where it has none. */
function biasOf(layer) {
  const out = layer.W.cols;
  if (!layer.b) return new Float32Array(out);
  const d = layer.b.dims;
  if (!(d.length === 1 && d[0] === out) && !(d.length === 2 && d[0] === 1 && d[1] === out))
    throw fail(`${layer.where}'s bias has shape [${d.join(', ')}]; a layer of ${out} units takes a bias of [${out}]`);
  return layer.b.values;
}

/**
 * A policy file (format valley-farm-policy) of an ONNX model's bytes (a Uint8Array or
 * ArrayBuffer), checked as data as the file comment says; then checked again as every
 * policy is (checkPolicyJSON). Throws an error naming what was wrong and what is allowed.
 */
export function onnxToPolicy(bytes) {
  if (bytes instanceof ArrayBuffer) bytes = new Uint8Array(bytes);
  if (!(bytes instanceof Uint8Array)) throw fail("a model is its file's bytes (a Uint8Array or an ArrayBuffer)");
  if (bytes.length > MAX_ONNX_BYTES) throw fail(`the file has ${bytes.length} bytes; a policy's model is at most ${MAX_ONNX_BYTES}`);
  let model;
  try {
    model = onnx.ModelProto.decode(bytes);
  } catch (err) {
    throw fail(`not an ONNX model (its protobuf could not be read: ${String(err.message).slice(0, 80)})`);
  }
  const ir = num(model.irVersion ?? 0);
  if (ir < ONNX_IR_VERSIONS.min || ir > ONNX_IR_VERSIONS.max)
    throw fail(`IR version ${ir}; this package reads IR versions ${ONNX_IR_VERSIONS.min} to ${ONNX_IR_VERSIONS.max}`);
  const opsets = model.opsetImport ?? [];
  for (const o of opsets) {
    if (o.domain && o.domain !== 'ai.onnx')
      throw fail(`the model imports the op set ${shown(o.domain)}; only the default ONNX domain is allowed`);
    const v = num(o.version);
    if (v < ONNX_OPSETS.min || v > ONNX_OPSETS.max)
      throw fail(`opset ${v}; this package reads opsets ${ONNX_OPSETS.min} to ${ONNX_OPSETS.max}`);
  }
  if (!opsets.length)
    throw fail(`the model imports no opset; it must import the default domain's, ${ONNX_OPSETS.min} to ${ONNX_OPSETS.max}`);
  const graph = model.graph;
  if (!graph) throw fail('the model has no graph');
  if (graph.node.length > MAX_NODES) throw fail(`the graph has ${graph.node.length} nodes; a policy's has at most ${MAX_NODES}`);
  const weights = new Map();
  let total = 0;
  for (const t of graph.initializer ?? []) {
    const w = tensorValues(t);
    total += w.values.length;
    if (total > MAX_WEIGHTS) throw fail(`the weights hold more than the ${MAX_WEIGHTS} values a network may have`);
    weights.set(t.name, w);
  }
  const inputs = (graph.input ?? []).filter((i) => !weights.has(i.name));
  if (inputs.length !== 1 || inputs[0].name !== ONNX_NAMES.input)
    throw fail(
      `the graph's inputs are ${inputs.map((i) => shown(i.name)).join(', ') || 'none'}; it must have one, "${ONNX_NAMES.input}" (float32 [N, F])`,
    );
  const outNames = (graph.output ?? []).map((o) => o.name);
  const heads = outNames.includes(ONNX_NAMES.q) ? 'q' : 'logits';
  const wanted = heads === 'q' ? [ONNX_NAMES.q] : [ONNX_NAMES.logits, ONNX_NAMES.value];
  if (outNames.length !== wanted.length || wanted.some((n, i) => outNames[i] !== n))
    throw fail(
      `the graph's outputs are ${outNames.map(shown).join(', ') || 'none'}; they must be "${ONNX_NAMES.logits}" and "${ONNX_NAMES.value}" (a policy of logits) or "${ONNX_NAMES.q}" alone (of action values)`,
    );
  const s = settingsOf(model, heads);
  const F = networkInputs(s.env, s);
  const A = envSpecs[s.env].actions.length;
  const dims = inputs[0].type?.tensorType?.shape?.dim ?? [];
  const F_given = dims.length === 2 && dims[1].dimValue != null ? num(dims[1].dimValue) : null;
  if (dims.length !== 2 || (F_given !== null && F_given !== F) || inputs[0].type?.tensorType?.elemType !== FLOAT)
    throw fail(
      `the input "${ONNX_NAMES.input}" must be float32 [N, ${F}] (the features of ${s.env} with memory ${s.memory}, over history ${s.history}), got ${dims.length === 2 ? `[N, ${F_given}]` : `${dims.length} dimensions`}`,
    );
  const values = readGraph(graph, weights);
  return assemble(values, wanted, { ...s, F, A, heads });
}

/**
 * The network of the heads' layers, as one policy file: the hidden layers at each depth side
 * by side (block-diagonal where the heads' own layers split off), the heads on the last.
 */
function assemble(values, wanted, { env, algo, learner, history, memory, act, F, A, heads }) {
  const activation = heads === 'q' ? 'relu' : 'tanh'; // networkLayout's rule
  const chains = wanted.map((name) => {
    const head = values.get(name);
    if (!head?.linear)
      throw fail(`the output "${name}" must be a dense layer's sum (Gemm, or MatMul and Add), the head on the last hidden layer`);
    const layers = []; // its hidden layers, first to last: the activation values
    for (let v = head.from; !v.input; v = v.of.from) {
      if (v.act !== activation)
        throw fail(
          `the hidden layers of a ${algo} policy are ${activation === 'tanh' ? 'Tanh' : 'Relu'}; ${v.of.where} is followed by ${v.act === 'tanh' ? 'Tanh' : 'Relu'}`,
        );
      layers.unshift(v);
    }
    return { name, head, layers };
  });
  const depth = chains[0].layers.length;
  if (depth < 1 || chains.some((c) => c.layers.length !== depth))
    throw fail(
      `every output must come after the same number of hidden layers (at least 1), got ${chains.map((c) => `${c.name} ${c.layers.length}`).join(', ')}`,
    );
  // each depth's distinct layers, side by side: where each starts in the combined layer
  const columns = [];
  for (let d = 0; d < depth; d++) {
    const at = new Map();
    let width = 0;
    for (const c of chains) if (!at.has(c.layers[d])) at.set(c.layers[d], (width += c.layers[d].of.W.cols) - c.layers[d].of.W.cols);
    columns.push({ at, width });
  }
  const hidden = columns.map((c) => c.width);
  const limit = learner.limits?.hidden;
  if (limit && (hidden.length > limit.most || hidden.some((u) => u > limit.units)))
    throw fail(
      `its hidden layers make a network of layers ${hidden.join(', ')} (side by side where its heads have their own); a ${algo} network has 1 to ${limit.most} layers of at most ${limit.units} units`,
    );
  const sizes = [F, ...hidden];
  let count = 0;
  for (let d = 0; d < depth; d++) count += (sizes[d] + 1) * sizes[d + 1];
  count += (hidden[depth - 1] + 1) * (heads === 'q' ? A : A + 1);
  if (count > MAX_WEIGHTS) throw fail(`the network would have ${count} weights, more than the ${MAX_WEIGHTS} allowed`);
  // a layer's kernel [in, out] placed at (row, col) of a combined one, its rows the units it reads
  const place = (target, cols, layer, row, col, rowsWanted) => {
    if (layer.W.rows !== rowsWanted)
      throw fail(`${layer.where}'s kernel reads ${layer.W.rows} values; the layer before it gives ${rowsWanted}`);
    const { rows, cols: n, values } = layer.W;
    for (let i = 0; i < rows; i++) target.set(values.subarray(i * n, (i + 1) * n), (row + i) * cols + col);
  };
  const weights = [];
  for (let d = 0; d < depth; d++) {
    const K = new Float32Array(sizes[d] * sizes[d + 1]);
    const b = new Float32Array(sizes[d + 1]);
    for (const [layer, col] of columns[d].at) {
      const from = layer.of.from;
      const row = d === 0 ? 0 : columns[d - 1].at.get(from);
      place(K, sizes[d + 1], layer.of, row, col, d === 0 ? F : from.of.W.cols);
      b.set(biasOf(layer.of), col);
    }
    weights.push({ shape: [sizes[d], sizes[d + 1]], values: K }, { shape: [sizes[d + 1]], values: b });
  }
  const last = columns[depth - 1];
  for (const c of chains) {
    const units = c.name === ONNX_NAMES.value ? 1 : A;
    if (c.head.W.cols !== units)
      throw fail(`the output "${c.name}" must have ${units} values a row (${env} has ${A} actions), got ${c.head.W.cols}`);
    const K = new Float32Array(last.width * units);
    place(K, units, c.head, last.at.get(c.head.from), 0, c.head.from.of.W.cols);
    weights.push({ shape: [last.width, units], values: K }, { shape: [units], values: Float32Array.from(biasOf(c.head)) });
  }
  const json = {
    format: POLICY_FORMAT,
    version: 1,
    env,
    algo,
    ...(heads === 'q' ? {} : { act }),
    config: { hidden, history, memory },
    weights,
  };
  checkPolicyJSON(json);
  return json;
}

/** The policy of an ONNX model's bytes (onnxToPolicy, then loadPolicy): act(observation, info), dispose(). */
export async function loadOnnxPolicy(bytes) {
  return loadPolicy(onnxToPolicy(bytes), { checked: true });
}
