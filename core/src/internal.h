/*
 * internal.h — what the engine's modules share with each other, and nothing public.
 *
 * Modules and their prefixes:
 *   (valley_farm.h) vf_rng_  the SplitMix64 generator, inline in the public header
 *   grid.h       vfg_      directions, row masks, views, reachability (all inline)
 *   (here)       vf_tile_  sets of tile codes
 *   text.c       vft_      a bounded text builder for render / JSON
 *   snapshot.c   vfs_      byte writer / reader and the snapshot frame
 *   valley.c     vfv_      ValleyFarm-v0 rules (its numbers: valley_rules.h)
 *   backwards.c  vfb_      BackwardsValleyFarm-v0 rules (its numbers: backwards_rules.h)
 *   env.c        vf_       the public API: the table of farms, dispatch on kind, batches
 *   spec.c       vf_       vf_spec_json: the engine's description of itself
 *   features.c   vff_      what a policy sees: the features of observations and a memory
 *   agents.c     vf_agent_ the built-in agents (random; each farm's heuristic: vfa_, in
 *                          valley_agent.c and backwards_agent.c)
 *   planner.c    vf_plan_  beam search and proof, with a table of each farm's planner
 *   valley_bound.c, backwards_bound.c (vfv_plan_, vfb_plan_): each farm's planner bound
 *   view.c       vf_view_  the view-limited agent; view.h (vfc_) what it shares with each
 *                          farm's completion sampler (valley_view.c, backwards_view.c)
 */
#ifndef VF_INTERNAL_H
#define VF_INTERNAL_H

#include <string.h>

#include "valley_farm.h"

/* For the few helpers the hot path calls from two places: a call in WebAssembly builds a
 * frame and checks the stack, a sizeable part of a step. */
#define VF_ALWAYS_INLINE static inline __attribute__((always_inline))

#include "grid.h"

/* ---- sets of tile codes ------------------------------------------------------------ */

/* A set of tile codes as a bit per code (both farms have at most 16). "Is this tile in the
 * set" is then a shift, not a table load: on the step's critical path, from the action to
 * the agent's new cell, a load would add its latency. */
#define VF_TILE_BIT(code) (1u << (code))
static inline bool vf_tile_in(uint32_t set, int code) {
    return (set >> code) & 1u;
}

/* ---- legal masks ------------------------------------------------------------------- */

/* Writes the low n bits of `bits` as n bytes of 0 or 1 (mask[k] = bit k). The vector env
 * fills a mask for every env on every step; a dozen byte stores cost it about a third of
 * its speed in WebAssembly, four bits spread into a 32-bit word and stored at once do not.
 * n is a constant at every call, so the loop unrolls. */
VF_ALWAYS_INLINE void vf_mask_from_bits(uint8_t *mask, uint32_t bits, int n) {
    int k = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* b * 0x00204081 puts bits 0..3 of b at bits 0, 8, 16 and 24, with no carries */
    for (; k + 4 <= n; k += 4) {
        uint32_t word = (((bits >> k) & 15u) * 0x00204081u) & 0x01010101u;
        memcpy(mask + k, &word, 4);
    }
#endif
    for (; k < n; k++) mask[k] = (uint8_t)((bits >> k) & 1u);
}

/* ---- text.c ------------------------------------------------------------------------ */

/* Appends to a caller buffer, never past cap - 1 bytes, and counts the full length so the
 * caller learns how much room the whole text needs (snprintf semantics). */
typedef struct vft_text {
    char *buf;
    size_t cap;
    size_t len; /* length of the full text so far, even beyond cap */
} vft_text;

vft_text vft_begin(char *buf, size_t cap);
size_t vft_end(vft_text *t); /* NUL-terminates; returns the full length */
void vft_char(vft_text *t, char c);
void vft_str(vft_text *t, const char *s);
void vft_int(vft_text *t, int64_t v);
/* v / 10^decimals printed exactly as a decimal, trailing zeros trimmed ("12.5", "3"). */
void vft_fixed(vft_text *t, int64_t v, int decimals);
/* A JSON key: `"name":` preceded by a comma unless it is the first of its object. */
void vft_key(vft_text *t, const char *name, bool first);
void vft_bool(vft_text *t, bool b);
/* What both farms' state JSON starts with: `{"width":..,"height":..,"step":..,"agent":{"x":..,
 * "y":..` — the agent object is left open for the caller's extra fields and closing brace. */
void vft_json_state_begin(vft_text *t, int width, int height, int step, int x, int y);
/* `,"key":[[..],..]`: a width x height grid of small integers whose rows are `pitch` apart. */
void vft_json_grid(vft_text *t, const char *key, const uint8_t *cells, int width, int height,
                   int pitch);

