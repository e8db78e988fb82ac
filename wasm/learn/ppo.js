// ppo.js — Proximal Policy Optimization (Schulman et al. 2017) with action masking, on the
// vector env: rollouts of numEnvs x nSteps, advantages by GAE(λ), then epochs of minibatch
// updates of the clipped objective, a value loss and an entropy bonus, with Adam. Illegal
// actions get a logit of −1e9 before the softmax, so their probability is exactly 0 and the
// policy never wastes a step on them. Partial observability: with `history` > 1 the policy
// sees the episode's last observations stacked (Frames), not only the current one. With
// `memory` 1 it also sees features of what it has seen of the farm this episode (memory.js).
// With `imitate` > 0 it first clones the planner's play (imitate.js), then learns from its own.
// The network is net.js; built on TensorFlow.js (tf.js); no hand-written gradients.
import { envSpecs, makeVec, flatten } from '../index.js';
import { encoderFor } from './encode.js';
import { memoryFor } from './memory.js';
import { drawFrom, foldSeed, seededRandom, shuffle } from '../rng.js';
import { loadTf } from './tf.js';
import { createNet, maskedLogSoftmax, putColumn } from './net.js';
import { cloneDemos, plannerDemos } from './imitate.js';
import { progressOf, recordEpisode, trainingStats } from './progress.js';

const HISTORY_MAX = 16; // frames a policy may stack (its input grows with each)

/** The largest value of the settings that have one (createLearner checks them). */
export const maxima = Object.freeze({ history: HISTORY_MAX, memory: 1 });

export const defaults = Object.freeze({
  numEnvs: 64,
  nSteps: 64,
  epochs: 3,
  minibatch: 2048,
  learningRate: 1e-3,
  anneal: 0,
  gamma: 0.99,
  lambda: 0.95,
  clip: 0.2,
  entropyCoef: 0.01,
  valueCoef: 0.5,
  hidden: [64, 64],
  history: 1,
  memory: 0,
  imitate: 0,
  plannerWidth: 16,
  imitationEpochs: 10,
});

export const docs = Object.freeze({
  numEnvs: 'envs stepped together',
  nSteps: 'steps per env in each rollout',
  epochs: 'passes over each rollout',
  minibatch: 'samples per gradient step',
  learningRate: 'Adam step size',
  anneal:
    'env steps over which the step size falls in a straight line to 0, for a run of that many steps: late updates then polish the policy instead of shaking it (0: it stays)',
  gamma: 'discount per step',
  lambda: 'GAE λ: bias against variance of the advantages',
  clip: 'the ratio clip ε',
  entropyCoef: 'weight of the entropy bonus',
  valueCoef: 'weight of the value loss',
  hidden: 'sizes of the hidden layers (tanh)',
  imitate:
    'planner episodes to clone before PPO starts (0: none): the policy learns the action the planner took from what it saw, the value its return',
  plannerWidth: "the planner's beam width for those episodes (env.plan)",
  imitationEpochs: 'passes over the planner episodes',
  memory:
    '1: the policy also sees what it remembers of the farm this episode: the nearest cell of each kind it has seen, and where it has not looked yet (0: only its observations)',
  history: `observations the policy sees: the current one and up to history − 1 before it in the episode (zeros before its start), 1 … ${HISTORY_MAX}`,
});

/**
 * The policy's input for each env: its last `history` observations' features, oldest first,
 * zeros where the episode had not begun. frames is n × history × F; push(i, fresh) shifts
 * env i's frames and writes the newest from `fresh` (a Float32Array of F at `at`),
 * clearing the older ones when `fresh` opens an episode.
 */
export class Frames {
  constructor(n, history, F) {
    this.n = n;
    this.history = history;
    this.F = F;
    this.size = history * F;
    this.frames = new Float32Array(n * this.size);
  }

  push(i, fresh, at, newEpisode) {
    const row = i * this.size;
    const last = row + this.size - this.F;
    if (newEpisode) this.frames.fill(0, row, last);
    else this.frames.copyWithin(row, row + this.F, row + this.size);
    this.frames.set(fresh.subarray(at, at + this.F), last);
  }
}

