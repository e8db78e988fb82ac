/* rng.c — SplitMix64, the engine's only source of randomness.
 *
 * Chosen because it is tiny, has a 64-bit state that a 64-bit seed fills exactly (every
 * seed is a different stream, seed 0 included), passes BigCrush, and uses only integer
 * adds, shifts and multiplies: identical results in every C compiler and in WebAssembly. */
#include "internal.h"

uint64_t vf_rng_next(vf_rng *rng) {
    uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Lemire's multiply-shift with rejection: uniform on [0, n) with no modulo bias. Draws
 * the high 32 bits of vf_rng_next; almost never needs a second draw for small n. */
uint32_t vf_rng_below(vf_rng *rng, uint32_t n) {
    uint64_t m = (vf_rng_next(rng) >> 32) * (uint64_t)n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (vf_rng_next(rng) >> 32) * (uint64_t)n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}
