// net.js — PPO's network on TensorFlow.js (its `tfjs` setting: the path PPO took before the
// learner core, core.js, kept to measure the core against and to check its gradients): an
// MLP (tanh hidden layers) with two heads, the logits of the actions and the value. Its weights are plain TensorFlow.js variables in
// the shapes a dense layer has (kernel [in, out], bias [out]), in the order
// [kernel, bias] per hidden layer, then the logits' head, then the value's.
//
// It runs in two layouts that compute the same function:
//  - rows(x): x is [batch, in], one observation per row: acting, where batches are small;
//  - columns(xT): xT is [in, batch], one observation per column: training. Every product is
//    then W^T h, whose gradients transpose only a weight or a [units, batch] gradient. In
//    rows, the first layer's weight gradient is x^T dy, a transpose of the whole (wide,
//    mostly one-hot) input batch, which made each training step markedly slower.
// batchTensors (below) writes xT from a minibatch's sparse inputs, which costs no more than
// writing x.

import { loadTf } from './tf.js';
import { CoreNet, Samples, loadCore } from './core.js';

const MASKED = -1e9;

/** Log-probabilities of every action with illegal ones masked out (their probability is 0). */
export function maskedLogSoftmax(tf, logits, masks) {
  return tf.tidy(() => tf.logSoftmax(tf.add(logits, tf.mul(tf.sub(1, masks), MASKED))));
}

/** The clipped surrogate, as a loss (minimised): −mean(min(r A, clip(r, 1 ± ε) A)). */
export function clippedLoss(tf, ratio, adv, clip) {
  return tf.tidy(() => tf.neg(tf.mean(tf.minimum(tf.mul(ratio, adv), tf.mul(tf.clipByValue(ratio, 1 - clip, 1 + clip), adv)))));
}

/** Glorot-uniform kernels drawn from the seed (each layer its own), zero biases. */
export function createNet(tf, inputs, hidden, actions, seed = 0) {
  const layerSeed = (i) => (seed * 7919 + i) % 2 ** 31;
  const sizes = [inputs, ...hidden];
  const weights = [];
  // tidy frees the initial values once the variables hold them (it keeps variables)
  const dense = (from, to, i, init) =>
    tf.tidy(() => {
      weights.push(tf.variable(init({ seed: layerSeed(i) }).apply([from, to])), tf.variable(tf.zeros([to])));
    });
  hidden.forEach((units, i) => dense(sizes[i], units, i, tf.initializers.glorotUniform));
  const last = sizes[sizes.length - 1];
  dense(last, actions, hidden.length, (o) => tf.initializers.randomNormal({ stddev: 0.01, ...o }));
  dense(last, 1, hidden.length + 1, tf.initializers.glorotUniform);
  const layers = hidden.length;

  return {
    weights,
    /** [logits [batch, actions], value [batch]] of a [batch, inputs] tensor. */
    rows(x) {
      let h = x;
      for (let l = 0; l < layers; l++) h = tf.tanh(tf.add(tf.matMul(h, weights[2 * l]), weights[2 * l + 1]));
      const logits = tf.add(tf.matMul(h, weights[2 * layers]), weights[2 * layers + 1]);
      const value = tf.add(tf.matMul(h, weights[2 * layers + 2]), weights[2 * layers + 3]);
      return [logits, tf.reshape(value, [-1])];
    },
    /** The same of an [inputs, batch] tensor: [logits [batch, actions], value [batch]]. */
    columns(xT) {
      const column = (b) => tf.reshape(b, [-1, 1]);
      let h = xT;
      for (let l = 0; l < layers; l++) h = tf.tanh(tf.add(tf.matMul(weights[2 * l], h, true), column(weights[2 * l + 1])));
      const logitsT = tf.add(tf.matMul(weights[2 * layers], h, true), column(weights[2 * layers + 1]));
      const value = tf.add(tf.matMul(weights[2 * layers + 2], h, true), column(weights[2 * layers + 3]));
      return [tf.transpose(logitsT), tf.reshape(value, [-1])];
    },
    /** The shapes of the weights, in order, as 'AxB' strings (for checking a saved policy). */
    shapes: () => weights.map((w) => w.shape.join('x')),
    dispose: () => weights.forEach((w) => w.dispose()),
  };
}

/**
 * PPO's loss (or cloning's) over a batch, on TensorFlow.js, as ppo.js's brains define it:
 * xT [inputs, B], masks, one-hot actions, old log-probabilities, advantages, returns as
 * tensors; returns [total, policy (or cross-entropy), value, entropy] (scalars).
 */
