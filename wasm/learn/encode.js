// encode.js — what learners see of a flat observation (the vector env's row layout):
//  - features() and sparse(): for neural policies, the engine's features of the observation
//    (vf_features, through wasm/features.js: one-hot codes for the categorical fields, every
//    other field scaled to [0, 1] by its bounds), dense or as nonzero (index, value) pairs;
//  - tabularKey(): for tabular learners, a string key of local features: the 3 x 3 core of
//    each view, the categorical scalars, counts cut at 2, and the steps left in 5 buckets.
// Sizes come from the spec; features() and sparse() need the engine loaded (loadEngine()).
import { envSpecs } from '../specs.js';
import { featureReader, featureSizes } from '../features.js';

/** The cells of the 3 x 3 around the agent in a square view of side n (the agent at its centre). */
function coreOf(n) {
  const c = (n - 1) / 2;
  const cells = [];
  for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) cells.push((c + dy) * n + c + dx);
  return cells;
}

/**
 * The encoder of an env: { size, nonzero, features(flat, row, out, offset), sparse(...), tabularKey(flat, row) }
 * (nonzero: the most features of one observation that can be nonzero, one per element).
 */
export function encoderFor(id) {
  const spec = envSpecs[id];
  const { width: size, nonzero } = featureSizes(id);
  let reader = null; // made at the first call, when the engine is loaded
  const idx = new Int32Array(nonzero);
  const val = new Float32Array(nonzero);
  const core = coreOf(spec.viewSize);
  const parts = []; // the tabular key's: { at, low, high, role, j }
  for (const { role, offset, length, low, high, categorical } of spec.fields)
    for (let j = 0; j < length; j++) parts.push({ at: offset + j, low, high, role, j, categorical });
  const obsSize = spec.obsSize;
  return {
    size,
    nonzero,
    /** Writes the features of row `row` of flat observations into out at `offset`. */
    features(flat, row, out = new Float32Array(size), offset = 0) {
      reader ??= featureReader(id);
      const n = reader.read(0, flat, row, -1, false, idx, val, 0);
      out.fill(0, offset, offset + size);
      for (let j = 0; j < n; j++) out[offset + idx[j]] = val[j];
      return out;
    },
    /**
     * The same features as sparse (index, value) pairs: the nonzero ones of row `row`, in
     * ascending order, their indices plus `offset`, written at idx/val[k ..]; returns the new k.
     */
    sparse(flat, row, idxOut, valOut, k, offset = 0) {
      reader ??= featureReader(id);
      return reader.read(0, flat, row, -1, false, idxOut, valOut, k, offset);
    },
    tabularKey(flat, row) {
      const base = row * obsSize;
      const key = [];
      for (const p of parts) {
        const v = flat[base + p.at];
        if (p.role === 'tiles' || p.role === 'status') {
          if (core.includes(p.j)) key.push(v);
        } else if (p.categorical) key.push(v);
        else if (p.role === 'stepsLeft') key.push(Math.min(4, Math.floor((5 * v) / (p.high + 1))));
        else key.push(Math.min(2, v - p.low));
      }
      return key.join(',');
    },
  };
}
