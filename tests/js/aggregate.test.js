// Statistics over training runs (wasm/aggregate.js, exported by valley-farm/evaluate): each
// aggregate against hand computations and rliable's own published test values
// (google-research/rliable, tests/rliable/metrics_test.py), the bootstrap's intervals against
// what the resampling can produce, and reproducibility for a seed.
import { describe, expect, it } from 'vitest';
import {
  aggregateIqm,
  aggregateMean,
  aggregateMedian,
  aggregates,
  improvement,
  optimalityGap,
  percentile,
  performanceProfile,
  probabilityOfImprovement,
  scoreDistribution,
  stratifiedBootstrap,
} from '../../wasm/evaluate.js';

// rliable's metrics_test.py: score matrices of num_runs x num_tasks
const RLIABLE_X = [
  [1, 2],
  [2, 2],
  [1, 1],
  [2, 1],
];
const RLIABLE_Y = [
  [1, 1],
  [2, 2],
  [3, 3],
];

describe('aggregates over runs (rliable definitions)', () => {
  it("reproduce rliable's published test values: median, mean and IQM 1.5 and 2, P(X > Y) 1/3", () => {
    expect([aggregateMedian(RLIABLE_X), aggregateMean(RLIABLE_X), aggregateIqm(RLIABLE_X)]).toEqual([1.5, 1.5, 1.5]);
    expect([aggregateMedian(RLIABLE_Y), aggregateMean(RLIABLE_Y), aggregateIqm(RLIABLE_Y)]).toEqual([2, 2, 2]);
    expect(probabilityOfImprovement(RLIABLE_X, RLIABLE_Y)).toBeCloseTo(1 / 3, 12);
  });

  it('match SciPy 1.10 on a 7 x 2 and a 5 x 2 matrix (trim_mean 0.25, the median of task means, mannwhitneyu "greater" / 35)', () => {
    // values printed by Debian's python3-scipy 1.10.1 for these matrices (np.random.RandomState(0), rounded)
    const x = [
      [0.55, 0.72],
      [0.6, 0.54],
      [0.42, 0.65],
      [0.44, 0.89],
      [0.96, 0.38],
      [0.79, 0.53],
      [0.57, 0.93],
    ];
    const y = [
      [0.07, 0.09],
      [0.02, 0.83],
      [0.78, 0.87],
      [0.98, 0.8],
      [0.46, 0.78],
    ];
    expect(aggregateIqm(x)).toBeCloseTo(0.61875, 12);
    expect(aggregateMedian(x)).toBeCloseTo(0.6407142857142857, 12);
    expect(optimalityGap(x)).toBeCloseTo(0.3592857142857142, 12);
    expect(probabilityOfImprovement(x, y)).toBeCloseTo(0.5142857142857142, 12);
  });

  it('the IQM cuts floor(n / 4) scores from each end of all runs × tasks, as scipy trim_mean(0.25)', () => {
    // 8 scores: 2 cut each end, the mean of 3, 4, 5, 6
    expect(aggregateIqm([8, 1, 7, 2, 6, 3, 5, 4])).toBe(4.5);
    // 5 scores: 1 cut each end, the mean of 0.5, 0.6, 0.7 (the outlier 5 and the lowest dropped)
    expect(aggregateIqm([0.7, 5, 0.1, 0.6, 0.5])).toBeCloseTo(0.6, 12);
    // 3 scores: floor(0.75) = 0, nothing cut
    expect(aggregateIqm([0, 0, 3])).toBe(1);
    // a matrix is flattened: 2 runs x 2 tasks = 4 scores, 1 cut each end
    expect(
      aggregateIqm([
        [0, 10],
        [2, 4],
      ]),
    ).toBe(3);
  });

  it('the median is over the tasks of each task mean over runs; the mean is the mean of those', () => {
    // task means 1, 2, 6: median 2, mean 3
    const m = [
      [0, 1, 2],
      [2, 3, 10],
    ];
    expect(aggregateMedian(m)).toBe(2);
    expect(aggregateMean(m)).toBe(3);
  });

  it('the optimality gap is 0 at the ceiling and above it, and the mean shortfall below 1 otherwise', () => {
    expect(optimalityGap([1, 1, 1])).toBe(0);
    expect(optimalityGap([1.3, 2, 1])).toBe(0);
    expect(optimalityGap([0.5, 1.2])).toBe(0.25); // 1 − mean(0.5, 1)
    expect(optimalityGap([0.2, 0.4], 0.5)).toBeCloseTo(0.2, 12); // γ = 0.5: 0.5 − mean(0.2, 0.4)
  });

  it('P(X > Y) counts ties as one half, is 0.5 for identical runs, and 1 − P(Y > X)', () => {
    expect(probabilityOfImprovement([3, 4], [1, 2])).toBe(1);
    expect(probabilityOfImprovement([1, 2], [3, 4])).toBe(0);
    expect(probabilityOfImprovement([1, 2], [1, 2])).toBe(0.5);
    expect(probabilityOfImprovement([1, 3], [2])).toBe(0.5);
    // x = 2 ties y = 2 (½) and beats y = 1 (1); x = 1 ties y = 1 (½): 2 of 4 pairs
    expect(probabilityOfImprovement([1, 2], [1, 2, 2].slice(0, 2))).toBe(0.5);
    expect(probabilityOfImprovement([2, 2, 1], [1, 3])).toBeCloseTo((1 + 0 + 1 + 0 + 0.5 + 0) / 6, 12);
    const [a, b] = [RLIABLE_X, RLIABLE_Y];
    expect(probabilityOfImprovement(a, b) + probabilityOfImprovement(b, a)).toBeCloseTo(1, 12);
  });

  it('the performance profile is the fraction of all runs × tasks strictly above each τ', () => {
    expect(scoreDistribution([0.2, 0.4, 0.6, 0.8], [0, 0.4, 0.5, 0.9])).toEqual([1, 0.5, 0.5, 0]);
    expect(scoreDistribution(RLIABLE_X, [0, 1, 1.5, 2])).toEqual([1, 0.5, 0.5, 0]);
  });

  it('refuses ragged, empty and non-finite score matrices with a message that says what is needed', () => {
    expect(() => aggregateMean([])).toThrow(/non-empty array of runs/);
    expect(() => aggregateMean([[1, 2], [3]])).toThrow(/run 1 has 1 scores; every run needs one per task \(2\)/);
    expect(() => aggregateIqm([1, NaN])).toThrow(/run 1, task 0 is NaN, not a finite number/);
    expect(() => probabilityOfImprovement([[1, 2]], [[1]])).toThrow(/x has 2 tasks and y 1/);
    expect(() => aggregates([1, 2], { reps: 0 })).toThrow(/reps must be a whole number/);
  });
});

