/*
 * backwards.c — BackwardsValleyFarm-v0: a 10 x 10 farm whose dynamics run backwards.
 * Rules: docs/rules/backwards-farm.md (every number here comes from there).
 *
 * Invariants the rules keep, and that vfb_load checks on every snapshot:
 *  - Map tiles are GROUND, FENCE, FIELD, PEN or HOUSE; the VF_BORDER ring around the map is
 *    OUT_OF_BOUNDS (0) in both grids, so the 5 x 5 view and the tile in front read inside
 *    the arrays without bounds checks.
 *  - status[] is the only home of a crop's stage, an animal's health and a villager's mood;
 *    it is 0 on every tile that has no status (tile_info[].status_max).
 *  - Each FIELD holds exactly one unharvested crop, each PEN one animal, each HOUSE one
 *    villager; a harvested crop keeps its position on what is now GROUND. So the map has
 *    8 - harvested fields, 3 pens, 3 houses, and the 6..12 fences it was drawn with.
 *  - The agent stands on a walkable tile. Every unharvested field is reachable from it, and
 *    every pen and house has a reachable walkable neighbour: reset draws layouts so, moves
 *    stay inside the agent's component, and harvesting turns FIELD into GROUND, which is
 *    walkable too, so no step can break it.
 *  - Meters only grow, and stay in 0..100; step is 0..40.
 *
 * Snapshot payload (after env.c's seed), little-endian, 275 bytes:
 *   tiles 100 (row-major, north row first, no border) · status 100 · agent x, y · facing ·
 *   crops 8 x {x, y, value, done} · animals 3 x 4 · villagers 3 x 4 ·
 *   crop_yield, animal_health, social_affinity (u32 each) · step (u32)
 */
#include <stddef.h>
#include <string.h>

#include "backwards_rules.h"

#define VIEW_R VFB_VIEW_R /* the view is (2 * VIEW_R + 1) squared, centred on the agent */
#define VIEW_N (2 * VIEW_R + 1)

_Static_assert(VF_BORDER >= VIEW_R, "the view must read inside the padded grids");
_Static_assert(VIEW_N == 5, "vfg_view5 copies 5 x 5 views");
_Static_assert(VF_BO_TERRAIN + 25 == VF_BO_STATUS &&
                   VF_BO_STATUS + 25 + VFG_VIEW5_OVERRUN <= VF_BW_OBS_SIZE,
               "vfg_view5 overruns each view into fields observe writes after it");
_Static_assert(offsetof(vf_backwards, status) + sizeof(((vf_backwards *)0)->status) +
                       VFG_VIEW5_OVERRUN <=
                   sizeof(vf_backwards),
               "vfg_view5 reads past the status grid's last row, inside the state");
_Static_assert(W <= VFG_MAX_W && H <= VFG_MAX_H, "the map fits the row bitmasks");
_Static_assert(VF_BW_ACTIONS <= 16, "vfg_dx covers every action");

const char *const vfb_action_names[VF_BW_ACTIONS] = {"north", "south",      "east",      "west",
                                                     "wait",  "water",      "fertilize", "feed",
                                                     "clean", "compliment", "insult"};

/* ---- rules as data ------------------------------------------------------------------ */

/* The tiles one can walk on: the same table's "walkable" column, as a set. */
static const uint32_t walkable = VFB_WALKABLE;

/* The names of the status values (the rules file's words) and of the facings. */
static const char *const crop_stage_name[4] = {"Seed", "Sprout", "Growing", "Harvest-Ready"};
static const char *const health_name[3] = {"Weak", "Healthy", "Thriving"};
static const char *const mood_name[3] = {"Hostile", "Neutral", "Friendly"};
static const char *const facing_names[4] = {"north", "south", "east", "west"};

/* What each non-move action does to the tile in front. target 0: no target (moves, wait).
 * targets: the same as a bit per tile code, so "does it act on the tile in front" is one
 * test, not a test of the action first (which random play would mispredict).
 * mood 0: care (crop -> Seed, animal -> Weak, no growth this step); else the mood step. */
#define VERB(tile, mood_step)                                                                      \
    { tile, VF_TILE_BIT(tile), mood_step }
static const struct verb {
    uint8_t target;
    uint8_t targets;
    int8_t mood;
} verbs[VF_BW_ACTIONS] = {
    [VF_BA_WATER] = VERB(VF_BT_FIELD, 0),       [VF_BA_FERTILIZE] = VERB(VF_BT_FIELD, 0),
    [VF_BA_FEED] = VERB(VF_BT_PEN, 0),          [VF_BA_CLEAN] = VERB(VF_BT_PEN, 0),
    [VF_BA_COMPLIMENT] = VERB(VF_BT_HOUSE, -1), [VF_BA_INSULT] = VERB(VF_BT_HOUSE, +1),
};
#undef VERB
_Static_assert(VF_BT_COUNT <= 8, "a set of tile codes in a uint8_t holds a bit per code");

static vf_bw_entity *list_of(vf_backwards *b, int kind) {
    return kind == CROPS ? b->crops : kind == ANIMALS ? b->animals : b->villagers;
}
static const vf_bw_entity *clist_of(const vf_backwards *b, int kind) {
    return kind == CROPS ? b->crops : kind == ANIMALS ? b->animals : b->villagers;
}

/* The number of cells in a 16-bit row mask. WebAssembly (and x86 with POPCNT) count in one
 * instruction; baseline x86-64 has none, and there gcc's builtin is a library call. */
static int popcount16(unsigned v) {
#if defined(__wasm__) || defined(__POPCNT__)
    return __builtin_popcount(v & 0xFFFFu);
#else
    v &= 0xFFFFu;
    v = v - ((v >> 1) & 0x5555u);
    v = (v & 0x3333u) + ((v >> 2) & 0x3333u);
    v = (v + (v >> 4)) & 0x0F0Fu;
    return (int)((v + (v >> 8)) & 0x1Fu);
#endif
}

/* ---- the growing mask (vf_backwards.growing) ------------------------------------- */

/* Entity i of the `growing` numbering: crops 0..7, then animals 8..10. */
enum { GROW_ANIMAL0 = VF_BW_CROPS, GROWERS = VF_BW_CROPS + VF_BW_ANIMALS };
_Static_assert(GROWERS <= 32, "vf_backwards.growing has a bit per crop and animal");

