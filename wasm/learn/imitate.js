// imitate.js — behaviour cloning from the engine's planner, the start PPO can take before
// it learns from its own play. The planner sees the whole state (env.plan: beam search), so
// a narrow beam already plays far above the hand-written heuristic; the policy sees only
// its view, and learns which action the planner took from what it sees. The demonstrations
// are played on training seeds only (above every held-out one: wasm/splits.js).
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
 * Plays planner episodes (beam `width`) from training seeds drawn from `seed`, episode `from`
 * up to `to` (or the first `episodes`), and records each step the planner took: its flat
 * observation (in observationArray's type), legal mask (1 legal, 0 not), action, the
 * episode's step, and the discounted return from there (a first target for the value).
 * onEpisode() is called after each episode. PPO clones them (ppo.js); its workers share the
 * episodes out, each playing its range.
 */
export async function plannerDemos(id, { episodes, from = 0, to = episodes, width, seed, gamma, onEpisode }) {
  episodes = to - from;
  const spec = envSpecs[id];
  const A = spec.actions.length;
  const O = spec.obsSize;
  const most = episodes * spec.horizon; // a plan is never longer than an episode
  const d = { count: 0, A, obsSize: O }; // sample k's flat observation at obs[k * obsSize]
  for (const [name, [Type, n]] of Object.entries(columns(id))) d[name] = new Type(most * n);
  const flat = new Int32Array(O);
  const env = await make(id);
  try {
    for (let e = from; e < to; e++) {
      let { observation } = env.reset({ seed: 2 ** 33 + seed * 1_000_003 + e });
      const plan = env.plan({ width });
      const first = d.count;
      plan.actions.forEach((a, t) => {
        const k = d.count++;
        d.obs.set(flatten(id, observation, flat), k * O);
        d.masks.set(env.legalActions(), k * A);
        d.actions[k] = a;
        d.steps[k] = t;
        const r = env.step(a);
        observation = r.observation;
        d.returns[k] = r.reward;
      });
      for (let k = d.count - 2; k >= first; k--) d.returns[k] += gamma * d.returns[k + 1]; // rewards -> returns
      onEpisode?.();
    }
  } finally {
    env.close();
  }
  return d;
}
