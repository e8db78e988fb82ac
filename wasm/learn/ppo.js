// ppo.js — Proximal Policy Optimization (Schulman et al. 2017) with action masking, on the
// vector env: rollouts of numEnvs x nSteps, advantages by GAE(λ), then epochs of minibatch
// updates of the clipped objective, a value loss and an entropy bonus, with Adam. Illegal
// actions get probability exactly 0, so the policy never wastes a step on them. Partial
// observability: with `history` > 1 the policy sees the episode's last observations stacked
// (frames.js), not only the current one. With `memory` 1 it also sees features of what it has
// seen of the farm this episode (memory.js); perception.js puts a frame together. With
// `imitate` > 0 it first clones the planner's play (imitate.js), then learns from its own.
//
// The numbers are multiplied by the learner core (core.js: C compiled to WebAssembly, a sparse
// first layer), or, with `tfjs` 1, by TensorFlow.js (net.js: the former path, kept to measure
// against). Either is a "brain": forward, grad, adam and the parameters in one order.
//
// Every core: the envs are shared out among `workers` shards (workers.js runs each in a
// worker thread or Web Worker; one shard runs here). Each shard plays its envs and computes
// the gradient of its share of every minibatch; the shards send their shares to each other,
// each adds them up in shard order and takes the same Adam step from the same state, so every
// shard holds the same parameters without sending them: one update per minibatch, whatever
// the timing, so a seeded run is the same for a given number of workers.
import { envSpecs, loadEngine, makeVec, flatten } from '../index.js';
import { checkNetworkSize, checkSettings, layers, networkShapes, number, shown, weightCount, whole } from './limits.js';
import { POLICY_FORMAT, bad, checkNumbers, isNumberList, isObject } from './policyFile.js';
import { networkInputs, perception } from './perception.js';
import { Frames, SparseFrames } from './frames.js';
import { drawFrom, foldSeed, seededRandom, shuffle } from '../rng.js';
import { CoreNet, Samples, loadCore } from './core.js';
import { plannerDemos, plannerDemosBytes } from './imitate.js';
import { progressOf, recordEpisode, trainingStats } from './progress.js';
import { connectShards, spawnShards, defaultWorkers, DEFAULT_WORKERS_MAX, WORKERS_MAX } from './workers.js';

const HISTORY_MAX = 16; // frames a policy may stack (its input grows with each)
const UPDATES_A_CALL = 32; // updates the shards make in one call of the coordinator's (Shard.train)

/** The largest value of the settings that have one (createLearner checks them). */
export const maxima = Object.freeze({ history: HISTORY_MAX, memory: 1, tfjs: 1, workers: WORKERS_MAX });

export const defaults = Object.freeze({
  numEnvs: 64,
  nSteps: 64,
  epochs: 3,
  minibatch: 1024,
  learningRate: 1e-3,
  anneal: 0,
  gamma: 0.99,
  lambda: 0.95,
  clip: 0.2,
  entropyCoef: 0.01,
  valueCoef: 0.02,
  hidden: [64, 64],
  history: 1,
  memory: 1,
  imitate: 24000,
  plannerWidth: 16,
  imitationEpochs: 10,
  workers: defaultWorkers(),
  tfjs: 0,
  restartEvery: 0,
});

export const docs = Object.freeze({
  numEnvs: 'envs stepped together (shared out among the workers)',
  nSteps: 'steps per env in each rollout',
  epochs: 'passes over each rollout',
  minibatch: 'samples per gradient step',
  learningRate: 'Adam step size',
  anneal:
    "env steps over which the step size falls in a straight line to 0, for a run of that many steps: late updates then polish the policy instead of shaking it (0: it stays; left out, it is the run's length where one is given: the CLI's --steps, the Lab's steps)",
  gamma: 'discount per step',
  lambda: 'GAE λ: bias against variance of the advantages',
  clip: 'the ratio clip ε',
  entropyCoef: 'weight of the entropy bonus',
  valueCoef:
    'weight of the value loss: small, because the value and the policy share the hidden layers, and a larger weight lets the value, whose returns run into the tens, steer them',
  hidden: 'sizes of the hidden layers (tanh)',
  imitate:
    'planner episodes to clone before PPO starts (0: none): the policy learns the action the planner took from what it saw, the value its return',
  plannerWidth: "the planner's beam width for those episodes (env.plan)",
  imitationEpochs: 'passes over the planner episodes',
  memory:
    '1: the policy also sees what it remembers of the farm this episode: the nearest cell of each kind it has seen, and where it has not looked yet (0: only its observations)',
  history: `observations the policy sees: the current one and up to history − 1 before it in the episode (zeros before its start), 1 … ${HISTORY_MAX}`,
  workers: `threads that play and compute gradients in parallel, 1 … ${WORKERS_MAX} (the default: one per core of this machine, at most ${DEFAULT_WORKERS_MAX}); a seeded run is reproducible for a given number`,
  restartEvery:
    'env steps after which every env starts a new episode (0: never): a run can be saved there (checkpoint) and resumed to exactly what the unbroken run gives; a multiple of numEnvs × nSteps',
  tfjs: '1: multiply on TensorFlow.js (the former, slower path, kept to compare with; needs @tensorflow/tfjs) instead of the learner core',
});