static vf_bw_entity *grower(vf_backwards *b, int i) {
    return i < GROW_ANIMAL0 ? &b->crops[i] : &b->animals[i - GROW_ANIMAL0];
}

/* The growing mask the statuses imply: an unharvested crop below Harvest-Ready, an animal
 * below Thriving. Everything else stays put in the background tick. */
static uint32_t growing_of(const vf_backwards *b) {
    uint32_t m = 0;
    for (int i = 0; i < VF_BW_CROPS; i++) {
        const vf_bw_entity *c = &b->crops[i];
        m |= (uint32_t)(!c->done && STATUS(b, c->x, c->y) < HARVEST_READY) << i;
    }
    for (int i = 0; i < VF_BW_ANIMALS; i++) {
        const vf_bw_entity *a = &b->animals[i];
        m |= (uint32_t)(STATUS(b, a->x, a->y) < THRIVING) << (GROW_ANIMAL0 + i);
    }
    return m;
}

void vfb_rederive(vf_env *env) {
    env->u.backwards.growing = growing_of(&env->u.backwards);
}

#ifdef VF_CHECK_DERIVED
#include <stdio.h>
#include <stdlib.h>
/* Sanitizer builds (VF_CHECK_DERIVED) check at every step that `growing` still matches the
 * statuses, so a test or tool that edits a state by hand and forgets vf_rederive stops
 * here instead of playing on with wrong rules. Release builds trust the engine's upkeep. */
static void check_derived(const vf_backwards *b) {
    if (b->growing == growing_of(b)) return;
    fputs("valley-farm: vf_backwards.growing is stale; call vf_rederive after editing a "
          "state by hand\n",
          stderr);
    abort();
}
#else
#define check_derived(b) ((void)(b))
#endif

/* ---- reset --------------------------------------------------------------------------- */

/*
 * The layout generator. One SplitMix64 stream seeded with the episode seed, integer draws
 * only (vf_rng_below), in this order:
 *
 *  1-2. For each kind in turn, crops, then animals, then villagers, its zone and then its
 *     cells in it:
 *     - The zone, a rectangle that overlaps no earlier zone: the crop zone 4 x 4 with its
 *       top-left corner at (below(7), below(7)), the pen and village zones 3 x 3 at
 *       (below(8), below(8)); a corner whose zone overlaps an earlier one is redrawn (both
 *       coordinates). There is always room: the crop zone leaves a band of at least 3 free
 *       rows above or below it, 10 columns wide, which holds both 3 x 3 zones.
 *     - A uniform subset of the zone's cells (8 of 16 fields, 3 of 9 pens, 3 of 9 houses):
 *       a partial Fisher-Yates shuffle of the cell indices 0..15 (row-major in the zone;
 *       for i = 0.. count - 1 swap index i with index i + below(cells - i)); the first
 *       `count` indices are the chosen cells. The zone's entities are numbered row-major:
 *       that is the generator order the JSON and the snapshot keep. The zone's other cells
 *       stay GROUND.
 *  3. Fences: n = 6 + below(7); each on a cell below(100) (row-major), redrawn while that
 *     cell is not GROUND.
 *  4. Check, by flood fill over GROUND and FIELD from the first field: every field reached,
 *     every pen and house next to a reached cell, at least one reached GROUND cell. If not,
 *     start again at 1, continuing the same stream.
 *  5. The agent: the below(n)-th (row-major) of the n reached GROUND cells, facing north.
 *     This is the uniformly drawn reachable GROUND tile the rules ask for.
 *  6. Initial values, entity by entity in generator order, crops then animals then
 *     villagers: status = below(max + 1), then value = min + below(max - min + 1).
 *
 * Cells are tracked in 16-bit row masks (vfg_mask), so the checks are word operations,
 * not scans of the map; a layout is redrawn in about 6% of seeds.
 */

/* Draws one of the cells of m uniformly: the below(n)-th of its n cells in row-major order.
 * False when m is empty. The cell is random, so a search by branches would mispredict about
 * once per row; this one runs loops of fixed length over masks instead. */
static bool pick_cell(const vfg_mask *m, vf_rng *rng, int *px, int *py) {
    int count[H], n = 0;
    for (int y = 0; y < H; y++) n += count[y] = popcount16(m->rows[y]);
    if (n == 0) return false;
    int k = (int)vf_rng_below(rng, (uint32_t)n);
    unsigned row = 0, in_row = 0, sy = 0;
    for (int y = 0; y < H; y++) { /* k goes negative past its row, so one row matches */
        unsigned here = 0u - (unsigned)((unsigned)k < (unsigned)count[y]);
        sy |= (unsigned)y & here;
        in_row |= (unsigned)k & here;
        row |= m->rows[y] & here;
        k -= count[y];
    }
    for (unsigned i = 0; i < W - 1; i++) { /* drop the in_row lowest cells of the row */
        unsigned drop = 0u - (unsigned)(i < in_row);
        row &= (row - 1u) | ~drop;
    }
    *px = __builtin_ctz(row); /* the lowest cell left (row has more than in_row cells) */
    *py = (int)sy;
    return true;
}

/* What a layout attempt keeps besides the map itself: the cells of each role as row
 * masks, for the check of step 4 (word operations, not scans of the map). */
typedef struct layout {
    int zone_x[KINDS], zone_y[KINDS]; /* the zones' north-west corners, once drawn */
    vfg_mask fields;                  /* FIELD cells */
    vfg_mask holders;                 /* PEN and HOUSE cells, which need a reachable neighbour */
    vfg_mask blocked;                 /* PEN, HOUSE and FENCE cells: all that is not walkable */
} layout;

/* Steps 1 and 2 for one kind of entity: its zone, then its cells inside it. Inline, so
 * that the generator's state stays in a register through all the draws of a reset. */