export function lossOf(tf, net, { xT, masks, onehot, oldLogp, adv, ret }, { cloning, clip, valueCoef, entropyCoef }) {
  const [logits, value] = net.columns(xT);
  const logp = maskedLogSoftmax(tf, logits, masks);
  const taken = tf.sum(tf.mul(logp, onehot), 1);
  const vLoss = tf.mean(tf.square(tf.sub(value, ret)));
  if (cloning) {
    const ce = tf.neg(tf.mean(taken));
    return [tf.add(ce, tf.mul(valueCoef, vLoss)), ce, vLoss, tf.scalar(0)];
  }
  const pLoss = clippedLoss(tf, tf.exp(tf.sub(taken, oldLogp)), adv, clip);
  const entropy = tf.mean(tf.neg(tf.sum(tf.mul(tf.exp(logp), tf.mul(logp, masks)), 1)));
  return [tf.add(pLoss, tf.sub(tf.mul(valueCoef, vLoss), tf.mul(entropyCoef, entropy))), pLoss, vLoss, entropy];
}

/** A batch's tensors from rows of a core Samples (core.js), its sparse inputs made dense. */
export function batchTensors(tf, samples, n, rows, inputs, A) {
  const v = samples.views();
  const xT = new Float32Array(inputs * n);
  const masks = new Float32Array(n * A);
  const actions = new Int32Array(n);
  const oldLogp = new Float32Array(n);
  const adv = new Float32Array(n);
  const ret = new Float32Array(n);
  for (let b = 0; b < n; b++) {
    const k = rows ? v.rows[b] : b;
    const at = samples.first(k);
    for (let j = 0; j < v.nnz[k]; j++) xT[v.idx[at + j] * n + b] = v.val[at + j];
    for (let a = 0; a < A; a++) masks[b * A + a] = v.masks[k * A + a];
    actions[b] = v.actions[k];
    oldLogp[b] = v.oldLogp[k] ?? 0; // demonstrations have none (Samples.packed): cloning reads neither
    adv[b] = v.advantages[k] ?? 0;
    ret[b] = v.returns[k];
  }
  return {
    xT: tf.tensor2d(xT, [inputs, n]),
    masks: tf.tensor2d(masks, [n, A]),
    onehot: tf.oneHot(tf.tensor1d(actions, 'int32'), A),
    oldLogp: tf.tensor1d(oldLogp),
    adv: tf.tensor1d(adv),
    ret: tf.tensor1d(ret),
  };
}

/**
 * ppo.js's brain on TensorFlow.js (setting tfjs 1): the same calls as the core's, with the
 * gradient read back into one array in the core's order and Adam from TensorFlow.js.
 */
export async function createTfBrain({ inputs, hidden, actions }, c, seed) {
  const tf = await loadTf();
  const core = await loadCore();
  const net = createNet(tf, inputs, hidden, actions, seed);
  const optimizer = tf.train.adam(c.learningRate);
  const count = net.weights.reduce((a, w) => a + w.size, 0);
  const grads = new Float32Array(count);
  return {
    samples: (n, stride) => new Samples(core, n, stride, actions),
    packedSamples: (nnz) => Samples.packed(core, nnz, actions),
    forward(samples, n, rows) {
      const t = tf.tidy(() => {
        const { xT } = batchTensors(tf, samples, n, rows, inputs, actions);
        const [logits, value] = net.columns(xT);
        return [logits, value];
      });
      const [logits, values] = t.map((x) => x.dataSync());
      t.forEach((x) => x.dispose());
      const v = samples.views();
      v.logits.set(logits);
      v.values.set(values);
    },
    zeroGrad: () => grads.fill(0),
    grad(samples, n, rows, loss) {
      let terms;
      const parts = tf.tidy(() => {
        const batch = batchTensors(tf, samples, n, rows, inputs, actions);
        const { grads: g } = tf.variableGrads(() => {
          terms = lossOf(tf, net, batch, loss).map((x) => tf.keep(x));
          return terms[0];
        }, net.weights);
        let at = 0;
        for (const w of net.weights) {
          const values = g[w.name].dataSync();
          // the core's terms are each scaled by `scale` (the minibatch's 1 / size); the mean
          // over this share is scaled by 1 / n, so the gradient is rescaled to match
          for (let k = 0; k < values.length; k++) grads[at + k] += values[k] * n * loss.scale;
          at += values.length;
        }
        return tf.stack(terms.slice(1));
      });
      const [p, v, e] = parts.dataSync();
      parts.dispose();
      terms.forEach((x) => x.dispose());
      return [p * n, v * n, e * n];
    },
    grads: () => grads,
    setGrads: (g) => grads.set(g),
    addGrads(other) {
      for (let k = 0; k < count; k++) grads[k] += other[k];
    },
    params() {
      const out = new Float32Array(count);
      let at = 0;
      for (const w of net.weights) {
        out.set(w.dataSync(), at);
        at += w.size;
      }
      return out;
    },
    adam(learningRate) {
      optimizer.learningRate = learningRate;
      let at = 0;
      const named = {};
      for (const w of net.weights) {
        named[w.name] = tf.tensor(grads.subarray(at, at + w.size), w.shape);
        at += w.size;
      }
      optimizer.applyGradients(named);
      Object.values(named).forEach((t) => t.dispose());
    },
    policyNet: () => new CoreNet(core, inputs, hidden, actions),
    dispose() {
      net.dispose();
      optimizer.dispose();
    },
  };
}
