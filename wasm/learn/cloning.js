// cloning.js — behaviour cloning: an actor-critic network (logits, then a value) learns the
// action the planner took from what the policy would have seen at that step, and the value
// the return that followed. PPO takes this start (its `imitate` setting) before it learns
// from its own play. Each shard of a run plays its share of the planner's episodes
// (imitate.js), keeps each step as a sample, and computes its share of every minibatch's
// gradient; the threads sum the shares (exchange.js). A recurrent network learns from whole
// episodes, each from a zero state, as it plays them: a minibatch is then whole episodes.
import { PlannerEpisodes } from './imitate.js';
import { SparseFrames } from './frames.js';
import { Samples } from './core.js';
import { envSpecs } from '../index.js';
import { shuffle } from '../rng.js';

/** Shard `shard` of `shards`' share of `episodes` planner episodes: [from, to). */
export const episodesOf = (shard, shards, episodes) => ({
  from: Math.floor((shard * episodes) / shards),
  to: Math.floor(((shard + 1) * episodes) / shards),
});

/** Chunk m of M of `count` things: [from, from + n). */
const chunk = (m, M, count) => {
  const from = Math.floor((m * count) / M);
  return { from, n: Math.floor(((m + 1) * count) / M) - from };
};

/**
 * The minibatches of a cloning pass over `count` samples of c.imitate episodes, every shard's
 * chunk m of its own making minibatch m: how many (M), and minibatch m's size, by which its
 * terms are divided. A recurrent network (c.recurrent > 0) takes whole episodes, no more
 * minibatches than the largest shard has episodes (none is empty), a minibatch's size its
 * episodes times the horizon: a plan may end before the horizon (once nothing more is to be
 * gained), and a thread does not know the lengths of the other shards' episodes, so the steps
 * past an episode's end, which add nothing, are counted too (Adam's step hardly depends on the
 * gradient's scale).
 */
export function cloningBatches(c, shards, count, horizon) {
  if (!(c.recurrent > 0)) {
    const M = Math.ceil(count / c.minibatch);
    return { M, size: (m) => chunk(m, M, count).n };
  }
  const M = Math.min(Math.ceil(count / c.minibatch), Math.ceil(c.imitate / shards));
  const episodes = Array.from({ length: shards }, (_, j) => episodesOf(j, shards, c.imitate)).map((e) => e.to - e.from);
  return { M, size: (m) => horizon * episodes.reduce((sum, E) => sum + chunk(m, M, E).n, 0) };
}

/**
 * The gradient of cloning's loss with respect to an actor-critic's outputs (logits, then the
 * value), for n samples whose outputs are out[j * (A + 1) ..], whose policy is pi
 * (CoreNet.policy) and whose rows are rows[j] (−1: a step past its episode's end, which adds
 * nothing):  −log π(a) + valueWeight (v − R)², each term times `scale`, into dout. d: the
 * demonstrations' actions and returns by row, and A. Returns [samples, the cross-entropy's
 * sum, the squared errors' sum].
 */
export function cloningGradient(out, { logp, p }, dout, n, rows, d, scale, valueWeight) {
  const A = d.A;
  const O = A + 1;
  let crossEntropy = 0;
  let squaredError = 0;
  let samples = 0;
  for (let j = 0; j < n; j++) {
    const row = rows[j];
    if (row < 0) {
      dout.fill(0, j * O, (j + 1) * O);
      continue;
    }
    samples++;
    const act = d.actions[row];
    crossEntropy -= logp[j * A + act];
    // d(−log π(a)) / dz_b = π(b) − [b = a] (π(b) is exactly 0 for an illegal b)
    for (let b = 0; b < A; b++) dout[j * O + b] = scale * (p[j * A + b] - (b === act));
    const err = out[j * O + A] - d.returns[row];
    squaredError += err * err;
    dout[j * O + A] = 2 * valueWeight * scale * err;
  }
  return [samples, crossEntropy, squaredError];
}

/** One shard's planner episodes, played (play), then kept as samples (pack), then cloned (gradient). */
export class ShardDemos {
  /** c: the learner's settings (imitate, plannerWidth, gamma, history, recurrent); seeing: perception.js's. */
  constructor(env, c, seed, shard, shards, seeing) {
    this.c = c;
    this.seeing = seeing;
    this.horizon = envSpecs[env].horizon;
    this.episodes = new PlannerEpisodes(env, { ...episodesOf(shard, shards, c.imitate), width: c.plannerWidth, seed, gamma: c.gamma });
    this.samples = null; // after pack()
  }

  /** Plays its episodes until all are played or `until` (performance.now()); returns whether all are. */
  play(until, onEpisode) {
    return this.episodes.play(until, onEpisode);
  }

