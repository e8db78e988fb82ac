// imitate.js — behaviour cloning from the engine's planner, the start PPO can take before
// it learns from its own play. The planner sees the whole state (env.plan: beam search), so
// a narrow beam already plays far above the hand-written heuristic; the policy sees only
// its view, and learns which action the planner took from what it sees. The demonstrations
// are played on training seeds only (above every held-out one: wasm/splits.js).
import { envSpecs, flatten, make } from '../index.js';
import { shuffle } from '../rng.js';
import { maskedLogSoftmax } from './net.js';

/**
 * Plays `episodes` planner episodes (beam `width`) from training seeds drawn from `seed`, and
 * records each step the planner took: its flat observation, legal mask, action, the episode's
 * step, and the discounted return from there (a first target for the value).
 */
export async function plannerDemos(id, { episodes, width, seed, gamma }) {
  const spec = envSpecs[id];
  const A = spec.actions.length;
  const O = spec.obsSize;
  const most = episodes * spec.horizon; // a plan is never longer than an episode
  const d = {
    count: 0,
    A,
    obsSize: O,
    obs: new Int32Array(most * O), // sample k's flat observation at k * obsSize
    masks: new Float32Array(most * A),
    actions: new Int32Array(most),
    steps: new Int32Array(most),
    returns: new Float32Array(most),
  };
  const env = await make(id);
  try {
    for (let e = 0; e < episodes; e++) {
      let { observation } = env.reset({ seed: 2 ** 33 + seed * 1_000_003 + e });
      const plan = env.plan({ width });
      const from = d.count;
      plan.actions.forEach((a, t) => {
        const k = d.count++;
        flatten(id, observation, d.obs.subarray(k * O, (k + 1) * O));
        d.masks.set(env.legalActions(), k * A);
        d.actions[k] = a;
        d.steps[k] = t;
        const r = env.step(a);
        observation = r.observation;
        d.returns[k] = r.reward;
      });
      for (let k = d.count - 2; k >= from; k--) d.returns[k] += gamma * d.returns[k + 1]; // rewards -> returns
    }
  } finally {
    env.close();
  }
  return d;
}

/**
 * Trains the network to choose the planner's actions (cross-entropy over the legal ones) and
 * its value to predict the planner's returns, for `epochs` passes over the demonstrations;
 * returns the last minibatch's cross-entropy. The value's error is divided by the returns'
 * variance, so that it weighs about as much as the cross-entropy on either farm, whatever
 * the scale of its returns (unscaled, the value's error drowned the actions' in the layers
 * they share). `encode(demos, k, xT, b, B)` writes sample k's input as column b of xT.
 */
export function cloneDemos(tf, net, optimizer, demos, { epochs, minibatch, F, random, encode, valueCoef }) {
  const N = demos.count;
  const A = demos.A;
  const returns = demos.returns.subarray(0, N);
  const mean = returns.reduce((a, b) => a + b, 0) / N;
  const variance = Math.max(1e-6, returns.reduce((a, r) => a + (r - mean) ** 2, 0) / N);
  const order = Array.from({ length: N }, (_, k) => k);
  let last = 0;
  for (let epoch = 0; epoch < epochs; epoch++) {
    shuffle(order, random);
    for (let start = 0; start < N; start += minibatch) {
      const idx = order.slice(start, start + minibatch);
      const B = idx.length;
      const xT = new Float32Array(F * B);
      const mb = new Float32Array(B * A);
      const ab = new Int32Array(B);
      const rb = new Float32Array(B);
      idx.forEach((k, b) => {
        encode(demos, k, xT, b, B);
        mb.set(demos.masks.subarray(k * A, (k + 1) * A), b * A);
        ab[b] = demos.actions[k];
        rb[b] = demos.returns[k];
      });
      const loss = tf.tidy(() => {
        const x = tf.tensor2d(xT, [F, B]);
        const m = tf.tensor2d(mb, [B, A]);
        const onehot = tf.oneHot(tf.tensor1d(ab, 'int32'), A);
        const ret = tf.tensor1d(rb);
        let ce;
        optimizer.minimize(
          () => {
            const [logits, value] = net.columns(x);
            ce = tf.keep(tf.neg(tf.mean(tf.sum(tf.mul(maskedLogSoftmax(tf, logits, m), onehot), 1))));
            return tf.add(ce, tf.mul(valueCoef / variance, tf.mean(tf.square(tf.sub(value, ret)))));
          },
          false,
          net.weights,
        );
        return ce;
      });
      last = loss.dataSync()[0];
      loss.dispose();
    }
  }
  return last;
}