VF_ALWAYS_INLINE void place_zone(vf_backwards *b, vf_rng *rng, int k, layout *lay) {
    const struct entity_kind *kd = &kinds[k];
    const int zw = kd->zone_w, zh = kd->zone_h, cells = zw * zh;

    /* a corner, redrawn while the zone would overlap an earlier one (rectangles overlap
     * when both their column ranges and their row ranges do) */
    int zx, zy;
    bool clash;
    do {
        zx = (int)vf_rng_below(rng, (uint32_t)(W - zw + 1));
        zy = (int)vf_rng_below(rng, (uint32_t)(H - zh + 1));
        clash = false;
        for (int j = 0; j < k; j++) {
            const int ox = lay->zone_x[j], oy = lay->zone_y[j];
            clash |= zx < ox + kinds[j].zone_w && ox < zx + zw && zy < oy + kinds[j].zone_h &&
                     oy < zy + zh;
        }
    } while (clash);
    lay->zone_x[k] = zx;
    lay->zone_y[k] = zy;

    /* a uniform subset of kd->count of the zone's cells: partial Fisher-Yates */
    uint8_t order[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    unsigned chosen = 0;
    for (int i = 0; i < kd->count; i++) {
        int j = i + (int)vf_rng_below(rng, (uint32_t)(cells - i));
        uint8_t swap = order[i];
        order[i] = order[j];
        order[j] = swap;
        chosen |= 1u << order[i];
    }

    /* the chosen cells in increasing index, which is row-major: the generator order */
    vf_bw_entity *e = list_of(b, k);
    vfg_mask *role = k == CROPS ? &lay->fields : &lay->holders;
    for (int n = 0; chosen != 0; chosen &= chosen - 1, n++) {
        int cell = __builtin_ctz(chosen);
        int x = zx + cell % zw, y = zy + cell / zw;
        e[n].x = (uint8_t)x;
        e[n].y = (uint8_t)y;
        TILE(b, x, y) = kd->tile;
        vfg_set(role, x, y);
        if (k != CROPS) vfg_set(&lay->blocked, x, y);
    }
}

/* Step 4: true when the layout passes the check. *start then holds the GROUND cells
 * reachable on foot from the fields: where the agent may start. */
VF_ALWAYS_INLINE bool check_layout(const vf_backwards *b, const layout *lay, vfg_mask *start) {
    const uint16_t full = (uint16_t)((1u << W) - 1u);
    vfg_mask walk;
    for (int y = 0; y < VFG_MAX_H; y++) walk.rows[y] = (uint16_t)(full & ~lay->blocked.rows[y]);
    vfg_mask reach = vfg_reachable(&walk, W, H, b->crops[0].x, b->crops[0].y);

    /* the check, row by row without a branch: a field out of reach, a pen or house with
     * no reached neighbour (rows past H are empty, so row y + 1 is always there) */
    unsigned bad = 0, any = 0, above = 0;
    for (int y = 0; y < H; y++) {
        unsigned r = reach.rows[y];
        unsigned near = r | r << 1 | r >> 1 | above | reach.rows[y + 1];
        bad |= lay->fields.rows[y] & ~r;
        bad |= lay->holders.rows[y] & ~near;
        start->rows[y] = (uint16_t)(r & ~lay->fields.rows[y]); /* reached and not a field */
        any |= start->rows[y];
        above = r;
    }
    return bad == 0 && any != 0;
}

/* Steps 1-4 once; true when the layout passes the check (*start: as check_layout's). */
static bool draw_layout(vf_backwards *b, vf_rng *rng, vfg_mask *start) {
    layout lay = {{0}, {0}, {{0}}, {{0}}, {{0}}};
    for (int y = 0; y < H; y++) memset(&TILE(b, 0, y), VF_BT_GROUND, W);
    place_zone(b, rng, CROPS, &lay);
    place_zone(b, rng, ANIMALS, &lay);
    place_zone(b, rng, VILLAGERS, &lay);

    /* fences, on GROUND only: the map itself says which cells are taken */
    int fences = VF_BW_FENCES_MIN + (int)vf_rng_below(rng, VF_BW_FENCES_MAX - VF_BW_FENCES_MIN + 1);
    while (fences > 0) {
        int c = (int)vf_rng_below(rng, W * H);
        int x = c % W, y = c / W;
        if (TILE(b, x, y) != VF_BT_GROUND) continue;
        TILE(b, x, y) = VF_BT_FENCE;
        vfg_set(&lay.blocked, x, y);
        fences--;
    }
    return check_layout(b, &lay, start);
}

bool vfb_layout_check(const vf_backwards *b, vfg_mask *start) {
    layout lay = {{0}, {0}, {{0}}, {{0}}, {{0}}};
    *start = (vfg_mask){{0}}; /* check_layout writes the map's rows only */
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const int tile = TILE(b, x, y);
            if (tile == VF_BT_FIELD) vfg_set(&lay.fields, x, y);
            if (tile == VF_BT_PEN || tile == VF_BT_HOUSE) vfg_set(&lay.holders, x, y);
            if (!vf_tile_in(walkable, tile)) vfg_set(&lay.blocked, x, y);
        }
    return check_layout(b, &lay, start);
}

void vfb_reset(vf_env *env, uint64_t seed) {
    vf_backwards *b = &env->u.backwards;
    vf_rng rng = vf_rng_seeded(seed);
    vfg_mask start = {{0}};
    memset(b, 0, sizeof *b);
    while (!draw_layout(b, &rng, &start)) {
    }

    /* step 5: the agent, on a reachable GROUND cell (draw_layout made sure there is one) */
    int x = 0, y = 0;
    pick_cell(&start, &rng, &x, &y);
    b->agent.x = (uint8_t)x;
    b->agent.y = (uint8_t)y;
    b->facing = VF_NORTH;

    /* step 6: initial values */
    for (int k = 0; k < KINDS; k++) {
        const struct entity_kind *kd = &kinds[k];
        const uint32_t status_max = tile_info[kd->tile].status_max;
        const uint32_t value_span = kd->value_max - kd->value_min + 1u;
        vf_bw_entity *e = list_of(b, k);
        for (int i = 0; i < kd->count; i++) {
            STATUS(b, e[i].x, e[i].y) = (uint8_t)vf_rng_below(&rng, status_max + 1u);
            e[i].value = (uint8_t)(kd->value_min + vf_rng_below(&rng, value_span));
        }
    }
    b->growing = growing_of(b);
}

/* ---- observation ---------------------------------------------------------------------- */

