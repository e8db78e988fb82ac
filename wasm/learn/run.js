// run.js — what every learner on the learner core does the same way around its algorithm
// (ppo.js, reinforce.js, dqn.js): on each thread, its network and shards (each with its own
// envs and generator), a gradient step summed over every shard, advantages normalised over
// every shard, its part of a checkpoint; in the coordinator, the run (Run: its threads, stats
// and policy, the run as create() returns it, its loop of calls, the threads' results added to
// its stats, its checkpoints); and what rollouts and networks take (for a memory estimate).
// The algorithm stays in the learner's file: what a shard plays, and its share of each
// minibatch's gradient.
import { CoreNet, Samples, layoutShapes, loadCore } from './core.js';
import { NetPolicy, networkLayout } from './netPolicy.js';
import { perception } from './perception.js';
import { SeenEnvs } from './seenEnvs.js';
import { progressOf, recordEpisode, trainingStats } from './progress.js';
import { shardEnvs, shardRandom, startThreads } from './threads.js';
import { weightCount } from './limits.js';
import { seededRandom } from '../rng.js';
import { envSpecs } from '../index.js';

/** Chunk m of M of `count` things: [from, from + n), as even as can be. */
export const chunk = (m, M, count) => {
  const from = Math.floor((m * count) / M);
  return { from, n: Math.floor(((m + 1) * count) / M) - from };
};

/**
 * The samples of minibatch m of M when each shard j's share is chunk m of its units(j) units
 * of `unitSize` samples each (a sample, or a recurrent network's whole sequence): the size
 * its terms are divided by, the same on every thread.
 */
export function minibatchSize(m, M, shards, units, unitSize = 1) {
  let size = 0;
  for (let j = 0; j < shards; j++) size += unitSize * chunk(m, M, units(j)).n;
  return size;
}

// ---- on a thread ----------------------------------------------------------------------------

/**
 * A thread's network of a run (its thread(ctx)'s ctx): the learner core, a network of
 * networkLayout(env, c, heads) initialised from the run's seed (the same weights on every
 * thread), and its exchange (exchange.js). Also `A`, the env's actions.
 */
export async function threadNet({ env, config: c, seed, exchange }, heads) {
  const core = await loadCore();
  const net = new CoreNet(core, networkLayout(env, c, heads));
  net.init(seed);
  return { core, net, ex: exchange(net), A: envSpecs[env].actions.length };
}

/**
 * A thread's shards [first, end) of a run (its thread(ctx)'s ctx): each one's index, its envs
 * [from, from + n) of the run's numEnvs (SeenEnvs, seeded from the run's seed), its own
 * generator, and what more(shard) adds (its buffers).
 */
export async function makeShards({ env, config: c, seed, first, end, shards }, more) {
  const mine = [];
  for (let index = first; index < end; index++) {
    const { from, n } = shardEnvs(index, shards, c.numEnvs);
    const envs = await SeenEnvs.create(env, n, c, seed * 1_000_003 + 2 ** 32 + from);
    const shard = { index, from, n, envs, random: shardRandom(seed, index) };
    mine.push(Object.assign(shard, more(shard)));
  }
  return mine;
}

/**
 * One gradient step: share(s, j) adds each of this thread's shards' share of the minibatch to
 * the net's gradient (zeroed before each); the shares are summed over every shard in the
 * shards' order (exchange.js), clipped to a norm of maxNorm (0: not), and Adam steps.
 * Returns the gradient's norm before clipping.
 */
export async function gradientStep(net, ex, mine, share, learningRate, maxNorm = 0) {
  mine.forEach((s, j) => {
    net.zeroGrad();
    share(s, j);
    ex.keep(s.index);
  });
  const norm = await ex.sum({ maxNorm });
  net.adam(learningRate);
  return norm;
}

/**
 * Every shard's advantages made of mean 0 and standard deviation 1 over every shard of the run
 * (their count, sum and sum of squares summed in shard order: the same on every thread).
 */
export async function normaliseAdvantages(ex, mine) {
  const each = mine.map(({ advantages }) => {
    let sum = 0;
    let squares = 0;
    for (const a of advantages) {
      sum += a;
      squares += a * a;
    }
    return [advantages.length, sum, squares];
  });
  const [count, sum, squares] = await ex.sumNumbers(each);
  const mean = sum / count;
  const sd = Math.sqrt(Math.max(0, squares / count - mean * mean)) + 1e-8;
  for (const s of mine) for (let k = 0; k < s.advantages.length; k++) s.advantages[k] = (s.advantages[k] - mean) / sd;
}

