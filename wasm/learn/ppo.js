// ppo.js — Proximal Policy Optimization (Schulman et al. 2017) with action masks, as CleanRL's
// ppo.py reads: the settings; a rollout of numEnvs × nSteps on the vector env; advantages by
// GAE(λ); epochs of minibatch updates of the clipped objective, a value loss and an entropy
// bonus, with Adam; the step size annealed over the run. Illegal actions get probability
// exactly 0 (CoreNet.policy, the learner core's one masked softmax), so the policy never
// spends a step on one.
//
// What the policy sees comes from seenEnvs.js (the observation's features and, with `memory`,
// what it remembers of the farm, over `history` steps). With `imitate` > 0 it first clones the
// planner's play (cloning.js). Its network is the learner core's (core.js): forward, then this
// file computes the loss's gradient with respect to the network's outputs (lossGradient), and
// the core takes it back through the network. With `recurrent` > 0 the network ends in a GRU
// and learns what to remember itself, as CleanRL's ppo_atari_lstm.py does: the rollout carries
// each env's state (sequences.js), and a minibatch is whole env sequences, each from the state
// it had when the rollout began, taken back through time.
//
// Every core: a run's envs are cut into `shards` (a fixed number, 8 by default), each with its
// own envs, generator and share of every minibatch; threads.js hosts them a few to a thread and
// exchange.js adds their gradients in an order fixed by the shards alone. So a seeded run gives
// the same weights on 1, 2 or 8 threads; only its speed follows the machine.
import {
  ACT_MODES,
  CoreNet,
  NetPolicy,
  Samples,
  SeenEnvs,
  RolloutStates,
  ShardDemos,
  checkNetPolicy,
  checkNetworkSize,
  checkPpoState,
  cloningBatches,
  drawFrom,
  envSpecs,
  layers,
  layoutShapes,
  loadCore,
  loadNetPolicy,
  networkLayout,
  number,
  perception,
  plannerDemosBytes,
  progressOf,
  recordEpisode,
  seededRandom,
  shardEnvs,
  shardRandom,
  shuffle,
  startThreads,
  trainingStats,
  weightCount,
  whole,
} from './kit.js'; // a learner of your own imports these from 'valley-farm/learn'

// ---- the settings ---------------------------------------------------------------------------

const HISTORY_MAX = 16; // frames a policy may stack (its input grows with each)
const SHARDS_MAX = 64;
const UPDATES_A_CALL = 32; // updates the threads make in one call of the coordinator's (train)

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
  maxGradNorm: 0,
  hidden: [64, 64],
  recurrent: 0,
  history: 1,
  memory: 1,
  imitate: 24000,
  plannerWidth: 16,
  imitationEpochs: 10,
  shards: 8,
  restartEvery: 0,
});

export const docs = Object.freeze({
  numEnvs: 'envs stepped together (shared out among the shards)',
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
  maxGradNorm: "the most a minibatch's gradient may measure (its Euclidean norm): a larger one is scaled down to it (0: no clipping)",
  hidden: 'sizes of the hidden layers (tanh)',
  recurrent:
    'units of a recurrent layer (a GRU) between the hidden layers and the heads (0: none): the policy then keeps a state of its own from step to step of an episode, and learns what to keep in it; a minibatch is whole env sequences (at most numEnvs / shards minibatches an epoch)',
  imitate:
    'planner episodes to clone before PPO starts (0: none): the policy learns the action the planner took from what it saw, the value its return',
  plannerWidth: "the planner's beam width for those episodes (env.plan)",
  imitationEpochs: 'passes over the planner episodes',
  memory:
    '1: the policy also sees what it remembers of the farm this episode: the nearest cell of each kind it has seen, and where it has not looked yet (0: only its observations)',
  history: `observations the policy sees: the current one and up to history − 1 before it in the episode (zeros before its start), 1 … ${HISTORY_MAX}`,
  shards: `parts every rollout and minibatch is cut into, each with its own envs and generator (numEnvs, if there are fewer envs): they fix what a seeded run computes, whatever the threads that run them; 1 … ${SHARDS_MAX}`,
  restartEvery: 'env steps after which every env starts a new episode (0: never); a multiple of numEnvs × nSteps',
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
  maxGradNorm: number(0, 1e6),
  hidden: layers(4, 512),
  recurrent: whole(0, 512),
  history: whole(1, HISTORY_MAX),
  memory: whole(0, 1),
  imitate: whole(0, 100_000),
  plannerWidth: whole(1, 1024),
  imitationEpochs: whole(1, 1000),
  shards: whole(1, SHARDS_MAX),
  restartEvery: whole(0, 1e12),
});