/* (x, y) and facing are the agent's: the step passes the ones it has just computed, so the
 * view's address does not wait for them to be stored and read back. `restrict`: obs never
 * overlaps the state, so the grid pointers stay in registers instead of being reloaded
 * after every int32 store (uint8_t aliases anything). */
VF_ALWAYS_INLINE void observe(const vf_backwards *restrict b, int32_t *restrict obs, int x, int y,
                              int facing) {
    /* padded-grid row/column of the view's north-west cell */
    const int top = y + VF_BORDER - VIEW_R, left = x + VF_BORDER - VIEW_R;
    const uint8_t *tiles = &b->tiles[top][left], *status = &b->status[top][left];
    enum { PITCH = VF_BW_W + 2 * VF_BORDER };
    /* in this order: each view overruns into what is written after it */
    vfg_view5(obs + VF_BO_TERRAIN, tiles, PITCH);
    vfg_view5(obs + VF_BO_STATUS, status, PITCH);
    obs[VF_BO_X] = x;
    obs[VF_BO_Y] = y;
    obs[VF_BO_FACING] = facing;
    obs[VF_BO_STEPS_LEFT] = VF_BW_HORIZON - b->step;
    obs[VF_BO_FARM_VALUE] = vf_bw_farm_value(b);
}

void vfb_observe(const vf_env *env, int32_t *restrict obs) {
    const vf_backwards *restrict b = &env->u.backwards;
    observe(b, obs, b->agent.x, b->agent.y, b->facing);
}

/* ---- step ---------------------------------------------------------------------------- */

/* The index in `list` (of `count`) of the entity standing on (x, y); there is one. */
static int entity_at(const vf_bw_entity *list, int count, int x, int y) {
    int i = 0;
    while (i < count - 1 && (list[i].x != x || list[i].y != y)) i++;
    return i;
}

/* Pays a bonus into a meter, which stops at 100; returns what the meter gained, which is
 * what Farm Value gains (the reward). */
static int pay(int32_t *meter, int bonus) {
    int before = *meter;
    *meter = before + bonus > VF_BW_METER_MAX ? VF_BW_METER_MAX : before + bonus;
    return *meter - before;
}

/*
 * Most steps change little: a move or a turn, or a verb at nothing. So the step does only
 * what its action asks, and the background tick visits only the entities in `growing`:
 * after the first few steps of an episode most crops sit at Harvest-Ready and most
 * animals at Thriving until cared for, and the tick is then a test of an empty mask.
 * Meters, reward and the Farm Value end are touched only when a bonus is paid.
 *
 * Each rare case finishes where it happens instead of leaving a pointer or a flag for later
 * (the care's entity, the befriended villager): values that live across the whole step
 * cost WebAssembly registers, and V8 then spills others on the common path (npm run
 * bench shows the difference).
 */
vf_outcome vfb_step(vf_backwards *b, int action, int32_t *obs) {
    check_derived(b);
    uint32_t cared = 0; /* the bit in `growing` of the crop or animal cared for, if any */
    int reward = 0;     /* what the meters gain (rules 3-6) */

    /* 1. the action's local effect. A move or a turn without branching on the action
     * (random play would mispredict such a branch every third step); a verb only when the
     * tile in front is its target, which is seldom. */
    const int ax0 = b->agent.x, ay0 = b->agent.y, facing = b->facing;
    const bool is_move = action < 4;
    const int nx = ax0 + vfg_dx[action], ny = ay0 + vfg_dy[action];
    const bool walk = is_move & vf_tile_in(walkable, TILE(b, nx, ny));
    const int ax = walk ? nx : ax0, ay = walk ? ny : ay0; /* where the agent ends up */
    b->agent.x = (uint8_t)ax;
    b->agent.y = (uint8_t)ay;
    const int facing_now = is_move ? action : facing;
    b->facing = (uint8_t)facing_now;
    bool legal = (is_move & (walk | (facing != action))) | (action == VF_BA_WAIT);

    const struct verb *v = &verbs[action];
    const int fx = ax0 + vfg_dx[facing], fy = ay0 + vfg_dy[facing];
    if (vf_tile_in(v->targets, TILE(b, fx, fy))) {
        uint8_t *s = &STATUS(b, fx, fy);
        legal = true;
        if (v->mood == 0) { /* care: back to Seed / Weak, and no growth this step */
            *s = 0;
            cared = 1u << (v->target == VF_BT_FIELD
                               ? entity_at(b->crops, VF_BW_CROPS, fx, fy)
                               : GROW_ANIMAL0 + entity_at(b->animals, VF_BW_ANIMALS, fx, fy));
            b->growing &= ~cared; /* it sits out this tick, and grows again from the next */
        } else {
            int mood = *s + v->mood;
            legal = mood >= 0 && mood <= FRIENDLY;
            if (legal) {
                *s = (uint8_t)mood;
                /* rule 5, paid here: each bonus has its own meter, so the order of the
                 * payments cannot change the sum, and nothing stays live to the end */
                if (mood == FRIENDLY) {
                    const int i = entity_at(b->villagers, VF_BW_VILLAGERS, fx, fy);
                    vf_bw_entity *villager = &b->villagers[i];
                    if (!villager->done) {
                        reward += pay(&b->social_affinity, villager->value);
                        villager->done = 1;
                    }
                }
            }
        }
    }

    /* 2. background tick: every growing entity grows (villagers never drift; the one
     * cared for is out of the mask for this tick). One that reaches its top leaves the
     * mask; an animal that does has arrived at Thriving in this tick, and pays its bonus
     * (rule 4) if the agent sees it. */
    uint32_t topped = 0; /* bit i: grower i reached its top in this tick */
    for (uint32_t m = b->growing; m != 0; m &= m - 1) {
        int i = __builtin_ctz(m);
        const vf_bw_entity *e = grower(b, i);
        uint8_t *s = &STATUS(b, e->x, e->y);
        int grown = ++*s;
        topped |= (uint32_t)(grown == (i < GROW_ANIMAL0 ? HARVEST_READY : THRIVING)) << i;
    }
    b->growing &= ~topped;
    for (unsigned arrived = topped >> GROW_ANIMAL0, i = 0; arrived != 0; i++, arrived >>= 1) {
        vf_bw_entity *a = &b->animals[i]; /* an arrival the agent sees pays, once */
        int dx = a->x - ax, dy = a->y - ay;
        if ((arrived & 1u) && !a->done && dx >= -VIEW_R && dx <= VIEW_R && dy >= -VIEW_R &&
            dy <= VIEW_R) {
            reward += pay(&b->animal_health, a->value);
            a->done = 1;
        }
    }
    b->growing |= cared;

    /* 3. harvest: a status of 3 can only be a crop's (an unharvested one: a harvested
     * crop's tile is GROUND, status 0), so it alone says "a ready FIELD" */
    if (STATUS(b, ax, ay) == HARVEST_READY) {
        vf_bw_entity *c = &b->crops[entity_at(b->crops, VF_BW_CROPS, ax, ay)];
        reward += pay(&b->crop_yield, c->value);
        c->done = 1;
        TILE(b, ax, ay) = VF_BT_GROUND;
        STATUS(b, ax, ay) = 0;
    }

    /* 6, 7: termination (Farm Value can only have reached 300 if it moved) */
    b->step++;
    bool terminated = b->step >= VF_BW_HORIZON;
    if (reward > 0) terminated |= vf_bw_farm_value(b) >= VF_BW_FARM_VALUE_END;
    if (obs) observe(b, obs, ax, ay, facing_now); /* here, not in a second call */
    return vf_outcome_make((uint32_t)reward, terminated, legal);
}

