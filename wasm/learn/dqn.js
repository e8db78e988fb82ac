// dqn.js — DQN (Mnih et al. 2015) with action masks, replay, a target network and double Q
// (van Hasselt et al. 2016), as CleanRL's dqn.py reads: the settings; ε-greedy steps of the
// vector env into a replay memory; from `learningStarts` on, a minibatch from it every
// `trainEvery` env steps, its targets
//   y = r + γ Q_target(s', argmax over the legal a' of Q(s', a'))      (r alone at an episode's end)
// and a Huber loss of Q(s, a) − y; the target network a copy of the network every
// `targetEvery` env steps; ε falling in a straight line. Only legal actions are ever played or
// maximised over.
//
// The learner core (core.js) runs the network (ReLU hidden layers, one Q-value per action):
// forward, then this file computes the loss's gradient with respect to the Q-values
// (lossGradient), backward, Adam. The run's envs are cut into `shards`, each with its own
// envs, replay memory and generator; threads.js runs them on every core and exchange.js adds
// their gradients in an order fixed by the shards, so a seeded run gives the same weights on any
// number of threads.
import {
  CoreNet,
  Samples,
  checkNetPolicy,
  checkNetwork,
  closeThread,
  envSpecs,
  gradientStep,
  layers,
  loadNetPolicy,
  makeShards,
  networkLayout,
  number,
  startRun,
  threadNet,
  whole,
} from './kit.js'; // a learner of your own imports these from 'valley-farm/learn'

// ---- the settings ---------------------------------------------------------------------------

export const defaults = Object.freeze({
  numEnvs: 64,
  learningRate: 2.5e-4,
  gamma: 0.99,
  bufferSize: 200_000,
  batchSize: 256,
  learningStarts: 20_000,
  trainEvery: 64,
  targetEvery: 25_000,
  epsilon: 1,
  epsilonEnd: 0.05,
  epsilonSteps: 500_000,
  hidden: [64, 64],
  history: 1,
  memory: 1,
  shards: 8,
});

export const docs = Object.freeze({
  numEnvs: 'envs stepped together',
  learningRate: 'Adam step size',
  gamma: 'discount per step',
  bufferSize: 'transitions the replay memory keeps (the oldest make way)',
  batchSize: 'transitions per gradient step, drawn from the replay memory',
  learningStarts: 'env steps played before the first gradient step',
  trainEvery: 'env steps between gradient steps',
  targetEvery: 'env steps between copies of the network into the target network',
  epsilon: 'the share of random legal actions at the start',
  epsilonEnd: 'the share of random legal actions after epsilonSteps env steps (a straight line in between)',
  epsilonSteps: 'env steps over which exploration falls',
  hidden: 'sizes of the hidden layers (ReLU)',
  history: 'observations the network sees: the current one and up to history − 1 before it in the episode',
  memory: '1: the network also sees what it remembers of the farm this episode (0: only its observations)',
  shards:
    'parts the envs and every minibatch are cut into, each with its own replay memory and generator: they fix what a seeded run computes, whatever the threads',
});

export const limits = Object.freeze({
  numEnvs: whole(1, 1024),
  learningRate: number(0, 1, { aboveMin: true }),
  gamma: number(0, 1),
  bufferSize: whole(1, 4_000_000),
  batchSize: whole(1, 65536),
  learningStarts: whole(0, 1e12),
  trainEvery: whole(1, 1e9),
  targetEvery: whole(1, 1e12),
  epsilon: number(0, 1),
  epsilonEnd: number(0, 1),
  epsilonSteps: whole(1, 1e12),
  hidden: layers(4, 512),
  history: whole(1, 16),
  memory: whole(0, 1),
  shards: whole(1, 64),
});

/** ε after `steps` env steps: a straight line from epsilon to epsilonEnd over epsilonSteps. */
export const epsilonAt = (c, steps) => c.epsilon + (c.epsilonEnd - c.epsilon) * Math.min(1, steps / c.epsilonSteps);

// ---- the loss -------------------------------------------------------------------------------

/** The legal action (mask[at + a] 1) of the highest value q[qat + a], the first of ties; -1 if none. */
export function bestLegal(q, qat, mask, at, A) {
  let best = -1;
  for (let a = 0; a < A; a++) if (mask[at + a] && (best < 0 || q[qat + a] > q[qat + best])) best = a;
  return best;
}

/**
 * The gradient of the Huber loss of Q(s, a) − y with respect to the Q-values, for n samples
 * (q: their Q-values, A a row; actions and targets y by sample), each term times `scale`, into
 * dout (only the taken action's Q-value gets one). Adds n, the loss and Q(s, a) to sums[0 .. 2].
 */