/** Frees a thread's shards (their envs, and each part that holds memory in the learner core: what has dispose()), exchange and networks. */
export function closeThread(mine, ex, ...nets) {
  for (const s of mine) {
    s.envs.close();
    for (const part of Object.values(s)) if (typeof part?.dispose === 'function') part.dispose();
  }
  ex.close();
  for (const net of nets) net.dispose();
}

/**
 * A thread's part of a checkpoint (Run's save and restore): its shards' generators, envs (and a
 * recurrent network's states: a shard's `states`), and the weights with Adam's state.
 */
export function checkpointMethods(mine, net) {
  return {
    shardStates() {
      return mine.map((s) => {
        const states = s.states?.save();
        return { shard: s.index, rng: s.random.state(), envs: s.envs.state(), ...(states && { states }) };
      });
    },
    /** records: every shard's of the run, in shard order. */
    setShardStates(records) {
      for (const s of mine) {
        const r = records[s.index];
        s.random = seededRandom(r.rng);
        s.envs.restore(r.envs);
        s.states?.restore(r.states);
      }
    },
    setWeights({ params, moments, adamSteps }) {
      net.params().set(params);
      net.moments().set(moments);
      net.adamSteps = adamSteps;
    },
  };
}

// ---- in the coordinator ---------------------------------------------------------------------

/**
 * A run's start: its settings (the learner's defaults where missing; no more shards than
 * envs), its threads (each running learner.thread), its stats and its policy (thread 0's
 * network, read where it is: `heads` 'logits' or 'q'). Returns a Run.
 */
export async function startRun(learner, env, config, seed, { threads = 1, heads = 'logits' } = {}) {
  const c = { ...learner.defaults, ...config }; // checked by createLearner
  c.shards = Math.min(c.shards, c.numEnvs); // fewer envs than shards: one env a shard
  const team = await startThreads(learner, { env, config: c, seed }, { shards: c.shards, threads: Math.min(threads, c.shards) });
  const stats = trainingStats();
  Object.assign(stats, { threads: team.threads, shards: c.shards });
  const policy = new NetPolicy(await loadCore(), env, learner.name, team.local.net, c, { heads });
  return new Run(c, team, stats, policy);
}

/** A run as its coordinator holds it: settings c, threads (team), stats, policy. */
export class Run {
  constructor(c, team, stats, policy) {
    Object.assign(this, { c, team, stats, policy });
  }

  /** The run as create() returns it: own's methods (trainFor, …) with config, progress, policy and dispose. */
  as(own) {
    return {
      config: this.c,
      ...own,
      progress: () => this.progress(),
      policy: () => this.policy,
      dispose: () => {
        this.team.dispose();
        this.policy.dispose();
      },
    };
  }

  progress() {
    return progressOf(this.stats);
  }

  /**
   * Trains until `steps` more env steps are done, call(left) making some (left: the steps
   * still to make), or stops after `until` (a performance.now() time) between calls; returns
   * the progress.
   */
  async trainSteps(steps, until, call) {
    const target = this.stats.steps + steps;
    while (this.stats.steps < target) {
      await call(target - this.stats.steps);
      if (until !== undefined && performance.now() >= until) break;
    }
    return this.progress();
  }

  /**
   * What the threads sent of one call (in thread order, each { returns, sums } by its shards,
   * in shard order) added to the stats: the episodes' returns counted in shard order, and the
   * means of the sums (sums[0] the samples, sums[1 ..] named by `names`), null if none.
   */
  addResults(results, names) {
    const sums = new Float64Array(names.length + 1);
    for (const result of results) {
      for (const returns of result.returns) for (const ret of returns) recordEpisode(this.stats, ret);
      for (const s of result.sums) for (let k = 0; k < sums.length; k++) sums[k] += s[k];
    }
    return sums[0] > 0 ? Object.fromEntries(names.map((name, k) => [name, sums[k + 1] / sums[0]])) : null;
  }

