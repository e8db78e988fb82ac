// net.js — the policy and value network of PPO: an MLP (tanh hidden layers) with two heads,
// the logits of the actions and the value. Its weights are plain TensorFlow.js variables in
// the shapes a dense layer has (kernel [in, out], bias [out]), in the order
// [kernel, bias] per hidden layer, then the logits' head, then the value's.
//
// It runs in two layouts that compute the same function:
//  - rows(x): x is [batch, in], one observation per row: acting, where batches are small;
//  - columns(xT): xT is [in, batch], one observation per column: training. Every product is
//    then W^T h, whose gradients transpose only a weight or a [units, batch] gradient. In
//    rows, the first layer's weight gradient is x^T dy, a transpose of the whole (wide,
//    mostly one-hot) input batch, which made each training step markedly slower.
// The learner writes xT itself while it gathers a minibatch (putColumn), which costs no more
// than writing x.

const MASKED = -1e9;

/** Log-probabilities of every action with illegal ones masked out (their probability is 0). */
export function maskedLogSoftmax(tf, logits, masks) {
  return tf.tidy(() => tf.logSoftmax(tf.add(logits, tf.mul(tf.sub(1, masks), MASKED))));
}

/**
 * Writes src[from .. from + length) as rows offset .. offset + length of column b of xT (an
 * [inputs, B] batch, zeros where nothing is written). Features are mostly one-hot zeros:
 * only the others are written.
 */
export function putColumn(xT, B, b, src, from, length, offset) {
  for (let j = 0; j < length; j++) if (src[from + j] !== 0) xT[(offset + j) * B + b] = src[from + j];
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