describe('stratified bootstrap intervals', () => {
  it("percentile interpolates between order statistics as NumPy's default (np.percentile([1,2,3,4], 2.5) = 1.075)", () => {
    expect(percentile([1, 2, 3, 4], 2.5)).toBeCloseTo(1.075, 12);
    expect(percentile([1, 2, 3, 4], 97.5)).toBeCloseTo(3.925, 12);
    expect(percentile([5], 50)).toBe(5);
  });

  it('the same seed gives the same interval; another seed, another', () => {
    const scores = [0.61, 0.64, 0.66, 0.7, 0.52];
    const a = aggregates(scores, { reps: 2000, seed: 7 });
    expect(aggregates(scores, { reps: 2000, seed: 7 })).toEqual(a);
    expect(aggregates(scores, { reps: 2000, seed: 8 }).mean).not.toEqual(a.mean);
  });

  it('an interval holds its estimate and stays within what resamples can give (the least and largest run)', () => {
    const scores = [0.61, 0.64, 0.66, 0.7, 0.52];
    const a = aggregates(scores, { reps: 5000 });
    for (const key of ['mean', 'median', 'iqm']) {
      expect(a[key].low).toBeLessThan(a[key].estimate);
      expect(a[key].high).toBeGreaterThan(a[key].estimate);
      expect(a[key].low).toBeGreaterThanOrEqual(0.52);
      expect(a[key].high).toBeLessThanOrEqual(0.7);
    }
    expect(a.optimalityGap.estimate).toBeCloseTo(1 - 0.626, 12);
    expect([a.runs, a.tasks]).toEqual([5, 1]);
  });

  it('two runs 0 and 1: resampled means are 0, ½ or 1 (¼, ½, ¼), so the 95 % interval is 0 … 1', () => {
    const b = stratifiedBootstrap(aggregateMean, [[0, 1]], { reps: 4000 });
    expect(b).toEqual({ estimate: 0.5, low: 0, high: 1 });
  });

  it('resamples within each task: a task whose runs agree keeps its value in every replicate', () => {
    // task 0's runs are all 0.5; task 1's vary; the mean's interval is 0.5 + task 1's / 2
    const m = [
      [0.5, 0],
      [0.5, 1],
    ];
    const b = stratifiedBootstrap((x) => x.map((r) => r[0]), [m], { reps: 500 });
    expect(b.low).toEqual([0.5, 0.5]);
    expect(b.high).toEqual([0.5, 0.5]);
    expect(stratifiedBootstrap(aggregateMean, [m], { reps: 4000 })).toEqual({ estimate: 0.5, low: 0.25, high: 0.75 });
  });

  it('agreeing runs give an interval of width 0, and equal learners a P(X > Y) of exactly 0.5', () => {
    expect(aggregates([0.5, 0.5, 0.5], { reps: 200 }).iqm).toEqual({ estimate: 0.5, low: 0.5, high: 0.5 });
    expect(improvement([0.5, 0.6], [0.5, 0.6], { reps: 200 }).estimate).toBe(0.5);
    const clear = improvement([0.9, 0.95, 0.92], [0.1, 0.2, 0.15], { reps: 500 });
    expect(clear).toEqual({ estimate: 1, low: 1, high: 1 });
  });

  it('the performance profile falls with τ and its band holds it', () => {
    const p = performanceProfile([0.3, 0.5, 0.55, 0.6, 0.9], [0, 0.5, 0.6, 1], { reps: 1000 });
    expect(p.fraction).toEqual([1, 0.6, 0.2, 0]);
    p.fraction.forEach((f, i) => {
      expect(p.low[i]).toBeLessThanOrEqual(f);
      expect(p.high[i]).toBeGreaterThanOrEqual(f);
    });
    expect([p.low[0], p.high[0], p.low[3], p.high[3]]).toEqual([1, 1, 0, 0]);
  });
});