  /**
   * What a checkpoint holds of every such run (checkpointCheck.js checks it): the stats, the
   * weights and Adam's state (thread 0's: every thread holds the same), and every shard's
   * generator, envs and states, in shard order.
   */
  async save() {
    const { stats } = this;
    const net = this.team.local.net;
    const shardStates = (await this.team.all('shardStates')).flat();
    return {
      stats: {
        updates: stats.updates,
        episodes: stats.episodes,
        recent: stats.recent.slice(),
        losses: { ...stats.losses },
        elapsedMs: Date.now() - stats.startMs,
        ...(stats.imitation && { imitation: stats.imitation }),
      },
      params: Array.from(net.params()),
      moments: Array.from(net.moments()),
      adamSteps: net.adamSteps,
      shards: shardStates.map(({ shard, ...record }) => record), // rng, envs (and states)
    };
  }

  /** Sets every thread and the stats from a checkpoint's state (checked) of a run with the same settings and seed; `started`: this run has begun. */
  async restore(state, started) {
    if (started) throw new Error('valley-farm/learn: restore() a checkpoint into a new learner, before it trains');
    const params = Float32Array.from(state.params);
    const moments = Float32Array.from(state.moments);
    await this.team.all('setWeights', { params, moments, adamSteps: state.adamSteps });
    await this.team.all('setShardStates', state.shards);
    const { elapsedMs, imitation, ...kept } = structuredClone(state.stats); // the caller's checkpoint stays as it was
    Object.assign(this.stats, kept, { steps: state.steps, startMs: Date.now() - elapsedMs });
    if (imitation) this.stats.imitation = imitation;
  }
}

// ---- its memory -----------------------------------------------------------------------------

// floats a recurrent layer keeps per sample, in its units: each kind's per_sample in the
// core's table of recurrent kinds (core/learn/gru.c, lstm.c), where a test reads them
export const KEPT_PER_SAMPLE = { gru: 12, lstm: 14 };

/**
 * The bytes of a run's networks (a network `layout`, c.shards, c.recurrent) on `threads`
 * threads: on each, the weights, gradient, Adam's two moments, its shards' kept gradients and
 * the exchange's sums, and the activations of `rows` rows at once (with a recurrent layer,
 * what it keeps of every sample: KEPT_PER_SAMPLE).
 */
export function networkBytes(layout, c, threads, rows) {
  const kept = KEPT_PER_SAMPLE[layout.cell ?? 'gru'];
  const units = layout.hidden.reduce((a, b) => a + b, 0) + layout.heads.reduce((a, b) => a + b, 0) + (c.recurrent ?? 0) * (1 + kept / 2);
  const weights = weightCount(layoutShapes(layout)) * 4;
  return threads * (weights * (4 + Math.ceil(c.shards / threads) + 2) + rows * units * 2 * 4);
}

/**
 * A shard's rollout of T steps of its n envs (rolloutBytes counts it): its samples in the
 * learner core (the rollout's with their masks, then each env's state after it), and by step
 * (t × n + i) the actions, their log-probabilities, values, rewards, dones, advantages and
 * returns, an order (a minibatch's samples: chunks of it), and the actions of a step (by env).
 */
export function rolloutBuffers(core, { n, envs }, T, A) {
  const N = T * n;
  return {
    A,
    N,
    samples: new Samples(core, N + n, envs.nonzero, { actions: A }),
    actions: new Int32Array(N),
    oldLogp: new Float32Array(N),
    values: new Float32Array(N),
    rewards: new Float32Array(N),
    dones: new Float32Array(N),
    advantages: new Float32Array(N),
    returns: new Float32Array(N),
    order: new Int32Array(N),
    stepActions: new Int32Array(n),
  };
}

/**
 * The bytes of every shard's rollout of T steps of its envs (c: numEnvs, history, memory,
 * recurrent): the samples in the learner core at their stride with their masks, then each
 * env's state after them; up to 8 numbers a step in JS (actions, values, returns, order…);
 * the frames; each episode's actions so far; with a recurrent layer, each env's states (now,
 * first, a minibatch's: sequences.js) and the steps' starts and rows.
 */
export function rolloutBytes(env, c, T) {
  const spec = envSpecs[env];
  const seeing = perception(env, c.memory);
  const n = c.numEnvs;
  const N = T * n;
  return (
    Samples.bytes(N + n, (N + n) * networkLayout(env, c, 'logits').nonzero, false, spec.actions.length) +
    N * 8 * 4 +
    n * c.history * Math.min(seeing.width, seeing.nonzero) * 8 +
    n * spec.horizon * 4 +
    (c.recurrent > 0 ? n * c.recurrent * 3 * 4 + N * 6 : 0)
  );
}
