// packedTable.js — a tabular-q policy's table in three typed arrays: the form in which a
// Worker that has checked a policy file hands it to the page. As JSON, a table of 600,000
// rows is 600,000 lists, and copying those from the Worker to the page (structured clone),
// checking them again and building a Map of them held the page's thread for seconds; packed,
// the table is three buffers that move without a copy, and a key is looked up where it lies.
//
//   keys    Uint16Array   the rows' keys' UTF-16 code units, one key after another
//   ends    Uint32Array   where each row's key ends in `keys` (row i's key: ends[i - 1] .. ends[i])
//   values  Float32Array  the rows' action values, `actions` a row, row after row
//
// The rows are sorted by key (JavaScript's string order: by code unit), each key once, so a
// lookup is a binary search. Where the rows repeat a key, the later row counts, as in a Map
// made from them.

/**
 * `rows` ([key, one number per action], checked: tabularQ.js checkPolicy) packed, for a farm of
 * `actions` actions: `{ keys, ends, values }`.
 */
export function packTable(rows, actions) {
  const order = rows.map((_, i) => i);
  // by key, then by place: the last of equal keys ends each run of them
  order.sort((a, b) => (rows[a][0] < rows[b][0] ? -1 : rows[a][0] > rows[b][0] ? 1 : a - b));
  const kept = order.filter((r, i) => i === order.length - 1 || rows[order[i + 1]][0] !== rows[r][0]);
  let chars = 0;
  for (const r of kept) chars += rows[r][0].length;
  const keys = new Uint16Array(chars);
  const ends = new Uint32Array(kept.length);
  const values = new Float32Array(kept.length * actions);
  let at = 0;
  kept.forEach((r, i) => {
    const [key, q] = rows[r];
    for (let c = 0; c < key.length; c++) keys[at++] = key.charCodeAt(c);
    ends[i] = at;
    for (let a = 0; a < actions; a++) values[i * actions + a] = q[a];
  });
  return { keys, ends, values };
}

/** Whether `table` has the packed form's three arrays (not whether they are sound: tabularQ.js checks that). */
export const isPackedTable = (table) =>
  table !== null &&
  typeof table === 'object' &&
  table.keys instanceof Uint16Array &&
  table.ends instanceof Uint32Array &&
  table.values instanceof Float32Array;

/**
 * A packed table as a policy reads its table: get(key) (the row's values, or undefined), size,
 * and its [key, values] rows in order. Rows out of order are not found (never a wrong row):
 * a lookup compares the whole key.
 */
export class PackedTable {
  constructor({ keys, ends, values }, actions) {
    this.keys = keys;
    this.ends = ends;
    this.values = values;
    this.actions = actions;
  }

  get size() {
    return this.ends.length;
  }

  get(key) {
    let low = 0;
    let high = this.ends.length - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const order = this.#compare(key, mid);
      if (order === 0) return this.values.subarray(mid * this.actions, (mid + 1) * this.actions);
      if (order < 0) high = mid - 1;
      else low = mid + 1;
    }
    return undefined;
  }

  *[Symbol.iterator]() {
    for (let row = 0; row < this.ends.length; row++) {
      const start = row === 0 ? 0 : this.ends[row - 1];
      const key = String.fromCharCode(...this.keys.subarray(start, this.ends[row]));
      yield [key, this.values.subarray(row * this.actions, (row + 1) * this.actions)];
    }
  }

  /** `key` against row `row`'s key: negative if it comes first, 0 if equal. */
  #compare(key, row) {
    const start = row === 0 ? 0 : this.ends[row - 1];
    const length = this.ends[row] - start;
    const n = Math.min(key.length, length);
    for (let c = 0; c < n; c++) {
      const d = key.charCodeAt(c) - this.keys[start + c];
      if (d !== 0) return d;
    }
    return key.length - length;
  }
}