export function lossGradient(q, dout, n, actions, targets, A, scale, sums) {
  dout.fill(0, 0, n * A);
  for (let j = 0; j < n; j++) {
    const d = q[j * A + actions[j]] - targets[j];
    // Huber: ½ d² within 1 of the target, |d| − ½ beyond; its slope is d, clipped to ±1
    dout[j * A + actions[j]] = scale * Math.max(-1, Math.min(1, d));
    sums[0] += 1;
    sums[1] += Math.abs(d) <= 1 ? 0.5 * d * d : Math.abs(d) - 0.5;
    sums[2] += q[j * A + actions[j]];
  }
}

// ---- a thread: its shards' envs and replay memories, and shares of every gradient -----------

/** One thread of a run (threads.js calls it): shards [first, end) of `shards`, its networks and exchange. */
export async function thread(ctx) {
  const { env, config: c, shards } = ctx;
  const { core, net, ex, A } = await threadNet(ctx, 'q');
  const target = new CoreNet(core, networkLayout(env, c, 'q'));
  target.copyFrom(net);
  // every shard keeps the same number of steps of its envs: slot (t mod R) * n + i holds env i's
  // state at its step t, its features packed in a ring of pairs (ringPairs: room for half the
  // most a state can have, on average; where a state needs more, the oldest steps make way)
  const R = Math.max(2, Math.ceil(c.bufferSize / c.numEnvs));
  const mine = await makeShards(ctx, ({ index, n, envs }) => ({
    batch: Math.floor(((index + 1) * c.batchSize) / shards) - Math.floor((index * c.batchSize) / shards), // its share of a minibatch
    memory: Samples.ring(core, R * n, ringPairs(R * n, envs.nonzero), { actions: A }), // states (and their legal masks), by slot
    head: 0, // where the next state's pairs go in the ring
    oldest: 0, // the oldest step whose states are all still kept
    actions: new Int32Array(R * n),
    rewards: new Float32Array(R * n),
    dones: new Uint8Array(R * n),
    t: 0, // the next step to write
    stepActions: new Int32Array(n),
    picked: new Int32Array(c.batchSize),
    chosen: new Int32Array(c.batchSize),
    targets: new Float32Array(c.batchSize),
  }));

  /**
   * Keeps where shard s's envs are as the states of its step s.t: each state's pairs at the
   * ring's head (from its start when they would pass its end), the oldest steps given up where
   * they would be written over.
   */
  function keepStates(s) {
    const { n, envs } = s;
    const base = (s.t % R) * n;
    const v = s.memory.views();
    const room = s.memory.pairs;
    s.oldest = Math.max(s.oldest, s.t - R + 1); // slot (t mod R) was step t − R's
    for (let i = 0; i < n; i++) {
      const need = envs.inputSize(i);
      if (s.head + need > room) s.head = 0;
      const overlaps = (step) => {
        for (let k = (step % R) * n, end = k + n; k < end; k++)
          if (v.start[k] < s.head + need && v.start[k] + v.nnz[k] > s.head) return true;
        return false;
      };
      while (s.oldest < s.t && overlaps(s.oldest)) s.oldest++;
      v.start[base + i] = s.head;
      envs.write(i, s.memory, base + i);
      s.head += need;
      v.rows[i] = base + i;
    }
  }

  /** Shard s's envs take one step: ε-greedy over the legal actions of the network's Q-values. */
  function step(s, epsilon) {
    const { n, envs } = s;
    const base = (s.t % R) * n;
    keepStates(s);
    s.memory.views().masks.set(envs.masks, base * A);
    const q = net.forward(s.memory, n, s.memory.rows);
    for (let i = 0; i < n; i++) {
      let a;
      if (s.random() < epsilon) {
        let legal = 0;
        for (let b = 0; b < A; b++) legal += envs.masks[i * A + b];
        let k = Math.floor(s.random() * legal);
        for (a = 0; a < A && (k -= envs.masks[i * A + a]) >= 0;) a++;
      } else a = bestLegal(q, i * A, envs.masks, i * A, A);
      s.stepActions[i] = s.actions[base + i] = a;
    }
    const r = envs.step(s.stepActions);
    const finished = [];
    for (let i = 0; i < n; i++) {
      s.rewards[base + i] = r.rewards[i];
      s.dones[base + i] = r.terminated[i];
      if (r.terminated[i]) finished.push(r.episodeReturns[i]);
    }
    s.t++;
    return finished;
  }

  /**
   * Shard s's share of a gradient step, into the net's gradient (zeroed): its transitions drawn
   * from its memory (a step whose next state is kept, any env), their double-Q targets, the
   * loss's gradient. Returns [samples, loss, Q(s, a)] sums.
   */
  function share(s, scale) {
    const { n } = s;
    const sums = new Float64Array(3);
    const oldest = s.oldest;
    const count = (s.t - 1 - oldest) * n; // transitions whose next state is still kept
    if (s.batch === 0 || count <= 0) return sums;
    const B = s.batch;
    for (let j = 0; j < B; j++) {
      const k = Math.floor(s.random() * count);
      const t = oldest + Math.floor(k / n);
      s.picked[j] = (t % R) * n + (k % n);
    }
    // the next states: the network picks the action (among the next state's legal ones), the target network values it
    const next = (slot) => (slot + n) % (R * n);
    s.memory.views().rows.set(s.picked.subarray(0, B).map(next));
    const q1 = net.forward(s.memory, B, s.memory.rows);
    const masks = s.memory.views().masks;
    const rows = s.memory.views().rows;
    for (let j = 0; j < B; j++) s.chosen[j] = bestLegal(q1, j * A, masks, rows[j] * A, A);
    const q2 = target.forward(s.memory, B, s.memory.rows);
    for (let j = 0; j < B; j++) {
      const slot = s.picked[j];
      s.targets[j] = s.rewards[slot] + (s.dones[slot] ? 0 : c.gamma * q2[j * A + s.chosen[j]]);
    }
    s.memory.views().rows.set(s.picked.subarray(0, B));
    const q = net.forward(s.memory, B, s.memory.rows);
    const actions = s.picked.subarray(0, B).map((slot) => s.actions[slot]);
    lossGradient(q, net.outputGrad(B), B, actions, s.targets, A, scale, sums);
    net.backward(s.memory, B, s.memory.rows);
    return sums;
  }

  return {
    net,
    /**
     * Vector-env steps `from` … `to` (counted in steps of every env at once), ε and the
     * gradient steps and target copies their env steps call for. Returns each shard's finished
     * episodes' returns and loss sums.
     */
    async train(from, to) {
      const returns = mine.map(() => []);
      const sums = mine.map(() => new Float64Array(3));
      let updates = 0;
      for (let u = from; u < to; u++) {
        const steps = u * c.numEnvs; // env steps before this one
        const epsilon = epsilonAt(c, steps);
        mine.forEach((s, j) => returns[j].push(...step(s, epsilon)));
        const after = steps + c.numEnvs;
        // the gradient steps and target copies due between `steps` and `after`
        const due = (every) => Math.floor(after / every) - Math.floor(steps / every);
        if (after > c.learningStarts)
          for (let g = due(c.trainEvery); g > 0; g--) {
            const add = (s, j) => share(s, 1 / c.batchSize).forEach((x, k) => (sums[j][k] += x));
            await gradientStep(net, ex, mine, add, c.learningRate);
            updates++;
          }
        if (due(c.targetEvery) > 0) target.copyFrom(net);
      }
      return { returns, sums: sums.map((x) => Array.from(x)), updates };
    },
    dispose: () => closeThread(mine, ex, net, target),
  };
}

