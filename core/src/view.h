/* view.h — what the view-limited agent (view.c) shares with each farm's completion sampler
 * (valley_view.c, backwards_view.c), and nothing else includes. Prefix vfc_ (completions).
 *
 * A sampler draws a start state from a proposal built on the generator's own rules, with
 * everything the view saw put in place, and accepts it with the probability that turns the
 * proposal into the generator's distribution conditioned on the view (rejection sampling);
 * view.c then replays the view's actions on every accepted start and keeps it only if it
 * shows exactly the observations the agent saw. A sampler reads the view once per step
 * (prepare), so that the completions of a step share that work. */
#ifndef VF_VIEW_H
#define VF_VIEW_H

#include "internal.h"

/* What an attempt came to. */
typedef enum vfc_outcome {
    VFC_REJECTED, /* try again */
    VFC_ACCEPTED, /* *start is a draw */
    VFC_NEVER     /* no attempt can succeed: the view is no episode's */
} vfc_outcome;

typedef struct vfc_sampler {
    size_t prep_bytes; /* what prepare writes (work memory) */
    /* Reads the view into prep; false when no farm of this kind could show it. */
    bool (*prepare)(const vf_view *view, void *prep);
    /* One attempt: a start state into *start. */
    vfc_outcome (*attempt)(const vf_view *view, const void *prep, vf_rng *rng, vf_env *start);
} vfc_sampler;

extern const vfc_sampler vfv_sampler; /* valley_view.c */
extern const vfc_sampler vfb_sampler; /* backwards_view.c */

/* Uniform on [0, 1), 53 bits: an acceptance test against a probability. */
static inline double vfc_uniform(vf_rng *rng) {
    return (double)(vf_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0);
}

/* Shuffles n bytes (Fisher-Yates). */
static inline void vfc_shuffle(uint8_t *a, int n, vf_rng *rng) {
    for (int i = n - 1; i > 0; i--) {
        const int j = (int)vf_rng_below(rng, (uint32_t)i + 1);
        const uint8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* The number of cells of a row mask. */
static inline int vfc_count(const vfg_mask *m) {
    int n = 0;
    for (int y = 0; y < VFG_MAX_H; y++) n += __builtin_popcount(m->rows[y]);
    return n;
}

/* Takes one of the cells of m uniformly out of it into (*x, *y); false when m is empty. */
static inline bool vfc_take(vfg_mask *m, vf_rng *rng, int *x, int *y) {
    const int n = vfc_count(m);
    if (n == 0) return false;
    int k = (int)vf_rng_below(rng, (uint32_t)n);
    for (int row = 0; row < VFG_MAX_H; row++) {
        const int here = __builtin_popcount(m->rows[row]);
        if (k >= here) {
            k -= here;
            continue;
        }
        unsigned bits = m->rows[row];
        while (k-- > 0) bits &= bits - 1;
        *x = __builtin_ctz(bits);
        *y = row;
        m->rows[row] &= (uint16_t) ~(1u << *x);
        return true;
    }
    return false;
}

#endif /* VF_VIEW_H */
