// splits.js — the named seed ranges of the evaluation protocol (docs: #/docs/benchmark), as
// the engine states them (vf_spec_json's "protocol", read by every binding):
//
//   test        the numbers to report (seeds 1,000,000 … 1,000,999)
//   validation  for choosing settings while training (2,000,000 … 2,000,199)
//   train       every other seed
//
// The guarantee: a reset without a seed draws a fresh seed in [FRESH_SEED_MIN,
// FRESH_SEED_MAX] (seeds.js, from the same protocol), far above both held-out ranges, and
// every seed a vector env's autoreset derives from it (seed + i + k × numEnvs) stays below
// 2^53 for the first 2^40 episodes. So training with default seeds never meets a
// validation or test seed (tests/js/evaluate.test.js checks it).
import { engineSpec } from './specs.js';

const range = ({ first, count }) => Object.freeze({ first, count, last: first + count - 1 });

export const SPLITS = Object.freeze(
  Object.fromEntries(Object.entries(engineSpec.protocol.splits).map(([name, split]) => [name, range(split)])),
);

/** The seeds of a named split ('test' or 'validation'), in order. */
export function splitSeeds(name) {
  const split = Object.hasOwn(SPLITS, name) ? SPLITS[name] : null;
  if (!split)
    throw new RangeError(
      `valley-farm: unknown split ${JSON.stringify(String(name).slice(0, 40))}; the splits are ${Object.keys(SPLITS).join(', ')} (train is every other seed)`,
    );
  return Array.from({ length: split.count }, (_, i) => split.first + i);
}

/** The split a seed belongs to: 'test', 'validation' or 'train'. */
export function splitOf(seed) {
  const ok = typeof seed === 'bigint' ? seed >= 0n && seed < 2n ** 64n : Number.isSafeInteger(seed) && seed >= 0;
  if (!ok)
    throw new RangeError(
      `valley-farm: splitOf takes a seed (an integer from 0 to 2^53 - 1, or a BigInt from 0n to 2^64 - 1), got ${typeof seed === 'string' ? JSON.stringify(seed.slice(0, 40)) : String(seed).slice(0, 40)}${typeof seed === 'bigint' ? 'n' : ''}`,
    );
  const s = typeof seed === 'bigint' ? seed : BigInt(seed);
  for (const [name, { first, last }] of Object.entries(SPLITS)) if (s >= BigInt(first) && s <= BigInt(last)) return name;
  return 'train';
}