// ---- the loss -------------------------------------------------------------------------------

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

/**
 * The gradient of PPO's loss with respect to the network's outputs (logits, then the value),
 * for n samples whose outputs are out[j * O ..], whose policy is pi (CoreNet.policy: logp, p,
 * entropy) and whose rollout rows are rows[j]:
 *   −min(r A, clip(r, 1 ± ε) A) + valueCoef (v − R)² − entropyCoef H,   r = π(a) / π_old(a),
 * each term times `scale` (1 / the whole minibatch's size), into dout. b: the rollout's
 * actions, oldLogp, advantages (normalised) and returns, by row, and A. Adds n to sums[0] and
 * the unscaled sums of the clipped objective's loss, (v − R)², the entropy, the approximate
 * KL ((r − 1) − log r) and the clipped share to sums[1 .. 5].
 */
export function lossGradient(out, { logp, p, entropy }, dout, n, rows, b, { clip, valueCoef, entropyCoef }, scale, sums) {
  const A = b.A;
  const O = A + 1;
  const e = entropyCoef * scale;
  for (let j = 0; j < n; j++) {
    const row = rows[j];
    const z = j * O;
    const q = j * A;
    const act = b.actions[row];
    const logRatio = logp[q + act] - b.oldLogp[row];
    const ratio = Math.exp(logRatio);
    const adv = b.advantages[row];
    const unclipped = ratio * adv;
    const clipped = Math.min(Math.max(ratio, 1 - clip), 1 + clip) * adv;
    // the min takes the unclipped term where it is the smaller (ties included); the clipped one
    // is flat in the weights, so only there does d loss / d log π(a) = −r A
    const g = unclipped <= clipped ? -adv * ratio * scale : 0;
    const h = entropy[j];
    for (let a = 0; a < A; a++) {
      // − entropyCoef H: dH/dz_a = −π(a) (log π(a) + H); through the log-softmax,
      // d log π(act) / dz_a = [a = act] − π(a); an illegal action gets 0
      dout[z + a] = p[q + a] === 0 ? (a === act ? g : 0) : e * p[q + a] * (logp[q + a] + h) + g * ((a === act) - p[q + a]);
    }
    const err = out[z + A] - b.returns[row];
    dout[z + A] = 2 * valueCoef * scale * err;
    sums[0] += 1;
    sums[1] -= Math.min(unclipped, clipped);
    sums[2] += err * err;
    sums[3] += h;
    sums[4] += ratio - 1 - logRatio;
    sums[5] += Math.abs(ratio - 1) > clip ? 1 : 0;
  }
}

// ---- a thread: its shards' envs, rollouts and shares of every gradient ----------------------

/**
 * One thread of a run (threads.js calls it, here or in a Worker): shards [first, end) of
 * `shards`, one network (every thread's holds the same weights), their exchange. Its methods
 * are the coordinator's calls below, with plain data in and out.
 */