/**
 * What a policy sees at each step, one frame: the observation's features (encode.js), then,
 * with memory, its memory's (memory.js). create(n) keeps n envs' memories;
 * see(i, flat, row, action, opening, out, offset) writes env i's frame after it took
 * `action` (ignored when `opening` an episode) and saw row `row` of the flat observations.
 */
export function perception(env, memory) {
  const enc = encoderFor(env);
  const mem = memory ? memoryFor(env) : null;
  return {
    encoder: enc,
    width: enc.size + (mem ? mem.size : 0),
    create(n) {
      const state = mem ? mem.create(n) : null;
      return {
        see(i, flat, row, action, opening, out, offset) {
          enc.features(flat, row, out, offset);
          if (!state) return;
          state.observe(i, flat, row, action, opening);
          state.write(i, out, offset + enc.size);
        },
      };
    },
  };
}

function checkHistory(history) {
  if (!Number.isInteger(history) || history < 1 || history > HISTORY_MAX)
    throw new RangeError(
      `valley-farm/learn: ppo setting history must be a whole number from 1 to ${HISTORY_MAX}, got ${String(history).slice(0, 20)}`,
    );
}

/**
 * GAE(λ) over a rollout stored step-major (index t * n + i): advantages and returns.
 * dones[t * n + i] = 1 when the step t of env i ended its episode (no bootstrap past it);
 * lastValues: the value of each env's state after the last step.
 */
export function gae(rewards, values, dones, lastValues, n, gamma, lambda) {
  const T = rewards.length / n;
  const adv = new Float32Array(rewards.length);
  const ret = new Float32Array(rewards.length);
  for (let i = 0; i < n; i++) {
    let running = 0;
    for (let t = T - 1; t >= 0; t--) {
      const k = t * n + i;
      const nextValue = t === T - 1 ? lastValues[i] : values[k + n];
      const notDone = 1 - dones[k];
      const delta = rewards[k] + gamma * nextValue * notDone - values[k];
      running = delta + gamma * lambda * notDone * running;
      adv[k] = running;
      ret[k] = running + values[k];
    }
  }
  return { advantages: adv, returns: ret };
}

/** The clipped surrogate, as a loss (minimised): −mean(min(r A, clip(r, 1 ± ε) A)). */
export function clippedLoss(tf, ratio, adv, clip) {
  return tf.tidy(() => tf.neg(tf.mean(tf.minimum(tf.mul(ratio, adv), tf.mul(tf.clipByValue(ratio, 1 - clip, 1 + clip), adv)))));
}

export { maskedLogSoftmax }; // tested with the other parts of the loss

/**
 * How a neural policy picks its action: 'sample' draws it from the policy's distribution, as
 * it did while it trained, with a generator seeded by the episode's seed (info.seed), so the
 * same episode is played the same way every time; 'greedy' takes the most probable one. A
 * policy that sees only part of the farm played better sampling, on both farms' validation
 * seeds: a fixed choice for each view can walk the same loop for the rest of the episode.
 */
export const ACT_MODES = Object.freeze(['sample', 'greedy']);

/** A neural policy: act(observation, info) picks a legal action (ACT_MODES). */
export class NetPolicy {
  constructor(tf, env, net, config, act = 'sample') {
    this.tf = tf;
    this.env = env;
    this.algo = 'ppo';
    this.net = net;
    this.config = config;
    this.actMode = act;
    this.random = null;
    const seeing = perception(env, config.memory ?? 0);
    this.sight = seeing.create(1);
    this.actions = envSpecs[env].actions.length;
    this.flat = new Int32Array(envSpecs[env].obsSize);
    this.fresh = new Float32Array(seeing.width);
    this.frames = new Frames(1, config.history ?? 1, seeing.width);
    this.newEpisode = true;
    this.last = -1; // the action it took last
  }

  /** Action probabilities (masked) for a batch of inputs (n rows of frames). */
  probabilities(x, n, masks) {
    const tf = this.tf;
    const p = tf.tidy(() => {
      const [logits] = this.net.rows(tf.tensor2d(x, [n, this.frames.size]));
      const m = masks ? tf.tensor2d(Float32Array.from(masks), [n, this.actions]) : tf.onesLike(logits);
      return tf.exp(maskedLogSoftmax(tf, logits, m));
    });
    const out = p.dataSync();
    p.dispose();
    return out;
  }

