// cut.js — the one budget for text that reaches the page from outside it. An agent's code,
// a worker, a message, a link or a file can hand the page a string of any length (an error
// of 100 MB, say), and putting that whole into a status freezes or crashes the tab. So every
// such string goes through cut() before it is kept or shown, and the visitor sees how much
// was left out. The sandbox's own script imports it too (web/src/sandbox/entry.js), so the
// visitor's worker cuts what it can before a message leaves it; the page cuts again because
// code in that worker can post messages of its own.

/** An error or odd answer from code the site did not ship (agent code, a worker). */
export const MAX_ERROR_CHARS = 500;
/** A status the page shows: its own sentences around a cut error, a share link, a list of problems. */
export const MAX_STATUS_CHARS = 4000;
/** How many problems of one list (a link's settings, say) are named; the rest are counted. */
export const MAX_LISTED = 5;
// A text at most this much over its budget is left whole: text cut once, with a few words
// put around it on its way (a label, a phase), is not cut again, which would lose its marker.
const SLACK = 100;

/**
 * `text` cut to `max` characters with a marker saying how much was left out. A value that is
 * not a string is named by its kind, never turned into text of its own choosing (an array of
 * a million strings, an object whose toString runs forever).
 */
export function cut(text, max = MAX_ERROR_CHARS) {
  const s = typeof text === 'string' ? text : describe(text);
  if (s.length <= max + SLACK) return s;
  // a text cut before (by the sandbox, say) is cut again: the marker counts both cuts
  const before = MARKER.exec(s.slice(-40));
  const more = (before ? s.length - before[0].length + Number(before[1]) : s.length) - max;
  return `${s.slice(0, max)}… (${more} more characters)`;
}
const MARKER = /… \((\d+) more characters\)$/;

/**
 * A copy of plain data (what a worker posts) within a budget for the whole copy: at most
 * `chars` characters of strings and keys, and `entries` array items and object keys, in all.
 * Every string is cut to MAX_STATUS_CHARS, every key to 100; at most MAX_DEPTH deep; binary
 * data becomes null (its size would be walked). Returns `{ value }`, or null when the
 * copy would pass the budget: the copy stops there, so it never holds more than the budget
 * (a value may name one object in many places, a copy holds it in each: the few bytes of an
 * array of 10,000 references to an array of 10,000 references, copied whole, are 10^8
 * copies). The sandbox's relay copies a worker's messages through it (sandbox/relay.js).
 */
export function bounded(value, { chars, entries }) {
  const left = { chars, entries };
  const spend = (what, n) => {
    left[what] -= n;
    if (left[what] < 0) throw OVER_BUDGET;
  };
  const copy = (v, depth) => {
    if (typeof v === 'string') {
      const s = cut(v, MAX_STATUS_CHARS);
      spend('chars', s.length);
      return s;
    }
    if (v === null || typeof v !== 'object') return v;
    if (depth >= MAX_DEPTH || ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return null;
    if (Array.isArray(v)) {
      spend('entries', Math.min(v.length, MAX_ITEMS)); // before a single item is read
      return v.slice(0, MAX_ITEMS).map((item) => copy(item, depth + 1));
    }
    const keys = Object.keys(v).slice(0, MAX_ITEMS);
    spend('entries', keys.length);
    return Object.fromEntries(
      keys.map((k) => {
        const key = cut(k, 100);
        spend('chars', key.length);
        return [key, copy(v[k], depth + 1)];
      }),
    );
  };
  try {
    return { value: copy(value, 0) };
  } catch (err) {
    if (err === OVER_BUDGET) return null;
    throw err;
  }
}
const OVER_BUDGET = Symbol('over budget');
const MAX_ITEMS = 10_000;
const MAX_DEPTH = 6;

/** The message of anything thrown (an Error, a string, …), cut. */
export const errorMessage = (err, max = MAX_ERROR_CHARS) =>
  cut(err !== null && typeof err === 'object' && typeof err.message === 'string' ? err.message : err, max);

/** A list of problems joined with '; ', at most MAX_LISTED of them named and each cut. */
export function listed(items, max = MAX_ERROR_CHARS) {
  const shown = items.slice(0, MAX_LISTED).map((s) => cut(s, max));
  const rest = items.length - shown.length;
  return rest > 0 ? `${shown.join('; ')}; and ${rest} more` : shown.join('; ');
}

function describe(value) {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return String(value);
  return `(${Array.isArray(value) ? 'an array' : typeof value === 'function' ? 'a function' : 'an object'})`;
}