export async function thread({ env, config: c, seed, first, end, shards, exchange, note }) {
  const core = await loadCore();
  const layout = networkLayout(env, c, 'logits');
  const net = new CoreNet(core, layout);
  net.init(seed);
  const ex = exchange(net);
  const A = envSpecs[env].actions.length;
  const O = A + 1;
  const T = c.nSteps;
  const recurrent = c.recurrent > 0;

  /** Shard `index`: its envs, generator, and rollout (its samples and what each one's loss reads). */
  async function makeShard(index) {
    const { from, n } = shardEnvs(index, shards, c.numEnvs);
    const envs = await SeenEnvs.create(env, n, c, seed * 1_000_003 + 2 ** 32 + from);
    const N = T * n;
    return {
      index,
      from,
      n,
      N,
      A,
      envs,
      random: shardRandom(seed, index),
      samples: new Samples(core, N + n, envs.nonzero, { actions: A }), // the rollout (and its masks), then each env's state after it
      actions: new Int32Array(N),
      oldLogp: new Float32Array(N),
      values: new Float32Array(N),
      rewards: new Float32Array(N),
      dones: new Float32Array(N),
      advantages: new Float32Array(N),
      returns: new Float32Array(N),
      order: new Int32Array(N), // a minibatch's samples: chunks of it (recurrent: of its first n, its envs)
      stepActions: new Int32Array(n),
      states: recurrent ? new RolloutStates(net, n, T) : null, // each env's recurrent state
      demos: null, // cloning's
    };
  }
  const mine = [];
  for (let j = first; j < end; j++) mine.push(await makeShard(j));

  /** The outputs of rows [from, from + n) of a shard's samples. */
  function forwardRows(s, from, n) {
    const v = s.samples.views();
    for (let i = 0; i < n; i++) v.rows[i] = from + i;
    return net.forward(s.samples, n, s.samples.rows);
  }

  /** Plays nSteps in every env of shard s; returns its finished episodes' returns and its advantages' sums. */
  function rollout(s) {
    const { n, N, envs } = s;
    const returns = [];
    s.states?.begin();
    for (let t = 0; t < T; t++) {
      const at = t * n;
      for (let i = 0; i < n; i++) envs.write(i, s.samples, at + i);
      const out = recurrent ? s.states.step(s.samples, t, envs) : forwardRows(s, at, n);
      s.samples.views().masks.set(envs.masks, at * A);
      const { logp, p } = net.policy(s.samples, n, s.samples.rows);
      for (let i = 0; i < n; i++) {
        const a = drawFrom(p, i * A, A, s.random);
        s.stepActions[i] = a;
        s.actions[at + i] = a;
        s.oldLogp[at + i] = logp[i * A + a];
        s.values[at + i] = out[i * O + A];
      }
      const r = envs.step(s.stepActions);
      for (let i = 0; i < n; i++) {
        s.rewards[at + i] = r.rewards[i];
        s.dones[at + i] = r.terminated[i];
        if (r.terminated[i]) {
          returns.push(r.episodeReturns[i]);
          s.states?.forget(i);
        }
      }
    }
    for (let i = 0; i < n; i++) envs.write(i, s.samples, N + i);
    const out = recurrent ? s.states.peek(s.samples, N, envs) : forwardRows(s, N, n);
    const last = Float32Array.from({ length: n }, (_, i) => out[i * O + A]);
    gae(s.rewards, s.values, s.dones, last, n, c.gamma, c.lambda, s.advantages, s.returns);
    let sum = 0;
    let squares = 0;
    for (const a of s.advantages) {
      sum += a;
      squares += a * a;
    }
    return { returns, moments: [N, sum, squares] };
  }

  // What a minibatch takes whole from a shard's rollout, and how many of them it has: its
  // samples, or (recurrent) its envs' sequences of T samples each
  const units = recurrent ? (j) => shardEnvs(j, shards, c.numEnvs).n : (j) => T * shardEnvs(j, shards, c.numEnvs).n;
  const unitSize = recurrent ? T : 1;

  /** The samples of every shard's chunk m of M together: the whole minibatch. */
  function minibatchSize(m, M) {
    let size = 0;
    for (let j = 0; j < shards; j++) {
      const count = units(j);
      size += unitSize * (Math.floor(((m + 1) * count) / M) - Math.floor((m * count) / M));
    }
    return size;
  }

  /**
   * Adds shard s's share of a minibatch to the net's gradient (zeroed first): units [from,
   * from + count) of its order, the loss's terms times `scale`, its sums into `sums`.
   */
  function shareGradient(s, from, count, loss, scale, sums) {
    net.zeroGrad();
    if (count === 0) return;
    if (recurrent) {
      const n = T * count;
      const { out, rows } = s.states.forward(s.samples, s.order, from, count);
      lossGradient(out, net.policy(s.samples, n, s.samples.rows), net.outputGrad(n), n, rows, s, loss, scale, sums);
      s.states.backward(s.samples, count);
      return;
    }
    s.samples.views().rows.set(s.order.subarray(from, from + count));
    const out = net.forward(s.samples, count, s.samples.rows);
    const pi = net.policy(s.samples, count, s.samples.rows);
    // views after forward, which may have grown the core's memory
    lossGradient(out, pi, net.outputGrad(count), count, s.samples.views().rows, s, loss, scale, sums);
    net.backward(s.samples, count, s.samples.rows);
  }

  /**
   * Epochs of minibatches over every shard's rollout: each shard's share of minibatch m is
   * chunk m of its own order of samples (recurrent: of envs, each with its whole sequence),
   * shuffled each epoch by its own generator; the shares' gradients summed over every shard
   * (exchange.js), then one Adam step. Returns each shard's sums (lossGradient's) and the
   * gradient norms' sum.
   */
  async function learn(learningRate, loss) {
    const total = c.numEnvs * T;
    // recurrent: no more minibatches than the largest shard has envs, so that none is empty
    const M = Math.min(Math.ceil(total / c.minibatch), recurrent ? Math.ceil(c.numEnvs / shards) : Infinity);
    const sums = mine.map(() => new Float64Array(6));
    let norms = 0;
    for (let epoch = 0; epoch < c.epochs; epoch++) {
      for (const s of mine) {
        const order = s.order.subarray(0, units(s.index));
        for (let k = 0; k < order.length; k++) order[k] = k; // so the order depends on the generator alone (a resumed run)
        shuffle(order, s.random);
      }
      for (let m = 0; m < M; m++) {
        const scale = 1 / minibatchSize(m, M);
        mine.forEach((s, j) => {
          const count = units(s.index);
          const from = Math.floor((m * count) / M);
          shareGradient(s, from, Math.floor(((m + 1) * count) / M) - from, loss, scale, sums[j]);
          ex.keep(s.index);
        });
        norms += await ex.sum({ maxNorm: c.maxGradNorm });
        net.adam(learningRate);
      }
    }
    return { sums: sums.map((x) => Array.from(x)), norms, minibatches: c.epochs * M };
  }

  return {
    net,
    /**
     * Updates, one after another, without the coordinator between them: for each of `plan`,
     * every env starts a new episode first where it says `restart` (a seed), then a rollout,
     * its advantages normalised over every shard, and learn() at the update's `learningRate`.
     */
    async train(plan, loss) {
      const done = [];
      for (const { restart, learningRate } of plan) {
        if (restart !== null)
          for (const s of mine) {
            s.envs.reset(restart + s.from);
            s.states?.forget();
          }
        const rolled = mine.map(rollout);
        const [count, sum, squares] = await ex.sumNumbers(rolled.map((r) => r.moments));
        const mean = sum / count;
        const sd = Math.sqrt(Math.max(0, squares / count - mean * mean)) + 1e-8;
        for (const s of mine) for (let k = 0; k < s.N; k++) s.advantages[k] = (s.advantages[k] - mean) / sd;
        const learned = await learn(learningRate, loss);
        done.push({ returns: rolled.map((r) => r.returns), ...learned });
      }
      return done;
    },

    /** Plays its shards' planner episodes until all are or `until`; returns whether all are. */
    async plan(until) {
      for (const s of mine) {
        s.demos ??= new ShardDemos(env, c, seed, s.index, shards, s.envs.seeing);
        if (!(await s.demos.play(until, () => note('episode')))) return false;
      }
      return true;
    },

    /** Keeps the planner's steps as samples; returns the returns' sums over its shards. */
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
        last = mine.map((s) => {
          const part = s.demos.gradient(net, m, M, scale, valueWeight);
          ex.keep(s.index);
          return part;
        });
        await ex.sum({ maxNorm: c.maxGradNorm });
        net.adam(learningRate);
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

    /** Its shards' generators and envs (state() of seenEnvs.js; recurrent, their states), to save the run. */
    shardStates() {
      return mine.map((s) => ({
        shard: s.index,
        rng: s.random.state(),
        envs: s.envs.state(),
        ...(recurrent && { states: s.states.save() }),
      }));
    },

    /** Sets its shards' generators and envs from a checkpoint's records (all of the run's, in shard order). */
    setShardStates(records) {
      for (const s of mine) {
        const r = records[s.index];
        s.random = seededRandom(r.rng);
        s.envs.restore(r.envs);
        s.states?.restore(r.states);
      }
    },

    /** Sets the parameters and Adam's state (a checkpoint's, on every thread). */
    setWeights({ params, moments, adamSteps }) {
      net.params().set(params);
      net.moments().set(moments);
      net.adamSteps = adamSteps;
    },

    dispose() {
      for (const s of mine) {
        s.envs.close();
        s.samples.dispose();
        s.demos?.dispose();
      }
      ex.close();
      net.dispose();
    },
  };
}

