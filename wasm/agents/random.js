// random.js — the baseline: a uniformly random action every step. Seeded (mulberry32), so a
// test or a measurement can repeat it exactly.
import { envSpecs } from '../specs.js';
import { seededRandom } from '../rng.js';

export function createRandomAgent(envId, { seed = (Math.random() * 2 ** 32) >>> 0 } = {}) {
  const n = envSpecs[envId].actions.length;
  const rand = seededRandom(seed);
  return {
    name: 'random',
    reset() {},
    act: () => Math.floor(rand() * n),
  };
}
