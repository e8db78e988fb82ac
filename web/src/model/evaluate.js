// evaluate.js — mean episode return of an agent over a range of seeds, for the tutorial's
// quick comparisons and tests (the evaluation protocol itself is valley-farm/evaluate).

/** Plays one episode of `agent` on `env` from `seed`; returns its return. */
export function playEpisode(env, agent, seed) {
  let { observation, info } = env.reset({ seed });
  agent.reset?.();
  let ret = 0;
  for (;;) {
    const r = env.step(agent.act(observation, info));
    ret += r.reward;
    if (r.terminated || r.truncated) return ret;
    observation = r.observation;
    info = r.info;
  }
}

const summary = (returns) => ({
  returns,
  mean: returns.reduce((s, r) => s + r, 0) / returns.length,
  min: Math.min(...returns),
  max: Math.max(...returns),
});

/** Synchronous: { mean, min, max, returns } over seeds firstSeed … firstSeed + seeds − 1. */
export function meanReturn(env, agent, { seeds = 100, firstSeed = 1 } = {}) {
  const returns = [];
  for (let s = firstSeed; s < firstSeed + seeds; s++) returns.push(playEpisode(env, agent, s));
  return summary(returns);
}