/* ---- snapshot.c -------------------------------------------------------------------- */

/* Little-endian byte writer over a caller buffer. Inline, with one bounds check per field
 * or run of bytes: snapshots and restores are what a search calls most after step. */
typedef struct vfs_writer {
    uint8_t *p;
    uint8_t *end;
    bool overflow;
} vfs_writer;

static inline void vfs_put_le(vfs_writer *w, uint64_t v, int bytes) {
    if (w->end - w->p < bytes) {
        w->overflow = true;
        return;
    }
    for (int i = 0; i < bytes; i++) *w->p++ = (uint8_t)(v >> (8 * i));
}
static inline void vfs_put_u8(vfs_writer *w, uint32_t v) {
    vfs_put_le(w, v, 1);
}
static inline void vfs_put_u16(vfs_writer *w, uint32_t v) {
    vfs_put_le(w, v, 2);
}
static inline void vfs_put_u32(vfs_writer *w, uint32_t v) {
    vfs_put_le(w, v, 4);
}
static inline void vfs_put_u64(vfs_writer *w, uint64_t v) {
    vfs_put_le(w, v, 8);
}
static inline void vfs_put_bytes(vfs_writer *w, const uint8_t *src, size_t n) {
    if ((size_t)(w->end - w->p) < n) {
        w->overflow = true;
        return;
    }
    memcpy(w->p, src, n);
    w->p += n;
}

/* The matching reader; reading past the end sets `bad` and yields zeros. */
typedef struct vfs_reader {
    const uint8_t *p;
    const uint8_t *end;
    bool bad;
} vfs_reader;

static inline uint64_t vfs_get_le(vfs_reader *r, int bytes) {
    if (r->end - r->p < bytes) {
        r->bad = true;
        r->p = r->end;
        return 0;
    }
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++) v |= (uint64_t)*r->p++ << (8 * i);
    return v;
}
static inline uint32_t vfs_get_u8(vfs_reader *r) {
    return (uint32_t)vfs_get_le(r, 1);
}
static inline uint32_t vfs_get_u16(vfs_reader *r) {
    return (uint32_t)vfs_get_le(r, 2);
}
static inline uint32_t vfs_get_u32(vfs_reader *r) {
    return (uint32_t)vfs_get_le(r, 4);
}
static inline uint64_t vfs_get_u64(vfs_reader *r) {
    return vfs_get_le(r, 8);
}
static inline void vfs_get_bytes(vfs_reader *r, uint8_t *dst, size_t n) {
    if ((size_t)(r->end - r->p) < n) {
        r->bad = true;
        r->p = r->end;
        memset(dst, 0, n);
        return;
    }
    memcpy(dst, r->p, n);
    r->p += n;
}

uint32_t vfs_fnv1a32(const uint8_t *p, size_t n);
uint64_t vfs_fnv1a64(const uint8_t *p, size_t n);

/* ---- what a step did ------------------------------------------------------------------ */

/* Packed in one word, so that it comes back in a register: a struct is returned through
 * memory in WebAssembly, and the batch loops would pay a store and a load per step for it.
 * Bit 0: terminated; bit 1: the action was legal; bits 2 and up: the reward in the kind's
 * integer units (valley: 0.05, backwards: 1). */
typedef uint32_t vf_outcome;
#define VF_OUT_TERMINATED 1u
#define VF_OUT_LEGAL      2u
static inline vf_outcome vf_outcome_make(uint32_t reward_units, bool terminated, bool legal) {
    return reward_units << 2 | (uint32_t)legal << 1 | (uint32_t)terminated;
}
static inline uint32_t vf_outcome_units(vf_outcome o) {
    return o >> 2;
}

/* ---- events (vf_step_explained) ------------------------------------------------------ */

/* Appends an event with the given kind, subject and tile to ev[0 .. *n), zeroing the rest.
 * Each farm's steps have fewer than VF_EVENTS_MAX events (their explain functions say why);
 * past that the last one is overwritten rather than the memory after the array. */
static inline vf_event *vf_event_add(vf_event *ev, int *n, int kind, int subject, int x, int y) {
    vf_event *e = &ev[*n < VF_EVENTS_MAX ? (*n)++ : VF_EVENTS_MAX - 1];
    *e = (vf_event){kind, subject, x, y, 0, 0, 0.0, 0.0, 0.0};
    return e;
}

/* `+3.75`, `+2`: a reward as the event sentences show it (exact to 0.01). */
void vft_reward(vft_text *t, double reward);

