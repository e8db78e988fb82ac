// perception.js — what a neural policy sees at each step: the observation's features
// (encode.js) and, with the memory setting, what it remembers of the farm (memory.js); frames.js
// stacks these frames over `history` steps. Learners share it: PPO's network reads it, and
// networkInputs is the input size its settings give.
import { encoderFor } from './encode.js';
import { memoryFor } from './memory.js';

/**
 * What a policy sees at each step, one frame: the observation's features (encode.js), then,
 * with memory, its memory's (memory.js). create(n) keeps n envs' memories;
 * see(i, flat, row, action, opening, out, offset) writes env i's frame after it took
 * `action` (ignored when `opening` an episode) and saw row `row` of the flat observations.
 * nonzero: the most features of a frame that can be nonzero (the sparse inputs' room).
 */
export function perception(env, memory) {
  const enc = encoderFor(env);
  const mem = memory ? memoryFor(env) : null;
  return {
    encoder: enc,
    width: enc.size + (mem ? mem.size : 0),
    nonzero: enc.nonzero + (mem ? mem.size : 0),
    create(n) {
      const state = mem ? mem.create(n) : null;
      const remembered = mem ? new Float32Array(mem.size) : null;
      return {
        see(i, flat, row, action, opening, out, offset) {
          enc.features(flat, row, out, offset);
          if (!state) return;
          state.observe(i, flat, row, action, opening);
          state.write(i, out, offset + enc.size);
        },
        /** The same frame as see() writes, as its nonzero (index, value) pairs at idx/val[k ..]; returns the new k. */
        seeSparse(i, flat, row, action, opening, idx, val, k) {
          k = enc.sparse(flat, row, idx, val, k);
          if (!state) return k;
          state.observe(i, flat, row, action, opening);
          state.write(i, remembered, 0);
          for (let j = 0; j < remembered.length; j++) {
            if (remembered[j] === 0) continue;
            idx[k] = enc.size + j;
            val[k++] = remembered[j];
          }
          return k;
        },
      };
    },
  };
}

/** A network's input size for an env and its history and memory settings (perception's frames, stacked). */
export const networkInputs = (env, { history = 1, memory = 0 } = {}) => perception(env, memory).width * history;
