// evenly.js — at most `max` of a list's items, evenly spaced, its first and last among them:
// what a plot draws of a series that grows without end (a Lab run's curve gains a point at
// each report of its Worker, and each drawn point costs the page's main thread at every update).

/** `items` itself when it has at most `max` (≥ 2) items, else `max` of them evenly spaced, first and last included. */
export function evenly(items, max) {
  if (items.length <= max) return items;
  const last = items.length - 1;
  return Array.from({ length: max }, (_, i) => items[Math.round((i * last) / (max - 1))]);
}
