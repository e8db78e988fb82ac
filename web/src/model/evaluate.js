// evaluate.js — mean episode return of an agent over a range of seeds. The page measures
// the built-in agents this way (seeds 1 … 100) to show how far the heuristic beats random;
// tests/web measures the same numbers.
import { yieldToBrowser } from './schedule.js';

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

/** The same, yielding to the browser every few milliseconds so the page stays responsive. */
export async function meanReturnSliced(env, agent, { seeds = 100, firstSeed = 1, sliceMs = 6 } = {}) {
  const returns = [];
  let sliceEnd = performance.now() + sliceMs;
  for (let s = firstSeed; s < firstSeed + seeds; s++) {
    returns.push(playEpisode(env, agent, s));
    if (performance.now() > sliceEnd) {
      await yieldToBrowser();
      sliceEnd = performance.now() + sliceMs;
    }
  }
  return summary(returns);
}