// ---- the coordinator ------------------------------------------------------------------------

/** A PPO run on `threads` threads (its results do not depend on how many). */
export async function createPPO(env, config, seed, { threads = 1 } = {}) {
  const c = { ...defaults, ...config }; // checked by createLearner
  c.shards = Math.min(c.shards, c.numEnvs); // fewer envs than shards: one env a shard
  const N = c.nSteps * c.numEnvs; // env steps of one rollout of every shard
  if (c.restartEvery % N !== 0)
    throw new RangeError(
      `valley-farm/learn: ppo setting restartEvery must be a multiple of a rollout's numEnvs × nSteps = ${N} env steps (or 0), got ${c.restartEvery}`,
    );
  const team = await startThreads(learner, { env, config: c, seed }, { shards: c.shards, threads: Math.min(threads, c.shards) });
  const stats = trainingStats();
  stats.threads = team.threads;
  stats.shards = c.shards;
  const core = await loadCore();
  const policy = new NetPolicy(core, env, learner.name, team.local.net, c);
  let learningRate = c.learningRate;
  let restarted = 0; // the steps where the envs last started afresh (restartEvery)
  const atRestart = (steps) => c.restartEvery > 0 && steps > 0 && steps % c.restartEvery === 0;
  const loss = { clip: c.clip, valueCoef: c.valueCoef, entropyCoef: c.entropyCoef };

  /**
   * The next `count` updates, in one call of every thread: each update's step size (annealed
   * by the steps before it) and whether every env starts afresh before it are known ahead, so
   * the threads need not wait for this one between updates.
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
    const parts = await team.all('train', plan, loss); // each thread's, each update's, each of its shards'
    for (let u = 0; u < count; u++) {
      const sums = new Float64Array(6);
      for (const part of parts) {
        for (const returns of part[u].returns) for (const ret of returns) recordEpisode(stats, ret); // shard order
        for (const s of part[u].sums) for (let k = 0; k < 6; k++) sums[k] += s[k];
      }
      const { norms, minibatches } = parts[0][u];
      learningRate = plan[u].learningRate;
      stats.losses = {
        policy: sums[1] / sums[0],
        value: sums[2] / sums[0],
        entropy: sums[3] / sums[0],
        approxKl: sums[4] / sums[0],
        clipFraction: sums[5] / sums[0],
        gradNorm: norms / minibatches,
      };
      if (c.anneal > 0) stats.losses.learningRate = learningRate;
      if (plan[u].restart !== null) restarted = stats.steps;
      stats.updates += minibatches;
      stats.steps += N;
    }
  }

  // Cloning the planner's play, in slices that end by `until`: planning, packing, then
  // imitationEpochs passes of minibatches. `seconds`: the time spent in it, over every slice.
  const cloning = { phase: 'planning', planned: 0, epoch: 0, m: 0, chunk: 4, count: 0, valueWeight: 0, seconds: 0 };
  team.onNote((note) => note === 'episode' && cloning.planned++);

  /** Clones until it is done (true) or `until` (performance.now()) passes (false). */
  async function imitate(onProgress, until = Infinity) {
    const t0 = Date.now();
    const seconds = () => cloning.seconds + (Date.now() - t0) / 1000;
    const report = () => {
      const planning = cloning.phase === 'planning';
      stats.imitation = {
        episodes: c.imitate,
        phase: cloning.phase,
        done: planning ? cloning.planned : cloning.epoch,
        total: planning ? c.imitate : c.imitationEpochs,
        seconds: seconds(),
      };
      onProgress?.(progressOf(stats));
    };
    try {
      if (cloning.phase === 'planning') {
        report();
        const ticker = setInterval(report, 250); // the episodes played so far, while the threads play
        let played;
        try {
          played = (await team.all('plan', until)).every(Boolean);
        } finally {
          clearInterval(ticker);
        }
        if (!played) return false;
        const [count, sum, squares] = (await team.all('pack'))[0];
        const mean = sum / count;
        cloning.count = count;
        cloning.valueWeight = c.valueCoef / Math.max(1e-6, squares / count - mean * mean);
        cloning.phase = 'cloning';
      }
      const { M } = cloningBatches(c, c.shards, cloning.count, envSpecs[env].horizon);
      while (cloning.epoch < c.imitationEpochs) {
        report();
        const t = performance.now();
        const to = Math.min(M, cloning.m + cloning.chunk);
        const parts = await team.all('clone', {
          from: cloning.m,
          to,
          count: cloning.count,
          learningRate: c.learningRate,
          valueWeight: cloning.valueWeight,
        });
        const last = parts.flat().reduce((a, p) => a.map((x, k) => x + p[k]), [0, 0, 0]); // in shard order
        cloning.loss = last[1] / Math.max(1, last[0]); // the last minibatch's cross-entropy
        // slices of about a quarter of a second when a time is given, else whole passes
        const ms = performance.now() - t;
        cloning.chunk = until === Infinity ? M : Math.max(1, Math.min(M, Math.round(((to - cloning.m) * 250) / Math.max(ms, 1))));
        [cloning.epoch, cloning.m] = to >= M ? [cloning.epoch + 1, 0] : [cloning.epoch, to];
        if (performance.now() >= until && cloning.epoch < c.imitationEpochs) return false;
      }
      await team.all('cloned');
      stats.imitation = { episodes: c.imitate, samples: cloning.count, loss: cloning.loss, seconds: seconds() };
      return true;
    } finally {
      cloning.seconds = seconds();
    }
  }
  const imitating = () => c.imitate > 0 && !stats.imitation?.samples;

  return {
    config: c,
    /**
     * Trains `steps` more env steps (cloning the planner first, if it has not yet), or stops at
     * the first point it can after performance.now() passes `until`: between planner episodes,
     * cloning minibatches or calls of updates.
     */
    async trainFor(steps, { onProgress, until } = {}) {
      if (imitating() && !(await imitate(onProgress, until))) return progressOf(stats);
      const target = stats.steps + steps;
      // at most UPDATES_A_CALL a call, so that what the threads return stays small
      while (stats.steps < target) {
        await updates(Math.min(UPDATES_A_CALL, Math.ceil((target - stats.steps) / N)));
        if (until !== undefined && performance.now() >= until) break;
      }
      return progressOf(stats);
    },
    /**
     * The run so far, to resume it (restore) exactly, with any number of threads: between
     * trainFor calls, once cloning is done (null while it is not).
     */
    async checkpoint() {
      if (imitating()) return null;
      const net = team.local.net;
      const shardStates = (await team.all('shardStates')).flat();
      return {
        steps: stats.steps,
        restarted,
        stats: {
          updates: stats.updates,
          episodes: stats.episodes,
          recent: stats.recent.slice(),
          losses: { ...stats.losses },
          elapsedMs: Date.now() - stats.startMs,
          ...(stats.imitation && { imitation: stats.imitation }),
        },
        learningRate,
        params: Array.from(net.params()),
        moments: Array.from(net.moments()),
        adamSteps: net.adamSteps,
        shards: shardStates.map(({ shard, ...record }) => record), // rng, envs (and states)
      };
    },
    /** Continues from a checkpoint() of a run with the same settings and seed (checkState has checked it). */
    async restore(state) {
      if (stats.steps > 0 || cloning.planned > 0)
        throw new Error('valley-farm/learn: restore() a checkpoint into a new learner, before it trains');
      const params = Float32Array.from(state.params);
      const moments = Float32Array.from(state.moments);
      await team.all('setWeights', { params, moments, adamSteps: state.adamSteps });
      await team.all('setShardStates', state.shards);
      const { elapsedMs, imitation, ...kept } = structuredClone(state.stats); // the caller's checkpoint stays as it was
      Object.assign(stats, kept, { steps: state.steps, startMs: Date.now() - elapsedMs });
      if (imitation) stats.imitation = imitation;
      learningRate = state.learningRate;
      restarted = state.restarted;
    },
    progress: () => progressOf(stats),
    policy: () => policy,
    dispose() {
      team.dispose();
      policy.dispose();
    },
  };
}