/* ---- env.c: the random actions of vf_batch_run_random ------------------------------- */

/* Uniform actions, four from each 64-bit draw: each takes 16 bits, scaled to [0, n) by a
 * multiply-shift, and is redrawn in the rare case (low part below 2^16 mod n) that would
 * favour some actions. A whole draw per action cost as much as a quarter of a step. */
typedef struct vf_action_source {
    vf_rng rng;
    uint64_t bits;
    int left; /* 16-bit chunks left in bits */
} vf_action_source;

static inline vf_action_source vf_action_source_seeded(uint64_t seed) {
    vf_action_source src = {vf_rng_seeded(seed), 0, 0};
    return src;
}

static inline int vf_action_next(vf_action_source *src, uint32_t n) {
    for (;;) {
        if (src->left == 0) {
            src->bits = vf_rng_next(&src->rng);
            src->left = 4;
        }
        uint32_t m = (uint32_t)(src->bits & 0xFFFFu) * n;
        src->bits >>= 16;
        src->left--;
        if ((m & 0xFFFFu) >= 65536u % n) return (int)(m >> 16);
    }
}

/* ---- what a farm says about itself (spec.c writes it as vf_spec_json) ---------------- */

/* What a field of the observation holds: the roles valley_farm.h lists at vf_spec_json
 * (spec.c names them). The first three hold codes, not amounts: they are categorical. */
typedef enum vf_role {
    VF_ROLE_TILES,      /* "tiles": the view's tile codes */
    VF_ROLE_STATUS,     /* "status": the status value of each of those cells */
    VF_ROLE_CATEGORY,   /* "category": one code */
    VF_ROLE_AMOUNT,     /* "count": an amount */
    VF_ROLE_X,          /* "x", "y": the agent's position */
    VF_ROLE_Y,          /*   */
    VF_ROLE_STEPS_LEFT, /* "stepsLeft" */
    VF_ROLE_END
} vf_role;
static inline bool vf_role_categorical(vf_role role) {
    return role <= VF_ROLE_CATEGORY;
}

/* One field of the flat observation. */
typedef struct vf_field_spec {
    const char *name;
    const char *group; /* NULL, or the object the observation nests it in ("inventory") */
    vf_role role;
    int offset, length, low, high; /* [low, high]: what the rules let the field show */
} vf_field_spec;

/* One tile code; its code is its index in the farm's list, walkable comes from the farm's
 * walkable set. */
typedef struct vf_tile_spec {
    const char *name;          /* the header's enum name without its prefix: "GROUND" */
    bool background;           /* off the map or bare ground: nothing there to walk to */
    const char *const *status; /* NULL, or the names of its status values 0, 1, ... */
    int status_count;
} vf_tile_spec;

/* A list of names the observation or the rules number (species, moods, facings). */
typedef struct vf_name_list {
    const char *key;
    const char *const *names;
    int count;
} vf_name_list;

typedef struct vf_farm_spec {
    const char *slug; /* its short name, lower case: what its docs page and its JS types are
                         named for ("valley": ValleyObservation) */
    int width, height, horizon;
    int view;          /* the side of the square of tiles the observation shows around the agent */
    int plan_width;    /* the planner's default beam width (vf_plan_width) */
    uint32_t walkable; /* a set of tile codes (vf_tile_in) */
    const vf_tile_spec *tiles;
    int tile_count;
    const vf_field_spec *fields;
    int field_count;
    const vf_name_list *lists;
    int list_count;
} vf_farm_spec;

/* A farm's description, for spec.c; NULL for a kind out of range (env.c). */
const vf_farm_spec *vf_farm_spec_of(int kind);

/* ---- features.c: what a policy sees ------------------------------------------------- */

/* The landmark kinds of a farm's memory features: their number; their table (code, status,
 * changed) -> kind into landmark_of (VF_LANDMARK_TABLE entries) and their names, as the items
 * of a JSON list, into names, where not NULL (spec.c writes them). */
int vff_landmarks(const vf_farm_spec *s, bool status_field, int8_t *landmark_of, vft_text *names);
/* Whether every value of an observation of `kind` lies within its field's bounds (false for
 * a bad kind or NULL): what the features and the agents check before they read one. */
bool vf_obs_in_bounds(int kind, const int32_t *obs);
/* The vector env's features: whether rows can take `kind`'s, and row i's (count[i] set). */
bool vf_feature_rows_ok(int kind, const vf_feature_rows *rows);
int vf_features_row(int kind, const int32_t *obs, int action, bool opening,
                    const vf_feature_rows *rows, int i);

/* ---- env.c: rewards in exact units, for the planner --------------------------------- */