/* ---- legal actions ----------------------------------------------------------------------- */

/* Whether each action changes the state beyond the clock (the rules' "legal"): a move that
 * walks or at least turns; a verb whose target is the tile in front (care always acts; a
 * compliment needs a mood to lower, an insult one to raise); wait always. vfb_step decides
 * the same inline, as it acts, and a test plays every action against this mask. The tiles
 * are read once because the vector env computes this after every step. */
void vfb_legal_actions(const vf_backwards *b, uint8_t *mask) {
    const int x = b->agent.x, y = b->agent.y;
    uint32_t bits = 1u << VF_BA_WAIT;
    for (int d = 0; d < 4; d++)
        bits |= (uint32_t)(vf_tile_in(walkable, TILE(b, x + vfg_dx[d], y + vfg_dy[d])) |
                           (b->facing != d))
                << d;
    const int fx = x + vfg_dx[b->facing], fy = y + vfg_dy[b->facing];
    const int front = TILE(b, fx, fy), mood = STATUS(b, fx, fy);
    const uint32_t field = front == VF_BT_FIELD, pen = front == VF_BT_PEN,
                   house = front == VF_BT_HOUSE;
    bits |=
        field << VF_BA_WATER | field << VF_BA_FERTILIZE | pen << VF_BA_FEED | pen << VF_BA_CLEAN;
    bits |= (uint32_t)(house && mood > 0) << VF_BA_COMPLIMENT;
    bits |= (uint32_t)(house && mood < FRIENDLY) << VF_BA_INSULT;
    vf_mask_from_bits(mask, bits, VF_BW_ACTIONS);
}

int vfb_step_count(const vf_env *env) {
    return env->u.backwards.step;
}

int32_t vfb_reward_units(const vf_env *env) {
    return vf_bw_farm_value(&env->u.backwards);
}

/* The rule that blocks an action (for players; vfb_legal_actions is the fast form). */
vf_why vfb_why_illegal(const vf_env *env, int action) {
    const vf_backwards *b = &env->u.backwards;
    const int x = b->agent.x, y = b->agent.y;
    if (action <= VF_BA_WEST) {
        const bool walk = vf_tile_in(walkable, TILE(b, x + vfg_dx[action], y + vfg_dy[action]));
        return walk || b->facing != action ? VF_WHY_LEGAL : VF_WHY_BLOCKED;
    }
    const int fx = x + vfg_dx[b->facing], fy = y + vfg_dy[b->facing];
    const int front = TILE(b, fx, fy), mood = STATUS(b, fx, fy);
    switch (action) {
    case VF_BA_WATER:
    case VF_BA_FERTILIZE: return front == VF_BT_FIELD ? VF_WHY_LEGAL : VF_WHY_NO_FIELD_IN_FRONT;
    case VF_BA_FEED:
    case VF_BA_CLEAN: return front == VF_BT_PEN ? VF_WHY_LEGAL : VF_WHY_NO_PEN_IN_FRONT;
    case VF_BA_COMPLIMENT:
        if (front != VF_BT_HOUSE) return VF_WHY_NO_HOUSE_IN_FRONT;
        return mood > 0 ? VF_WHY_LEGAL : VF_WHY_VILLAGER_HOSTILE;
    case VF_BA_INSULT:
        if (front != VF_BT_HOUSE) return VF_WHY_NO_HOUSE_IN_FRONT;
        return mood < FRIENDLY ? VF_WHY_LEGAL : VF_WHY_VILLAGER_FRIENDLY;
    default: return VF_WHY_LEGAL; /* wait */
    }
}

/* ---- events (vf_step_explained) ------------------------------------------------------ */

/* The action's event (care or mood), a villager's first Friendly, crops that grew ready,
 * animals that reached Thriving, then the harvest: at most 1 + 1 + 8 + 3 + 1 events. Each
 * payment's reward is what its meter gained, taken from the meters themselves (they stop
 * at 100), so the events' rewards add up to the step's. */
_Static_assert(2 + VF_BW_CROPS + VF_BW_ANIMALS + 1 <= VF_EVENTS_MAX, "a step's events fit");

