// seeds.js — seeds as the envs take them (a safe integer or a 64-bit BigInt, checked with an
// error that says what is allowed), and the fresh seeds a reset without one draws.
import { describe } from './errors.js';
import { seededRandom } from './rng.js';
import { engineSpec } from './specs.js';

const TWO_32 = 2 ** 32;
const MAX_BIGINT_SEED = (1n << 64n) - 1n;
const SEED_RULE = 'a seed must be an integer from 0 to 2^53 - 1, or a BigInt from 0n to 2^64 - 1';

/** Returns [lo, hi] 32-bit halves of a valid seed; throws for anything else. */
export function seedHalves(seed) {
  if (typeof seed === 'bigint') {
    if (seed < 0n || seed > MAX_BIGINT_SEED) throw new RangeError(`valley-farm: seed ${seed}n is out of range: ${SEED_RULE}`);
    return [Number(seed & 0xffffffffn), Number(seed >> 32n)];
  }
  if (typeof seed !== 'number') throw new TypeError(`valley-farm: seed ${describe(seed)} is not a number: ${SEED_RULE}`);
  if (!Number.isSafeInteger(seed) || seed < 0) throw new RangeError(`valley-farm: seed ${seed} is not allowed: ${SEED_RULE}`);
  return [seed % TWO_32, Math.floor(seed / TWO_32)];
}

/** A seed as a BigInt (its checks are seedHalves'). */
export function seedBig(seed) {
  const [lo, hi] = seedHalves(seed);
  return (BigInt(hi) << 32n) | BigInt(lo);
}

// Fresh seeds (a reset without one) lie in [FRESH_SEED_MIN, FRESH_SEED_MAX], the protocol's
// range (vf_spec_json; 2^32 and 2^53 - 2^40): above every named validation and test seed
// (wasm/splits.js), and low enough that an autoreset's seed + i + k * n stays below 2^53 for
// the first 2^40 episodes. So default training never reaches a held-out seed, and every seed
// it plays is a plain Number.
export const { min: FRESH_SEED_MIN, max: FRESH_SEED_MAX } = engineSpec.protocol.freshSeeds;

/** A fresh seed from two random 32-bit words. */
function freshSeed(high, low) {
  const span = FRESH_SEED_MAX - FRESH_SEED_MIN; // under 2^53: draw 53 bits, fold the excess
  const r = (high & 0x1fffff) * TWO_32 + low;
  return FRESH_SEED_MIN + (r % (span + 1));
}

/** A fresh seed from the platform's random numbers. */
export function randomSeed() {
  const words = crypto.getRandomValues(new Uint32Array(2));
  return freshSeed(words[0], words[1]);
}

/**
 * Gymnasium's seeding: a reset with a seed also seeds the generator that later resets
 * without one draw their fresh seeds from, so a whole run is reproducible from its first
 * seed. Returns that generator (a function giving fresh seeds).
 */
export function seedsAfter(seed) {
  const [lo, hi] = seedHalves(seed);
  const random = seededRandom((lo ^ Math.imul(hi, 0x9e3779b1)) >>> 0);
  const word = () => Math.floor(random() * TWO_32);
  return () => freshSeed(word(), word());
}
