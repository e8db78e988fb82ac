// timeToHeuristic.js — when a reference run's learner caught up with the hand-written
// heuristic: plain functions of the data, for the Benchmark page and npm run bench:learn.
/**
 * When a run's validation mean first reached `heuristic` (the heuristic's own mean on the
 * validation seeds, the same seeds): { seconds, steps } of that curve point, or null if it never did.
 */
export function timeToHeuristic(run, heuristic) {
  const point = run.curve.find((p) => p.validation >= heuristic);
  return point ? { seconds: point.seconds, steps: point.steps } : null;
}

/** The heuristic's mean return on a farm's validation seeds, from the baselines data's per-seed rows [seed, random, heuristic]. */
export const heuristicValidation = (baselines, env) => {
  const rows = baselines.perSeed[env].validation;
  return rows.reduce((a, r) => a + r[2], 0) / rows.length;
};
