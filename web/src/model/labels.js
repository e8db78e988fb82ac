// labels.js — the words for every cell descriptor (views.js): the accessible label of each
// board cell (also its tooltip), and a short state key the tests and the stylesheet use.
// The kinds every farm has are here; each farm adapter labels its own kinds (`labels`,
// `stateKeys` in model/farms/).
import { farms } from './farms/index.js';

const COMMON = {
  out: () => 'Off the map',
  ground: () => 'Ground',
  unknown: () => 'Not seen yet',
};

/** kind -> fn(d), from COMMON and every adapter's `which` table; a kind two farms name is a mistake. */
function byKind(which, common) {
  const table = { ...common };
  for (const farm of farms)
    for (const [kind, fn] of Object.entries(farm[which])) {
      if (kind in table)
        throw new Error(
          `valley-farm page: the cell kind '${kind}' has two ${which} (${farm.id} names it again); each kind belongs to one farm`,
        );
      table[kind] = fn;
    }
  return table;
}
const LABELS = byKind('labels', COMMON);
const STATE_KEYS = byKind('stateKeys', {});

/** The accessible label of a cell. */
export function cellLabel(d) {
  const base = LABELS[d.kind]?.(d) ?? d.kind;
  return d.seen === 'past' ? `${base} (last seen)` : base;
}

/** A short key of a cell's state, e.g. "soil-2", "animal-cow-hungry-p1", "pen-2-paid". */
export const stateKey = (d) => STATE_KEYS[d.kind]?.(d) ?? d.kind;
