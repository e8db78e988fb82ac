/* planner.h — what the planner (planner.c: the beam over single actions, the proof, the
 * table of farms) shares with each farm's planner file (valley_plan.c, backwards_plan.c),
 * and nothing else includes: the search node, the beam's seen-set and heap, the walks'
 * measure, the maps a farm's bound measures, and the row (vfp_planner) each farm fills in.
 * Prefix vfp_ (the farm files' own: vfv_plan_, vfb_plan_). */
#ifndef VF_PLANNER_H
#define VF_PLANNER_H

#include <string.h>

#include "internal.h"

typedef struct vfp_node {
    vf_env env;
    double ret;  /* reward since the start */
    double rank; /* ret plus what the state holds but has not cashed: the beam keeps the best */
    uint8_t actions[VF_PLAN_MAX];
} vfp_node;

/* A 64-bit hash of the state's own bytes (not the episode seed, equal within a search).
 * Word at a time: the planner hashes every child, and FNV over bytes would cost more than
 * the step. The structs have no uninitialised padding: reset and restore write every byte.
 * `n` is the farm's state size (its row's state_bytes). */
static inline uint64_t vfp_state_key(const vf_env *e, size_t n) {
    const uint8_t *p = (const uint8_t *)&e->u;
    uint64_t h = 0x9E3779B97F4A7C15ull ^ (uint64_t)n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0xBF58476D1CE4E5B9ull;
        h ^= h >> 29;
    }
    for (; i < n; i++) h = (h ^ p[i]) * 0x94D049BB133111EBull;
    return h ^ (h >> 31);
}

/* Inserts key; false when it was there already. Key 0 stands for an empty slot, so a
 * state whose key is 0 is stored as 1 (a collision at worst drops one state). */
static inline bool vfp_set_add(uint64_t *set, size_t slots, uint64_t key) {
    if (key == 0) key = 1;
    for (size_t i = key & (slots - 1);; i = (i + 1) & (slots - 1)) {
        if (set[i] == key) return false;
        if (set[i] == 0) {
            set[i] = key;
            return true;
        }
    }
}

/* A beam as a min-heap on (rank, key): its root is the child a better one replaces. */
static inline bool vfp_worse(const vfp_node *a, uint64_t ka, const vfp_node *b, uint64_t kb) {
    return a->rank < b->rank || (a->rank == b->rank && ka < kb);
}

static inline void vfp_swap(vfp_node *heap, uint64_t *keys, int i, int j) {
    vfp_node t = heap[i];
    heap[i] = heap[j];
    heap[j] = t;
    uint64_t k = keys[i];
    keys[i] = keys[j];
    keys[j] = k;
}

static inline void vfp_sift_down(vfp_node *heap, uint64_t *keys, int n, int i) {
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && vfp_worse(&heap[l], keys[l], &heap[m], keys[m])) m = l;
        if (r < n && vfp_worse(&heap[r], keys[r], &heap[m], keys[m])) m = r;
        if (m == i) return;
        vfp_swap(heap, keys, i, m);
        i = m;
    }
}

static inline void vfp_sift_up(vfp_node *heap, uint64_t *keys, int i) {
    while (i > 0) {
        int p = (i - 1) / 2;
        if (!vfp_worse(&heap[i], keys[i], &heap[p], keys[p])) return;
        vfp_swap(heap, keys, i, p);
        i = p;
    }
}

/* Plays one action on a node, recording it; false once the episode is over. */
static inline bool vfp_play(vfp_node *n, int action) {
    if (vf_terminated(&n->env)) return false;
    n->actions[vf_step_count(&n->env)] = (uint8_t)action;
    vf_step(&n->env, action, NULL);
    return true;
}

/* ---- walks ------------------------------------------------------------------------------ */

#define VFP_FAR       255                         /* a distance: never */
#define VFP_CELLS_MAX (VF_VALLEY_W * VF_VALLEY_H) /* the larger map (each farm file checks) */

/* Breadth-first over the walkable tiles of a w x h map from the cells already 0 in d (the
 * rest VFP_FAR): d becomes the moves from each cell to the nearest of them. `tiles` is the
 * map's tile (0, 0) in its padded grid of `pitch` bytes a row, so a neighbour off the map
 * reads the frame, which is not walkable. Both farms' planners measure their walks with it. */
void vfp_spread(uint8_t *d, int w, int h, const uint8_t *tiles, int pitch, uint32_t walkable);

