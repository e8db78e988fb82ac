// netPolicy.js — a neural policy: what a network-based learner hands back (ppo.js, reinforce.js,
// dqn.js), its file, and the check of that file. Its network sees what the learner's saw (the
// perception of seenEnvs.js: the features of the observations and, with memory, what it
// remembers of the farm, over `history` steps) and picks a legal action from its first head:
// logits (a softmax over the legal actions: sampled or the most probable) or action values
// (the best legal one). A recurrent network (PPO's `recurrent` setting) also carries its state
// from step to step, from zero at each episode's start, as its rollouts did.
import { envSpecs, flatten, loadEngine } from '../index.js';
import { checkNetworkSize, checkSettings, shown } from './limits.js';
import { POLICY_FORMAT, bad, checkNumbers, isNumberList, isObject } from './policyFile.js';
import { perception } from './perception.js';
import { Frames } from './frames.js';
import { drawFrom, foldSeed, seededRandom } from '../rng.js';
import { CoreNet, Samples, layoutShapes, loadCore } from './core.js';

/**
 * How a policy whose first head is logits picks its action: 'sample' draws it from the
 * policy's distribution, as it did while it trained, with a generator seeded by the episode's
 * seed (info.seed), so the same episode is played the same way every time; 'greedy' takes the
 * most probable one. A policy that sees only part of the farm played better sampling, on both
 * farms' validation seeds: a fixed choice for each view can walk the same loop for the rest
 * of the episode. A policy of action values always takes the best ('greedy').
 */
export const ACT_MODES = Object.freeze(['sample', 'greedy']);

/** The largest float32: a weight past it would be Infinity once loaded. */
const FLOAT32_MAX = 3.4028234663852886e38;

/**
 * The network of a learner's settings on an env: sparse inputs of its perception (memory) over
 * `history` frames, `hidden` layers, a GRU of `recurrent` units after them (0: none; an LSTM
 * with `lstm` 1), and
 * `heads`: 'logits' for the logits of the actions and a value (tanh hidden layers, the logits
 * drawn near 0 so the first policy is near uniform), 'q' for one value per action (ReLU hidden
 * layers, as DQN's), as a CoreNet layout.
 */
export function networkLayout(env, { history = 1, memory = 0, hidden, recurrent = 0, lstm = 0 }, heads) {
  const seeing = perception(env, memory);
  const A = envSpecs[env].actions.length;
  const units = heads === 'q' ? [A] : [A, 1];
  return {
    inputs: seeing.width * history,
    nonzero: Math.min(seeing.width, seeing.nonzero) * history,
    hidden,
    recurrent,
    cell: lstm ? 'lstm' : 'gru',
    activation: heads === 'q' ? 'relu' : 'tanh',
    heads: units,
    headInit: heads === 'q' ? [0] : [0.01, 0], // logits start near uniform
  };
}

/** Throws unless a network of these settings on an env (networkLayout's) has at most MAX_WEIGHTS weights (checkNetworkSize). */
export const checkNetwork = (env, c, heads, name) => checkNetworkSize(layoutShapes(networkLayout(env, c, heads)), name);

/** A neural policy: act(observation, info) picks a legal action (ACT_MODES). */
export class NetPolicy {
  /** `heads`: 'logits' (then a value) or 'q'; `net` a CoreNet of networkLayout's shape. */
  constructor(core, env, algo, net, config, { heads = 'logits', act = 'sample' } = {}) {
    this.env = env;
    this.algo = algo;
    this.net = net;
    this.config = config;
    this.heads = heads;
    this.actMode = heads === 'q' ? 'greedy' : act;
    this.random = null;
    const seeing = perception(env, config.memory ?? 0);
    this.sight = seeing.create(1);
    this.actions = envSpecs[env].actions.length;
    this.flat = new Int32Array(envSpecs[env].obsSize);
    this.fresh = new Float32Array(seeing.width);
    this.frames = new Frames(1, config.history ?? 1, seeing.width);
    this.input = new Samples(core, 1, this.frames.size, { actions: this.actions });
    this.state = new Float32Array(net.stateSize); // a recurrent network's, after the last step
    this.allLegal = new Uint8Array(this.actions).fill(1);
    this.newEpisode = true;
    this.last = -1; // the action it took last
  }

