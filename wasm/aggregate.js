// aggregate.js — statistics over training runs (`valley-farm/evaluate` re-exports them; docs:
// docs/benchmark.md, "Aggregates over runs"). A learner trained with several seeds gives one
// normalised test score per run; these functions summarise such scores the way rliable does
// (Agarwal et al., "Deep RL at the Edge of the Statistical Precipice", NeurIPS 2021;
// google-research/rliable, rliable/metrics.py and rliable/library.py), definition for
// definition, so that a number here means what the same name means in a paper:
//
//   scores[run][task]   rliable's layout: one row per training run, one column per task
//                       (here a task is a farm); a plain array of numbers is one task
//   mean                the mean over tasks of each task's mean over runs
//   median              the median over tasks of each task's mean over runs (with one or two
//                       tasks it equals the mean)
//   iqm                 the interquartile mean of all runs × tasks: scipy's trim_mean with
//                       0.25 cut, which drops floor(n / 4) scores from each end
//   optimalityGap       γ − the mean of min(score, γ) over all runs × tasks (γ = 1: the best
//                       known play); 0 when every run reaches the ceiling
//   probabilityOfImprovement(x, y)
//                       per task, P(X > Y) + ½ P(X = Y) over all pairs of runs (the
//                       Mann–Whitney U of x over y, divided by the number of pairs; 0.5 when
//                       the two columns are equal), averaged over tasks
//   scoreDistribution   for each τ, the fraction of all runs × tasks whose score is above τ
//                       (strictly): the performance profile
//
// Intervals are rliable's stratified bootstrap with the percentile method: each replicate
// draws, within each task, as many runs as it has, with replacement (the tasks themselves are
// kept), and the interval is the 2.5th and 97.5th percentiles of the statistic over the
// replicates (linear interpolation between order statistics, as NumPy's percentile). Two
// learners' runs are drawn independently (rliable's StratifiedIndependentBootstrap). The
// draws come from a seeded generator (wasm/rng.js), so the same seed gives the same interval;
// the default replicate counts are rliable's (50,000 for aggregates, 2,000 for profiles).
import { seededRandom } from './rng.js';

export const BOOTSTRAP_REPS = 50_000;
export const PROFILE_REPS = 2_000;
const MAX_REPS = 1_000_000;

/** A score matrix as rows of numbers (a flat array is one task), checked: rectangular, finite, not empty. */
function matrixOf(scores, what = 'scores') {
  if (!Array.isArray(scores) || scores.length === 0)
    throw new TypeError(`valley-farm: ${what} must be a non-empty array of runs (numbers, or rows of one number per task)`);
  const rows = scores.map((row) => (Array.isArray(row) ? row : [row]));
  const tasks = rows[0].length;
  rows.forEach((row, i) => {
    if (row.length !== tasks || tasks === 0)
      throw new TypeError(`valley-farm: ${what}: run ${i} has ${row.length} scores; every run needs one per task (${tasks})`);
    row.forEach((x, t) => {
      if (typeof x !== 'number' || !Number.isFinite(x))
        throw new TypeError(`valley-farm: ${what}: run ${i}, task ${t} is ${String(x).slice(0, 30)}, not a finite number`);
    });
  });
  return rows;
}

const columnMeans = (rows) => rows[0].map((_, t) => rows.reduce((a, r) => a + r[t], 0) / rows.length);
const meanOf = (values) => values.reduce((a, b) => a + b, 0) / values.length;

