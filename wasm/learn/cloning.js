// cloning.js — behaviour cloning: an actor-critic network (logits, then a value) learns the
// action the planner took from what the policy would have seen at that step, and the value
// the return that followed. PPO takes this start (its `imitate` setting) before it learns
// from its own play. Each shard of a run plays its share of the planner's episodes
// (imitate.js), keeps each step as a sample, and computes its share of every minibatch's
// gradient; the threads sum the shares (exchange.js). A recurrent network learns from whole
// episodes, each from a zero state, as it plays them: a minibatch is then whole episodes.
//
// A run's side of it: cloningMethods (what each thread does: play, pack, clone) and Cloning
// (the coordinator's slices of it, which stop when the Lab pauses), and demosBytes (what the
// demonstrations take, for the learner's memory estimate).
import { PlannerEpisodes, plannerDemosBytes } from './imitate.js';
import { SparseFrames } from './frames.js';
import { Samples } from './core.js';
import { perception } from './perception.js';
import { progressOf } from './progress.js';
import { chunk, gradientStep } from './run.js';
import { envSpecs } from '../index.js';
import { shuffle } from '../rng.js';

/** Shard `shard` of `shards`' share of `episodes` planner episodes: [from, to). */
export const episodesOf = (shard, shards, episodes) => ({
  from: Math.floor((shard * episodes) / shards),
  to: Math.floor(((shard + 1) * episodes) / shards),
});

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

// ---- a run's cloning ------------------------------------------------------------------------

/**
 * A thread's cloning methods (its thread(ctx)'s ctx; core, its network, exchange and shards):
 * each shard's planner episodes played (plan), kept as samples (pack), then cloned a slice of
 * minibatches at a time (clone), then freed (cloned). A shard's demonstrations are its `demos`.
 */
export function cloningMethods({ env, config: c, seed, shards, note }, core, net, ex, mine) {
  return {
    /**
     * Plays its shards' planner episodes until all are or the wall-clock `deadline` (ms since
     * the epoch: each thread's performance.now() counts from its own start, so the
     * coordinator's `until` would run late on a thread started after it); returns whether all are.
     */
    async plan(deadline) {
      const until = deadline - performance.timeOrigin;
      for (const s of mine) {
        s.demos ??= new ShardDemos(env, c, seed, s.index, shards, s.envs.seeing);
        if (!(await s.demos.play(until, () => note('episode')))) return false;
      }
      return true;
    },

    /** Keeps the planner's steps as samples; returns the returns' sums over every shard. */
    async pack() {
      return Array.from(await ex.sumNumbers(mine.map((s) => s.demos.pack(core))));
    },

    /**
     * Minibatches [from, to) of a cloning epoch over `count` samples (cloningBatches: how many
     * and their sizes; its shards' orders drawn afresh when `from` is 0): returns each of its
     * shards' [samples, cross-entropy, squared error] of the last one.
     */
    async clone({ from, to, count, learningRate, valueWeight }) {
      if (from === 0) for (const s of mine) s.demos.shuffle(s.random);
      const { M, size } = cloningBatches(c, shards, count, envSpecs[env].horizon);
      let last = [];
      for (let m = from; m < to; m++) {
        const scale = 1 / size(m);
        last = [];
        await gradientStep(net, ex, mine, (s) => last.push(s.demos.gradient(net, m, M, scale, valueWeight)), learningRate, c.maxGradNorm);
      }
      return last;
    },

    /** Frees the demonstrations once cloned. */
    cloned() {
      for (const s of mine) {
        s.demos?.dispose();
        s.demos = null;
      }
    },
  };
}

/**
 * The coordinator's side of cloning a run's planner play (`team`: its threads, which hold
 * cloningMethods; c: imitate, imitationEpochs, learningRate, valueCoef, shards), in slices
 * that end by a time: planning, packing, then imitationEpochs passes of minibatches. It
 * reports in stats.imitation.
 */
export class Cloning {
  phase = 'planning';
  planned = 0; // planner episodes played so far
  epoch = 0;
  m = 0; // the next minibatch of this epoch
  chunk = 4; // minibatches a call of the threads
  count = 0; // samples
  valueWeight = 0;
  seconds = 0; // the time spent in it, over every slice