  /**
   * The network's outputs for the current frames: a sample's row (logits then value, or action
   * values). A recurrent network takes one step: from its state (zero where `opening`), which
   * it then keeps.
   */
  outputs(opening) {
    this.input.putDense(0, this.frames.frames, 0, this.frames.size);
    if (this.net.stateSize === 0) return this.net.forward(this.input, 1, 0);
    if (opening) this.state.fill(0);
    return this.net.forwardSeq(this.input, 1, 1, 0, { state: this.state, finalState: this.state });
  }

  /** Action probabilities (masked: illegal ones 0) of the current frames (a logits policy), a step of it. */
  probabilities(masks, opening) {
    this.outputs(opening);
    this.input.views().masks.set(masks ?? this.allLegal);
    return this.net.policy(this.input, 1, 0).p;
  }

  /** A new episode begins: forget the frames and the recurrent state (also done when info.step is 0). */
  reset() {
    this.newEpisode = true;
  }

  act(observation, info = {}) {
    flatten(this.env, observation, this.flat);
    const opening = this.newEpisode || info.step === 0;
    this.sight.see(0, this.flat, 0, this.last, opening, this.fresh, 0);
    this.frames.push(0, this.fresh, 0, opening);
    this.newEpisode = false;
    const legal = info.legal ?? this.allLegal;
    if (this.heads === 'q') {
      const q = this.outputs(opening);
      let best = -1;
      for (let a = 0; a < this.actions; a++) if (legal[a] && (best < 0 || q[a] > q[best])) best = a;
      return (this.last = best < 0 ? 0 : best);
    }
    const p = this.probabilities(legal, opening);
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
      algo: this.algo,
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

/**
 * Throws a clear error, naming the path of the bad value, unless a saved policy of `learner`
 * (its registry declaration) has settings within its limits and weights of the count and
 * shapes those settings imply, every value a finite float32. Only then may a network be
 * built: a few bytes of JSON must not ask for a huge one.
 */
export function checkNetPolicy(json, learner, heads) {
  const name = learner.name;
  if (!isObject(json.config))
    throw new TypeError(`valley-farm/learn: a ${name} policy needs its "config" (the settings it was trained with)`);
  checkSettings(learner, json.config, { what: "policy's setting", unknown: 'ignore' });
  if (json.act !== undefined && !ACT_MODES.includes(json.act))
    throw new TypeError(`valley-farm/learn: a ${name} policy's "act" must be ${ACT_MODES.map((m) => `"${m}"`).join(' or ')}`);
  // a learner without the recurrent setting never trained a recurrent network
  if (json.config.recurrent !== undefined && !Object.hasOwn(learner.limits, 'recurrent'))
    throw bad('config.recurrent', `absent (${name} trains no recurrent network)`, shown(json.config.recurrent));
  // a learner saves every setting; the network cannot be built without its layers
  if (!Array.isArray(json.config.hidden))
    throw bad('config.hidden', 'an array of layer sizes (the setting the network was built with)', shown(json.config.hidden));
  const shapes = layoutShapes(networkLayout(json.env, { memory: 0, history: 1, ...json.config }, heads));
  checkNetworkSize(shapes, name);
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
    for (let k = 0; k < w.values.length; k++)
      if (Math.abs(w.values[k]) > FLOAT32_MAX)
        throw bad(`weights[${i}].values[${k}]`, 'a number a float32 holds (at most 3.4e38 in size)', shown(w.values[k]));
  });
}

/** A policy from a file checkNetPolicy passed (a policy saved before memory existed has none; one before sampling, no "act"). */
export async function loadNetPolicy(json, heads) {
  const config = { memory: 0, history: 1, ...json.config };
  const core = await loadCore();
  await loadEngine(); // the policy's perception reads its features from the engine
  const net = new CoreNet(core, networkLayout(json.env, config, heads));
  net.setWeights(json.weights);
  const policy = new NetPolicy(core, json.env, json.algo, net, json.config, {
    heads: heads === 'q' ? 'q' : 'logits',
    act: json.act ?? 'greedy',
  });
  policy.ownsNet = true;
  return policy;
}