  /**
   * Keeps every step as a sample of what the policy would have seen there, packed (each
   * frame's nonzero features end to end: a first pass counts them, a second writes them);
   * returns the returns' sums (for the value's scale).
   */
  pack(core) {
    const d = this.episodes.d;
    const { c, seeing } = this;
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
    this.samples = Samples.packed(core, nnz, { actions: d.A });
    const v = this.samples.views();
    replay((k, frames) => frames.write(0, v, k, v.start[k]));
    v.masks.set(d.masks.subarray(0, d.count * d.A));
    this.A = d.A;
    this.count = d.count;
    this.actions = d.actions.subarray(0, d.count);
    this.returns = d.returns.subarray(0, d.count);
    // a recurrent network's minibatch is whole episodes: where each begins, and its length
    this.episodeStart = Int32Array.from({ length: d.count }, (_, k) => k).filter((k) => d.steps[k] === 0);
    this.episodeLength = this.episodeStart.map((k, e) => (this.episodeStart[e + 1] ?? d.count) - k);
    this.order = new Int32Array(c.recurrent > 0 ? this.episodeStart.length : d.count);
    if (c.recurrent > 0) {
      // a minibatch's rows (time-major, a step past an episode's end at its first row) and starts
      this.core = core;
      this.lanes = core.alloc(4 * this.horizon * this.episodeStart.length);
      this.laneRows = new Int32Array(this.horizon * this.episodeStart.length);
      this.laneStarts = new Uint8Array(this.horizon * this.episodeStart.length);
    }
    let sum = 0;
    let squares = 0;
    for (let k = 0; k < d.count; k++) {
      sum += d.returns[k];
      squares += d.returns[k] ** 2;
    }
    return [d.count, sum, squares];
  }

  /** A new pass: its own order of its samples, drawn afresh from 0, 1, 2, … */
  shuffle(random) {
    for (let k = 0; k < this.order.length; k++) this.order[k] = k;
    shuffle(this.order, random);
  }

  /**
   * Adds to the net's gradient (zeroed first) that of its share of minibatch m of M: chunk m of
   * its order (recurrent: of its episodes), each term times `scale` (1 / the whole minibatch's
   * size: cloningBatches), the loss
   *   −log π(a) + valueWeight (v − R)²
   * and returns [its samples, their cross-entropy, their squared value error].
   */
  gradient(net, m, M, scale, valueWeight) {
    if (this.c.recurrent > 0) return this.#episodesGradient(net, m, M, scale, valueWeight);
    const from = Math.floor((m * this.count) / M);
    const n = Math.floor(((m + 1) * this.count) / M) - from;
    net.zeroGrad();
    if (n === 0) return [0, 0, 0];
    const s = this.samples;
    s.views().rows.set(this.order.subarray(from, from + n));
    const out = net.forward(s, n, s.rows); // (views after it: it may have grown the core's memory)
    const part = cloningGradient(out, net.policy(s, n, s.rows), net.outputGrad(n), n, s.views().rows, this, scale, valueWeight);
    net.backward(s, n, s.rows);
    return part;
  }

  /** gradient() of a recurrent network: whole episodes of chunk m, each from a zero state, side by side. */
  #episodesGradient(net, m, M, scale, valueWeight) {
    const { from, n: B } = chunk(m, M, this.order.length);
    net.zeroGrad();
    if (B === 0) return [0, 0, 0];
    let T = 0;
    for (let b = 0; b < B; b++) T = Math.max(T, this.episodeLength[this.order[from + b]]);
    const n = T * B;
    const rows = this.core.view(Int32Array, this.lanes, n); // what the network reads
    for (let b = 0; b < B; b++) {
      const e = this.order[from + b];
      const first = this.episodeStart[e];
      for (let t = 0; t < T; t++) {
        // past its episode's end: the episode's first step again, from zero, adding nothing
        const past = t >= this.episodeLength[e];
        rows[t * B + b] = past ? first : first + t;
        this.laneRows[t * B + b] = past ? -1 : first + t;
        this.laneStarts[t * B + b] = t === 0 || past ? 1 : 0;
      }
    }
    const s = this.samples;
    const out = net.forwardSeq(s, T, B, this.lanes, { starts: this.laneStarts.subarray(0, n) });
    const pi = net.policy(s, n, this.lanes);
    const part = cloningGradient(out, pi, net.outputGrad(n), n, this.laneRows.subarray(0, n), this, scale, valueWeight);
    net.backwardSeq(s, T, B, this.lanes);
    return part;
  }

  dispose() {
    this.episodes.close();
    this.samples?.dispose();
    if (this.lanes) this.core.x.free(this.lanes);
    this.lanes = 0;
  }
}