  constructor(team, c, env, stats) {
    Object.assign(this, { team, c, env, stats });
    team.onNote((note) => note === 'episode' && this.planned++);
  }

  /** Whether there is cloning left to do before the learner's own steps. */
  get pending() {
    return this.c.imitate > 0 && !this.stats.imitation?.samples;
  }

  /** Clones until it is done (true) or `until` (performance.now()) passes (false). */
  async run(onProgress, until = Infinity) {
    const { team, c, stats } = this;
    const t0 = Date.now();
    const seconds = () => this.seconds + (Date.now() - t0) / 1000;
    const report = () => {
      const planning = this.phase === 'planning';
      stats.imitation = {
        episodes: c.imitate,
        phase: this.phase,
        done: planning ? this.planned : this.epoch,
        total: planning ? c.imitate : c.imitationEpochs,
        seconds: seconds(),
      };
      onProgress?.(progressOf(stats));
    };
    try {
      if (this.phase === 'planning') {
        report();
        const ticker = setInterval(report, 250); // the episodes played so far, while the threads play
        let played;
        try {
          played = (await team.all('plan', performance.timeOrigin + until)).every(Boolean);
        } finally {
          clearInterval(ticker);
        }
        if (!played) return false;
        const [count, sum, squares] = (await team.all('pack'))[0];
        const mean = sum / count;
        this.count = count;
        this.valueWeight = c.valueCoef / Math.max(1e-6, squares / count - mean * mean);
        this.phase = 'cloning';
      }
      const { M } = cloningBatches(c, c.shards, this.count, envSpecs[this.env].horizon);
      while (this.epoch < c.imitationEpochs) {
        report();
        const t = performance.now();
        const to = Math.min(M, this.m + this.chunk);
        const parts = await team.all('clone', {
          from: this.m,
          to,
          count: this.count,
          learningRate: c.learningRate,
          valueWeight: this.valueWeight,
        });
        const last = parts.flat().reduce((a, p) => a.map((x, k) => x + p[k]), [0, 0, 0]); // in shard order
        this.loss = last[1] / Math.max(1, last[0]); // the last minibatch's cross-entropy
        // slices of about a quarter of a second when a time is given, else whole passes
        const ms = performance.now() - t;
        this.chunk = until === Infinity ? M : Math.max(1, Math.min(M, Math.round(((to - this.m) * 250) / Math.max(ms, 1))));
        [this.epoch, this.m] = to >= M ? [this.epoch + 1, 0] : [this.epoch, to];
        if (performance.now() >= until && this.epoch < c.imitationEpochs) return false;
      }
      await team.all('cloned');
      stats.imitation = { episodes: c.imitate, samples: this.count, loss: this.loss, seconds: seconds() };
      return true;
    } finally {
      this.seconds = seconds();
    }
  }
}

// A demonstration's frame is counted with every feature of the observation's encoding (all
// but a few are one-hot) and this share of its memory's, which are 0 until the agent has seen
// a kind of cell or looked at a square. With every episode counted at the full horizon, it
// puts the estimate of the demonstrations within 0.7-1.5 times what they take on every farm
// (tests/js/learn_settings.test.js measures it against runs).
const MEMORY_FILL = 0.15;

/**
 * The bytes of c.imitate planner episodes while they are played (imitate.js) together with
 * their samples (Samples.packed) and their order, every episode counted at the full horizon (a
 * plan is never longer); 0 without imitate.
 */
export function demosBytes(env, c) {
  if (!(c.imitate > 0)) return 0;
  const spec = envSpecs[env];
  const seeing = perception(env, c.memory);
  const steps = c.imitate * spec.horizon;
  const frame = Math.min(seeing.width, seeing.encoder.nonzero + MEMORY_FILL * (seeing.width - seeing.encoder.size));
  return plannerDemosBytes(env, c.imitate) + Samples.bytes(steps, steps * frame * c.history, true, spec.actions.length) + steps * 4;
}
