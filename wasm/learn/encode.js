// encode.js — what learners see of a flat observation (the vector env's row layout), derived
// from the engine's description of its fields (envSpecs[id].fields: bounds, roles, which
// are categorical) so that no farm is named here:
//  - features(): for neural policies, a Float32Array: one-hot codes for the categorical
//    fields (the 5 x 5 views, the centre, the facing) and every other field scaled to
//    [0, 1] by its bounds;
//  - tabularKey(): for tabular learners, a string key of local features: the 3 x 3 core of
//    each view, the categorical scalars, counts cut at 2, and the steps left in 5 buckets.
import { envSpecs } from '../specs.js';

/** The cells of the 3 x 3 around the agent in a square view of side n (the agent at its centre). */
function coreOf(n) {
  const c = (n - 1) / 2;
  const cells = [];
  for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) cells.push((c + dy) * n + c + dx);
  return cells;
}

/**
 * The encoder of an env: { size, nonzero, features(flat, row, out, offset), tabularKey(flat, row) }
 * (nonzero: the most features of one observation that can be nonzero, one per field).
 */
export function encoderFor(id) {
  const spec = envSpecs[id];
  const core = coreOf(spec.viewSize);
  const parts = []; // { at, low, high, width, onehot, role, j, length }
  let size = 0;
  for (const { role, offset, length, low, high, categorical: onehot } of spec.fields) {
    for (let j = 0; j < length; j++) {
      const width = onehot ? high - low + 1 : 1;
      parts.push({ at: offset + j, low, high, width, onehot, role, j, length });
      size += width;
    }
  }
  const obsSize = spec.obsSize;
  return {
    size,
    nonzero: parts.length,
    /** Writes the features of row `row` of flat observations into out at `offset`. */
    features(flat, row, out = new Float32Array(size), offset = 0) {
      const base = row * obsSize;
      let k = offset;
      for (const p of parts) {
        const v = flat[base + p.at];
        if (p.onehot) {
          out.fill(0, k, k + p.width);
          out[k + (v - p.low)] = 1;
        } else {
          out[k] = p.high > p.low ? (v - p.low) / (p.high - p.low) : 0;
        }
        k += p.width;
      }
      return out;
    },
    /**
     * The same features as sparse (index, value) pairs: the nonzero ones of row `row`, in
     * ascending order, their indices plus `offset`, written at idx/val[k ..]; returns the new k.
     */
    sparse(flat, row, idx, val, k, offset = 0) {
      const base = row * obsSize;
      let start = offset;
      for (const p of parts) {
        const v = flat[base + p.at];
        if (p.onehot) {
          idx[k] = start + v - p.low;
          val[k++] = 1;
        } else if (p.high > p.low && v !== p.low) {
          idx[k] = start;
          val[k++] = (v - p.low) / (p.high - p.low);
        }
        start += p.width;
      }
      return k;
    },
    tabularKey(flat, row) {
      const base = row * obsSize;
      const key = [];
      for (const p of parts) {
        const v = flat[base + p.at];
        if (p.role === 'tiles' || p.role === 'status') {
          if (core.includes(p.j)) key.push(v);
        } else if (p.onehot) key.push(v);
        else if (p.role === 'stepsLeft') key.push(Math.min(4, Math.floor((5 * v) / (p.high + 1))));
        else key.push(Math.min(2, v - p.low));
      }
      return key.join(',');
    },
  };
}