/* Rewards are counted in integer units of 1 / vf_units_per_reward(kind) (valley: 20, so
 * 0.05; 1 for a kind that is no farm); vf_reward_units is the episode's total so far (0 for
 * an env of no farm). */
int vf_units_per_reward(int kind);
int32_t vf_reward_units(const vf_env *env);

/* The cold calls of each farm (reset, observe, text, JSON, snapshot payloads) take the
 * env, so that env.c can hold them in one table; the step and the masks take the farm's
 * own state and are called directly. */

/* ---- valley.c ---------------------------------------------------------------------- */

extern const char *const vfv_action_names[VF_VALLEY_ACTIONS];
#define VFV_UNITS_PER_REWARD 20 /* rewards are counted in units of 0.05 */
void vfv_reset(vf_env *env, uint64_t seed);
static inline bool vfv_over(const vf_valley *v) {
    return v->step >= VF_VALLEY_HORIZON;
}
int vfv_step_count(const vf_env *env);
int32_t vfv_reward_units(const vf_env *env);
/* Plays `action` (in range; the episode not over), then writes the observation into obs
 * unless it is NULL. */
vf_outcome vfv_step(vf_valley *v, int action, int32_t *obs);
void vfv_observe(const vf_env *env, int32_t *restrict obs);
void vfv_legal_actions(const vf_valley *v, uint8_t *mask);
vf_why vfv_why_illegal(const vf_env *env, int action);
/* The events of a step from `before` to `after` (the action given, legal or not) into
 * ev[VF_EVENTS_MAX]; returns their number. vfv_event_text writes one as a sentence. */
int vfv_explain(const vf_env *before, const vf_env *after, int action, bool legal, vf_event *ev);
void vfv_event_text(const vf_env *env, const vf_event *e, vft_text *t);
/* The valley's tiles one can walk on, as a set (vf_tile_in): valley.c's moves and the
 * planner's walks. A macro, so that the step tests a constant. */
#define VFV_WALKABLE                                                                               \
    (VF_TILE_BIT(VF_VT_GROUND) | VF_TILE_BIT(VF_VT_SOIL_EMPTY) | VF_TILE_BIT(VF_VT_SOIL_SEEDED) |  \
     VF_TILE_BIT(VF_VT_CROP_GROWING) | VF_TILE_BIT(VF_VT_CROP_MATURE) |                            \
     VF_TILE_BIT(VF_VT_CHICKEN) | VF_TILE_BIT(VF_VT_COW) | VF_TILE_BIT(VF_VT_SHEEP) |              \
     VF_TILE_BIT(VF_VT_VILLAGER) | VF_TILE_BIT(VF_VT_MARKET))
/* Moves along shortest paths, as the planner measures them on the map (its trip map). */
typedef struct vfv_reach {
    int to_market;
    int to_gift; /* to the nearest tile a gift can be given from */
    int to_animal[VF_VALLEY_ANIMALS], animal_to_market[VF_VALLEY_ANIMALS];
    int to_crop[VF_VALLEY_CROPS], crop_to_market[VF_VALLEY_CROPS];
} vfv_reach;
/* valley_bound.c. A tighter bound for planning (water, price and time limits):
 * vf_plan_bound. */
int32_t vfv_plan_bound_units(const vf_valley *v, const vfv_reach *reach);
/* What the planner adds to the reward so far to rank valley states (units of 0.05). */
int32_t vfv_plan_potential_units(const vf_valley *v, const vfv_reach *reach);
void vfv_render(const vf_env *env, vft_text *t);
void vfv_json(const vf_env *env, vft_text *t);
void vfv_rules_json(vft_text *t);
extern const vf_farm_spec vfv_spec;
/* The bytes vfv_save writes, field by field in its order; a test checks it against what
 * the writer produces, so restore can check a length without writing a snapshot. */
enum {
    VFV_SAVE_BYTES = VF_VALLEY_W * VF_VALLEY_H + 2 * (2 + VF_VALLEY_CROPS) + 6 * VF_VALLEY_ANIMALS +
                     3 * VF_VALLEY_VILLAGERS + 4 * (VF_ITEM_COUNT + 2)
};
void vfv_save(const vf_env *env, vfs_writer *w);
/* Reads a payload written by vfv_save into env; false when a field is out of the range the
 * rules allow (a tile code, a count, an inconsistency between map and entities). */
bool vfv_load(vf_env *env, vfs_reader *r);
/* The generator's last check, and restore's: every tile of `need` (the fields, animals,
 * villagers and market) can be reached from `from` over the tiles of `open` (the walkable
 * ones). */
