// rng.js — the package's seeded randomness for agents, learners and space samples
// (mulberry32: small, fast, good enough for play and learning; layouts use the engine's
// SplitMix64). The same seed, the same numbers, in every JS engine.
export function seededRandom(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  // the generator's whole state: seededRandom(next.state()) continues where it is (a resumed run)
  next.state = () => a;
  return next;
}

/** A 32-bit seed from any safe integer (an episode's seed may reach 2^53): both halves count. */
export const foldSeed = (seed) => (seed ^ Math.floor(seed / 2 ** 32)) >>> 0;

/** Shuffles `order` in place (Fisher–Yates, drawing from `random`). */
export function shuffle(order, random) {
  for (let k = order.length - 1; k > 0; k--) {
    const j = Math.floor(random() * (k + 1));
    [order[k], order[j]] = [order[j], order[k]];
  }
}

/** An index drawn from probabilities p[offset .. offset + n) (they sum to 1). */
export function drawFrom(p, offset, n, random) {
  let u = random();
  for (let a = 0; a < n; a++) {
    u -= p[offset + a];
    if (u < 0) return a;
  }
  for (let a = n - 1; a >= 0; a--) if (p[offset + a] > 0) return a; // rounding left u >= 0
  return 0;
}
