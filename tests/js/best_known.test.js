// The committed best-known returns (wasm/data/best-known.json, from npm run best-known):
// every plan of every test and validation seed, replayed through the engine, earns exactly
// the return stored beside it, and never more than the stored upper bound. So the numbers
// cannot be wrong, and a rules change that breaks them fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { envIds, envSpecs, make } from '../../wasm/index.js';
import { splitSeeds } from '../../wasm/splits.js';

const SPLIT_SIZE = splitSeeds('test').length + splitSeeds('validation').length;
const data = JSON.parse(readFileSync(new URL('../../wasm/data/best-known.json', import.meta.url), 'utf8'));

describe.each(envIds)('%s best-known plans', (id) => {
  it('cover every test and validation seed, in order', () => {
    for (const split of ['test', 'validation']) expect(data.envs[id][split].map((r) => r[0])).toEqual(splitSeeds(split));
  });

  it('each replays to exactly its stored return, which is at most its upper bound', async () => {
    const env = await make(id);
    const n = envSpecs[id].actions.length;
    let proven = 0;
    for (const split of ['test', 'validation']) {
      for (const [seed, best, bound, plan] of data.envs[id][split]) {
        env.reset({ seed });
        let total = 0;
        for (const ch of plan) {
          const a = parseInt(ch, 36);
          if (!(a < n)) throw new Error(`seed ${seed}: action ${ch} out of range`);
          total += env.step(a).reward;
        }
        if (Math.abs(total - best) > 1e-9) throw new Error(`seed ${seed}: the plan earns ${total}, the data says ${best}`);
        if (best > bound + 1e-9) throw new Error(`seed ${seed}: best ${best} above the bound ${bound}`);
        proven += best >= bound - 1e-9;
      }
    }
    // the proof search (vf_plan_prove) finished on every seed, so each stored bound is the
    // return itself (tests/js/plan.test.js proves a few again in WebAssembly)
    expect(proven).toBe(SPLIT_SIZE);
  });
});
