// ppo.js — Proximal Policy Optimization (Schulman et al. 2017) with action masks, as CleanRL's
// ppo.py reads: the settings; a rollout of numEnvs × nSteps on the vector env; advantages by
// GAE(λ); epochs of minibatch updates of the clipped objective, a value loss and an entropy
// bonus, with Adam; the step size annealed over the run. Illegal actions get probability
// exactly 0 (CoreNet.policy, the learner core's one masked softmax).
//
// The learner core (core.js) runs the network; this file computes the loss's gradient at its
// outputs (lossGradient). With `imitate` it first clones the planner's play (cloning.js); with
// `recurrent` the network ends in a GRU (an LSTM with `lstm`) and a minibatch is whole env sequences (sequences.js),
// as in CleanRL's ppo_atari_lstm.py. The envs are cut into `shards` whose gradients are summed
// in an order fixed by the shards alone (run.js): the same weights on 1, 2 or 8 threads.
import {
  ACT_MODES,
  Cloning,
  checkNetPolicy,
  checkNetwork,
  checkPpoState,
  checkpointMethods,
  closeThread,
  chunk,
  cloningMethods,
  demosBytes,
  drawFrom,
  envSpecs,
  gradientStep,
  layers,
  loadNetPolicy,
  makeShards,
  minibatchSize,
  networkBytes,
  networkLayout,
  networkRollout,
  normaliseAdvantages,
  number,
  rolloutBuffers,
  rolloutBytes,
  shardEnvs,
  shuffle,
  startRun,
  threadNet,
  whole,
} from './kit.js'; // a learner of your own imports these from 'valley-farm/learn'

// ---- the settings ---------------------------------------------------------------------------

const HISTORY_MAX = 16; // frames a policy may stack (its input grows with each)
const SHARDS_MAX = 64;
const UPDATES_A_CALL = 32; // updates the threads make in one call of the coordinator's (train): what they return stays small
const LOSSES = ['policy', 'value', 'entropy', 'approxKl', 'clipFraction']; // the means of lossGradient's sums, in order

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
  lstm: 0,
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
  lstm: '1: the recurrent layer is an LSTM instead of a GRU (its state twice as large: h and c); with recurrent only',
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
  lstm: whole(0, 1),
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
 * GAE(λ) over a rollout stored step-major (index t * n + i): advantages and returns. dones[t *
 * n + i] = 1 where step t of env i ended its episode; lastValues: each env's after the last step.
 */
