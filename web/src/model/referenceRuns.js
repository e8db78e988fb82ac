// referenceRuns.js — the committed reference training runs (docs/runs/*.json, written by
// npm run reference-runs): the Benchmark page's table and the Lab's reference curve.
import { settingsText } from 'valley-farm/learn';

const RUNS = Object.values(import.meta.glob('../../../docs/runs/*.json', { eager: true, import: 'default' }));

/** Every run: { algo, env, command, settings, steps, seconds, curve: [{ steps, validation }], test }. */
export const referenceRuns = () => RUNS;

/**
 * The reference run of a learner on a farm with exactly these settings beyond the defaults
 * (none: the defaults), or null; of several such runs (of different lengths), the one whose
 * steps are nearest `steps` (a Lab run's), else the shortest.
 */
export function referenceRun(env, algo, settings = {}, steps = 0) {
  const same = (a, b) => Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);
  const runs = RUNS.filter((r) => r.env === env && r.algo === algo && same(r.settings ?? {}, settings));
  const distance = (r) => Math.abs(r.steps - steps);
  return runs.reduce((best, r) => (best === null || distance(r) < distance(best) ? r : best), null);
}

/** A run's settings beyond the defaults, as words ('history 4'), or ''. */
export const settingsOf = (run) => settingsText(run.settings);