// ---- what the registry knows of PPO (registry.js; every field: docs/adding-a-learner.md) ----

// A demonstration's frame is counted with every feature of the observation's encoding (all
// but a few are one-hot) and this share of its memory's, which are 0 until the agent has seen
// a kind of cell or looked at a square. With every episode counted at the full horizon, it
// puts the estimate of the demonstrations within 0.7-1.5 times what they take on every farm
// (tests/js/learn_settings.test.js measures it against runs).
const MEMORY_FILL = 0.15;
const GRU_KEPT = 12; // floats the recurrent layer keeps per sample and unit (VFLG_PER_SAMPLE)

/**
 * The bytes a run of these settings takes beyond its vector envs, as the parts it holds at
 * once: each shard's rollout (its samples in the learner core at their stride, and its JS
 * arrays and frames); each thread's network (weights, gradient, Adam's two moments, its
 * shards' kept gradients and the exchange's sums, a minibatch's activations); with imitate,
 * the planner episodes while they are played (imitate.js) together with their samples
 * (Samples.packed), every episode counted at the full horizon (a plan is never longer). With
 * `recurrent`, each env's states and a minibatch's (sequences.js), and what the recurrent
 * layer keeps of every sample it computes (VFLG_PER_SAMPLE units in core/learn/internal.h).
 */
