// referenceRuns.js — the committed reference training runs (docs/runs/*.json, written by
// npm run reference-runs): the Benchmark page's table and the Lab's reference curve.
import { settingsText } from 'valley-farm/learn';

const RUNS = Object.values(import.meta.glob('../../../docs/runs/*.json', { eager: true, import: 'default' }));

/** Every run: { algo, env, command, settings, steps, seconds, curve: [{ steps, validation }], test }. */
export const referenceRuns = () => RUNS;

/** The reference run of a learner with its default settings (as the Lab trains it) on a farm, or null. */
export const referenceRun = (env, algo) =>
  RUNS.find((r) => r.env === env && r.algo === algo && Object.keys(r.settings ?? {}).length === 0) ?? null;

/** A run's settings beyond the defaults, as words ('history 4'), or ''. */
export const settingsOf = (run) => settingsText(run.settings);
