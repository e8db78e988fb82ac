// The benchmark's statistics (tests/bench/stats.mjs) against hand computations.
import { describe, expect, it } from 'vitest';
import { judgeScaling } from '../../tests/bench/coreBalance.mjs';
import { alternatingRatio, compareRatios, median, pairRatios, quantile } from '../../tests/bench/stats.mjs';

describe('bench statistics', () => {
  it('quantiles interpolate between order statistics', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(quantile([1, 2, 3, 4, 5], 0.25)).toBe(2);
    expect(quantile([1, 2, 3, 4], 0.75)).toBe(3.25);
  });

  it('each ABBA pair gives mean(B) / mean(A)', () => {
    // pair 0: A 10, 10 and B 8, 9 -> 0.85; pair 1: A 20, 10, B 12, 15 -> 0.9
    expect(pairRatios([10, 10, 20, 10], [8, 9, 12, 15])).toEqual([0.85, 0.9]);
  });

  it('a ratio is the median of the pairs with its interquartile range; wide when beyond ±5 %', () => {
    const a = [10, 10, 10, 10, 10, 10, 10, 10];
    const steady = alternatingRatio(a, [9, 9, 9, 9, 9, 9, 9, 9]);
    expect(steady).toMatchObject({ median: 0.9, q1: 0.9, q3: 0.9, n: 4, wide: false });
    const noisy = alternatingRatio(a, [6, 6, 9, 9, 9, 9, 12, 12]); // pairs 0.6, 0.9, 0.9, 1.2
    expect(noisy.median).toBeCloseTo(0.9, 12);
    expect(noisy.q1).toBeCloseTo(0.825, 12);
    expect(noisy.q3).toBeCloseTo(0.975, 12);
    expect(noisy.wide).toBe(true);
  });

  it('--compare calls a change only when the interval excludes zero', () => {
    // 0.80 (0.78 – 0.82) -> 0.90 (0.88 – 0.92): +12.5 %, interval 0.88/0.82 − 1 … 0.92/0.78 − 1
    const up = compareRatios({ median: 0.8, q1: 0.78, q3: 0.82 }, { median: 0.9, q1: 0.88, q3: 0.92 });
    expect(up.change).toBeCloseTo(0.125, 12);
    expect(up.low).toBeCloseTo(0.88 / 0.82 - 1, 12);
    expect(up.high).toBeCloseTo(0.92 / 0.78 - 1, 12);
    expect(up.significant).toBe(true);
    // overlapping runs: no change
    const same = compareRatios({ median: 0.8, q1: 0.76, q3: 0.84 }, { median: 0.81, q1: 0.77, q3: 0.85 });
    expect(same.significant).toBe(false);
    expect(same.low).toBeLessThan(0);
    expect(same.high).toBeGreaterThan(0);
  });

  it('a speed-up below its target is n/a only when the cores around it allowed less than the target', () => {
    expect(judgeScaling(1.75, 1.7, [1.2])).toBe('met'); // reached: met whatever the cores
    expect(judgeScaling(1.44, 1.7, [1.22, 1.47])).toBe('n/a'); // the cores allowed at most 1.22
    expect(judgeScaling(1.44, 1.7, [1.95, 1.9])).toBe('NOT MET'); // the cores allowed 1.9: the code missed it
    expect(judgeScaling(1.44, 1.7, [])).toBe('NOT MET'); // cores not measured: no excuse
  });
});