  /** A new episode begins: forget the frames (also done when info.step is 0). */
  reset() {
    this.newEpisode = true;
  }

  act(observation, info = {}) {
    flatten(this.env, observation, this.flat);
    const opening = this.newEpisode || info.step === 0;
    this.sight.see(0, this.flat, 0, this.last, opening, this.fresh, 0);
    this.frames.push(0, this.fresh, 0, opening);
    this.newEpisode = false;
    const p = this.probabilities(this.frames.frames, 1, info.legal ?? null);
    if (this.actMode === 'sample') {
      if (opening || !this.random) this.random = seededRandom(foldSeed(Number.isSafeInteger(info.seed) ? info.seed : 0));
      return (this.last = drawFrom(p, 0, this.actions, this.random));
    }
    let best = 0;
    for (let a = 1; a < this.actions; a++) if (p[a] > p[best]) best = a;
    return (this.last = best);
  }

  /** Frees its network's tensors (a policy from netPolicyFromJSON; a learner's is freed with it). */
  dispose() {
    this.net.dispose();
  }

  toJSON() {
    return {
      format: 'valley-farm-policy',
      version: 1,
      env: this.env,
      algo: 'ppo',
      act: this.actMode,
      config: this.config,
      weights: this.net.weights.map((w) => ({ shape: w.shape, values: Array.from(w.dataSync()) })),
    };
  }
}

export async function netPolicyFromJSON(json) {
  const tf = await loadTf();
  const A = envSpecs[json.env].actions.length;
  if (!json.config || typeof json.config !== 'object')
    throw new TypeError('valley-farm/learn: a ppo policy needs its "config" (the settings it was trained with)');
  checkHistory(json.config.history ?? 1);
  const memory = json.config.memory ?? 0; // a policy saved before memory existed has none
  if (memory !== 0 && memory !== 1) throw new RangeError("valley-farm/learn: a ppo policy's memory setting must be 0 or 1");
  // a policy saved before policies could sample has no "act": it was made to play greedily
  const act = json.act ?? 'greedy';
  if (!ACT_MODES.includes(act))
    throw new TypeError(`valley-farm/learn: a ppo policy's "act" must be ${ACT_MODES.map((m) => `"${m}"`).join(' or ')}`);
  const net = createNet(tf, perception(json.env, memory).width * (json.config.history ?? 1), json.config.hidden, A);
  const shapes = net.shapes();
  if (
    !Array.isArray(json.weights) ||
    json.weights.length !== shapes.length ||
    json.weights.some((w, i) => w?.shape?.join('x') !== shapes[i] || w.values?.length !== w.shape.reduce((a, b) => a * b, 1))
  ) {
    net.dispose();
    throw new Error(`valley-farm/learn: the policy's weights do not fit its network (expected shapes ${shapes.join(', ')})`);
  }
  // tidy frees each new value's tensor once its variable holds the value
  tf.tidy(() => net.weights.forEach((w, i) => w.assign(tf.tensor(Float32Array.from(json.weights[i].values), json.weights[i].shape))));
  return new NetPolicy(tf, json.env, net, json.config, act);
}

