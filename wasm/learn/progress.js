// progress.js — what every learner reports while it trains (index.d.ts: Progress): env
// steps, updates, episodes, the mean return of the last 100 episodes, throughput, losses.
/** How many of the last episodes' returns a learner keeps (meanReturn is their mean). */
export const RECENT = 100;

export function trainingStats() {
  return { steps: 0, updates: 0, episodes: 0, recent: [], startMs: Date.now(), losses: {} };
}

/** Counts an episode that ended with return `ret`. */
export function recordEpisode(stats, ret) {
  stats.episodes++;
  stats.recent.push(ret);
  if (stats.recent.length > RECENT) stats.recent.shift();
}

export function progressOf(stats) {
  const ms = Date.now() - stats.startMs;
  const learning = ms - (stats.imitation?.seconds ?? 0) * 1000; // the steps' own time: cloning the planner plays none
  return {
    steps: stats.steps,
    updates: stats.updates,
    episodes: stats.episodes,
    meanReturn: stats.recent.length ? stats.recent.reduce((a, b) => a + b, 0) / stats.recent.length : null,
    stepsPerSec: learning > 0 ? (1000 * stats.steps) / learning : 0,
    losses: { ...stats.losses },
    elapsedMs: ms,
    ...(stats.threads && { threads: stats.threads, shards: stats.shards }),
    ...(stats.imitation && { imitation: { ...stats.imitation } }),
  };
}
