// cloning.js — behaviour cloning: an actor-critic network (logits, then a value) learns the
// action the planner took from what the policy would have seen at that step, and the value
// the return that followed. PPO takes this start (its `imitate` setting) before it learns
// from its own play. Each shard of a run plays its share of the planner's episodes
// (imitate.js), keeps each step as a sample, and computes its share of every minibatch's
// gradient; the threads sum the shares (exchange.js).
import { PlannerEpisodes } from './imitate.js';
import { SparseFrames } from './frames.js';
import { Samples } from './core.js';
import { shuffle } from '../rng.js';

/** Shard `shard` of `shards`' share of `episodes` planner episodes: [from, to). */
export const episodesOf = (shard, shards, episodes) => ({
  from: Math.floor((shard * episodes) / shards),
  to: Math.floor(((shard + 1) * episodes) / shards),
});

/**
 * The gradient of cloning's loss with respect to an actor-critic's outputs (logits, then the
 * value), for n samples whose outputs are out[j * (A + 1) ..], whose policy is pi
 * (CoreNet.policy) and whose rows are rows[j]:  −log π(a) + valueWeight (v − R)², each term
 * times `scale`, into dout. d: the demonstrations' actions and returns by row, and A. Returns
 * [n, the cross-entropy's sum, the squared errors' sum].
 */
export function cloningGradient(out, { logp, p }, dout, n, rows, d, scale, valueWeight) {
  const A = d.A;
  const O = A + 1;
  let crossEntropy = 0;
  let squaredError = 0;
  for (let j = 0; j < n; j++) {
    const row = rows[j];
    const act = d.actions[row];
    crossEntropy -= logp[j * A + act];
    // d(−log π(a)) / dz_b = π(b) − [b = a] (π(b) is exactly 0 for an illegal b)
    for (let b = 0; b < A; b++) dout[j * O + b] = scale * (p[j * A + b] - (b === act));
    const err = out[j * O + A] - d.returns[row];
    squaredError += err * err;
    dout[j * O + A] = 2 * valueWeight * scale * err;
  }
  return [n, crossEntropy, squaredError];
}

/** One shard's planner episodes, played (play), then kept as samples (pack), then cloned (gradient). */
export class ShardDemos {
  /** c: the learner's settings (imitate, plannerWidth, gamma, history); seeing: perception.js's. */
  constructor(env, c, seed, shard, shards, seeing) {
    this.c = c;
    this.seeing = seeing;
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
    this.order = Int32Array.from({ length: d.count }, (_, k) => k);
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
   * its order, each term times `scale` (1 / the whole minibatch's size), the loss
   *   −log π(a) + valueWeight (v − R)²
   * and returns [its samples, their cross-entropy, their squared value error].
   */
  gradient(net, m, M, scale, valueWeight) {
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

  dispose() {
    this.episodes.close();
    this.samples?.dispose();
  }
}
