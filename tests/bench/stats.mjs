// stats.mjs — the statistics of npm run bench, apart so that tests can check them by hand.
//
// A ratio of two paths is measured in alternating slices, ABBA: A B B A per pair, so a slow
// patch of a shared machine lands on both sides. Each pair gives one ratio, mean(B) / mean(A);
// the ratio reported is the median of the pairs', with the interquartile range (the middle
// half of the pairs) as its interval. A change between two runs (--compare) is the ratio of
// the medians minus one; its interval runs from the worst to the best combination of the
// two runs' quartiles, and it is called a change only when that interval excludes zero.

/** The q-quantile (0..1) of numbers, linear between order statistics. */
export function quantile(values, q) {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

export const median = (values) => quantile(values, 0.5);

/** { median, q1, q3 } of numbers. */
export function summary(values) {
  return { median: median(values), q1: quantile(values, 0.25), q3: quantile(values, 0.75), n: values.length };
}

/**
 * Per-pair ratios of ABBA slices: `a` and `b` are rates in measurement order, a[2k] and
 * a[2k + 1] the two A slices of pair k (before and after its two B slices), likewise b.
 */
export function pairRatios(a, b) {
  const out = [];
  for (let k = 0; 2 * k + 1 < a.length && 2 * k + 1 < b.length; k++) out.push((b[2 * k] + b[2 * k + 1]) / (a[2 * k] + a[2 * k + 1]));
  return out;
}

/** The ratio B / A from ABBA slices: { median, q1, q3, n, wide } (wide: IQR beyond ±5 %). */
export function alternatingRatio(a, b) {
  const s = summary(pairRatios(a, b));
  return { ...s, wide: s.q3 / s.median - 1 > 0.05 || 1 - s.q1 / s.median > 0.05 };
}

/** The change from an earlier ratio to a later one: { change, low, high, significant }. */
export function compareRatios(before, after) {
  const change = after.median / before.median - 1;
  const low = after.q1 / before.q3 - 1;
  const high = after.q3 / before.q1 - 1;
  return { change, low, high, significant: low > 0 || high < 0 };
}