function memory(env, c, { threads = 1 } = {}) {
  const spec = envSpecs[env];
  const A = spec.actions.length;
  const layout = networkLayout(env, c, 'logits');
  const seeing = perception(env, c.memory);
  const n = c.numEnvs;
  const N = c.nSteps * n;
  const rollout =
    Samples.bytes(N + n, (N + n) * layout.nonzero, false, A) + // the samples and their masks, then each env's state after them
    N * 8 * 4 + // actions, old log-probabilities, values, rewards, dones, advantages, returns, order
    n * c.history * Math.min(seeing.width, seeing.nonzero) * 8 + // the frames
    n * spec.horizon * 4 + // each episode's actions so far
    (c.recurrent > 0 ? n * c.recurrent * 3 * 4 + N * 6 : 0); // states (now, first, a minibatch's); starts and rows
  // the most rows a network computes at once: a minibatch's share of a rollout or of the demonstrations
  const B = Math.max(Math.min(c.minibatch, c.imitate > 0 ? c.imitate * spec.horizon : N), n);
  const units = layout.hidden.reduce((a, b) => a + b, 0) + A + 1 + c.recurrent * (1 + GRU_KEPT / 2);
  const weights = weightCount(layoutShapes(layout)) * 4;
  // per thread: weights, gradient, Adam's two moments, its shards' kept gradients, the exchange's sums
  const network = threads * (weights * (4 + Math.ceil(c.shards / threads) + 2) + B * units * 2 * 4);
  const steps = c.imitate * spec.horizon;
  const frame = Math.min(seeing.width, seeing.encoder.nonzero + MEMORY_FILL * (seeing.width - seeing.encoder.size));
  const demos =
    c.imitate > 0 ? plannerDemosBytes(env, c.imitate) + Samples.bytes(steps, steps * frame * c.history, true, A) + steps * 4 : 0; // + their order
  return rollout + network + demos;
}

/** The shapes of a ppo network of these settings on an env. */
const shapesOf = (env, c) => layoutShapes(networkLayout(env, c, 'logits'));

/** PPO as the registry lists it. */
export const learner = Object.freeze({
  name: 'ppo',
  title: 'PPO',
  defaults,
  docs,
  limits,
  maxima: Object.freeze({ history: HISTORY_MAX, memory: 1, shards: SHARDS_MAX }),
  actModes: ACT_MODES,
  // a run of known length anneals over all of it, as CleanRL's PPO does (and as the default
  // reference runs in docs/runs did)
  runDefaults: (steps) => ({ anneal: steps }),
  create: createPPO,
  thread,
  checkConfig: (env, c) => checkNetworkSize(shapesOf(env, c), 'ppo'),
  memory,
  checkPolicy: (json) => checkNetPolicy(json, learner, 'logits'),
  load: (json) => loadNetPolicy(json, 'logits'),
  // its runs can be saved between trainFor calls once cloning is done, and resumed exactly
  resume: Object.freeze({ checkState: checkPpoState }), // checkpointCheck.js
});
