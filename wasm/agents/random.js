// random.js — the baseline: a uniformly random action every step. Seeded (mulberry32), so a
// test or a measurement can repeat it exactly.
import { envSpecs } from '../specs.js';

/** A small seeded PRNG returning floats in [0, 1). */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function createRandomAgent(envId, { seed = (Math.random() * 2 ** 32) >>> 0 } = {}) {
  const n = envSpecs[envId].actions.length;
  const rand = mulberry32(seed);
  return {
    name: 'random',
    reset() {},
    act: () => Math.floor(rand() * n),
  };
}