/** Each setting's allowed values (createLearner and a saved policy's check hold them to these). */
export const limits = Object.freeze({
  numEnvs: whole(1, 1024),
  nSteps: whole(1, 4096),
  epochs: whole(1, 100),
  minibatch: whole(1, 65536),
  learningRate: number(0, 1, { aboveMin: true }),
  anneal: whole(0, 1e12),
  gamma: number(0, 1),
  lambda: number(0, 1),
  clip: number(0, 1, { aboveMin: true }),
  entropyCoef: number(0, 1),
  valueCoef: number(0, 10),
  hidden: layers(4, 512),
  history: whole(1, maxima.history),
  memory: whole(0, maxima.memory),
  imitate: whole(0, 100_000),
  plannerWidth: whole(1, 1024),
  imitationEpochs: whole(1, 1000),
  workers: whole(1, maxima.workers),
  tfjs: whole(0, maxima.tfjs),
  restartEvery: whole(0, 1e12),
});

/**
 * GAE(λ) over a rollout stored step-major (index t * n + i): advantages and returns.
 * dones[t * n + i] = 1 when the step t of env i ended its episode (no bootstrap past it);
 * lastValues: the value of each env's state after the last step.
 */
export function gae(
  rewards,
  values,
  dones,
  lastValues,
  n,
  gamma,
  lambda,
  adv = new Float32Array(rewards.length),
  ret = new Float32Array(rewards.length),
) {
  const T = rewards.length / n;
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

export { clippedLoss, maskedLogSoftmax } from './net.js'; // the TensorFlow.js loss, tested with the core's

/** Probabilities over the legal actions of logits[at .. at + A) into p (illegal: 0). */
export function maskedSoftmax(logits, at, mask, maskAt, A, p) {
  let max = -Infinity;
  for (let a = 0; a < A; a++) if (mask[maskAt + a] && logits[at + a] > max) max = logits[at + a];
  let sum = 0;
  for (let a = 0; a < A; a++) sum += p[a] = mask[maskAt + a] ? Math.exp(logits[at + a] - max) : 0;
  for (let a = 0; a < A; a++) p[a] /= sum;
  return p;
}

/**
 * How a neural policy picks its action: 'sample' draws it from the policy's distribution, as
 * it did while it trained, with a generator seeded by the episode's seed (info.seed), so the
 * same episode is played the same way every time; 'greedy' takes the most probable one. A
 * policy that sees only part of the farm played better sampling, on both farms' validation
 * seeds: a fixed choice for each view can walk the same loop for the rest of the episode.
 */
export const ACT_MODES = Object.freeze(['sample', 'greedy']);

/** The input size and network sizes of a PPO configuration on an env. */
export function networkOf(env, config) {
  const seeing = perception(env, config.memory ?? 0);
  const history = config.history ?? 1;
  return {
    seeing,
    inputs: seeing.width * history,
    nonzero: Math.min(seeing.width, seeing.nonzero) * history,
    hidden: config.hidden ?? defaults.hidden,
    actions: envSpecs[env].actions.length,
  };
}

/** A neural policy: act(observation, info) picks a legal action (ACT_MODES). */
export class NetPolicy {
  constructor(core, env, net, config, act = 'sample') {
    this.env = env;
    this.algo = 'ppo';
    this.net = net;
    this.config = config;
    this.actMode = act;
    this.random = null;
    const { seeing } = networkOf(env, config);
    this.sight = seeing.create(1);
    this.actions = envSpecs[env].actions.length;
    this.flat = new Int32Array(envSpecs[env].obsSize);
    this.fresh = new Float32Array(seeing.width);
    this.frames = new Frames(1, config.history ?? 1, seeing.width);
    this.input = new Samples(core, 1, this.frames.size, this.actions);
    this.p = new Float64Array(this.actions);
    this.allLegal = new Uint8Array(this.actions).fill(1);
    this.newEpisode = true;
    this.last = -1; // the action it took last
  }

  /** Action probabilities (masked) of the current frames. */
  probabilities(masks) {
    this.input.putDense(0, this.frames.frames, 0, this.frames.size);
    this.net.forward(this.input, 1, null, this.input.logits, this.input.values);
    return maskedSoftmax(this.input.views().logits, 0, masks ?? this.allLegal, 0, this.actions, this.p);
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
    const p = this.probabilities(info.legal ?? null);
    if (this.actMode === 'sample') {
      if (opening || !this.random) this.random = seededRandom(foldSeed(Number.isSafeInteger(info.seed) ? info.seed : 0));
      return (this.last = drawFrom(p, 0, this.actions, this.random));
    }
    let best = 0;
    for (let a = 1; a < this.actions; a++) if (p[a] > p[best]) best = a;
    return (this.last = best);
  }

  toJSON() {
    return {
      format: POLICY_FORMAT,
      version: 1,
      env: this.env,
      algo: 'ppo',
      act: this.actMode,
      config: this.config,
      weights: this.net.weights(),
    };
  }

  /** Frees what it holds in the learner core (its network too, if it was loaded from a file). */
  dispose() {
    this.input.dispose();
    if (this.ownsNet) this.net.dispose();
  }
}

/** A NetPolicy from a saved policy that loadPolicy has checked as data (policyCheck.js). */
export async function netPolicyFromJSON(json) {
  // a policy saved before memory existed has none; one saved before policies could sample
  // has no "act": it was made to play greedily
  const config = { memory: 0, history: 1, ...json.config };
  const { inputs, hidden, actions } = networkOf(json.env, config);
  const core = await loadCore();
  await loadEngine(); // the policy's perception reads its features from the engine
  const net = new CoreNet(core, inputs, hidden, actions);
  net.setWeights(json.weights);
  const policy = new NetPolicy(core, json.env, net, json.config, json.act ?? 'greedy');
  policy.ownsNet = true;
  return policy;
}

// ---- a shard: some of the envs, their rollouts and their share of every gradient ----------

/** The next gradient a peer (Shard.connect) sent: at once if it has come, else when it does. */
function received(peer) {
  return peer.inbox.length ? peer.inbox.shift() : new Promise((resolve) => (peer.waiting = resolve));
}

/**
 * Shard `index` of `count`: envs [first, first + n) of the run's numEnvs, its own vector env,
 * frames, samples and brain. Every method is called by the coordinator below, here or in a
 * worker (shardWorker.js), with plain data in and out.
 */
export class Shard {
  static async create({ env, config, seed, index, count }) {
    const s = new Shard();
    const c = config;
    s.c = c;
    s.env = env;
    s.seed0 = seed;
    s.index = index;
    const first = Math.floor((index * c.numEnvs) / count);
    s.n = Math.floor(((index + 1) * c.numEnvs) / count) - first;
    const net = networkOf(env, c);
    s.A = net.actions;
    s.seeing = net.seeing;
    s.brain = await createBrain(c, net, seed);
    s.vec = await makeVec(env, s.n);
    s.random = seededRandom(index === 0 ? seed : foldSeed(seed * 1_000_003 + index));
    s.T = c.nSteps;
    s.N = s.T * s.n;
    s.samples = s.brain.samples(s.N + s.n, net.nonzero); // the rollout, then each env's state after it
    s.rewards = new Float32Array(s.N);
    s.dones = new Float32Array(s.N);
    s.advantages = new Float32Array(s.N);
    s.returns = new Float32Array(s.N);
    s.frames = new SparseFrames(s.n, c.history, s.seeing.width, Math.min(s.seeing.width, s.seeing.nonzero));
    s.sight = s.seeing.create(s.n);
    s.probs = new Float64Array(s.A);
    s.order = Int32Array.from({ length: s.N }, (_, k) => k);
    s.first = first;
    s.r = s.vec.reset({ seed: seed * 1_000_003 + 2 ** 32 + first });
    s.observe(null, null);
    return s;
  }

  /** Adds the observations in r, seen after `actions`, to the frames (opened: new episodes). */
  observe(opened, actions) {
    const f = this.frames;
    for (let i = 0; i < this.n; i++) {
      const opening = opened === null || opened[i] === 1;
      f.see(i, this.sight, this.r.observations, i, opening ? -1 : actions[i], opening);
    }
  }

  /** The network's logits and values of rows [from, from + n) of the samples. */
  forwardRows(from, n) {
    const v = this.samples.views();
    for (let i = 0; i < n; i++) v.rows[i] = from + i;
    this.brain.forward(this.samples, n, this.samples.rows);
    return this.samples.views();
  }

  /** Plays nSteps in every env; returns its episodes' returns and its advantages' sums. */
  rollout() {
    const { n, A, T } = this;
    const stride = this.samples.stride;
    const returns = [];
    const actions = new Int32Array(n);
    let values = null;
    // the views of the last step, re-made if engine memory grew since (a policy or an env made)
    this.r = this.vec.views();
    for (let t = 0; t < T; t++) {
      const at = t * n;
      const inputs = this.samples.views();
      for (let i = 0; i < n; i++) this.frames.write(i, inputs, at + i, (at + i) * stride);
      const v = this.forwardRows(at, n);
      v.masks.set(this.r.masks, at * A);
      for (let i = 0; i < n; i++) {
        const p = maskedSoftmax(v.logits, i * A, this.r.masks, i * A, A, this.probs);
        const a = drawFrom(p, 0, A, this.random);
        actions[i] = a;
        v.actions[at + i] = a;
        v.oldLogp[at + i] = Math.log(p[a]);
      }
      values ??= new Float32Array(this.N);
      values.set(v.values.subarray(0, n), at);
      this.r = this.vec.step(actions);
      for (let i = 0; i < n; i++) {
        this.rewards[at + i] = this.r.rewards[i];
        this.dones[at + i] = this.r.terminated[i];
        if (this.r.terminated[i]) returns.push(this.r.episodeReturns[i]);
      }
      this.observe(this.r.terminated, actions); // after an autoreset, the new episode's first observation
    }
    const inputs = this.samples.views();
    for (let i = 0; i < n; i++) this.frames.write(i, inputs, this.N + i, (this.N + i) * stride);
    const last = this.forwardRows(this.N, n).values.slice(0, n);
    gae(this.rewards, values, this.dones, last, n, this.c.gamma, this.c.lambda, this.advantages, this.returns);
    let sum = 0;
    let squares = 0;
    for (const a of this.advantages) {
      sum += a;
      squares += a * a;
    }
    return { returns, sum, squares, count: this.N };
  }

  /**
   * Updates, one after another, without the coordinator between them (its messages would keep
   * the workers waiting): for each of `plan`, every env starts a new episode first where it
   * says `restart` (a seed), then a rollout, its advantages normalised over every shard
   * (advantageMoments) and learn(options) at the update's `learningRate`. Returns, for each,
   * its episodes' returns and its learn()'s loss sums and count.
   */
  async train(plan, options) {
    const done = [];
    for (const { restart, learningRate } of plan) {
      if (restart !== null) this.restart(restart);
      const { returns, ...moments } = this.rollout();
      const { mean, sd } = await this.advantageMoments(moments);
      const { sums, count } = await this.learn({ ...options, learningRate, mean, sd });
      done.push({ returns, sums, count });
    }
    return done;
  }

  /**
   * The mean and deviation of the advantages of every shard's rollout: each sends the others
   * its sums and adds up theirs in shard order, the same bits on every shard.
   */
  async advantageMoments(mine) {
    const parts = this.peers ? await this.exchange(mine) : [mine];
    let sum = 0;
    let squares = 0;
    let count = 0;
    for (const p of parts) {
      sum += p.sum;
      squares += p.squares;
      count += p.count;
    }
    const mean = sum / count;
    return { mean, sd: Math.sqrt(Math.max(0, squares / count - mean * mean)) + 1e-8 };
  }

  /** Sends `message` to every other shard; their messages in shard order, `message` in its own place. */
  exchange(message) {
    for (const peer of this.peers) peer?.port.postMessage(message);
    return Promise.all(this.peers.map((peer) => (peer ? received(peer) : message)));
  }

  /** Normalises the advantages (mean and deviation over every shard) and stores the targets. */
  normalize(mean, sd) {
    const v = this.samples.views();
    for (let k = 0; k < this.N; k++) {
      v.advantages[k] = (this.advantages[k] - mean) / sd;
      v.returns[k] = this.returns[k];
    }
  }

  /** A new pass: its own order of its samples (or demonstrations), drawn afresh from 0, 1, 2, … */
  shuffle(demos) {
    const order = demos ? this.demoOrder : this.order;
    for (let k = 0; k < order.length; k++) order[k] = k; // so the order depends on the generator alone (a resumed run)
    shuffle(order, this.random);
  }

  /** Its share of minibatch m of M's gradient (chunk m of its order, scaled by `scale`): the loss's sums and its count. */
  grad(m, M, loss, demos) {
    const order = demos ? this.demoOrder : this.order;
    const samples = demos ? this.demos : this.samples;
    const from = Math.floor((m * order.length) / M);
    const to = Math.floor(((m + 1) * order.length) / M);
    const v = samples.views();
    v.rows.set(order.subarray(from, to));
    this.brain.zeroGrad();
    const sums = to > from ? this.brain.grad(samples, to - from, samples.rows, loss) : [0, 0, 0];
    return { sums, count: to - from };
  }

  /**
   * Passes over its samples (demos false: the rollout, its advantages normalised by `mean` and
   * `sd` first) or its demonstrations (true), M minibatches each, of `total` samples over all
   * shards: each minibatch's gradient summed over the shards (sumGradients), then one Adam step
   * of `learningRate`. Returns its shares' loss sums and count, and the last minibatch's sums.
   */
  async learn({ demos, passes, M, total, loss, learningRate, mean = 0, sd = 1 }) {
    if (!demos) this.normalize(mean, sd);
    const sums = [0, 0, 0];
    let count = 0;
    let last = null;
    for (let pass = 0; pass < passes; pass++) {
      this.shuffle(demos);
      for (let m = 0; m < M; m++) {
        const size = Math.floor(((m + 1) * total) / M) - Math.floor((m * total) / M);
        const part = this.grad(m, M, { ...loss, scale: 1 / size }, demos);
        await this.sumGradients();
        this.brain.adam(learningRate);
        for (let j = 0; j < 3; j++) sums[j] += part.sums[j];
        count += part.count;
        last = part.sums;
      }
    }
    return { sums, count, last };
  }

  /**
   * Connects it to the other shards: ports[j] (a MessagePort, null for itself) carries
   * messages to and from shard j in order, one each way at a time: a rollout's advantage sums,
   * then a gradient a minibatch.
   */
  connect(ports) {
    this.peers = ports.map((port) => {
      if (!port) return null;
      // spare: the last gradient it sent, once added, to send ours back in (no new buffer a minibatch)
      const peer = { port, inbox: [], waiting: null, spare: null };
      port.onmessage = (e) => {
        if (peer.waiting) peer.waiting(e.data);
        else peer.inbox.push(e.data);
        peer.waiting = null;
      };
      return peer;
    });
  }

  /**
   * Makes its gradient the sum of every shard's, ((g0 + g1) + g2) + … in shard order, the same
   * bits on every shard: sends a copy of its own to each of the others and waits for theirs.
   */
  async sumGradients() {
    if (!this.peers) return;
    const mine = this.index;
    const g = this.brain.grads();
    const copyOf = (spare) => (spare?.length === g.length ? (spare.set(g), spare) : g.slice());
    for (const peer of this.peers) {
      if (!peer) continue;
      const copy = copyOf(peer.spare);
      peer.spare = null;
      peer.port.postMessage(copy, [copy.buffer]); // moved, not copied again
    }
    // g0 + g1 is g1 + g0 to the bit, so shards 0 and 1 add the others to their own; shard 2 on
    // must first put g0 + g1 together, and add its own in its place
    const own = mine > 1 ? (this.own = copyOf(this.own)) : null;
    const parts = await Promise.all(this.peers.map((peer) => (peer ? received(peer) : own)));
    if (mine > 1) this.brain.setGrads(parts[0]);
    for (let j = mine > 1 ? 1 : 0; j < parts.length; j++) if (j !== mine || mine > 1) this.brain.addGrads(parts[j]);
    this.peers.forEach((peer, j) => peer && (peer.spare = parts[j]));
  }

  /** Sets its parameters and Adam's state (a checkpoint's, on every shard) on the learner core. */
  setState({ params, moments, adamSteps }) {
    const net = this.brain.policyNet();
    net.params().set(params);
    net.moments().set(moments);
    net.adamSteps = adamSteps;
  }

  /** Every env starts a new episode, its first seed `seed` + the env's index in the run. */
  restart(seed) {
    this.r = this.vec.reset({ seed: seed + this.first });
    this.observe(null, null);
  }

  /** The state of its generator of actions, to save a run (and set it again when it resumes). */
  rngState() {
    return this.random.state();
  }

  setRngState(state) {
    this.random = seededRandom(state);
  }

  /**
   * Plays planner episodes [from, to) of the run's demonstrations (imitate.js) and keeps
   * each step as a sample of what the policy would have seen; returns the returns' sums.
   * The samples are packed (Samples.packed): a first pass over the episodes counts each
   * frame's nonzero features, a second writes them, so the core holds no empty room.
   */
  async plan(from, to, onEpisode) {
    const c = this.c;
    const d = await plannerDemos(this.env, { from, to, width: c.plannerWidth, seed: this.seed0, gamma: c.gamma, onEpisode });
    const { seeing } = this;
    /** The frames of every step of the episodes in turn: sees(k, frames) after step k's. */
    const replay = (sees) => {
      const sight = seeing.create(1);
      const frames = new SparseFrames(1, c.history, seeing.width, Math.min(seeing.width, seeing.nonzero));
      for (let k = 0; k < d.count; k++) {
        frames.see(0, sight, d.obs, k, d.actions[k - 1], d.steps[k] === 0);
        sees(k, frames);
      }
    };
    const nnz = new Int32Array(d.count);
    replay((k, frames) => (nnz[k] = frames.size(0)));
    this.demos = this.brain.packedSamples(nnz);
    const v = this.demos.views();
    replay((k, frames) => frames.write(0, v, k, v.start[k]));
    v.masks.set(d.masks.subarray(0, d.count * this.A));
    v.actions.set(d.actions.subarray(0, d.count));
    v.returns.set(d.returns.subarray(0, d.count));
    let sum = 0;
    let squares = 0;
    for (let k = 0; k < d.count; k++) {
      sum += d.returns[k];
      squares += d.returns[k] ** 2;
    }
    this.demoOrder = Int32Array.from({ length: d.count }, (_, k) => k);
    return { count: d.count, sum, squares };
  }

  dispose() {
    this.vec.close();
    this.samples.dispose();
    this.demos?.dispose();
    this.brain.dispose();
    for (const peer of this.peers ?? []) peer?.port.close();
  }
}

/** The numbers' engine of a configuration: the learner core, or TensorFlow.js (tfjs 1). */
async function createBrain(c, net, seed) {
  if (c.tfjs) {
    const { createTfBrain } = await import('./net.js');
    return createTfBrain(net, c, seed);
  }
  const core = await loadCore();
  const n = new CoreNet(core, net.inputs, net.hidden, net.actions);
  n.init(seed);
  return {
    net: n,
    samples: (count, stride) => new Samples(core, count, stride, net.actions), // a rollout's
    packedSamples: (nnz) => Samples.packed(core, nnz, net.actions), // demonstrations' (core.js)
    forward: (samples, count, rows) => n.forward(samples, count, rows, samples.logits, samples.values),
    zeroGrad: () => n.zeroGrad(),
    grad: (samples, count, rows, loss) => n.grad(samples, count, rows, loss),
    grads: () => n.grads(),
    setGrads: (g) => n.grads().set(g),
    addGrads: (g) => n.addGrads(g),
    params: () => n.params(),
    adam: (lr) => n.adam(lr),
    policyNet: () => n,
    dispose: () => n.dispose(),
  };
}

// ---- the coordinator ------------------------------------------------------------------------

export async function createPPO(env, config, seed) {
  const c = { ...defaults, ...config }; // checked by createLearner
  const workers = c.workers;
  if (c.restartEvery % (c.numEnvs * c.nSteps) !== 0)
    throw new RangeError(
      `valley-farm/learn: ppo setting restartEvery must be a multiple of a rollout's numEnvs × nSteps = ${c.numEnvs * c.nSteps} env steps (or 0), got ${c.restartEvery}`,
    );
  if (workers > c.numEnvs)
    throw new RangeError(`valley-farm/learn: ppo needs at least one env per worker: numEnvs ${c.numEnvs} < workers ${workers}`);
  const run = { env, config: c, seed };
  // shard 0 runs here: its parameters and Adam's state (every shard's) are the policy's and a checkpoint's
  const local = await Shard.create({ ...run, index: 0, count: workers });
  let remote = [];
  try {
    remote = workers > 1 ? await spawnShards(run, workers) : [];
    if (remote.length) await connectShards([local, ...remote]);
  } catch (err) {
    for (const s of [local, ...remote]) s.dispose();
    throw err;
  }
  const shards = [local, ...remote];
  const brain = local.brain;
  const stats = trainingStats();
  stats.workers = workers;
  const policy = new NetPolicy(...(await policyParts(brain, env, c)));
  const N = c.nSteps * c.numEnvs; // env steps of one rollout of every shard
  let learningRate = c.learningRate;

  /**
   * fn(shard) on every shard, in parallel: the workers' calls leave first (the local shard
   * then works while they do); the results in shard order. One that fails fails the call at
   * once, even while the others wait for its gradients.
   */
  function all(fn) {
    const others = remote.map((s) => fn(s));
    let mine;
    try {
      mine = fn(local);
    } catch (err) {
      mine = Promise.reject(err);
    }
    return Promise.all([mine, ...others]);
  }

  /** Every shard's learn(options); the sums of their losses and samples, and of their last minibatch's losses. */
  async function learn(options) {
    const parts = await all((s) => s.learn({ ...options, learningRate }));
    const sums = [0, 0, 0];
    const last = [0, 0, 0];
    let count = 0;
    for (const p of parts) {
      for (let j = 0; j < 3; j++) sums[j] += p.sums[j];
      for (let j = 0; j < 3; j++) last[j] += p.last[j];
      count += p.count;
    }
    stats.updates += options.passes * options.M;
    return { sums, last, count };
  }

  /**
   * The next `count` updates, in one call of every shard (Shard.train): each update's step
   * size (annealed by the steps before it) and whether every env starts afresh before it (at
   * each multiple of restartEvery) are known ahead, so the shards need not wait for this
   * thread between updates.
   */
  async function updates(count) {
    const plan = [];
    for (let u = 0; u < count; u++) {
      const steps = stats.steps + u * N;
      const fresh = atRestart(steps) && restarted !== steps;
      plan.push({
        restart: fresh ? seed * 1_000_003 + 2 ** 32 + (steps / c.restartEvery) * 2 ** 24 : null,
        learningRate: c.anneal > 0 ? c.learningRate * Math.max(0, 1 - steps / c.anneal) : c.learningRate,
      });
    }
    const M = Math.ceil(N / c.minibatch);
    const loss = { clip: c.clip, valueCoef: c.valueCoef, entropyCoef: c.entropyCoef };
    const parts = await all((s) => s.train(plan, { demos: false, passes: c.epochs, M, total: N, loss }));
    for (let u = 0; u < count; u++) {
      const sums = [0, 0, 0];
      let samples = 0;
      for (const part of parts) {
        const { returns, count: n, sums: s } = part[u];
        for (const ret of returns) recordEpisode(stats, ret);
        for (let j = 0; j < 3; j++) sums[j] += s[j];
        samples += n;
      }
      learningRate = plan[u].learningRate;
      stats.losses = { policy: sums[0] / samples, value: sums[1] / samples, entropy: sums[2] / samples };
      if (c.anneal > 0) stats.losses.learningRate = learningRate;
      if (plan[u].restart !== null) restarted = stats.steps;
      stats.updates += c.epochs * M;
      stats.steps += N;
    }
  }

  /** Behaviour cloning from the planner (imitate.js), once, before the first update. */
  async function imitate(onProgress) {
    const t0 = Date.now();
    const total = c.imitate;
    let planned = 0;
    const report = (phase, done, of) => {
      stats.imitation = { episodes: total, phase, done, total: of, seconds: (Date.now() - t0) / 1000 };
      onProgress?.(progressOf(stats));
    };
    report('planning', 0, total);
    const shares = await Promise.all(
      shards.map((s, j) =>
        s.plan(Math.floor((j * total) / shards.length), Math.floor(((j + 1) * total) / shards.length), () => {
          planned++;
          if (planned % 50 === 0) report('planning', planned, total);
        }),
      ),
    );
    const count = shares.reduce((a, s) => a + s.count, 0);
    const mean = shares.reduce((a, s) => a + s.sum, 0) / count;
    const variance = Math.max(1e-6, shares.reduce((a, s) => a + s.squares, 0) / count - mean * mean);
    const M = Math.ceil(count / c.minibatch);
    const lastSize = count - Math.floor(((M - 1) * count) / M);
    let loss = 0;
    for (let epoch = 0; epoch < c.imitationEpochs; epoch++) {
      report('cloning', epoch, c.imitationEpochs);
      const { last } = await learn({ demos: true, passes: 1, M, total: count, loss: { cloning: true, valueCoef: c.valueCoef / variance } });
      loss = last[0] / lastSize; // the last minibatch's cross-entropy
    }
    stats.imitation = { episodes: total, samples: count, loss, seconds: (Date.now() - t0) / 1000 };
  }

  // restartEvery: every env starts afresh at each multiple of it, before the update there
  let restarted = 0;
  const atRestart = (steps = stats.steps) => c.restartEvery > 0 && steps > 0 && steps % c.restartEvery === 0;

  return {
    config: c,
    async trainFor(steps, { onProgress } = {}) {
      if (c.imitate > 0 && !stats.imitation?.samples) await imitate(onProgress);
      const target = stats.steps + steps;
      // at most UPDATES_A_CALL a call, so that what the shards return stays small
      while (stats.steps < target) await updates(Math.min(UPDATES_A_CALL, Math.ceil((target - stats.steps) / N)));
      return this.progress();
    },
    /**
     * The run so far, to resume it (restore) exactly: taken where every env is about to start
     * afresh (a multiple of restartEvery), so no env's state need be kept; null elsewhere.
     */
    async checkpoint() {
      if (c.tfjs) throw new Error('valley-farm/learn: a run on TensorFlow.js (tfjs 1) cannot be saved to resume; the learner core can');
      if (!atRestart() || restarted === stats.steps || (c.imitate > 0 && !stats.imitation?.samples)) return null;
      const net = brain.policyNet();
      return {
        steps: stats.steps,
        restarted,
        stats: {
          updates: stats.updates,
          episodes: stats.episodes,
          recent: stats.recent.slice(),
          losses: { ...stats.losses },
          imitation: stats.imitation,
          elapsedMs: Date.now() - stats.startMs,
        },
        learningRate,
        params: Array.from(net.params()),
        moments: Array.from(net.moments()),
        adamSteps: net.adamSteps,
        rng: await all((s) => s.rngState()),
      };
    },
    /** Continues from a checkpoint() of a run with the same settings, seed and workers. */
    async restore(state) {
      if (c.tfjs) throw new Error('valley-farm/learn: a run on TensorFlow.js (tfjs 1) cannot be resumed; the learner core can');
      if (stats.steps > 0) throw new Error('valley-farm/learn: restore() a checkpoint into a new learner, before it trains');
      const net = brain.policyNet();
      if (state.params?.length !== net.count || state.moments?.length !== 2 * net.count || state.rng?.length !== shards.length)
        throw new Error(
          `valley-farm/learn: the checkpoint does not fit this learner (a network of ${net.count} weights and ${shards.length} workers): resume with the settings and workers it was made with`,
        );
      const adam = { params: Float32Array.from(state.params), moments: Float32Array.from(state.moments), adamSteps: state.adamSteps };
      await all((s) => s.setState(adam));
      await Promise.all(shards.map((s, j) => s.setRngState(state.rng[j])));
      Object.assign(stats, { ...state.stats, steps: state.steps, startMs: Date.now() - state.stats.elapsedMs });
      delete stats.elapsedMs;
      learningRate = state.learningRate;
      restarted = state.restarted;
    },
    progress: () => progressOf(stats),
    policy: () => policy,
    dispose() {
      for (const s of shards) s.dispose();
      policy.dispose();
    },
  };
}

/** A NetPolicy that plays with the learner's own parameters (the core's), or a copy (TF.js). */
async function policyParts(brain, env, c) {
  const core = await loadCore();
  if (!c.tfjs) return [core, env, brain.policyNet(), c];
  // TensorFlow.js trains; the policy plays on the core with its parameters, read when it acts
  const { inputs, hidden, actions } = networkOf(env, c);
  const net = new CoreNet(core, inputs, hidden, actions);
  const forward = net.forward.bind(net);
  net.forward = (...args) => {
    net.params().set(brain.params());
    forward(...args);
  };
  net.weights = ((weights) => () => {
    net.params().set(brain.params());
    return weights();
  })(net.weights.bind(net));
  return [core, env, net, c];
}

// ---- what the registry knows of PPO (registry.js) ---------------------------------------------

/** The shapes of a ppo network of these settings on an env (its inputs: perception.js). */
const shapesOf = (env, c) => networkShapes(networkInputs(env, c), c.hidden, envSpecs[env].actions.length);

/**
 * Throws a clear error, naming the path of the bad value, unless a saved ppo policy's settings
 * are within the limits and its weights are the count and shapes those settings imply, every
 * value a finite number. Only then may a network be built: a few bytes of JSON must not ask
 * for a huge one.
 */
function checkPolicy(json) {
  if (!isObject(json.config)) throw new TypeError('valley-farm/learn: a ppo policy needs its "config" (the settings it was trained with)');
  checkSettings(learner, json.config, { what: "policy's setting", unknown: 'ignore' });
  if (json.act !== undefined && !ACT_MODES.includes(json.act))
    throw new TypeError(`valley-farm/learn: a ppo policy's "act" must be ${ACT_MODES.map((m) => `"${m}"`).join(' or ')}`);
  const hidden = json.config.hidden;
  // a learner saves every setting; the network cannot be built without its layers
  if (!Array.isArray(hidden)) throw bad('config.hidden', 'an array of layer sizes (the setting the network was built with)', shown(hidden));
  const shapes = shapesOf(json.env, json.config);
  checkNetworkSize(shapes, 'ppo');
  const expected = `its network's (${shapes.map((s) => s.join('x')).join(', ')})`;
  if (!Array.isArray(json.weights) || json.weights.length !== shapes.length)
    throw new Error(
      `valley-farm/learn: the policy's weights do not fit its network: expected ${shapes.length} arrays in the shapes ${expected}`,
    );
  json.weights.forEach((w, i) => {
    const shape = shapes[i];
    if (!isObject(w)) throw bad(`weights[${i}]`, `{ shape, values } of shape ${shape.join('x')}`, shown(w));
    if (!Array.isArray(w.shape) || w.shape.length !== shape.length || w.shape.some((d, j) => d !== shape[j]))
      throw new Error(
        `valley-farm/learn: the policy's weights do not fit its network: weights[${i}].shape must be [${shape.join(', ')}], got ${String(JSON.stringify(w.shape)).slice(0, 40)} (expected shapes ${expected})`,
      );
    const size = shape.reduce((a, b) => a * b, 1);
    if (!isNumberList(w.values) || w.values.length !== size)
      throw bad(
        `weights[${i}].values`,
        `an array of ${size} numbers`,
        isNumberList(w.values) ? `${w.values.length} values` : shown(w.values),
      );
    checkNumbers(w.values, `weights[${i}].values`);
  });
}

// A demonstration's frame is counted with every feature of the observation's encoding (all
// but a few are one-hot) and this share of its memory's, which are 0 until the agent has seen
// a kind of cell or looked at a square. With every episode counted at the full horizon, it
// puts the estimate of the demonstrations within 0.7-1.5 times what they take on every farm
// (tests/js/learn_settings.test.js measures it against runs).
const MEMORY_FILL = 0.15;

/**
 * The bytes a run of these settings takes beyond its vector env, as the parts it holds at
 * once: in the learner core, the rollout's samples and every worker's copy of the network
 * (its gradients, Adam's two moments and a minibatch's activations and their gradients); in
 * JS, the rollout's other buffers and frames; and with imitate, the planner episodes while
 * they are played (imitate.js) together with their samples in the core (Samples.packed),
 * every episode counted at the full horizon (a plan is never longer, often shorter).
 */
function memory(env, c) {
  const spec = envSpecs[env];
  const A = spec.actions.length;
  const net = networkOf(env, c);
  const { seeing } = net;
  const n = c.numEnvs;
  const N = c.nSteps * n;
  const rollout =
    Samples.bytes(N + n, (N + n) * net.nonzero, A, false) + // the samples, then each env's state after them
    N * 6 * 4 + // rewards, dones, advantages, returns, values, the order of the samples
    n * c.history * Math.min(seeing.width, seeing.nonzero) * 8; // the frames
  // the most rows a network computes at once: a minibatch of the rollout or of the
  // demonstrations, or a rollout's step
  const B = Math.max(Math.min(c.minibatch, c.imitate > 0 ? c.imitate * spec.horizon : N), n);
  const units = net.hidden.reduce((a, b) => a + b, 0) + A + 1;
  const copy = weightCount(networkShapes(net.inputs, net.hidden, A)) * 4 * 4; // weights, gradients, Adam's two moments
  // TensorFlow.js makes a minibatch's inputs dense, and their gradient
  const network = c.workers * copy + B * units * 2 * 4 + (c.tfjs ? B * net.inputs * 4 * 2 : 0);
  const steps = c.imitate * spec.horizon;
  const frame = Math.min(seeing.width, seeing.encoder.nonzero + MEMORY_FILL * (seeing.width - seeing.encoder.size));
  const demos =
    c.imitate > 0
      ? plannerDemosBytes(env, c.imitate) + Samples.bytes(steps, steps * frame * c.history, A, true) + steps * 2 * 4 // their frames' counts, their order
      : 0;
  return rollout + network + demos;
}

/** Throws unless a checkpoint's state (createPPO's checkpoint()) has every part, its numbers finite. */
function checkState(s) {
  const numbers = (name, list) => {
    if (!Array.isArray(list) || !list.every(Number.isFinite))
      throw new TypeError(`valley-farm/learn: the checkpoint's ${name} must be finite numbers`);
  };
  if (!s || typeof s !== 'object') throw new TypeError('valley-farm/learn: the checkpoint has no "state"');
  numbers('params', s.params);
  numbers('moments', s.moments);
  numbers('rng', s.rng);
  for (const k of ['steps', 'restarted', 'adamSteps', 'learningRate'])
    if (!Number.isFinite(s[k]) || s[k] < 0) throw new TypeError(`valley-farm/learn: the checkpoint's ${k} must be a non-negative number`);
  if (!s.stats || typeof s.stats !== 'object' || !Array.isArray(s.stats.recent) || !s.stats.recent.every(Number.isFinite))
    throw new TypeError("valley-farm/learn: the checkpoint's stats are damaged");
}

/** PPO as the registry lists it (registry.js; every field: docs/adding-a-learner.md). */
export const learner = Object.freeze({
  name: 'ppo',
  title: 'PPO',
  defaults,
  docs,
  limits,
  maxima,
  actModes: ACT_MODES,
  // a run of known length anneals over all of it, as CleanRL's PPO does (and as the default
  // reference runs in docs/runs did)
  runDefaults: (steps) => ({ anneal: steps }),
  create: createPPO,
  checkConfig: (env, c) => checkNetworkSize(shapesOf(env, c), 'ppo'),
  memory,
  checkPolicy,
  load: netPolicyFromJSON,
  // its runs restart every env at each multiple of restartEvery, where a checkpoint is taken
  resume: Object.freeze({ setting: 'restartEvery', grain: (c) => c.numEnvs * c.nSteps, checkState }),
});
