// imitate.js — behaviour cloning from the engine's planner, the start PPO can take before
// it learns from its own play. The planner sees the whole state (env.plan: beam search), so
// a narrow beam already plays far above the hand-written heuristic; the policy sees only
// its view, and learns which action the planner took from what it sees. The demonstrations
// are played on training seeds only (above every held-out one: wasm/splits.js).
import { envSpecs, flatten, make } from '../index.js';

/**
 * Plays planner episodes (beam `width`) from training seeds drawn from `seed`, episode `from`
 * up to `to` (or the first `episodes`), and records each step the planner took: its flat
 * observation, legal mask, action, the episode's step, and the discounted return from there
 * (a first target for the value). onEpisode() is called after each episode. PPO clones them
 * (ppo.js); its workers share the episodes out, each playing its range.
 */
export async function plannerDemos(id, { episodes, from = 0, to = episodes, width, seed, gamma, onEpisode }) {
  episodes = to - from;
  const spec = envSpecs[id];
  const A = spec.actions.length;
  const O = spec.obsSize;
  const most = episodes * spec.horizon; // a plan is never longer than an episode
  const d = {
    count: 0,
    A,
    obsSize: O,
    obs: new Int32Array(most * O), // sample k's flat observation at k * obsSize
    masks: new Float32Array(most * A),
    actions: new Int32Array(most),
    steps: new Int32Array(most),
    returns: new Float32Array(most),
  };
  const env = await make(id);
  try {
    for (let e = from; e < to; e++) {
      let { observation } = env.reset({ seed: 2 ** 33 + seed * 1_000_003 + e });
      const plan = env.plan({ width });
      const first = d.count;
      plan.actions.forEach((a, t) => {
        const k = d.count++;
        flatten(id, observation, d.obs.subarray(k * O, (k + 1) * O));
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