int vfb_explain(const vf_env *before, const vf_env *after, int action, bool legal, vf_event *ev) {
    const vf_backwards *b = &before->u.backwards, *a = &after->u.backwards;
    int n = 0;
    vf_event *e;
    const int fx = b->agent.x + vfg_dx[b->facing], fy = b->agent.y + vfg_dy[b->facing];
    if (legal && action > VF_BA_WAIT) {
        const int tile = TILE(b, fx, fy);
        const int kind = tile == VF_BT_FIELD ? VF_EV_CROP_CARED
                         : tile == VF_BT_PEN ? VF_EV_ANIMAL_CARED
                                             : VF_EV_MOOD;
        const vf_bw_entity *list = kind == VF_EV_CROP_CARED     ? b->crops
                                   : kind == VF_EV_ANIMAL_CARED ? b->animals
                                                                : b->villagers;
        const int count = kind == VF_EV_CROP_CARED     ? VF_BW_CROPS
                          : kind == VF_EV_ANIMAL_CARED ? VF_BW_ANIMALS
                                                       : VF_BW_VILLAGERS;
        e = vf_event_add(ev, &n, kind, entity_at(list, count, fx, fy), fx, fy);
        e->before = STATUS(b, fx, fy);
        e->after = STATUS(a, fx, fy);
    }
    int social = a->social_affinity - b->social_affinity;
    for (int i = 0; i < VF_BW_VILLAGERS; i++) {
        const vf_bw_entity *h = &a->villagers[i];
        if (!h->done || b->villagers[i].done) continue;
        e = vf_event_add(ev, &n, VF_EV_VILLAGER_PAID, i, h->x, h->y);
        e->count = h->value;
        e->reward = h->value < social ? h->value : social;
        social -= (int)e->reward;
    }
    for (int i = 0; i < VF_BW_CROPS; i++) {
        const vf_bw_entity *c = &a->crops[i];
        if (!c->done && STATUS(a, c->x, c->y) == HARVEST_READY &&
            STATUS(b, c->x, c->y) != HARVEST_READY)
            vf_event_add(ev, &n, VF_EV_CROP_READY, i, c->x, c->y);
    }
    int health = a->animal_health - b->animal_health;
    for (int i = 0; i < VF_BW_ANIMALS; i++) {
        const vf_bw_entity *an = &a->animals[i];
        if (STATUS(a, an->x, an->y) != THRIVING || STATUS(b, an->x, an->y) == THRIVING) continue;
        const int kind = an->done && !b->animals[i].done ? VF_EV_ANIMAL_PAID
                         : an->done                      ? VF_EV_ANIMAL_THRIVING
                                                         : VF_EV_ANIMAL_UNSEEN;
        e = vf_event_add(ev, &n, kind, i, an->x, an->y);
        e->count = an->value;
        if (kind == VF_EV_ANIMAL_PAID) {
            e->reward = an->value < health ? an->value : health;
            health -= (int)e->reward;
        }
    }
    for (int i = 0; i < VF_BW_CROPS; i++) {
        const vf_bw_entity *c = &a->crops[i];
        if (!c->done || b->crops[i].done) continue;
        e = vf_event_add(ev, &n, VF_EV_CROP_HARVESTED, i, c->x, c->y);
        e->count = c->value;
        e->reward = a->crop_yield - b->crop_yield;
    }
    return n;
}

void vfb_event_text(const vf_env *env, const vf_event *e, vft_text *t) {
    (void)env;
    const int from = (int)e->before & 3, to = (int)e->after & 3;
    switch (e->kind) {
    case VF_EV_CROP_CARED:
        vft_str(t, "crop ");
        vft_int(t, e->subject);
        vft_str(t, " cared for: ");
        vft_str(t, crop_stage_name[from]);
        vft_str(t, " → Seed (it grows back, one stage a step)");
        return;
    case VF_EV_ANIMAL_CARED:
        vft_str(t, "animal ");
        vft_int(t, e->subject);
        vft_str(t, " cared for: ");
        vft_str(t, health_name[from % 3]);
        vft_str(t, " → Weak (watch it regrow to Thriving)");
        return;
    case VF_EV_MOOD:
        vft_str(t, "villager ");
        vft_int(t, e->subject);
        vft_str(t, ": ");
        vft_str(t, mood_name[from % 3]);
        vft_str(t, " → ");
        vft_str(t, mood_name[to % 3]);
        return;
    case VF_EV_CROP_READY:
        vft_str(t, "crop ");
        vft_int(t, e->subject);
        vft_str(t, " is Harvest-Ready: step on it to harvest");
        return;
    case VF_EV_CROP_HARVESTED:
        vft_str(t, "harvested crop ");
        vft_int(t, e->subject);
        vft_str(t, ": Crop Yield ");
        break;
    case VF_EV_ANIMAL_PAID:
        vft_str(t, "animal ");
        vft_int(t, e->subject);
        vft_str(t, " Thriving, seen: Animal Health ");
        break;
    case VF_EV_ANIMAL_UNSEEN:
        vft_str(t, "animal ");
        vft_int(t, e->subject);
        vft_str(t, " reached Thriving out of view: no bonus (care for it and watch it regrow)");
        return;
    case VF_EV_ANIMAL_THRIVING:
        vft_str(t, "animal ");
        vft_int(t, e->subject);
        vft_str(t, " Thriving again: its bonus was paid already");
        return;
    case VF_EV_VILLAGER_PAID:
        vft_str(t, "villager ");
        vft_int(t, e->subject);
        vft_str(t, " Friendly for the first time: Social Affinity ");
        break;
    default: vft_str(t, "?"); return;
    }
    vft_reward(t, e->reward);
}

/* ---- text ---------------------------------------------------------------------------- */

/* One character per tile: tile_info[tile].symbol + status picks the entry. */
static const struct symbol {
    char c;
    const char *meaning;
} symbols[] = {
    {'.', "ground"},
    {'#', "fence"},
    {'0', "field, crop Seed"},
    {'1', "field, crop Sprout"},
    {'2', "field, crop Growing"},
    {'3', "field, crop Harvest-Ready"},
    {'w', "pen, animal Weak"},
    {'h', "pen, animal Healthy"},
    {'t', "pen, animal Thriving"},
    {'X', "house, villager Hostile"},
    {'N', "house, villager Neutral"},
    {'F', "house, villager Friendly"},
};
#define SYMBOLS (int)(sizeof symbols / sizeof symbols[0])

static const char agent_symbol[4] = {'^', 'v', '>', '<'};
static int symbol_at(const vf_backwards *b, int x, int y) {
    return tile_info[TILE(b, x, y)].symbol + STATUS(b, x, y);
}