export function gae(rewards, values, dones, lastValues, n, gamma, lambda, adv = new Float32Array(rewards.length), ret = adv.slice()) {
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

/** One thread of a run (threads.js runs it, here or in a Worker): shards [first, end); its methods are the coordinator's calls. */
export async function thread(ctx) {
  const { config: c, shards } = ctx;
  const { core, net, ex, A } = await threadNet(ctx, 'logits');
  const O = A + 1;
  const T = c.nSteps;
  const recurrent = c.recurrent > 0;
  // each shard's rollout (run.js: its samples, actions, oldLogp, values, rewards, dones, advantages,
  // returns, and an order for minibatches), and how the network goes through it (sequences.js)
  const mine = await makeShards(ctx, (s) => ({ ...rolloutBuffers(core, s, T, A), states: networkRollout(net, s.n, T) }));

  /** Plays nSteps in every env of shard s, and its advantages by GAE; returns its finished episodes' returns. */
  function rollout(s) {
    const { n, N, envs, samples } = s;
    const returns = [];
    s.states.begin();
    for (let t = 0; t < T; t++) {
      const at = t * n;
      for (let i = 0; i < n; i++) envs.write(i, samples, at + i);
      const out = s.states.step(samples, t, envs);
      samples.views().masks.set(envs.masks, at * A);
      const { logp, p } = net.policy(samples, n, samples.rows);
      for (let i = 0; i < n; i++) {
        const a = (s.stepActions[i] = s.actions[at + i] = drawFrom(p, i * A, A, s.random));
        s.oldLogp[at + i] = logp[i * A + a];
        s.values[at + i] = out[i * O + A];
      }
      const r = envs.step(s.stepActions);
      for (let i = 0; i < n; i++) {
        s.rewards[at + i] = r.rewards[i];
        s.dones[at + i] = r.terminated[i];
        if (r.terminated[i]) {
          returns.push(r.episodeReturns[i]);
          s.states.forget(i);
        }
      }
    }
    for (let i = 0; i < n; i++) envs.write(i, samples, N + i);
    const out = s.states.peek(samples, N, envs);
    const last = Float32Array.from({ length: n }, (_, i) => out[i * O + A]);
    gae(s.rewards, s.values, s.dones, last, n, c.gamma, c.lambda, s.advantages, s.returns);
    return returns;
  }

  // a minibatch takes whole units of a shard's rollout: its samples, or (recurrent) its envs' sequences of T
  const units = (j) => (recurrent ? 1 : T) * shardEnvs(j, shards, c.numEnvs).n;
  const unitSize = recurrent ? T : 1;

  /**
   * Epochs of minibatches, shard s's share of minibatch m chunk m of its order (shuffled each epoch
   * by its generator), one Adam step on the shares' sum; each shard's sums and the norms' sum.
   */
  async function learn(learningRate) {
    // recurrent: no more minibatches than the largest shard has envs, so that none is empty
    const M = Math.min(Math.ceil((c.numEnvs * T) / c.minibatch), recurrent ? Math.ceil(c.numEnvs / shards) : Infinity);
    const sums = mine.map(() => new Float64Array(6));
    let norms = 0;
    for (let epoch = 0; epoch < c.epochs; epoch++) {
      for (const s of mine) {
        const order = s.order.subarray(0, units(s.index));
        for (let k = 0; k < order.length; k++) order[k] = k; // so the order depends on the generator alone (a resumed run)
        shuffle(order, s.random);
      }
      for (let m = 0; m < M; m++) {
        const scale = 1 / minibatchSize(m, M, shards, units, unitSize);
        const share = (s, j) => {
          const { from, n: count } = chunk(m, M, units(s.index));
          if (count === 0) return;
          const { out, rows, n } = s.states.forward(s.samples, s.order, from, count);
          lossGradient(out, net.policy(s.samples, n, s.samples.rows), net.outputGrad(n), n, rows, s, c, scale, sums[j]);
          s.states.backward(s.samples, count);
        };
        norms += await gradientStep(net, ex, mine, share, learningRate, c.maxGradNorm);
      }
    }
    return { sums: sums.map((x) => Array.from(x)), norms, minibatches: c.epochs * M };
  }

  return {
    net,
    /**
     * Updates, one after another: for each of `plan`, every env restarts first where it says
     * `restart` (a seed); a rollout, its advantages normalised over every shard, and learn().
     */
    async train(plan) {
      const done = [];
      for (const { restart, learningRate } of plan) {
        if (restart !== null)
          for (const s of mine) {
            s.envs.reset(restart + s.from);
            s.states.forget();
          }
        const returns = mine.map(rollout);
        await normaliseAdvantages(ex, mine);
        done.push({ returns, ...(await learn(learningRate)) });
      }
      return done;
    },
    ...cloningMethods(ctx, core, net, ex, mine), // plan, pack, clone, cloned (cloning.js)
    ...checkpointMethods(mine, net), // shardStates, setShardStates, setWeights (run.js)
    dispose: () => closeThread(mine, ex, net),
  };
}

// ---- the coordinator ------------------------------------------------------------------------

/** A PPO run on `threads` threads (its results do not depend on how many). */
export async function createPPO(env, config, seed, { threads = 1 } = {}) {
  const run = await startRun(learner, env, config, seed, { threads });
  const { c, team, stats } = run;
  const N = c.nSteps * c.numEnvs; // env steps of one rollout of every shard
  let learningRate = c.learningRate;
  let restarted = 0; // the steps where the envs last started afresh (restartEvery)
  const atRestart = (steps) => c.restartEvery > 0 && steps > 0 && steps % c.restartEvery === 0;
  const cloning = new Cloning(team, c, env, stats); // the planner's play, cloned first (cloning.js)

  /**
   * The next `count` updates, in one call of every thread: each one's step size (annealed) and
   * whether every env restarts before it are known ahead, so the threads need not wait here.
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
    const parts = await team.all('train', plan); // each thread's, each update's, each of its shards'
    for (let u = 0; u < count; u++) {
      const { norms, minibatches } = parts[0][u];
      learningRate = plan[u].learningRate;
      const results = parts.map((part) => part[u]);
      stats.losses = { ...run.addResults(results, LOSSES), gradNorm: norms / minibatches };
      if (c.anneal > 0) stats.losses.learningRate = learningRate;
      if (plan[u].restart !== null) restarted = stats.steps;
      stats.updates += minibatches;
      stats.steps += N;
    }
  }

  return run.as({
    /** Trains `steps` more env steps (cloning the planner first), or stops at the first point it can after performance.now() passes `until`. */
    async trainFor(steps, { onProgress, until } = {}) {
      if (cloning.pending && !(await cloning.run(onProgress, until))) return run.progress();
      return run.trainSteps(steps, until, (left) => updates(Math.min(UPDATES_A_CALL, Math.ceil(left / N))));
    },
    /** The run so far, to resume it (restore) exactly, with any number of threads: between trainFor calls, once cloning is done (null while it is not). */
    async checkpoint() {
      if (cloning.pending) return null;
      const { stats: saved, ...weightsAndShards } = await run.save();
      return { steps: stats.steps, restarted, stats: saved, learningRate, ...weightsAndShards };
    },
    /** Continues from a checkpoint() of a run with the same settings and seed (checkState has checked it). */
    async restore(state) {
      await run.restore(state, stats.steps > 0 || cloning.planned > 0);
      learningRate = state.learningRate;
      restarted = state.restarted;
    },
  });
}

