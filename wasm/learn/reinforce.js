// reinforce.js — REINFORCE (Williams 1992) with a learned baseline: the smallest honest learner
// on the learner core, and the file to copy when you write a learner of your own.
//
// Each update, every env plays one episode's worth of steps (the farm's horizon) with the
// current policy. Each step's return G (the discounted rewards to the episode's end) is what
// the action earned; the baseline V(s), a second head of the same network, is what the state
// promised, so G − V(s) says how much better the action did than usual. The loss
//   −(G − V(s)) log π(a | s) + valueCoef (V(s) − G)² − entropyCoef H(π(· | s))
// pushes up the log-probability of actions that did better than usual, fits the baseline to
// the returns, and keeps some exploration. Illegal actions have probability exactly 0
// (CoreNet.policy), so they are never played and never pushed.
//
// The learner core (core.js) runs the network: forward gives the logits and the value, this
// file computes the loss's gradient with respect to them (lossGradient), backward takes it
// through the network, and Adam steps. The run's envs are cut into `shards`; threads.js runs
// them on every core, and exchange.js adds their gradients in an order fixed by the shards, so
// a seeded run gives the same weights on any number of threads.
import {
  ACT_MODES,
  RolloutRows,
  checkNetPolicy,
  checkNetwork,
  chunk,
  closeThread,
  drawFrom,
  envSpecs,
  gradientStep,
  layers,
  loadNetPolicy,
  makeShards,
  minibatchSize,
  networkBytes,
  networkLayout,
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

export const defaults = Object.freeze({
  numEnvs: 64,
  learningRate: 1e-3,
  gamma: 0.99,
  entropyCoef: 0.01,
  valueCoef: 0.02,
  minibatch: 1024,
  hidden: [64, 64],
  history: 1,
  memory: 1,
  shards: 8,
});

export const docs = Object.freeze({
  numEnvs: 'envs stepped together, each playing one episode per update',
  learningRate: 'Adam step size',
  gamma: 'discount per step',
  entropyCoef: 'weight of the entropy bonus',
  valueCoef: 'weight of the baseline (value) loss: small, as the baseline shares the hidden layers with the policy',
  minibatch: "samples per gradient step: an update's steps are one pass of minibatches",
  hidden: 'sizes of the hidden layers (tanh)',
  history: 'observations the policy sees: the current one and up to history − 1 before it in the episode',
  memory: '1: the policy also sees what it remembers of the farm this episode (0: only its observations)',
  shards: 'parts every update is cut into, each with its own envs and generator: they fix what a seeded run computes, whatever the threads',
});

export const limits = Object.freeze({
  numEnvs: whole(1, 1024),
  learningRate: number(0, 1, { aboveMin: true }),
  gamma: number(0, 1),
  entropyCoef: number(0, 1),
  valueCoef: number(0, 10),
  minibatch: whole(1, 65536),
  hidden: layers(4, 512),
  history: whole(1, 16),
  memory: whole(0, 1),
  shards: whole(1, 64),
});

// ---- the loss -------------------------------------------------------------------------------

/**
 * The returns of a rollout of T steps of n envs, stored step-major (t * n + i): G_t = r_t +
 * γ G_{t+1}, stopping where an episode ended (dones); an episode the rollout cut short is
 * completed by the baseline's value of the state it reached (lastValues).
 */
export function discountedReturns(rewards, dones, lastValues, n, gamma, returns = new Float32Array(rewards.length)) {
  const T = rewards.length / n;
  for (let i = 0; i < n; i++) {
    let g = lastValues[i];
    for (let t = T - 1; t >= 0; t--) {
      const k = t * n + i;
      g = rewards[k] + (dones[k] ? 0 : gamma * g);
      returns[k] = g;
    }
  }
  return returns;
}

/**
 * The gradient of the loss with respect to the network's outputs (logits, then the value) for
 * n samples of rows rows[j] (out, pi: forward's outputs and CoreNet.policy), each term times
 * `scale`, into dout; b: the rollout's actions, advantages (G − V, normalised) and returns by
 * row, and A. Adds n, the policy loss, (V − G)² and the entropy to sums[0 .. 3].
 */
export function lossGradient(out, { logp, p, entropy }, dout, n, rows, b, { entropyCoef, valueCoef }, scale, sums) {
  const A = b.A;
  const O = A + 1;
  for (let j = 0; j < n; j++) {
    const row = rows[j];
    const act = b.actions[row];
    const adv = b.advantages[row];
    const h = entropy[j];
    for (let a = 0; a < A; a++) {
      const q = j * A + a;
      // −A log π(act): d/dz_a = −A ([a = act] − π(a)); − entropyCoef H: d/dz_a = entropyCoef π(a) (log π(a) + H)
      const policy = -adv * ((a === act) - p[q]);
      dout[j * O + a] = scale * (p[q] === 0 ? policy : policy + entropyCoef * p[q] * (logp[q] + h));
    }
    const err = out[j * O + A] - b.returns[row];
    dout[j * O + A] = scale * 2 * valueCoef * err;
    sums[0] += 1;
    sums[1] -= adv * logp[j * A + act];
    sums[2] += err * err;
    sums[3] += h;
  }
}

// ---- a thread: its shards' envs and shares of every gradient --------------------------------

/** One thread of a run (threads.js runs it): shards [first, end) of `shards`, its network and exchange. */
export async function thread(ctx) {
  const { env, config: c, shards } = ctx;
  const { core, net, ex, A } = await threadNet(ctx, 'logits');
  const T = envSpecs[env].horizon; // an episode's steps: an update's rollout
  // each shard's rollout (run.js: its samples, actions, values, rewards, dones, advantages, returns, order)
  const mine = await makeShards(ctx, (s) => ({ ...rolloutBuffers(core, s, T, A), states: new RolloutRows(net, s.n) }));

  /** Plays T steps in every env of shard s with the policy, then its returns and advantages; its episodes' returns. */
  function rollout(s) {
    const { n, N, envs, samples } = s;
    const finished = [];
    for (let t = 0; t < T; t++) {
      const at = t * n;
      for (let i = 0; i < n; i++) envs.write(i, samples, at + i);
      const out = s.states.step(samples, t);
      samples.views().masks.set(envs.masks, at * A);
      const { p } = net.policy(samples, n, samples.rows);
      for (let i = 0; i < n; i++) {
        s.stepActions[i] = s.actions[at + i] = drawFrom(p, i * A, A, s.random);
        s.values[at + i] = out[i * (A + 1) + A];
      }
      const r = envs.step(s.stepActions);
      for (let i = 0; i < n; i++) {
        s.rewards[at + i] = r.rewards[i];
        s.dones[at + i] = r.terminated[i];
        if (r.terminated[i]) finished.push(r.episodeReturns[i]);
      }
    }
    for (let i = 0; i < n; i++) envs.write(i, samples, N + i);
    const out = s.states.peek(samples, N);
    const last = Float32Array.from({ length: n }, (_, i) => out[i * (A + 1) + A]);
    discountedReturns(s.rewards, s.dones, last, n, c.gamma, s.returns);
    for (let k = 0; k < N; k++) s.advantages[k] = s.returns[k] - s.values[k];
    return finished;
  }

  return {
    net,
    /** `count` updates: a rollout of every shard, its advantages normalised over all of them, one pass of minibatches. */
    async train(count) {
      const done = [];
      for (let u = 0; u < count; u++) {
        const returns = mine.map(rollout);
        await normaliseAdvantages(ex, mine);
        for (const s of mine) {
          for (let k = 0; k < s.N; k++) s.order[k] = k;
          shuffle(s.order, s.random);
        }
        // minibatch m: chunk m of each shard's order; its size over every shard gives the scale
        const M = Math.ceil((c.numEnvs * T) / c.minibatch);
        const units = (j) => T * shardEnvs(j, shards, c.numEnvs).n;
        const sums = mine.map(() => new Float64Array(4));
        for (let m = 0; m < M; m++) {
          const scale = 1 / minibatchSize(m, M, shards, units);
          const share = (s, j) => {
            const { from, n } = chunk(m, M, s.N);
            if (n === 0) return;
            const { out, rows } = s.states.forward(s.samples, s.order, from, n);
            lossGradient(out, net.policy(s.samples, n, s.samples.rows), net.outputGrad(n), n, rows, s, c, scale, sums[j]);
            s.states.backward(s.samples, n);
          };
          await gradientStep(net, ex, mine, share, c.learningRate);
        }
        done.push({ returns, sums: sums.map((x) => Array.from(x)), minibatches: M });
      }
      return done;
    },
    dispose: () => closeThread(mine, ex, net),
  };
}

// ---- the coordinator ------------------------------------------------------------------------

/** A REINFORCE run on `threads` threads (its results do not depend on how many). */
export async function createReinforce(env, config, seed, { threads = 1 } = {}) {
  const run = await startRun(learner, env, config, seed, { threads });
  const { c, team, stats } = run;
  const N = envSpecs[env].horizon * c.numEnvs; // env steps of an update

  return run.as({
    /** Trains at least `steps` more env steps (whole updates), or stops after `until` (performance.now()) between updates. */
    trainFor(steps, { until } = {}) {
      return run.trainSteps(steps, until, async (left) => {
        const count = Math.min(16, Math.ceil(left / N));
        const parts = await team.all('train', count); // each thread's, each update's, each of its shards'
        for (let u = 0; u < count; u++) {
          const results = parts.map((part) => part[u]);
          stats.losses = run.addResults(results, ['policy', 'value', 'entropy']);
          stats.updates += parts[0][u].minibatches;
          stats.steps += N;
        }
      });
    },
  });
}

// ---- what the registry knows of it (registry.js; every field: docs/adding-a-learner.md) ----

/**
 * The bytes a run takes beyond its vector envs: its rollouts (an episode's worth of steps of
 * every env) and its networks with the activations of a minibatch (run.js).
 */
function memory(env, c, { threads = 1 } = {}) {
  const T = envSpecs[env].horizon;
  const B = Math.max(Math.min(c.minibatch, T * c.numEnvs), c.numEnvs);
  return rolloutBytes(env, c, T) + networkBytes(networkLayout(env, c, 'logits'), c, threads, B);
}

export const learner = Object.freeze({
  name: 'reinforce',
  title: 'REINFORCE',
  defaults,
  docs,
  limits,
  actModes: ACT_MODES,
  create: createReinforce,
  thread,
  memory,
  // what to lower for a run that would take more than the learner budget (settings.js)
  memorySettings: Object.freeze({
    numEnvs: 'fewer envs',
    minibatch: 'smaller minibatches',
    history: 'a shorter history',
    hidden: 'smaller hidden layers',
  }),
  checkConfig: (env, c) => checkNetwork(env, c, 'logits', 'reinforce'),
  checkPolicy: (json) => checkNetPolicy(json, learner, 'logits'),
  load: (json) => loadNetPolicy(json, 'logits'),
});