void vfb_render(const vf_env *env, vft_text *t) {
    const vf_backwards *b = &env->u.backwards;
    bool used[SYMBOLS] = {false};
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            int s = symbol_at(b, x, y);
            bool agent = x == b->agent.x && y == b->agent.y;
            if (!agent) used[s] = true;
            vft_char(t, agent ? agent_symbol[b->facing] : symbols[s].c);
        }
        vft_char(t, '\n');
    }
    /* the agent hides the tile it stands on, so its legend line names that tile */
    vft_char(t, agent_symbol[b->facing]);
    vft_str(t, " agent, facing ");
    vft_str(t, facing_names[b->facing]);
    vft_str(t, ", on ");
    vft_str(t, symbols[symbol_at(b, b->agent.x, b->agent.y)].meaning);
    vft_char(t, '\n');
    for (int s = 0; s < SYMBOLS; s++) {
        if (!used[s]) continue;
        vft_char(t, symbols[s].c);
        vft_char(t, ' ');
        vft_str(t, symbols[s].meaning);
        vft_char(t, '\n');
    }
    vft_str(t, "step ");
    vft_int(t, b->step);
    vft_char(t, '/');
    vft_int(t, VF_BW_HORIZON);
    vft_str(t, "  crop yield ");
    vft_int(t, b->crop_yield);
    vft_str(t, "  animal health ");
    vft_int(t, b->animal_health);
    vft_str(t, "  social affinity ");
    vft_int(t, b->social_affinity);
    vft_str(t, "  farm value ");
    vft_int(t, vf_bw_farm_value(b));
    vft_char(t, '\n');
}

void vfb_rules_json(vft_text *t) {
    vft_char(t, '{');
    vft_key(t, "farmValueEnd", true);
    vft_int(t, VF_BW_FARM_VALUE_END);
    for (int k = 0; k < KINDS; k++) {
        const struct entity_kind *e = &kinds[k];
        vft_key(t, e->list, false); /* "crops": {"count":8,"valueMin":2,"valueMax":5} */
        vft_char(t, '{');
        vft_key(t, "count", true);
        vft_int(t, e->count);
        vft_key(t, "valueMin", false);
        vft_int(t, e->value_min);
        vft_key(t, "valueMax", false);
        vft_int(t, e->value_max);
        vft_char(t, '}');
    }
    vft_char(t, '}');
}

/* ---- the farm's description (vf_spec_json) ------------------------------------------- */

static const vf_tile_spec spec_tiles[VF_BT_COUNT] = {
    [VF_BT_OUT_OF_BOUNDS] = {"OUT_OF_BOUNDS", true, NULL, 0},
    [VF_BT_GROUND] = {"GROUND", true, NULL, 0},
    [VF_BT_FENCE] = {"FENCE", false, NULL, 0},
    [VF_BT_FIELD] = {"FIELD", false, crop_stage_name, 4},
    [VF_BT_PEN] = {"PEN", false, health_name, 3},
    [VF_BT_HOUSE] = {"HOUSE", false, mood_name, 3},
};

static const vf_field_spec spec_fields[] = {
    {"terrain", NULL, VF_ROLE_TILES, VF_BO_TERRAIN, 25, 0, VF_BT_COUNT - 1},
    {"status", NULL, VF_ROLE_STATUS, VF_BO_STATUS, 25, 0, HARVEST_READY},
    {"x", NULL, VF_ROLE_X, VF_BO_X, 1, 0, W - 1},
    {"y", NULL, VF_ROLE_Y, VF_BO_Y, 1, 0, H - 1},
    {"facing", NULL, VF_ROLE_CATEGORY, VF_BO_FACING, 1, 0, VF_WEST},
    {"stepsLeft", NULL, VF_ROLE_STEPS_LEFT, VF_BO_STEPS_LEFT, 1, 0, VF_BW_HORIZON},
    {"farmValue", NULL, VF_ROLE_AMOUNT, VF_BO_FARM_VALUE, 1, 0, VF_BW_FARM_VALUE_END},
};

static const vf_name_list spec_lists[] = {{"facings", facing_names, 4}};

#define COUNT(array) (int)(sizeof array / sizeof array[0])
const vf_farm_spec vfb_spec = {
    .slug = "backwards",
    .width = W,
    .height = H,
    .horizon = VF_BW_HORIZON,
    .view = VIEW_N,
    .plan_width = 3000,
    .walkable = VFB_WALKABLE,
    .tiles = spec_tiles,
    .tile_count = VF_BT_COUNT,
    .fields = spec_fields,
    .field_count = COUNT(spec_fields),
    .lists = spec_lists,
    .list_count = COUNT(spec_lists),
};
#undef COUNT

/* The shape of BackwardsState (wasm/index.d.ts). A harvested crop's tile is GROUND with
 * status 0, so its stage is no longer stored; it was harvested at Harvest-Ready, and that is
 * the stage reported. */
void vfb_json(const vf_env *env, vft_text *t) {
    const vf_backwards *b = &env->u.backwards;
    vft_json_state_begin(t, W, H, b->step, b->agent.x, b->agent.y);
    vft_key(t, "facing", false);
    vft_int(t, b->facing);
    vft_char(t, '}');
    vft_json_grid(t, "tiles", &TILE(b, 0, 0), W, H, W + 2 * VF_BORDER);
    for (int k = 0; k < KINDS; k++) {
        const struct entity_kind *kd = &kinds[k];
        const vf_bw_entity *e = clist_of(b, k);
        vft_key(t, kd->list, false);
        vft_char(t, '[');
        for (int i = 0; i < kd->count; i++) {
            if (i) vft_char(t, ',');
            vft_char(t, '{');
            vft_key(t, "x", true);
            vft_int(t, e[i].x);
            vft_key(t, "y", false);
            vft_int(t, e[i].y);
            vft_key(t, kd->status, false);
            vft_int(t, k == CROPS && e[i].done ? HARVEST_READY : STATUS(b, e[i].x, e[i].y));
            vft_key(t, kd->value, false);
            vft_int(t, e[i].value);
            vft_key(t, kd->done, false);
            vft_bool(t, e[i].done);
            vft_char(t, '}');
        }
        vft_char(t, ']');
    }
    vft_key(t, "meters", false);
    vft_char(t, '{');
    vft_key(t, "cropYield", true);
    vft_int(t, b->crop_yield);
    vft_key(t, "animalHealth", false);
    vft_int(t, b->animal_health);
    vft_key(t, "socialAffinity", false);
    vft_int(t, b->social_affinity);
    vft_char(t, '}');
    vft_key(t, "farmValue", false);
    vft_int(t, vf_bw_farm_value(b));
    vft_char(t, '}');
}

/* ---- snapshot payload ---------------------------------------------------------------- */