// ---- what the registry knows of PPO (registry.js; every field: docs/adding-a-learner.md) ----

/**
 * The bytes a run takes beyond its vector envs: its rollouts, its networks with the activations
 * of a minibatch (of a rollout or of the demonstrations: run.js), the demonstrations (cloning.js).
 */
function memory(env, c, { threads = 1 } = {}) {
  const N = c.nSteps * c.numEnvs;
  const B = Math.max(Math.min(c.minibatch, c.imitate > 0 ? c.imitate * envSpecs[env].horizon : N), c.numEnvs);
  return rolloutBytes(env, c, c.nSteps) + networkBytes(networkLayout(env, c, 'logits'), c, threads, B) + demosBytes(env, c);
}

/** PPO as the registry lists it. */
export const learner = Object.freeze({
  name: 'ppo',
  title: 'PPO',
  defaults,
  docs,
  limits,
  maxima: Object.freeze({ history: HISTORY_MAX, memory: 1, shards: SHARDS_MAX }),
  actModes: ACT_MODES,
  // a run of known length anneals over all of it, as CleanRL's PPO does (and docs/runs did)
  runDefaults: (steps) => ({ anneal: steps }),
  create: createPPO,
  thread,
  checkConfig(env, c) {
    checkNetwork(env, c, 'logits', 'ppo');
    if (c.lstm === 1 && !(c.recurrent > 0))
      throw new RangeError(
        'valley-farm/learn: ppo setting lstm 1 makes the recurrent layer an LSTM: it needs recurrent, its units (1 … 512), got recurrent 0',
      );
    const N = c.nSteps * c.numEnvs; // the envs restart between rollouts
    if (c.restartEvery % N !== 0)
      throw new RangeError(
        `valley-farm/learn: ppo setting restartEvery must be a multiple of a rollout's numEnvs × nSteps = ${N} env steps (or 0), got ${c.restartEvery}`,
      );
  },
  memory,
  // what to lower for a run that would take more than the learner budget (settings.js)
  memorySettings: Object.freeze({
    imitate: 'fewer planner episodes',
    numEnvs: 'fewer envs',
    nSteps: 'shorter rollouts',
    history: 'a shorter history',
    hidden: 'smaller hidden layers',
  }),
  checkPolicy: (json) => checkNetPolicy(json, learner, 'logits'),
  load: (json) => loadNetPolicy(json, 'logits'),
  // its runs can be saved between trainFor calls once cloning is done, and resumed exactly
  resume: Object.freeze({ checkState: checkPpoState }), // checkpointCheck.js
});