/* ---- the maps each farm's bound measures once per search --------------------------------- */

/* ValleyFarm-v0 (valley_plan.c). Targets: each field, each animal, the market, and each tile
 * from which a villager can take a gift (its own and the walkable ones next to it). */
enum {
    VFV_T_CROP = 0,
    VFV_T_ANIMAL = VFV_T_CROP + VF_VALLEY_CROPS,
    VFV_T_MARKET = VFV_T_ANIMAL + VF_VALLEY_ANIMALS,
    VFV_T_GIFT = VFV_T_MARKET + 1,
    VFV_TARGETS = VFV_T_GIFT + 5 * VF_VALLEY_VILLAGERS
};
#define VFV_CELLS (VF_VALLEY_W * VF_VALLEY_H)

/* dist[t][cell]: moves from the cell to target t, VFP_FAR where unreachable. */
typedef struct vfv_trip_map {
    int gift_spots; /* targets VFV_T_GIFT .. VFV_T_GIFT + gift_spots - 1 are in use */
    uint8_t dist[VFV_TARGETS][VFV_CELLS];
    int to_market_from[VFV_TARGETS]; /* moves from a field's or animal's tile to the market */
} vfv_trip_map;

/* The most trips (children) a valley state has: valley_plan.c's trips(). */
#define VFV_MAX_TRIPS (VF_VALLEY_CROPS + 3 * VF_VALLEY_ANIMALS + 1 + 5 * VF_VALLEY_VILLAGERS + 1)

/* BackwardsValleyFarm-v0 (backwards_plan.c). */
#define VFB_CELLS (VF_BW_W * VF_BW_H)
typedef struct vfb_map {
    uint8_t dist[VFB_TARGETS][VFB_CELLS];   /* moves from a cell to the target, VFP_FAR: never */
    uint8_t view[VF_BW_ANIMALS][VFB_CELLS]; /* moves from a cell to one that sees the animal */
    uint8_t between[VFB_TARGETS][VFB_TARGETS];
} vfb_map;

/* What a farm's bound measures on the map once per search (and per vf_plan_bound call). */
typedef struct vfp_maps {
    vfv_trip_map trips; /* valley */
    vfb_map bw;         /* backwards */
    uint16_t *trees;    /* backwards: spanning-tree lengths a cell (its row's tree_bytes), in
                           work memory, or NULL */
} vfp_maps;

/* ---- the proof ---------------------------------------------------------------------------- */

/* A state's exact key in the proof's table: everything that decides its future, packed. */
typedef struct vfp_key {
    uint64_t a, b; /* a has bit 63 set (a == 0 marks an empty slot) */
} vfp_key;

/* The depth-first stack's levels (every child is at least a step later) and the most
 * children a state has, for every farm (each farm's file checks that it fits). */
#define VFP_LEVELS   (VF_VALLEY_HORIZON + 1)
#define VFP_CHILDREN VFV_MAX_TRIPS

/* ---- a farm's row ----------------------------------------------------------------------- */

typedef struct vfp_planner {
    size_t state_bytes;  /* the farm's state in vf_env's union: what vfp_state_key hashes */
    size_t tree_bytes;   /* the proof's spanning-tree memo */
    bool ranks_by_bound; /* a proof child's rank is its reward plus its bound */
    size_t (*work_size)(int width);
    void (*beam)(const vf_env *start, int width, void *work, vf_plan *out);
    void (*maps)(vfp_maps *m, const vf_env *start);
    /* an upper bound on the units still to come; at or below `beat` it may be any such value */
    int32_t (*bound_units)(const vf_env *e, const vfp_maps *m, int beat);
    vfp_key (*exact_key)(const vf_env *e);
    /* the proof's children of n into out (at most VFP_CHILDREN), each with its rank */
    int (*children)(const vfp_node *n, const vfp_maps *m, int32_t best_units, vfp_node *out);
} vfp_planner;

extern const vfp_planner vfv_planner; /* valley_plan.c */
extern const vfp_planner vfb_planner; /* backwards_plan.c */

/* planner.c: the beam over single actions, depth by depth, for a farm whose actions each
 * pay as they happen (a row's beam), and the work memory it needs. */
void vfp_beam_over_actions(const vf_env *start, int width, void *work, vf_plan *out);
size_t vfp_actions_work_size(int kind, int width);

#endif
