// memory.js — what a policy can remember of the farm it has seen this episode, as features
// (PPO's `memory` setting): each observation shows only the 5 x 5 square around the agent, and
// a layout is new every episode, so a policy that sees one view at a time forgets where the
// villagers, the market or the fields were the moment they leave it. The engine keeps a map of
// what the agent has seen and gives, for each landmark kind, the nearest cell of it seen and
// how long ago, and how much of the squares around the agent it has explored (vf_features;
// valley_farm.h says what each feature is). This file is the call, per env: observe() a
// step, write() its memory's features (dense).
import { featureReader, featureSizes } from '../features.js';

/** The memory of an env: { size, kinds(), create(n) } (create: the state of n envs; needs the engine loaded). */
export function memoryFor(id) {
  const sizes = featureSizes(id, true);
  const size = sizes.memory;
  const skip = sizes.observation; // the memory's features follow the observation's

  function create(n) {
    const reader = featureReader(id, { memory: true, numEnvs: n });
    const idx = new Int32Array(n * sizes.nonzero);
    const val = new Float32Array(n * sizes.nonzero);
    const count = new Int32Array(n);
    return {
      size,
      /**
       * Env i sees row `row` of flat observations after taking `action` (ignored when the
       * observation opens an episode).
       */
      observe(i, flat, row, action, opening) {
        const at = i * sizes.nonzero;
        count[i] = reader.read(i, flat, row, action, opening, idx, val, at) - at;
      },

      /** Writes env i's memory features into out at offset. */
      write(i, out, offset) {
        out.fill(0, offset, offset + size);
        for (let j = i * sizes.nonzero, end = j + count[i]; j < end; j++) if (idx[j] >= skip) out[offset + idx[j] - skip] = val[j];
        return out;
      },
    };
  }

  return {
    size,
    /** The landmark kinds, in the order of their features. */
    kinds: () => sizes.landmarks.slice(),
    create,
  };
}