// ---- the coordinator ------------------------------------------------------------------------

/** A DQN run on `threads` threads (its results do not depend on how many). */
export async function createDQN(env, config, seed, { threads = 1 } = {}) {
  const run = await startRun(learner, env, config, seed, { threads, heads: 'q' });
  const { c, team, stats } = run;
  let vecSteps = 0; // steps of every env at once

  return run.as({
    /** Trains at least `steps` more env steps (whole steps of every env), or stops after `until` (performance.now()) between calls. */
    trainFor(steps, { until } = {}) {
      return run.trainSteps(steps, until, async (left) => {
        const count = Math.min(256, Math.ceil(left / c.numEnvs));
        const parts = await team.all('train', vecSteps, vecSteps + count);
        stats.losses = run.addResults(parts, ['td', 'q']) ?? stats.losses; // none before learningStarts
        vecSteps += count;
        stats.steps = vecSteps * c.numEnvs;
        stats.updates += parts[0].updates;
        stats.losses.epsilon = epsilonAt(c, stats.steps);
      });
    },
  });
}

// ---- what the registry knows of it (registry.js; every field: docs/adding-a-learner.md) ----

/** The pairs a replay memory of `states` states keeps: half the most a state can have, on average. */
const ringPairs = (states, nonzero) => states * Math.ceil(nonzero / 2);

/** The bytes a run takes beyond its vector envs: each shard's replay memory, mostly. */
function memory(env, c) {
  const A = envSpecs[env].actions.length;
  const states = Math.max(2, Math.ceil(c.bufferSize / c.numEnvs)) * c.numEnvs;
  return Samples.bytes(states, ringPairs(states, networkLayout(env, c, 'q').nonzero), true, A) + states * 9; // + actions, rewards, dones
}

export const learner = Object.freeze({
  name: 'dqn',
  title: 'DQN',
  defaults,
  docs,
  limits,
  actModes: Object.freeze(['greedy']),
  create: createDQN,
  thread,
  memory,
  // what to lower for a run that would take more than the learner budget (settings.js)
  memorySettings: Object.freeze({
    bufferSize: 'a smaller replay memory',
    history: 'a shorter history',
    memory: 'no memory features',
  }),
  checkConfig: (env, c) => checkNetwork(env, c, 'q', 'dqn'),
  checkPolicy: (json) => checkNetPolicy(json, learner, 'q'),
  load: (json) => loadNetPolicy(json, 'q'),
});