bool vfv_reaches(const vfg_mask *open, const vfg_mask *need, vf_point from);

/* valley_agent.c: the valley's heuristic (agents.c calls it). */
void vfa_valley_reset(vfa_valley *a);
int vfa_valley_act(vfa_valley *a, const int32_t *obs); /* obs in bounds; -1: off its map */

/* ---- backwards.c ------------------------------------------------------------------- */

extern const char *const vfb_action_names[VF_BW_ACTIONS];
void vfb_reset(vf_env *env, uint64_t seed);
/* The episode ends after 40 steps, or as soon as Farm Value reaches 300. */
static inline bool vfb_over(const vf_backwards *b) {
    return b->step >= VF_BW_HORIZON || vf_bw_farm_value(b) >= VF_BW_FARM_VALUE_END;
}
int vfb_step_count(const vf_env *env);
int32_t vfb_reward_units(const vf_env *env);                    /* Farm Value */
vf_outcome vfb_step(vf_backwards *b, int action, int32_t *obs); /* the same */
void vfb_observe(const vf_env *env, int32_t *restrict obs);
void vfb_legal_actions(const vf_backwards *b, uint8_t *mask);
vf_why vfb_why_illegal(const vf_env *env, int action);
int vfb_explain(const vf_env *before, const vf_env *after, int action, bool legal, vf_event *ev);
void vfb_event_text(const vf_env *env, const vf_event *e, vft_text *t);
void vfb_render(const vf_env *env, vft_text *t);
void vfb_json(const vf_env *env, vft_text *t);
void vfb_rules_json(vft_text *t);
extern const vf_farm_spec vfb_spec;
/* The bytes vfb_save writes (checked by a test, as VFV_SAVE_BYTES). */
enum {
    VFB_SAVE_BYTES =
        2 * VF_BW_W * VF_BW_H + 3 + 4 * (VF_BW_CROPS + VF_BW_ANIMALS + VF_BW_VILLAGERS) + 4 * 4
};
void vfb_save(const vf_env *env, vfs_writer *w);
bool vfb_load(vf_env *env, vfs_reader *r);
void vfb_rederive(vf_env *env); /* recomputes growing from the statuses */
/* The generator's check of a whole map (step 4 of its draw, backwards.c): every field reached
 * on foot from the first field, every pen and house next to a reached cell, and some reached
 * GROUND cell; *start is then the reached GROUND cells, where the agent may start. */
bool vfb_layout_check(const vf_backwards *b, vfg_mask *start);
/* The agent sees (and an animal arriving at Thriving pays) within this many tiles each way:
 * the 5 x 5 view. */
#define VFB_VIEW_R 2
/* The backwards farm's tiles one can walk on (the rules table's "walkable" column), as a
 * set: backwards.c's moves and the planner's walks. */
#define VFB_WALKABLE (VF_TILE_BIT(VF_BT_GROUND) | VF_TILE_BIT(VF_BT_FIELD))
/* What the planner measures on a backwards map for the bound (shortest walks; moves only, no
 * turns). Targets are numbered crops 0..7, then villagers (their houses' walkable
 * neighbours), then animals (their pens' walkable neighbours). */
enum {
    VFB_T_VILLAGER = VF_BW_CROPS,
    VFB_T_ANIMAL = VFB_T_VILLAGER + VF_BW_VILLAGERS,
    VFB_TARGETS = VFB_T_ANIMAL + VF_BW_ANIMALS
};
typedef struct vfb_reach {
    int to[VFB_TARGETS];                   /* from the agent to each target */
    int to_view[VF_BW_ANIMALS];            /* from the agent to where it would see the animal */
    const uint8_t (*between)[VFB_TARGETS]; /* between[i][j]: from target i to target j */
    /* NULL, or a memo of spanning-tree lengths from the agent's tile, indexed by the set of
     * targets (bit t: target t), VFB_NO_TREE where not yet computed */
    uint16_t *trees;
} vfb_reach;
#define VFB_NO_TREE 0xFFFF
/* backwards_bound.c. An upper bound on the Farm Value play from b could still add
 * (vf_plan_bound); values at or below `beat` may be returned as any value at or below it
 * (the proof only asks whether the bound beats what it has; -1: the bound itself). */
int vfb_plan_bound(const vf_backwards *b, const vfb_reach *reach, int beat);

/* backwards_agent.c: the backwards farm's heuristic (agents.c calls it). */
void vfa_backwards_reset(vfa_backwards *a);
int vfa_backwards_act(vfa_backwards *a, const int32_t *obs); /* obs in bounds */

#endif /* VF_INTERNAL_H */