function medianOf(values) {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The q-th percentile (0 … 100) of sorted values, interpolated linearly as NumPy's default. */
export function percentile(sorted, q) {
  const pos = (q / 100) * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

// Each statistic on checked rows (the bootstrap calls these on its resamples), and its public,
// checking form.
const meanRows = (rows) => meanOf(columnMeans(rows));
const medianRows = (rows) => medianOf(columnMeans(rows));

/** scipy.stats.trim_mean(scores, 0.25, axis=None): floor(n / 4) of all n scores cut at each end. */
function iqmRows(rows) {
  const all = rows.flat().sort((a, b) => a - b);
  const cut = Math.floor(0.25 * all.length);
  return meanOf(all.slice(cut, all.length - cut));
}

const gapRows = (rows, gamma) => gamma - meanOf(rows.flatMap((row) => row.map((x) => Math.min(x, gamma))));

function improvementRows(a, b) {
  const perTask = a[0].map((_, t) => {
    const [xs, ys] = [a.map((r) => r[t]), b.map((r) => r[t])];
    if (xs.length === ys.length && xs.every((v, i) => v === ys[i])) return 0.5;
    let u = 0;
    for (const xv of xs) for (const yv of ys) u += xv > yv ? 1 : xv === yv ? 0.5 : 0;
    return u / (xs.length * ys.length);
  });
  return meanOf(perTask);
}

function distributionRows(rows, taus) {
  const all = rows.flat();
  return taus.map((tau) => all.filter((x) => x > tau).length / all.length);
}

export const aggregateMean = (scores) => meanRows(matrixOf(scores));
export const aggregateMedian = (scores) => medianRows(matrixOf(scores));
export const aggregateIqm = (scores) => iqmRows(matrixOf(scores));
export const optimalityGap = (scores, gamma = 1) => gapRows(matrixOf(scores), gamma);

/** Two learners' score matrices, checked to have the same tasks. */
function pairOf(x, y) {
  const [a, b] = [matrixOf(x, 'x'), matrixOf(y, 'y')];
  if (a[0].length !== b[0].length)
    throw new TypeError(`valley-farm: probabilityOfImprovement: x has ${a[0].length} tasks and y ${b[0].length}; they must match`);
  return [a, b];
}
export const probabilityOfImprovement = (x, y) => improvementRows(...pairOf(x, y));

/** For each τ, the fraction of all runs × tasks scoring above τ. */
export const scoreDistribution = (scores, taus) => distributionRows(matrixOf(scores), tausOf(taus));

function tausOf(taus) {
  if (!Array.isArray(taus) || taus.length === 0 || !taus.every(Number.isFinite))
    throw new TypeError('valley-farm: a performance profile needs taus: a non-empty array of finite numbers');
  return taus;
}

function checkReps(reps) {
  if (!Number.isInteger(reps) || reps < 1 || reps > MAX_REPS)
    throw new RangeError(`valley-farm: bootstrap reps must be a whole number from 1 to ${MAX_REPS.toLocaleString('en')}`);
}

/** One stratified resample of a matrix: per task, as many runs as it has, drawn with replacement. */
function resample(rows, random) {
  const n = rows.length;
  const out = rows.map(() => new Array(rows[0].length));
  for (let t = 0; t < rows[0].length; t++) for (let i = 0; i < n; i++) out[i][t] = rows[Math.floor(random() * n)][t];
  return out;
}

/**
 * The stratified bootstrap's percentile interval of `statistic` (a function of the matrices,
 * returning a number or an array of numbers): { estimate, low, high } (arrays where the
 * statistic returns an array). Each matrix is resampled independently, within each task.
 */
export function stratifiedBootstrap(statistic, matrices, { reps = BOOTSTRAP_REPS, seed = 1, size = 0.95 } = {}) {
  checkReps(reps);
  if (!(size > 0 && size < 1)) throw new RangeError('valley-farm: the interval size must be between 0 and 1 (0.95 is 95 %)');
  const rows = matrices.map((m, i) => matrixOf(m, `matrix ${i}`));
  const random = seededRandom(seed);
  const estimate = statistic(...rows);
  const many = Array.isArray(estimate);
  const draws = (many ? estimate : [estimate]).map(() => new Float64Array(reps));
  for (let k = 0; k < reps; k++) {
    const value = statistic(...rows.map((m) => resample(m, random)));
    (many ? value : [value]).forEach((v, j) => (draws[j][k] = v));
  }
  const tail = (100 * (1 - size)) / 2;
  const bounds = draws.map((d) => {
    d.sort();
    return [percentile(d, tail), percentile(d, 100 - tail)];
  });
  return many
    ? { estimate, low: bounds.map((b) => b[0]), high: bounds.map((b) => b[1]) }
    : { estimate, low: bounds[0][0], high: bounds[0][1] };
}

/**
 * rliable's four aggregates of a score matrix, each with its 95 % stratified bootstrap interval
 * (one set of replicates for all four, as rliable's get_interval_estimates with a function of
 * all four): { runs, tasks, mean, median, iqm, optimalityGap }, each { estimate, low, high }.
 */
export function aggregates(scores, { reps = BOOTSTRAP_REPS, seed = 1, gamma = 1 } = {}) {
  const rows = matrixOf(scores);
  const all = (m) => [meanRows(m), medianRows(m), iqmRows(m), gapRows(m, gamma)];
  const b = stratifiedBootstrap(all, [rows], { reps, seed });
  const at = (j) => ({ estimate: b.estimate[j], low: b.low[j], high: b.high[j] });
  return { runs: rows.length, tasks: rows[0].length, mean: at(0), median: at(1), iqm: at(2), optimalityGap: at(3) };
}

/** P(X > Y) with its 95 % interval (x's and y's runs resampled independently): { estimate, low, high }. */
export function improvement(x, y, { reps = BOOTSTRAP_REPS, seed = 1 } = {}) {
  return stratifiedBootstrap(improvementRows, pairOf(x, y), { reps, seed });
}

/** The performance profile at each τ with its 95 % band: { taus, fraction, low, high }. */
export function performanceProfile(scores, taus, { reps = PROFILE_REPS, seed = 1 } = {}) {
  tausOf(taus);
  const b = stratifiedBootstrap((m) => distributionRows(m, taus), [scores], { reps, seed });
  return { taus: [...taus], fraction: b.estimate, low: b.low, high: b.high };
}
