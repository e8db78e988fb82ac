// imitate.js — the engine's planner playing, for a learner to clone (cloning.js) before it
// learns from its own play. The planner sees the whole state (env.plan: beam search), so a
// narrow beam already plays far above the hand-written heuristic; the policy sees only its
// view, and learns which action the planner took from what it sees. The demonstrations are
// played on training seeds only (above every held-out one: wasm/splits.js).
import { envSpecs, flatObservationSpace, flatten, make } from '../index.js';

/**
 * The smallest typed array that holds every value of an env's flat observations (the bounds
 * of its observation space): the demonstrations keep one observation a step, for every step.
 */
export function observationArray(id) {
  const { low, high } = flatObservationSpace(id);
  const [lo, hi] = [Math.min(...low), Math.max(...high)];
  for (const Type of [Uint8Array, Int8Array, Uint16Array, Int16Array]) {
    const bits = 8 * Type.BYTES_PER_ELEMENT;
    const [min, max] = Type.name.startsWith('U') ? [0, 2 ** bits - 1] : [-(2 ** (bits - 1)), 2 ** (bits - 1) - 1];
    if (lo >= min && hi <= max) return Type;
  }
  return Int32Array;
}

/** What plannerDemos keeps of each step: [the array's type, values a step] of each of its arrays. */
function columns(id) {
  const spec = envSpecs[id];
  return {
    obs: [observationArray(id), spec.obsSize],
    masks: [Uint8Array, spec.actions.length],
    actions: [Int32Array, 1],
    steps: [Int32Array, 1],
    returns: [Float32Array, 1],
  };
}

/**
 * The bytes plannerDemos takes for `episodes` episodes: its arrays have room for every step of
 * every episode (a plan is never longer than an episode).
 */
export function plannerDemosBytes(id, episodes) {
  const perStep = Object.values(columns(id)).reduce((a, [Type, n]) => a + Type.BYTES_PER_ELEMENT * n, 0);
  return episodes * envSpecs[id].horizon * perStep;
}

/**
 * Planner episodes (beam `width`) from training seeds drawn from `seed`, episode `from` up to
 * `to`, played a few at a time (play(until)), each step recorded: its flat observation (in
 * observationArray's type), legal mask (1 legal, 0 not), action, the episode's step, and the
 * discounted return from there (a first target for the value). Arrays with room for every step
 * of every episode (a plan is never longer than an episode) are made at once.
 */
export class PlannerEpisodes {
  constructor(id, { from, to, width, seed, gamma }) {
    Object.assign(this, { id, next: from, to, width, seed, gamma });
    const spec = envSpecs[id];
    this.A = spec.actions.length;
    this.O = spec.obsSize;
    this.d = { count: 0, A: this.A, obsSize: this.O }; // sample k's flat observation at obs[k * obsSize]
    for (const [name, [Type, n]] of Object.entries(columns(id))) this.d[name] = new Type((to - from) * spec.horizon * n);
    this.flat = new Int32Array(this.O);
    this.env = null;
  }

  /** Whether every episode has been played. */
  get done() {
    return this.next >= this.to;
  }

  /**
   * Plays episodes until all are played or performance.now() passes `until` (at least one an
   * call); onEpisode() after each. Returns whether all are played.
   */
  async play(until = Infinity, onEpisode) {
    const { id, d, A, O, flat } = this;
    if (this.done) return true;
    this.env ??= await make(id);
    do {
      let { observation } = this.env.reset({ seed: 2 ** 33 + this.seed * 1_000_003 + this.next });
      const plan = this.env.plan({ width: this.width });
      const first = d.count;
      plan.actions.forEach((a, t) => {
        const k = d.count++;
        d.obs.set(flatten(id, observation, flat), k * O);
        d.masks.set(this.env.legalActions(), k * A);
        d.actions[k] = a;
        d.steps[k] = t;
        const r = this.env.step(a);
        observation = r.observation;
        d.returns[k] = r.reward;
      });
      for (let k = d.count - 2; k >= first; k--) d.returns[k] += this.gamma * d.returns[k + 1]; // rewards -> returns
      this.next++;
      onEpisode?.();
    } while (!this.done && performance.now() < until);
    if (this.done) this.close();
    return this.done;
  }

  close() {
    this.env?.close();
    this.env = null;
  }
}

/**
 * Plays planner episodes `from` up to `to` (or the first `episodes`) at once: the recorded
 * steps (PlannerEpisodes' arrays, `count` of them).
 */
export async function plannerDemos(id, { episodes, from = 0, to = from + episodes, width, seed, gamma, onEpisode }) {
  const p = new PlannerEpisodes(id, { from, to, width, seed, gamma });
  await p.play(Infinity, onEpisode);
  return p.d;
}
