// perception.js — what a neural policy sees at each step: the engine's features of the
// observation and, with the memory setting, of what it remembers of the farm (vf_features,
// through wasm/features.js; encode.js and memory.js give each part alone); frames.js stacks
// these frames over `history` steps. Learners share it: PPO's network reads it, and
// networkInputs is the input size its settings give. Sizes come from the spec; create() needs
// the engine loaded (loadEngine(), or any make or makeVec, first).
//
// Many envs at once, without a call per env: makeVec(id, n, { features: true, memory }) gives
// the same frames in the vector env's result (result.features), computed in its step.
import { encoderFor } from './encode.js';
import { featureReader, featureSizes } from '../features.js';

/**
 * What a policy sees at each step, one frame: the observation's features, then, with memory,
 * its memory's. create(n) keeps n envs' memories; see(i, flat, row, action, opening, out,
 * offset) writes env i's frame after it took `action` (ignored when `opening` an episode) and
 * saw row `row` of the flat observations. nonzero: the most features of a frame that can be
 * nonzero (the sparse inputs' room).
 */
export function perception(env, memory) {
  const sizes = featureSizes(env, Boolean(memory));
  return {
    encoder: encoderFor(env),
    width: sizes.width,
    nonzero: sizes.nonzero,
    create(n) {
      const reader = featureReader(env, { memory: Boolean(memory), numEnvs: n });
      const idx = new Int32Array(sizes.nonzero);
      const val = new Float32Array(sizes.nonzero);
      return {
        see(i, flat, row, action, opening, out, offset) {
          const k = reader.read(i, flat, row, action, opening, idx, val, 0);
          out.fill(0, offset, offset + sizes.width);
          for (let j = 0; j < k; j++) out[offset + idx[j]] = val[j];
        },
        /** The same frame as see() writes, as its nonzero (index, value) pairs at idx/val[k ..]; returns the new k. */
        seeSparse(i, flat, row, action, opening, idxOut, valOut, k) {
          return reader.read(i, flat, row, action, opening, idxOut, valOut, k);
        },
      };
    },
  };
}

/** A network's input size for an env and its history and memory settings (perception's frames, stacked). */
export const networkInputs = (env, { history = 1, memory = 0 } = {}) => perception(env, memory).width * history;