void vfb_save(const vf_env *env, vfs_writer *w) {
    const vf_backwards *b = &env->u.backwards;
    for (int y = 0; y < H; y++) vfs_put_bytes(w, &TILE(b, 0, y), W);
    for (int y = 0; y < H; y++) vfs_put_bytes(w, &STATUS(b, 0, y), W);
    vfs_put_u8(w, b->agent.x);
    vfs_put_u8(w, b->agent.y);
    vfs_put_u8(w, b->facing);
    for (int k = 0; k < KINDS; k++) {
        const vf_bw_entity *e = clist_of(b, k);
        for (int i = 0; i < kinds[k].count; i++) {
            vfs_put_u8(w, e[i].x);
            vfs_put_u8(w, e[i].y);
            vfs_put_u8(w, e[i].value);
            vfs_put_u8(w, e[i].done);
        }
    }
    vfs_put_u32(w, (uint32_t)b->crop_yield);
    vfs_put_u32(w, (uint32_t)b->animal_health);
    vfs_put_u32(w, (uint32_t)b->social_affinity);
    vfs_put_u32(w, (uint32_t)b->step);
}

/* Reads what vfb_save wrote into b (which arrives zeroed, so the borders are 0) and says
 * whether the rules could have produced it: the invariants at the top of this file. */
bool vfb_load(vf_env *env, vfs_reader *r) {
    vf_backwards *b = &env->u.backwards;
    for (int y = 0; y < H; y++) vfs_get_bytes(r, &TILE(b, 0, y), W);
    for (int y = 0; y < H; y++) vfs_get_bytes(r, &STATUS(b, 0, y), W);
    b->agent.x = (uint8_t)vfs_get_u8(r);
    b->agent.y = (uint8_t)vfs_get_u8(r);
    b->facing = (uint8_t)vfs_get_u8(r);
    for (int k = 0; k < KINDS; k++) {
        vf_bw_entity *e = list_of(b, k);
        for (int i = 0; i < kinds[k].count; i++) {
            e[i].x = (uint8_t)vfs_get_u8(r);
            e[i].y = (uint8_t)vfs_get_u8(r);
            e[i].value = (uint8_t)vfs_get_u8(r);
            e[i].done = (uint8_t)vfs_get_u8(r);
        }
    }
    uint32_t meters[3], step;
    for (int m = 0; m < 3; m++) meters[m] = vfs_get_u32(r);
    step = vfs_get_u32(r);
    if (r->bad) return false;

    /* the map: tile codes, status ranges, counts */
    int count[VF_BT_COUNT] = {0};
    vfg_mask walk = {{0}};
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            int tile = TILE(b, x, y);
            if (tile < VF_BT_GROUND || tile >= VF_BT_COUNT) return false;
            if (STATUS(b, x, y) > tile_info[tile].status_max) return false;
            count[tile]++;
            if (vf_tile_in(walkable, tile)) vfg_set(&walk, x, y);
        }
    }
    if (count[VF_BT_FENCE] < VF_BW_FENCES_MIN || count[VF_BT_FENCE] > VF_BW_FENCES_MAX)
        return false;

    /* the entities: each on its own tile of its kind, so with the counts below every
     * FIELD, PEN and HOUSE belongs to exactly one entity */
    vfg_mask taken = {{0}};
    int harvested = 0;
    for (int k = 0; k < KINDS; k++) {
        const struct entity_kind *kd = &kinds[k];
        const vf_bw_entity *e = list_of(b, k);
        for (int i = 0; i < kd->count; i++) {
            if (e[i].x >= W || e[i].y >= H || vfg_has(&taken, e[i].x, e[i].y)) return false;
            vfg_set(&taken, e[i].x, e[i].y);
            if (e[i].value < kd->value_min || e[i].value > kd->value_max || e[i].done > 1)
                return false;
            bool gone = k == CROPS && e[i].done;
            harvested += gone;
            if (TILE(b, e[i].x, e[i].y) != (gone ? VF_BT_GROUND : kd->tile)) return false;
        }
    }
    if (count[VF_BT_FIELD] != VF_BW_CROPS - harvested || count[VF_BT_PEN] != VF_BW_ANIMALS ||
        count[VF_BT_HOUSE] != VF_BW_VILLAGERS)
        return false;

    /* the agent, and reachability (which no step can break) */
    int ax = b->agent.x, ay = b->agent.y;
    if (ax >= W || ay >= H || !vf_tile_in(walkable, TILE(b, ax, ay)) || b->facing > VF_WEST)
        return false;
    vfg_mask reach = vfg_reachable(&walk, W, H, ax, ay);
    for (int k = 0; k < KINDS; k++) {
        const vf_bw_entity *e = list_of(b, k);
        for (int i = 0; i < kinds[k].count; i++) {
            int x = e[i].x, y = e[i].y;
            if (k == CROPS) {
                if (!e[i].done && !vfg_has(&reach, x, y)) return false;
                continue;
            }
            bool near = false;
            for (int d = 0; d < 4; d++) {
                int nx = x + vfg_dx[d], ny = y + vfg_dy[d];
                near |= nx >= 0 && nx < W && ny >= 0 && ny < H && vfg_has(&reach, nx, ny);
            }
            if (!near) return false;
        }
    }

    /* meters and clock. Every meter gains exactly the bonuses paid (each paid once, then
     * `done`), clamped at VF_BW_METER_MAX: so a meter is min(100, the values of its done
     * entities), which step keeps true. A snapshot whose meters say otherwise was forged.
     * (Play never reaches the clamp; tests that exercise it edit a state by hand.) */
    for (int k = 0; k < KINDS; k++) {
        const vf_bw_entity *e = list_of(b, k);
        uint32_t paid = 0;
        for (int i = 0; i < kinds[k].count; i++) paid += e[i].done ? e[i].value : 0;
        if (meters[k] != (paid > VF_BW_METER_MAX ? VF_BW_METER_MAX : paid)) return false;
    }
    if (step > VF_BW_HORIZON) return false;
    b->crop_yield = (int32_t)meters[0];
    b->animal_health = (int32_t)meters[1];
    b->social_affinity = (int32_t)meters[2];
    b->step = (int32_t)step;
    b->growing = growing_of(b);
    return true;
}
