// timeToHeuristic.js — when a reference run's learner caught up with the hand-written
// heuristic: plain functions of the data, for the Benchmark page and npm run bench:learn.
import { summarize } from 'valley-farm/evaluate';

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

/**
 * A reference run's final policy against the heuristic on the same test seeds: the mean of
 * the per-seed differences (run − heuristic) and its 95 % interval (the protocol's summarize),
 * the test of "A beats B" (the interval above 0). The run's returns are in the test split's
 * seed order, as the baselines data's per-seed rows [seed, random, heuristic].
 */
export function pairedOverHeuristic(baselines, run) {
  const rows = baselines.perSeed[run.env].test;
  const returns = run.test.returns;
  if (returns?.length !== rows.length)
    throw new Error(`the run's test returns (${returns?.length ?? 'none'}) do not match the ${rows.length} test seeds of ${run.env}`);
  return summarize(returns.map((r, i) => r - rows[i][2]));
}