export async function createPPO(env, config, seed) {
  const tf = await loadTf();
  const c = { ...defaults, ...config }; // checked by createLearner
  const A = envSpecs[env].actions.length;
  const seeing = perception(env, c.memory);
  const W = seeing.width; // one frame
  const F = W * c.history; // the model's input: the frames
  const n = c.numEnvs;
  const T = c.nSteps;
  const vec = await makeVec(env, n);
  const net = createNet(tf, F, c.hidden, A, seed);
  const optimizer = tf.train.adam(c.learningRate);
  const random = seededRandom(seed);
  const policy = new NetPolicy(tf, env, net, c);
  const stats = trainingStats();
  let r = vec.reset({ seed: seed * 1_000_003 + 2 ** 32 });

  const obsBuf = new Float32Array(T * n * F);
  const maskBuf = new Float32Array(T * n * A);
  const actBuf = new Int32Array(T * n);
  const logpBuf = new Float32Array(T * n);
  const valBuf = new Float32Array(T * n);
  const rewBuf = new Float32Array(T * n);
  const doneBuf = new Float32Array(T * n);

  function forward(x, rows) {
    const [logits, value] = tf.tidy(() => net.rows(tf.tensor2d(x, [rows, F])));
    const out = [logits.dataSync(), value.dataSync()];
    logits.dispose();
    value.dispose();
    return out;
  }

  // the policy's input: each env's last c.history observations, carried across rollouts
  const frames = new Frames(n, c.history, W);
  const fresh = new Float32Array(n * W);
  const sight = seeing.create(n);
  /**
   * Adds the observations in r, seen after `actions`, to the frames; opened[i] = 1 where env
   * i's opens an episode.
   */
  function observe(opened, actions) {
    for (let i = 0; i < n; i++) {
      const opening = opened === null || opened[i] === 1;
      sight.see(i, r.observations, i, opening ? -1 : actions[i], opening, fresh, i * W);
      frames.push(i, fresh, i * W, opening);
    }
  }
  observe(null, null); // every env has just been reset

  async function rollout() {
    const x = frames.frames;
    const probs = new Float32Array(A);
    for (let t = 0; t < T; t++) {
      obsBuf.set(x, t * n * F);
      for (let k = 0; k < n * A; k++) maskBuf[t * n * A + k] = r.masks[k];
      const [logits, values] = forward(x, n);
      const actions = new Int32Array(n);
      for (let i = 0; i < n; i++) {
        let max = -Infinity;
        for (let a = 0; a < A; a++) if (r.masks[i * A + a] && logits[i * A + a] > max) max = logits[i * A + a];
        let sum = 0;
        for (let a = 0; a < A; a++) sum += probs[a] = r.masks[i * A + a] ? Math.exp(logits[i * A + a] - max) : 0;
        for (let a = 0; a < A; a++) probs[a] /= sum;
        const a = drawFrom(probs, 0, A, random);
        actions[i] = a;
        actBuf[t * n + i] = a;
        logpBuf[t * n + i] = Math.log(probs[a]);
        valBuf[t * n + i] = values[i];
      }
      r = vec.step(actions);
      for (let i = 0; i < n; i++) {
        rewBuf[t * n + i] = r.rewards[i];
        doneBuf[t * n + i] = r.terminated[i];
        if (r.terminated[i]) recordEpisode(stats, r.episodeReturns[i]);
      }
      observe(r.terminated, actions); // after an autoreset, the new episode's first observation
    }
    return forward(x, n)[1];
  }

  function update(advantages, returns) {
    const N = T * n;
    let mean = 0;
    for (const a of advantages) mean += a;
    mean /= N;
    let sd = 0;
    for (const a of advantages) sd += (a - mean) ** 2;
    sd = Math.sqrt(sd / N) + 1e-8;
    const adv = advantages.map((a) => (a - mean) / sd);
    const order = Array.from({ length: N }, (_, k) => k);
    const parts = []; // [policy, value, entropy] of each minibatch
    for (let epoch = 0; epoch < c.epochs; epoch++) {
      shuffle(order, random);
      for (let start = 0; start < N; start += c.minibatch) {
        const idx = order.slice(start, start + c.minibatch);
        const B = idx.length;
        const xT = new Float32Array(F * B); // one observation per column (net.js says why)
        const mb = new Float32Array(B * A);
        const ab = new Int32Array(B);
        const lb = new Float32Array(B);
        const advb = new Float32Array(B);
        const rb = new Float32Array(B);
        idx.forEach((k, b) => {
          putColumn(xT, B, b, obsBuf, k * F, F, 0);
          mb.set(maskBuf.subarray(k * A, (k + 1) * A), b * A);
          ab[b] = actBuf[k];
          lb[b] = logpBuf[k];
          advb[b] = adv[k];
          rb[b] = returns[k];
        });
        tf.tidy(() => {
          const x = tf.tensor2d(xT, [F, B]);
          const m = tf.tensor2d(mb, [B, A]);
          const onehot = tf.oneHot(tf.tensor1d(ab, 'int32'), A);
          const oldLogp = tf.tensor1d(lb);
          const advT = tf.tensor1d(advb);
          const retT = tf.tensor1d(rb);
          optimizer.minimize(
            () => {
              const [logits, value] = net.columns(x);
              const logp = maskedLogSoftmax(tf, logits, m);
              const newLogp = tf.sum(tf.mul(logp, onehot), 1);
              const ratio = tf.exp(tf.sub(newLogp, oldLogp));
              const pLoss = clippedLoss(tf, ratio, advT, c.clip);
              const vLoss = tf.mean(tf.square(tf.sub(value, retT)));
              const entropy = tf.mean(tf.neg(tf.sum(tf.mul(tf.exp(logp), tf.mul(logp, m)), 1)));
              // kept, and read once after the update: a read inside the step would stall it
              parts.push(tf.keep(tf.stack([pLoss, vLoss, entropy])));
              return tf.add(pLoss, tf.sub(tf.mul(c.valueCoef, vLoss), tf.mul(c.entropyCoef, entropy)));
            },
            false,
            net.weights,
          );
        });
        stats.updates++;
      }
    }
    const meanParts = tf.tidy(() => tf.mean(tf.stack(parts), 0));
    const mean3 = meanParts.dataSync();
    meanParts.dispose();
    parts.forEach((t) => t.dispose());
    stats.losses = { policy: mean3[0], value: mean3[1], entropy: mean3[2] };
    if (c.anneal > 0) stats.losses.learningRate = optimizer.learningRate;
  }

  /** Behaviour cloning from the planner (imitate.js), once, before the first update. */
  async function imitate() {
    const t0 = Date.now();
    const demos = await plannerDemos(env, { episodes: c.imitate, width: c.plannerWidth, seed, gamma: c.gamma });
    const enc = seeing.encoder;
    const E = enc.size; // a frame: E observation features, then M remembered
    const M = W - E;
    // what the memory held at each sample (it depends on the whole episode before it)
    const remembered = new Float32Array(demos.count * M);
    if (M > 0) {
      const sight1 = seeing.create(1);
      const frame = new Float32Array(W);
      for (let k = 0; k < demos.count; k++) {
        const opening = demos.steps[k] === 0;
        sight1.see(0, demos.obs, k, opening ? -1 : demos.actions[k - 1], opening, frame, 0);
        remembered.set(frame.subarray(E), k * M);
      }
    }
    const row = new Float32Array(W);
    // sample k's frames as PPO would have seen them: its last `history` frames
    const encode = (d, k, xT, b, B) => {
      for (let h = 0; h < c.history; h++) {
        const back = c.history - 1 - h;
        if (d.steps[k] < back) continue; // before the episode began: zeros
        enc.features(d.obs, k - back, row, 0);
        row.set(remembered.subarray((k - back) * M, (k - back + 1) * M), E);
        putColumn(xT, B, b, row, 0, W, h * W);
      }
    };
    const loss = cloneDemos(tf, net, optimizer, demos, {
      epochs: c.imitationEpochs,
      minibatch: c.minibatch,
      F,
      random,
      encode,
      valueCoef: c.valueCoef,
    });
    stats.imitation = { episodes: c.imitate, samples: demos.count, loss, seconds: (Date.now() - t0) / 1000 };
  }

  return {
    config: c,
    async trainFor(steps) {
      if (c.imitate > 0 && !stats.imitation) await imitate();
      const target = stats.steps + steps;
      while (stats.steps < target) {
        const last = await rollout();
        const { advantages, returns } = gae(rewBuf, valBuf, doneBuf, last, n, c.gamma, c.lambda);
        if (c.anneal > 0) optimizer.learningRate = c.learningRate * Math.max(0, 1 - stats.steps / c.anneal);
        update(advantages, returns);
        stats.steps += T * n;
      }
      return this.progress();
    },
    progress: () => progressOf(stats),
    policy: () => policy,
    dispose() {
      vec.close();
      net.dispose();
      optimizer.dispose();
    },
  };
}
