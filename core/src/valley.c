/*
 * valley.c — ValleyFarm-v0, the rules of docs/rules/valley-farm.md: the layout generator,
 * the step function, the observation, the text views and the snapshot payload.
 *
 * Invariants the rest of this file relies on:
 *  - `tiles` keeps a VF_BORDER-wide frame of VF_VT_OUT_OF_BOUNDS (0) round the 15 x 15 map.
 *    Any neighbour of a map tile, and the 5 x 5 view round it, is therefore inside the
 *    array, and 0 is not walkable: a move off the map fails exactly like a move into a rock,
 *    with no bounds check on the hot path.
 *  - A soil tile's code is VF_VT_SOIL_EMPTY + its crop stage: the map is the crops' state.
 *  - Each animal stands directly south of a BARN and its tile code is VF_VT_CHICKEN + its
 *    species; each villager stands directly south of a COTTAGE on a VILLAGER tile. Nothing
 *    but the agent ever moves.
 *  - Rewards are integers in units of 0.05 (see REWARD_*), summed in reward_units and
 *    divided by 20 once on the way out, so every build reports the same exact doubles.
 */
#include <stddef.h>
#include <string.h>

#include "valley_rules.h"

static const int32_t start_inventory[VF_ITEM_COUNT] = {
    [VF_SEEDS] = START_SEEDS,
    [VF_WATER] = START_WATER,
    [VF_FEED] = START_FEED,
    [VF_GIFTS] = START_GIFTS, /* crops, products, coins 0 */
};

static const int32_t max_inventory[VF_ITEM_COUNT] = {
    [VF_SEEDS] = START_SEEDS, [VF_WATER] = START_WATER,     [VF_CROPS] = MAX_CROPS,
    [VF_FEED] = START_FEED,   [VF_PRODUCTS] = MAX_PRODUCTS, [VF_COINS] = MAX_COINS,
    [VF_GIFTS] = START_GIFTS,
};

/* ---- tile properties (data, indexed by tile code) ----------------------------------- */

/* The tiles one can walk on, as a set (vf_tile_in). */
static const uint32_t walkable = VFV_WALKABLE;
_Static_assert(VF_VT_COUNT <= 16, "a set of tile codes holds a bit per code");
_Static_assert(W <= VFG_MAX_W && H <= VFG_MAX_H, "the map fits the row bitmasks");
_Static_assert(W >= 8, "vfv_load scans each row as two overlapping 8-tile words");

static const char tile_symbol[VF_VT_COUNT] = {
    [VF_VT_OUT_OF_BOUNDS] = ' ', [VF_VT_GROUND] = '.',      [VF_VT_OBSTACLE] = '#',
    [VF_VT_SOIL_EMPTY] = '_',    [VF_VT_SOIL_SEEDED] = ',', [VF_VT_CROP_GROWING] = 'y',
    [VF_VT_CROP_MATURE] = 'Y',   [VF_VT_BARN] = 'B',        [VF_VT_CHICKEN] = 'c',
    [VF_VT_COW] = 'o',           [VF_VT_SHEEP] = 's',       [VF_VT_VILLAGER] = 'v',
    [VF_VT_MARKET] = '$',        [VF_VT_COTTAGE] = 'H',
};

static const char *const tile_name[VF_VT_COUNT] = {
    [VF_VT_OUT_OF_BOUNDS] = "out of bounds",
    [VF_VT_GROUND] = "ground",
    [VF_VT_OBSTACLE] = "obstacle",
    [VF_VT_SOIL_EMPTY] = "empty soil",
    [VF_VT_SOIL_SEEDED] = "seedling (stage 1)",
    [VF_VT_CROP_GROWING] = "growing crop (stage 2)",
    [VF_VT_CROP_MATURE] = "mature crop (stage 3)",
    [VF_VT_BARN] = "barn",
    [VF_VT_CHICKEN] = "chicken",
    [VF_VT_COW] = "cow",
    [VF_VT_SHEEP] = "sheep",
    [VF_VT_VILLAGER] = "villager",
    [VF_VT_MARKET] = "market",
    [VF_VT_COTTAGE] = "cottage",
};

static const char *const item_name[VF_ITEM_COUNT] = {
    "seeds", "water", "crops", "feed", "products", "coins", "gifts",
};

static const char *const species_name[VF_VALLEY_ANIMALS] = {"chicken", "cow", "sheep"};

const char *const vfv_action_names[VF_VALLEY_ACTIONS] = {
    "north",   "south", "east",    "west", "plant", "water",
    "harvest", "feed",  "collect", "gift", "sell",  "wait",
};

/* Gift targets are searched on the agent's tile, then north, east, south, west. */
static const int8_t gift_dx[5] = {0, 0, 1, 0, -1};
static const int8_t gift_dy[5] = {0, -1, 0, 1, 0};

static bool is_soil(int code) {
    return code >= VF_VT_SOIL_EMPTY && code <= VF_VT_CROP_MATURE;
}

/* 0 wary (r < 25), 1 neutral (25 <= r < 50), 2 friendly (r >= 50); r2 = 2 r. */
enum { NEUTRAL2 = 50, FRIENDLY2 = 100 }; /* relationship 25 and 50, in relationship2 */

static int mood(int relationship2) {
    return (relationship2 >= NEUTRAL2) + (relationship2 >= FRIENDLY2);
}

/* ---- layout generator ----------------------------------------------------------------
 *
 * Everything is drawn from one SplitMix64 stream seeded with the episode seed, with
 * integers only (vf_rng_below is unbiased), so a seed gives the same map everywhere.
 * One attempt, in this order:
 *   1. Map all GROUND (border 0). Species order: Fisher-Yates shuffle of (chicken, cow,
 *      sheep): for i = 2, 1: j = below(i + 1), swap [i] and [j].
 *   2. 3 barns, then 3 cottages: each draws k = below(15 * 14), x = k % 15, y = k / 15,
 *      redrawing until (x, y) and its south neighbour (x, y + 1) are both GROUND; the
 *      building goes on (x, y), its animal (species i of the shuffle) or villager on
 *      (x, y + 1).
 *   3. 4 SOIL_EMPTY tiles, 1 MARKET, 20 OBSTACLEs, then the agent's start: each a uniform
 *      GROUND tile, drawn as k = below(225), x = k % 15, y = k / 15, redrawn until GROUND.
 *   4. Flood fill from the start over walkable tiles (vfg_reachable); if any soil, animal,
 *      villager or market tile is not reached, the attempt is thrown away and a new one
 *      starts at step 1, continuing the same stream.
 * Then each villager, in placement order, gets relationship 10 * below(5).
 * A draw is rejected only when its tile is taken (at most 37 of 225 ever are), so an
 * attempt is ~45 draws, and about 1 attempt in 27 fails reachability: a reset costs under
 * a microsecond, over half of it in the flood fill. */

static vf_point draw_ground(const vf_valley *v, vf_rng *rng) {
    for (;;) {
        uint32_t k = vf_rng_below(rng, W * H);
        int x = (int)(k % W), y = (int)(k / W);
        if (TILE(v, x, y) == VF_VT_GROUND) return (vf_point){(uint8_t)x, (uint8_t)y};
    }
}

/* A GROUND tile whose south neighbour is GROUND too: a building and what stands below. */
static vf_point draw_ground_pair(const vf_valley *v, vf_rng *rng) {
    for (;;) {
        uint32_t k = vf_rng_below(rng, W * (H - 1));
        int x = (int)(k % W), y = (int)(k / W);
        if (TILE(v, x, y) == VF_VT_GROUND && TILE(v, x, y + 1) == VF_VT_GROUND)
            return (vf_point){(uint8_t)x, (uint8_t)y};
    }
}

static bool draw_layout(vf_valley *v, vf_rng *rng) {
    memset(v->tiles, VF_VT_OUT_OF_BOUNDS, sizeof v->tiles);
    for (int y = 0; y < H; y++) memset(&TILE(v, 0, y), VF_VT_GROUND, W);

    /* open: walkable tiles (all, until something unwalkable is placed); need: the tiles
     * that must be reachable from the start */
    vfg_mask open = {{0}}, need = {{0}};
    for (int y = 0; y < H; y++) open.rows[y] = (uint16_t)((1u << W) - 1u);

    uint8_t species[VF_VALLEY_ANIMALS] = {VF_CHICKEN, VF_COW, VF_SHEEP};
    for (int i = VF_VALLEY_ANIMALS - 1; i > 0; i--) {
        uint32_t j = vf_rng_below(rng, (uint32_t)i + 1);
        uint8_t s = species[i];
        species[i] = species[j];
        species[j] = s;
    }

    for (int i = 0; i < VF_VALLEY_ANIMALS; i++) {
        vf_point p = draw_ground_pair(v, rng);
        TILE(v, p.x, p.y) = VF_VT_BARN;
        TILE(v, p.x, p.y + 1) = (uint8_t)(VF_VT_CHICKEN + species[i]);
        open.rows[p.y] &= (uint16_t) ~(1u << p.x);
        vfg_set(&need, p.x, p.y + 1);
        v->animals[i] = (vf_valley_animal){p.x, (uint8_t)(p.y + 1), species[i], 0, 0, 0};
    }
    for (int i = 0; i < VF_VALLEY_VILLAGERS; i++) {
        vf_point p = draw_ground_pair(v, rng);
        TILE(v, p.x, p.y) = VF_VT_COTTAGE;
        TILE(v, p.x, p.y + 1) = VF_VT_VILLAGER;
        open.rows[p.y] &= (uint16_t) ~(1u << p.x);
        vfg_set(&need, p.x, p.y + 1);
        v->villagers[i] = (vf_valley_villager){p.x, (uint8_t)(p.y + 1), 0};
    }
    for (int i = 0; i < VF_VALLEY_CROPS; i++) {
        vf_point p = draw_ground(v, rng);
        TILE(v, p.x, p.y) = VF_VT_SOIL_EMPTY;
        vfg_set(&need, p.x, p.y);
        v->crops[i] = p;
    }
    v->market = draw_ground(v, rng);
    TILE(v, v->market.x, v->market.y) = VF_VT_MARKET;
    vfg_set(&need, v->market.x, v->market.y);
    for (int i = 0; i < VF_VALLEY_OBSTACLES; i++) {
        vf_point p = draw_ground(v, rng);
        TILE(v, p.x, p.y) = VF_VT_OBSTACLE;
        open.rows[p.y] &= (uint16_t) ~(1u << p.x);
    }
    v->agent = draw_ground(v, rng);
    return vfv_reaches(&open, &need, v->agent);
}

bool vfv_reaches(const vfg_mask *open, const vfg_mask *need, vf_point from) {
    vfg_mask reached = vfg_reachable(open, W, H, from.x, from.y);
    for (int y = 0; y < H; y++)
        if (need->rows[y] & ~reached.rows[y]) return false;
    return true;
}

void vfv_reset(vf_env *env, uint64_t seed) {
    vf_valley *v = &env->u.valley;
    vf_rng rng = vf_rng_seeded(seed);
    while (!draw_layout(v, &rng)) {
    }
    for (int i = 0; i < VF_VALLEY_VILLAGERS; i++)
        v->villagers[i].relationship2 = (uint8_t)(20 * vf_rng_below(&rng, 5));
    memcpy(v->inventory, start_inventory, sizeof v->inventory);
    v->step = 0;
    v->reward_units = 0;
}

/* ---- preconditions (shared by vfv_step and vfv_legal_actions, so they cannot drift) -- */

/* The animal standing on tile `code`, or -1 when it is not an animal tile. */
static int animal_on(const vf_valley *v, int code) {
    unsigned species = (unsigned)(code - VF_VT_CHICKEN);
    if (species >= VF_VALLEY_ANIMALS) return -1;
    for (int i = 0; i < VF_VALLEY_ANIMALS; i++)
        if (v->animals[i].species == species) return i;
    return -1;
}

static bool can_plant(const vf_valley *v) {
    return TILE(v, v->agent.x, v->agent.y) == VF_VT_SOIL_EMPTY && v->inventory[VF_SEEDS] > 0;
}

static bool can_water(const vf_valley *v) {
    int code = TILE(v, v->agent.x, v->agent.y);
    return (code == VF_VT_SOIL_SEEDED || code == VF_VT_CROP_GROWING) && v->inventory[VF_WATER] > 0;
}

static bool can_harvest(const vf_valley *v) {
    return TILE(v, v->agent.x, v->agent.y) == VF_VT_CROP_MATURE;
}

/* The hungry animal under the agent when there is feed to give it, else -1. */
static int feed_target(const vf_valley *v) {
    int a = animal_on(v, TILE(v, v->agent.x, v->agent.y));
    if (a < 0 || v->animals[a].sated_steps_left > 0 || v->inventory[VF_FEED] <= 0) return -1;
    return a;
}

/* The animal under the agent when it has products waiting, else -1. */
static int collect_target(const vf_valley *v) {
    int a = animal_on(v, TILE(v, v->agent.x, v->agent.y));
    return a >= 0 && v->animals[a].pending > 0 ? a : -1;
}

/* The villager a gift goes to: the first below 100 on the agent's tile, north, east,
 * south, west; -1 when there is none or no gift to give. */
static int gift_target(const vf_valley *v) {
    if (v->inventory[VF_GIFTS] <= 0) return -1;
    for (int k = 0; k < 5; k++) {
        int x = v->agent.x + gift_dx[k], y = v->agent.y + gift_dy[k];
        if (TILE(v, x, y) != VF_VT_VILLAGER) continue;
        for (int i = 0; i < VF_VALLEY_VILLAGERS; i++) {
            const vf_valley_villager *h = &v->villagers[i];
            if (h->x == x && h->y == y && h->relationship2 < RELATIONSHIP2_MAX) return i;
        }
    }
    return -1;
}

static bool can_sell(const vf_valley *v) {
    return TILE(v, v->agent.x, v->agent.y) == VF_VT_MARKET &&
           v->inventory[VF_CROPS] + v->inventory[VF_PRODUCTS] > 0;
}

/* The same preconditions as above, dispatched once on the tile under the agent (only one
 * of plant, water, harvest, feed, collect and sell can hold on any tile): the vector env
 * computes this after every step, so it must cost a fraction of one. */
void vfv_legal_actions(const vf_valley *v, uint8_t *mask) {
    const int x = v->agent.x, y = v->agent.y;
    const int here = TILE(v, x, y), north = TILE(v, x, y - 1), south = TILE(v, x, y + 1),
              east = TILE(v, x + 1, y), west = TILE(v, x - 1, y);
    uint32_t bits = 1u << VF_VA_WAIT;
    bits |= (uint32_t)vf_tile_in(walkable, north) << VF_VA_NORTH;
    bits |= (uint32_t)vf_tile_in(walkable, south) << VF_VA_SOUTH;
    bits |= (uint32_t)vf_tile_in(walkable, east) << VF_VA_EAST;
    bits |= (uint32_t)vf_tile_in(walkable, west) << VF_VA_WEST;
    switch (here) {
    case VF_VT_SOIL_EMPTY: bits |= (uint32_t)can_plant(v) << VF_VA_PLANT; break;
    case VF_VT_SOIL_SEEDED:
    case VF_VT_CROP_GROWING: bits |= (uint32_t)can_water(v) << VF_VA_WATER; break;
    case VF_VT_CROP_MATURE: bits |= 1u << VF_VA_HARVEST; break;
    case VF_VT_CHICKEN:
    case VF_VT_COW:
    case VF_VT_SHEEP:
        bits |= (uint32_t)(feed_target(v) >= 0) << VF_VA_FEED;
        bits |= (uint32_t)(collect_target(v) >= 0) << VF_VA_COLLECT;
        break;
    case VF_VT_MARKET: bits |= (uint32_t)can_sell(v) << VF_VA_SELL; break;
    default: break;
    }
    /* Most of a random walk has no villager in reach: the five tiles tested with no branch
     * each settle that before gift_target looks closer. */
    const bool villager_near = (here == VF_VT_VILLAGER) | (north == VF_VT_VILLAGER) |
                               (south == VF_VT_VILLAGER) | (east == VF_VT_VILLAGER) |
                               (west == VF_VT_VILLAGER);
    if (villager_near && v->inventory[VF_GIFTS] > 0)
        bits |= (uint32_t)(gift_target(v) >= 0) << VF_VA_GIFT;
    vf_mask_from_bits(mask, bits, VF_VALLEY_ACTIONS);
}

/* The rule that blocks an action, checked in the order the rules document lists them:
 * the same preconditions as vfv_legal_actions, one at a time (for players, not for speed). */
vf_why vfv_why_illegal(const vf_env *env, int action) {
    const vf_valley *v = &env->u.valley;
    const int here = TILE(v, v->agent.x, v->agent.y);
    const int32_t *inv = v->inventory;
    switch (action) {
    case VF_VA_NORTH:
    case VF_VA_SOUTH:
    case VF_VA_EAST:
    case VF_VA_WEST: {
        const int there = TILE(v, v->agent.x + vfg_dx[action], v->agent.y + vfg_dy[action]);
        return vf_tile_in(walkable, there) ? VF_WHY_LEGAL : VF_WHY_BLOCKED;
    }
    case VF_VA_PLANT:
        if (here != VF_VT_SOIL_EMPTY) return VF_WHY_NOT_ON_EMPTY_SOIL;
        return inv[VF_SEEDS] > 0 ? VF_WHY_LEGAL : VF_WHY_NO_SEEDS;
    case VF_VA_WATER:
        if (here != VF_VT_SOIL_SEEDED && here != VF_VT_CROP_GROWING)
            return VF_WHY_NOT_ON_YOUNG_CROP;
        return inv[VF_WATER] > 0 ? VF_WHY_LEGAL : VF_WHY_NO_WATER;
    case VF_VA_HARVEST: return here == VF_VT_CROP_MATURE ? VF_WHY_LEGAL : VF_WHY_NOT_ON_MATURE_CROP;
    case VF_VA_FEED: {
        const int a = animal_on(v, here);
        if (a < 0) return VF_WHY_NOT_ON_ANIMAL;
        if (v->animals[a].sated_steps_left > 0) return VF_WHY_ANIMAL_SATED;
        return inv[VF_FEED] > 0 ? VF_WHY_LEGAL : VF_WHY_NO_FEED;
    }
    case VF_VA_COLLECT: {
        const int a = animal_on(v, here);
        if (a < 0) return VF_WHY_NOT_ON_ANIMAL;
        return v->animals[a].pending > 0 ? VF_WHY_LEGAL : VF_WHY_NO_PRODUCTS;
    }
    case VF_VA_GIFT: {
        if (inv[VF_GIFTS] <= 0) return VF_WHY_NO_GIFTS;
        bool near = false;
        for (int k = 0; k < 5; k++)
            near |= TILE(v, v->agent.x + gift_dx[k], v->agent.y + gift_dy[k]) == VF_VT_VILLAGER;
        if (!near) return VF_WHY_NO_VILLAGER_NEAR;
        return gift_target(v) >= 0 ? VF_WHY_LEGAL : VF_WHY_VILLAGERS_AT_MAX;
    }
    case VF_VA_SELL:
        if (here != VF_VT_MARKET) return VF_WHY_NOT_ON_MARKET;
        return inv[VF_CROPS] + inv[VF_PRODUCTS] > 0 ? VF_WHY_LEGAL : VF_WHY_NOTHING_TO_SELL;
    default: return VF_WHY_LEGAL; /* wait */
    }
}

int vfv_step_count(const vf_env *env) {
    return env->u.valley.step;
}

int32_t vfv_reward_units(const vf_env *env) {
    return env->u.valley.reward_units;
}

/* ---- observation --------------------------------------------------------------------- */

static int center_value(const vf_valley *v, int x, int y) {
    int code = TILE(v, x, y);
    if (is_soil(code)) return code - VF_VT_SOIL_EMPTY;
    int a = animal_on(v, code);
    if (a >= 0) return v->animals[a].sated_steps_left > 0;
    if (code == VF_VT_VILLAGER) {
        for (int i = 0; i < VF_VALLEY_VILLAGERS; i++)
            if (v->villagers[i].x == x && v->villagers[i].y == y)
                return mood(v->villagers[i].relationship2);
    }
    return 0;
}

_Static_assert(VF_VO_VIEW + 25 + VFG_VIEW5_OVERRUN <= VF_VALLEY_OBS_SIZE,
               "vfg_view5 overruns the view into fields written after it");
_Static_assert(offsetof(vf_valley, tiles) + sizeof(((vf_valley *)0)->tiles) + VFG_VIEW5_OVERRUN <=
                   sizeof(vf_valley),
               "vfg_view5 reads past the map's last row, inside the state");

/* (x, y) is the agent's cell: the step passes the one it has just computed, so the view's
 * address does not wait for the position to be stored and read back. `restrict`: obs never
 * overlaps the state; without it the compiler must assume that each int32 store may change
 * the map bytes (uint8_t may alias anything) and reload them after every store. */
VF_ALWAYS_INLINE void observe(const vf_valley *restrict v, int32_t *restrict obs, int x, int y) {
    /* padded row y + VF_BORDER is the agent's, so the view's rows start at padded row y */
    enum { PITCH = W + 2 * VF_BORDER };
    vfg_view5(obs + VF_VO_VIEW, &v->tiles[y][x], PITCH); /* overruns into what follows */
    obs[VF_VO_CENTER] = center_value(v, x, y);
    for (int i = 0; i < VF_ITEM_COUNT; i++) obs[VF_VO_INVENTORY + i] = v->inventory[i];
    /* the nearest multiple of 5, halves up: (r2 + 5) / 10 * 5, the division written as a
     * multiply and shift (exact for r2 + 5 < 1029), which WebAssembly engines do not do */
    for (int i = 0; i < VF_VALLEY_VILLAGERS; i++)
        obs[VF_VO_RELATIONSHIPS + i] = ((v->villagers[i].relationship2 + 5) * 205 >> 11) * 5;
    obs[VF_VO_STEPS_LEFT] = VF_VALLEY_HORIZON - v->step;
}

void vfv_observe(const vf_env *env, int32_t *restrict obs) {
    const vf_valley *restrict v = &env->u.valley;
    observe(v, obs, v->agent.x, v->agent.y);
}

/* ---- the step ------------------------------------------------------------------------ */

/* For each action that works on the agent's tile, the tiles (a bit per tile code) on which
 * it can do anything at all; on any other tile it is a wait. A filter, not the rule:
 * act() checks the whole precondition. Gift looks at the neighbours too, so it always
 * gets a look. Random play mostly stands on ground, where no action but a move or a gift
 * acts, and the step then takes no branch that depends on the action. */
#define ON VF_TILE_BIT
static const uint16_t acts_on[VF_VALLEY_ACTIONS] = {
    [VF_VA_PLANT] = ON(VF_VT_SOIL_EMPTY),
    [VF_VA_WATER] = ON(VF_VT_SOIL_SEEDED) | ON(VF_VT_CROP_GROWING),
    [VF_VA_HARVEST] = ON(VF_VT_CROP_MATURE),
    [VF_VA_FEED] = ON(VF_VT_CHICKEN) | ON(VF_VT_COW) | ON(VF_VT_SHEEP),
    [VF_VA_COLLECT] = ON(VF_VT_CHICKEN) | ON(VF_VT_COW) | ON(VF_VT_SHEEP),
    [VF_VA_GIFT] = 0xFFFFu,
    [VF_VA_SELL] = ON(VF_VT_MARKET),
};
#undef ON
_Static_assert(VF_VALLEY_ACTIONS <= 16, "vfg_dx covers every action");

/* Plays one of the actions in acts_on: returns whether it was legal, and adds its reward
 * to *units. *fed is the animal fed this step (its first tick is next step's). */
static bool act(vf_valley *v, int action, int32_t *units, int *fed) {
    uint8_t *here = &TILE(v, v->agent.x, v->agent.y);
    int32_t *inv = v->inventory;
    bool legal = false;

    switch (action) {
    case VF_VA_PLANT:
        legal = can_plant(v);
        if (legal) {
            inv[VF_SEEDS]--;
            *here = VF_VT_SOIL_SEEDED;
        }
        break;
    case VF_VA_WATER:
        legal = can_water(v);
        if (legal) {
            inv[VF_WATER]--;
            (*here)++; /* the next crop stage is the next tile code */
        }
        break;
    case VF_VA_HARVEST:
        legal = can_harvest(v);
        if (legal) {
            inv[VF_CROPS]++;
            *here = VF_VT_SOIL_EMPTY;
            *units = REWARD_HARVEST;
        }
        break;
    case VF_VA_FEED:
        *fed = feed_target(v);
        legal = *fed >= 0;
        if (legal) {
            inv[VF_FEED]--;
            v->animals[*fed].sated_steps_left = SATED_TICKS;
            v->animals[*fed].counter = 0;
        }
        break;
    case VF_VA_COLLECT: {
        int a = collect_target(v);
        legal = a >= 0;
        if (legal) {
            vf_valley_animal *an = &v->animals[a];
            inv[VF_PRODUCTS] += an->pending;
            *units = REWARD_PRODUCT * an->pending;
            an->pending = 0;
            an->counter = 0;
        }
        break;
    }
    case VF_VA_GIFT: {
        int i = gift_target(v);
        legal = i >= 0;
        if (legal) {
            vf_valley_villager *h = &v->villagers[i];
            int r2 = h->relationship2 + GIFT_STEP2;
            if (r2 > RELATIONSHIP2_MAX) r2 = RELATIONSHIP2_MAX;
            *units = REWARD_GIFT2 * (r2 - h->relationship2);
            h->relationship2 = (uint8_t)r2;
            inv[VF_GIFTS]--;
        }
        break;
    }
    case VF_VA_SELL:
        legal = can_sell(v);
        if (legal) {
            int64_t r2sum = (int64_t)v->villagers[0].relationship2 + v->villagers[1].relationship2 +
                            v->villagers[2].relationship2;
            int64_t base =
                (int64_t)PRICE_CROP * inv[VF_CROPS] + (int64_t)PRICE_PRODUCT * inv[VF_PRODUCTS];
            int32_t coins = (int32_t)(base * (PRICE_DIVISOR + r2sum) / PRICE_DIVISOR);
            inv[VF_COINS] += coins;
            inv[VF_CROPS] = 0;
            inv[VF_PRODUCTS] = 0;
            *units = REWARD_COIN * coins;
        }
        break;
    default: break;
    }
    return legal;
}

vf_outcome vfv_step(vf_valley *v, int action, int32_t *obs) {
    int32_t units = 0; /* the reward, in units of 0.05 */
    int fed = -1;      /* the animal fed this step, which does not tick yet */

    /* a move, without branching on the action (see acts_on) */
    const int ax = v->agent.x, ay = v->agent.y;
    const int nx = ax + vfg_dx[action], ny = ay + vfg_dy[action];
    const bool moved = (action < 4) & vf_tile_in(walkable, TILE(v, nx, ny));
    const int x = moved ? nx : ax, y = moved ? ny : ay; /* where the agent ends up */
    v->agent.x = (uint8_t)x;
    v->agent.y = (uint8_t)y;
    bool legal = moved | (action == VF_VA_WAIT);
    if (vf_tile_in(acts_on[action], TILE(v, ax, ay))) legal = act(v, action, &units, &fed);

    for (int i = 0; i < VF_VALLEY_ANIMALS; i++) {
        vf_valley_animal *an = &v->animals[i];
        if (an->sated_steps_left == 0 || i == fed) continue;
        if (++an->counter == PRODUCT_TICKS) {
            an->pending++;
            an->counter = 0;
        }
        an->sated_steps_left--;
    }

    v->step++;
    v->reward_units += units;
    if (obs) observe(v, obs, x, y); /* here, not in a second call: the state is at hand */
    return vf_outcome_make((uint32_t)units, v->step >= VF_VALLEY_HORIZON, legal);
}

/* ---- events (vf_step_explained) ------------------------------------------------------ */

static double reward_of_units(int32_t units) {
    return (double)units / 20.0;
}

/* The action's own event comes first, then each animal's tick, in animal order. A step has
 * at most 1 + 2 x 3 events (an animal cannot both make a product and go hungry twice). */
int vfv_explain(const vf_env *before, const vf_env *after, int action, bool legal, vf_event *ev) {
    const vf_valley *b = &before->u.valley, *a = &after->u.valley;
    const int x = b->agent.x, y = b->agent.y;
    int n = 0, fed = -1, collected = -1;
    vf_event *e;
    if (legal) switch (action) {
        case VF_VA_PLANT:
            vf_event_add(ev, &n, VF_EV_PLANTED, -1, x, y)->count = a->inventory[VF_SEEDS];
            break;
        case VF_VA_WATER:
            e = vf_event_add(ev, &n, VF_EV_WATERED, -1, x, y);
            e->before = TILE(b, x, y) - VF_VT_SOIL_EMPTY;
            e->after = TILE(a, x, y) - VF_VT_SOIL_EMPTY;
            e->count = a->inventory[VF_WATER];
            break;
        case VF_VA_HARVEST:
            e = vf_event_add(ev, &n, VF_EV_HARVESTED, -1, x, y);
            e->count = a->inventory[VF_CROPS];
            e->reward = reward_of_units(REWARD_HARVEST);
            break;
        case VF_VA_FEED:
            fed = animal_on(b, TILE(b, x, y));
            vf_event_add(ev, &n, VF_EV_FED, fed, x, y)->count = a->inventory[VF_FEED];
            break;
        case VF_VA_COLLECT:
            collected = animal_on(b, TILE(b, x, y));
            e = vf_event_add(ev, &n, VF_EV_COLLECTED, collected, x, y);
            e->count = b->animals[collected].pending;
            e->reward = reward_of_units(REWARD_PRODUCT * e->count);
            break;
        case VF_VA_GIFT: {
            const int i = gift_target(b);
            const vf_valley_villager *h = &a->villagers[i];
            e = vf_event_add(ev, &n, VF_EV_GIFT, i, h->x, h->y);
            e->before = b->villagers[i].relationship2 / 2.0;
            e->after = h->relationship2 / 2.0;
            e->count = a->inventory[VF_GIFTS];
            e->count2 = mood(h->relationship2);
            e->reward =
                reward_of_units(REWARD_GIFT2 * (h->relationship2 - b->villagers[i].relationship2));
            break;
        }
        case VF_VA_SELL: {
            const int r2sum = b->villagers[0].relationship2 + b->villagers[1].relationship2 +
                              b->villagers[2].relationship2;
            const int coins = a->inventory[VF_COINS] - b->inventory[VF_COINS];
            e = vf_event_add(ev, &n, VF_EV_SOLD, -1, x, y);
            e->count = b->inventory[VF_CROPS];
            e->count2 = b->inventory[VF_PRODUCTS];
            e->before = (double)(PRICE_DIVISOR + r2sum) / PRICE_DIVISOR;
            e->after = coins;
            e->reward = reward_of_units(REWARD_COIN * coins);
            break;
        }
        default: break; /* moves and wait: nothing to tell */
        }
    for (int i = 0; i < VF_VALLEY_ANIMALS; i++) {
        const vf_valley_animal *was = &b->animals[i], *is = &a->animals[i];
        if (i == fed) continue; /* fed this step: its first tick is the next step's */
        if (is->pending > (i == collected ? 0 : was->pending))
            vf_event_add(ev, &n, VF_EV_PRODUCT, i, is->x, is->y)->count = is->pending;
        if (was->sated_steps_left > 0 && is->sated_steps_left == 0)
            vf_event_add(ev, &n, VF_EV_HUNGRY, i, is->x, is->y);
    }
    return n;
}

static const char *const mood_name[3] = {"wary", "neutral", "friendly"};

static void text_count(vft_text *t, int n, const char *one, const char *many) {
    vft_int(t, n);
    vft_char(t, ' ');
    vft_str(t, n == 1 ? one : many);
}

void vfv_event_text(const vf_env *env, const vf_event *e, vft_text *t) {
    const vf_valley *v = &env->u.valley;
    const char *animal = (unsigned)e->subject < VF_VALLEY_ANIMALS
                             ? species_name[v->animals[e->subject].species]
                             : "animal";
    switch (e->kind) {
    case VF_EV_PLANTED:
        vft_str(t, "planted a seed (");
        text_count(t, e->count, "seed", "seeds");
        vft_str(t, " left)");
        return;
    case VF_EV_WATERED:
        vft_str(t, "watered the crop: stage ");
        vft_int(t, (int64_t)e->before);
        vft_str(t, " → ");
        vft_int(t, (int64_t)e->after);
        vft_str(t, " (");
        vft_int(t, e->count);
        vft_str(t, " water left)");
        return;
    case VF_EV_HARVESTED: vft_str(t, "harvested a crop: "); break;
    case VF_EV_FED:
        vft_str(t, "fed the ");
        vft_str(t, animal);
        vft_str(t, ": sated for 10 ticks, a product every 5 (");
        vft_int(t, e->count);
        vft_str(t, " feed left)");
        return;
    case VF_EV_COLLECTED:
        vft_str(t, "collected ");
        text_count(t, e->count, "product", "products");
        vft_str(t, " from the ");
        vft_str(t, animal);
        vft_str(t, ": ");
        break;
    case VF_EV_GIFT:
        vft_str(t, "gift to villager ");
        vft_int(t, e->subject);
        vft_str(t, ": relationship ");
        vft_fixed(t, (int64_t)(e->before * 10), 1);
        vft_str(t, " → ");
        vft_fixed(t, (int64_t)(e->after * 10), 1);
        vft_str(t, " (");
        vft_str(t, mood_name[e->count2 % 3]);
        vft_str(t, "), ");
        break;
    case VF_EV_SOLD: {
        vft_str(t, "sold ");
        text_count(t, e->count, "crop", "crops");
        vft_str(t, " and ");
        text_count(t, e->count2, "product", "products");
        vft_str(t, " at ");
        vft_fixed(t, (int64_t)(e->before * 1000 + 0.5), 1); /* the multiplier in % */
        vft_str(t, " %: ");
        vft_int(t, (int64_t)e->after);
        vft_str(t, " coins, ");
        break;
    }
    case VF_EV_PRODUCT:
        vft_str(t, "the ");
        vft_str(t, animal);
        vft_str(t, " made a product (");
        vft_int(t, e->count);
        vft_str(t, " waiting: collect them)");
        return;
    case VF_EV_HUNGRY:
        vft_str(t, "the ");
        vft_str(t, animal);
        vft_str(t, " is hungry again");
        return;
    default: vft_str(t, "?"); return;
    }
    vft_reward(t, e->reward);
}

/* ---- text ---------------------------------------------------------------------------- */

void vfv_render(const vf_env *env, vft_text *t) {
    const vf_valley *v = &env->u.valley;
    bool used[VF_VT_COUNT] = {false};
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            int code = TILE(v, x, y);
            bool agent = x == v->agent.x && y == v->agent.y;
            if (!agent) used[code] = true;
            vft_char(t, agent ? '@' : tile_symbol[code]);
        }
        vft_char(t, '\n');
    }
    vft_str(t, "@ agent, on ");
    vft_str(t, tile_name[TILE(v, v->agent.x, v->agent.y)]);
    vft_char(t, '\n');
    for (int code = 0; code < VF_VT_COUNT; code++) {
        if (!used[code]) continue;
        vft_char(t, tile_symbol[code]);
        vft_char(t, ' ');
        vft_str(t, tile_name[code]);
        vft_char(t, '\n');
    }
    vft_str(t, "step ");
    vft_int(t, v->step);
    vft_char(t, '/');
    vft_int(t, VF_VALLEY_HORIZON);
    for (int i = 0; i < VF_ITEM_COUNT; i++) {
        vft_str(t, i == 0 ? " | " : ", ");
        vft_str(t, item_name[i]);
        vft_char(t, ' ');
        vft_int(t, v->inventory[i]);
    }
    vft_str(t, " | relationships");
    for (int i = 0; i < VF_VALLEY_VILLAGERS; i++) {
        vft_char(t, ' ');
        vft_fixed(t, v->villagers[i].relationship2 * 5, 1);
    }
    vft_str(t, " | reward ");
    vft_fixed(t, (int64_t)v->reward_units * 5, 2);
    vft_char(t, '\n');
}

static void json_xy(vft_text *t, int x, int y) {
    vft_key(t, "x", true);
    vft_int(t, x);
    vft_key(t, "y", false);
    vft_int(t, y);
}

void vfv_rules_json(vft_text *t) {
    static const struct {
        const char *key;
        int value;
    } ints[] = {
        {"satedTicks", SATED_TICKS},
        {"productTicks", PRODUCT_TICKS},
        {"priceCrop", PRICE_CROP},
        {"priceProduct", PRICE_PRODUCT},
        {"startSeeds", START_SEEDS},
        {"startWater", START_WATER},
        {"startFeed", START_FEED},
        {"startGifts", START_GIFTS},
        {"wateringsPerCrop", WATERINGS_PER_CROP},
        {"maxCrops", SHOWN_MAX_CROPS},
        {"maxProducts", MAX_PRODUCTS},
        {"maxCoins", SHOWN_MAX_COINS},
        {"relationshipMax", RELATIONSHIP2_MAX / 2},
    };
    vft_char(t, '{');
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        vft_key(t, ints[i].key, i == 0);
        vft_int(t, ints[i].value);
    }
    /* relationship2 and reward units are halves and twentieths */
    vft_key(t, "giftPoints", false);
    vft_fixed(t, GIFT_STEP2 * 5, 1);
    vft_key(t, "moodThresholds", false);
    vft_char(t, '[');
    vft_int(t, NEUTRAL2 / 2); /* mood(): wary below 25, neutral below 50, then friendly */
    vft_char(t, ',');
    vft_int(t, FRIENDLY2 / 2);
    vft_char(t, ']');
    static const struct {
        const char *key;
        int units;
    } rewards[] = {{"rewardHarvest", REWARD_HARVEST},
                   {"rewardProduct", REWARD_PRODUCT},
                   {"rewardCoin", REWARD_COIN},
                   {"rewardRelationshipPoint", 2 * REWARD_GIFT2}};
    for (size_t i = 0; i < sizeof rewards / sizeof rewards[0]; i++) {
        vft_key(t, rewards[i].key, false);
        vft_fixed(t, rewards[i].units * 5, 2); /* units of 0.05 = 5 hundredths */
    }
    vft_char(t, '}');
}

/* ---- the farm's description (vf_spec_json) ------------------------------------------- */

static const vf_tile_spec spec_tiles[VF_VT_COUNT] = {
    [VF_VT_OUT_OF_BOUNDS] = {"OUT_OF_BOUNDS", true, NULL, 0},
    [VF_VT_GROUND] = {"GROUND", true, NULL, 0},
    [VF_VT_OBSTACLE] = {"OBSTACLE", false, NULL, 0},
    [VF_VT_SOIL_EMPTY] = {"SOIL_EMPTY", false, NULL, 0},
    [VF_VT_SOIL_SEEDED] = {"SOIL_SEEDED", false, NULL, 0},
    [VF_VT_CROP_GROWING] = {"CROP_GROWING", false, NULL, 0},
    [VF_VT_CROP_MATURE] = {"CROP_MATURE", false, NULL, 0},
    [VF_VT_BARN] = {"BARN", false, NULL, 0},
    [VF_VT_CHICKEN] = {"CHICKEN", false, NULL, 0},
    [VF_VT_COW] = {"COW", false, NULL, 0},
    [VF_VT_SHEEP] = {"SHEEP", false, NULL, 0},
    [VF_VT_VILLAGER] = {"VILLAGER", false, NULL, 0},
    [VF_VT_MARKET] = {"MARKET", false, NULL, 0},
    [VF_VT_COTTAGE] = {"COTTAGE", false, NULL, 0},
};

/* The bounds are the rules' (what an episode can reach), not what play usually reaches:
 * the inventory's as vfv_rules_json derives them; the centre is a crop stage (0..3), an
 * animal's sated flag or a villager's mood (0..2). */
#define ITEM(name, item, max)                                                                      \
    { name, "inventory", VF_ROLE_AMOUNT, VF_VO_INVENTORY + (item), 1, 0, max }
static const vf_field_spec spec_fields[] = {
    {"view", NULL, VF_ROLE_TILES, VF_VO_VIEW, 25, 0, VF_VT_COUNT - 1},
    {"center", NULL, VF_ROLE_CATEGORY, VF_VO_CENTER, 1, 0, VF_VT_CROP_MATURE - VF_VT_SOIL_EMPTY},
    ITEM("seeds", VF_SEEDS, START_SEEDS),
    ITEM("water", VF_WATER, START_WATER),
    ITEM("crops", VF_CROPS, SHOWN_MAX_CROPS),
    ITEM("feed", VF_FEED, START_FEED),
    ITEM("products", VF_PRODUCTS, MAX_PRODUCTS),
    ITEM("coins", VF_COINS, SHOWN_MAX_COINS),
    ITEM("gifts", VF_GIFTS, START_GIFTS),
    {"relationships", NULL, VF_ROLE_AMOUNT, VF_VO_RELATIONSHIPS, VF_VALLEY_VILLAGERS, 0,
     RELATIONSHIP2_MAX / 2},
    {"stepsLeft", NULL, VF_ROLE_STEPS_LEFT, VF_VO_STEPS_LEFT, 1, 0, VF_VALLEY_HORIZON},
};
#undef ITEM

static const vf_name_list spec_lists[] = {
    {"species", species_name, VF_VALLEY_ANIMALS},
    {"moods", mood_name, 3},
};

#define COUNT(array) (int)(sizeof array / sizeof array[0])
const vf_farm_spec vfv_spec = {
    .slug = "valley",
    .width = W,
    .height = H,
    .horizon = VF_VALLEY_HORIZON,
    .view = 5,         /* vfg_view5 */
    .plan_width = 300, /* on seeds 1-30 the trip search finds the same plans as at 20000 */
    .walkable = VFV_WALKABLE,
    .tiles = spec_tiles,
    .tile_count = VF_VT_COUNT,
    .fields = spec_fields,
    .field_count = COUNT(spec_fields),
    .lists = spec_lists,
    .list_count = COUNT(spec_lists),
};
#undef COUNT

void vfv_json(const vf_env *env, vft_text *t) {
    const vf_valley *v = &env->u.valley;
    vft_json_state_begin(t, W, H, v->step, v->agent.x, v->agent.y);
    vft_char(t, '}');
    vft_json_grid(t, "tiles", &TILE(v, 0, 0), W, H, W + 2 * VF_BORDER);

    vft_key(t, "inventory", false);
    vft_char(t, '{');
    for (int i = 0; i < VF_ITEM_COUNT; i++) {
        vft_key(t, item_name[i], i == 0);
        vft_int(t, v->inventory[i]);
    }
    vft_char(t, '}');

    vft_key(t, "crops", false);
    vft_char(t, '[');
    for (int i = 0; i < VF_VALLEY_CROPS; i++) {
        const vf_point *c = &v->crops[i];
        vft_str(t, i ? ",{" : "{");
        json_xy(t, c->x, c->y);
        vft_key(t, "stage", false);
        vft_int(t, TILE(v, c->x, c->y) - VF_VT_SOIL_EMPTY);
        vft_char(t, '}');
    }
    vft_char(t, ']');

    vft_key(t, "animals", false);
    vft_char(t, '[');
    for (int i = 0; i < VF_VALLEY_ANIMALS; i++) {
        const vf_valley_animal *a = &v->animals[i];
        vft_str(t, i ? ",{" : "{");
        json_xy(t, a->x, a->y);
        vft_key(t, "species", false);
        vft_char(t, '"');
        vft_str(t, a->species < VF_VALLEY_ANIMALS ? species_name[a->species] : "?");
        vft_char(t, '"');
        vft_key(t, "sated", false);
        vft_bool(t, a->sated_steps_left > 0);
        vft_key(t, "satedStepsLeft", false);
        vft_int(t, a->sated_steps_left);
        vft_key(t, "counter", false);
        vft_int(t, a->counter);
        vft_key(t, "pending", false);
        vft_int(t, a->pending);
        vft_char(t, '}');
    }
    vft_char(t, ']');

    vft_key(t, "villagers", false);
    vft_char(t, '[');
    for (int i = 0; i < VF_VALLEY_VILLAGERS; i++) {
        const vf_valley_villager *h = &v->villagers[i];
        vft_str(t, i ? ",{" : "{");
        json_xy(t, h->x, h->y);
        vft_key(t, "relationship", false);
        vft_fixed(t, h->relationship2 * 5, 1); /* r2 / 2 = r2 * 5 / 10, exact */
        vft_key(t, "mood", false);
        vft_int(t, mood(h->relationship2));
        vft_char(t, '}');
    }
    vft_char(t, ']');

    vft_key(t, "market", false);
    vft_char(t, '{');
    json_xy(t, v->market.x, v->market.y);
    vft_char(t, '}');
    vft_key(t, "totalReward", false);
    vft_fixed(t, (int64_t)v->reward_units * 5, 2); /* units / 20 = units * 5 / 100 */
    vft_char(t, '}');
}

/* ---- snapshot payload -----------------------------------------------------------------
 * tiles (15 rows of 15 bytes, no border), agent x y, market x y, crops 4 x (x y),
 * animals 3 x (x y species sated_steps_left counter pending), villagers 3 x (x y
 * relationship2), inventory 7 x u32, step u32, reward_units u32. */

static void put_point(vfs_writer *w, vf_point p) {
    vfs_put_u8(w, p.x);
    vfs_put_u8(w, p.y);
}

static vf_point get_point(vfs_reader *r) {
    vf_point p;
    p.x = (uint8_t)vfs_get_u8(r);
    p.y = (uint8_t)vfs_get_u8(r);
    return p;
}

void vfv_save(const vf_env *env, vfs_writer *w) {
    const vf_valley *v = &env->u.valley;
    for (int y = 0; y < H; y++) vfs_put_bytes(w, &TILE(v, 0, y), W);
    put_point(w, v->agent);
    put_point(w, v->market);
    for (int i = 0; i < VF_VALLEY_CROPS; i++) put_point(w, v->crops[i]);
    for (int i = 0; i < VF_VALLEY_ANIMALS; i++) {
        const vf_valley_animal *a = &v->animals[i];
        vfs_put_u8(w, a->x);
        vfs_put_u8(w, a->y);
        vfs_put_u8(w, a->species);
        vfs_put_u8(w, a->sated_steps_left);
        vfs_put_u8(w, a->counter);
        vfs_put_u8(w, a->pending);
    }
    for (int i = 0; i < VF_VALLEY_VILLAGERS; i++) {
        vfs_put_u8(w, v->villagers[i].x);
        vfs_put_u8(w, v->villagers[i].y);
        vfs_put_u8(w, v->villagers[i].relationship2);
    }
    for (int i = 0; i < VF_ITEM_COUNT; i++) vfs_put_u32(w, (uint32_t)v->inventory[i]);
    vfs_put_u32(w, (uint32_t)v->step);
    vfs_put_u32(w, (uint32_t)v->reward_units);
}

/* How many tiles of each code a map has (soil counted apart: its 4 tiles may be at any
 * stage; GROUND is whatever is left). */
static const uint8_t tile_count[VF_VT_COUNT] = {
    [VF_VT_OBSTACLE] = VF_VALLEY_OBSTACLES,
    [VF_VT_BARN] = VF_VALLEY_ANIMALS,
    [VF_VT_CHICKEN] = 1,
    [VF_VT_COW] = 1,
    [VF_VT_SHEEP] = 1,
    [VF_VT_VILLAGER] = VF_VALLEY_VILLAGERS,
    [VF_VT_MARKET] = 1,
    [VF_VT_COTTAGE] = VF_VALLEY_VILLAGERS,
};

static bool on_map(int x, int y) {
    return x < W && y < H; /* coordinates are unsigned bytes */
}

/* Marks (x, y) as taken by an entity; false when it is off the map or taken already. */
static bool claim(vfg_mask *taken, int x, int y) {
    if (!on_map(x, y) || vfg_has(taken, x, y)) return false;
    vfg_set(taken, x, y);
    return true;
}

/* What is left to earn, from the inventory and the map: crops in the ground and seeds still
 * to plant; products pending, to come from the animals' satiation, and from the feed left;
 * one gift step per gift: what the restore checks count. */
typedef struct resources {
    int planted, waterings; /* crops in the ground, and the waterings they hold */
    int to_come;            /* products pending or still to come from current feedings */
    int32_t crops_left, products_left, coins_left, units_left;
} resources;

static resources resources_of(const vf_valley *v) {
    const int32_t *inv = v->inventory;
    resources r = {0};
    for (int i = 0; i < VF_VALLEY_CROPS; i++) {
        int stage = TILE(v, v->crops[i].x, v->crops[i].y) - VF_VT_SOIL_EMPTY;
        r.planted += stage > 0;
        r.waterings += stage > 1 ? stage - 1 : 0;
    }
    /* products still to come from each animal: pending ones, and one per PRODUCT_TICKS of
     * its counter plus the ticks it stays sated (a tick moves one from the second term to
     * the first; a collection moves them to the inventory and may lose some, never gain) */
    for (int i = 0; i < VF_VALLEY_ANIMALS; i++) {
        const vf_valley_animal *a = &v->animals[i];
        r.to_come += a->pending + (a->counter + a->sated_steps_left) / PRODUCT_TICKS;
    }
    const int per_feeding = SATED_TICKS / PRODUCT_TICKS;
    r.crops_left = inv[VF_CROPS] + r.planted + inv[VF_SEEDS];
    r.products_left = inv[VF_PRODUCTS] + r.to_come + per_feeding * inv[VF_FEED];
    /* a sale pays at most twice its base price */
    r.coins_left = 2 * (PRICE_CROP * r.crops_left + PRICE_PRODUCT * r.products_left);
    r.units_left = REWARD_HARVEST * (r.planted + inv[VF_SEEDS]) +
                   REWARD_PRODUCT * (r.to_come + per_feeding * inv[VF_FEED]) +
                   inv[VF_GIFTS] * GIFT_STEP2 * REWARD_GIFT2 + REWARD_COIN * r.coins_left;
    return r;
}

/* The accounts every reachable state keeps, for vfv_load. Each holds at reset and no step
 * can break it, so the states restore accepts are closed under step: what a restored state
 * does next can always be snapshotted and restored again. They do not prove a state
 * reachable; they refuse what could only have been forged, such as more crops, products,
 * coins or reward than the resources spent could have made. */
static bool resources_add_up(const vf_valley *v) {
    const int32_t *inv = v->inventory;
    resources r = resources_of(v);
    /* plant moves a seed into the ground, harvest a ground crop into the inventory */
    if (inv[VF_CROPS] + r.planted > START_SEEDS - inv[VF_SEEDS]) return false;
    /* each watering adds a stage; a harvested crop took two */
    if (2 * inv[VF_CROPS] + r.waterings > START_WATER - inv[VF_WATER]) return false;
    /* a feeding lasts SATED_TICKS: at most SATED_TICKS / PRODUCT_TICKS products */
    if (inv[VF_PRODUCTS] + r.to_come > (SATED_TICKS / PRODUCT_TICKS) * (START_FEED - inv[VF_FEED]))
        return false;
    /* coins and reward so far, plus the most what is left could still earn, stay within
     * the bounds derived above from the start inventory (a sale lowers coins_left by twice
     * its base price and pays at most that) */
    if (inv[VF_COINS] + r.coins_left > MAX_COINS) return false;
    return v->reward_units + r.units_left <= MAX_REWARD_UNITS;
}

/* The 8 tiles at p as one little-endian word (shifts, not a cast: any byte order, any
 * alignment; compilers turn it into one load). */
static uint64_t load8(const uint8_t *p) {
    uint64_t w = 0;
    for (int k = 0; k < 8; k++) w |= (uint64_t)p[k] << (8 * k);
    return w;
}

#define BYTES(b) (0x0101010101010101ull * (b))

/* Bit 7 of each byte of the result is set where that byte of w is not ground. */
static uint64_t not_ground(uint64_t w) {
    uint64_t x = w ^ BYTES(VF_VT_GROUND);
    return (((x & BYTES(0x7f)) + BYTES(0x7f)) | x) & BYTES(0x80);
}

bool vfv_load(vf_env *env, vfs_reader *r) {
    vf_valley *v = &env->u.valley;
    vfg_mask open = {{0}}, need = {{0}}, taken = {{0}};
    memset(v->tiles, VF_VT_OUT_OF_BOUNDS, sizeof v->tiles); /* the frame is not saved */
    /* Restore is on search's hot path, and most of a map is ground: each row is scanned 8
     * tiles at a time for the tiles that are not ground, and only those are looked at.
     * Counts are bytes in two registers (codes 0-7 and 8-15; a map has 225 tiles, so no
     * byte overflows), not an array, whose increments would queue behind each other. */
    uint64_t low = 0, high = 0;
    uint32_t bad = 0;
    for (int y = 0; y < H; y++) {
        uint8_t *row = &TILE(v, 0, y);
        vfs_get_bytes(r, row, W);
        uint32_t open_row = (1u << W) - 1, need_row = 0; /* ground is walkable, not needed */
        uint64_t words[2] = {not_ground(load8(row)), not_ground(load8(row + W - 8)) & ~0xffull};
        for (int half = 0; half < 2; half++) {
            const int x0 = half ? W - 8 : 0;
            for (uint64_t t = words[half]; t; t &= t - 1) {
                const int x = x0 + (__builtin_ctzll(t) >> 3);
                const unsigned code = row[x];
                bad |= code - VF_VT_GROUND >= VF_VT_COUNT - VF_VT_GROUND;
                const uint64_t one = 1ull << ((code & 7) * 8);
                low += code < 8 ? one : 0;
                high += code < 8 ? 0 : one;
                const uint32_t walk = vf_tile_in(walkable, (int)(code & 15));
                open_row &= ~((walk ^ 1u) << x);
                need_row |= walk << x;
            }
        }
        open.rows[y] = (uint16_t)open_row;
        need.rows[y] = (uint16_t)need_row;
    }
    if (bad) return false;
    int counts[16];
    for (int code = 0; code < 8; code++) {
        counts[code] = (int)((low >> (code * 8)) & 0xff);
        counts[code + 8] = (int)((high >> (code * 8)) & 0xff);
    }
    int soil = counts[VF_VT_SOIL_EMPTY] + counts[VF_VT_SOIL_SEEDED] + counts[VF_VT_CROP_GROWING] +
               counts[VF_VT_CROP_MATURE];
    if (soil != VF_VALLEY_CROPS) return false;
    for (int code = 0; code < VF_VT_COUNT; code++)
        if (!is_soil(code) && code != VF_VT_GROUND && counts[code] != tile_count[code])
            return false;

    v->agent = get_point(r);
    v->market = get_point(r);
    if (!on_map(v->agent.x, v->agent.y) || !vf_tile_in(walkable, TILE(v, v->agent.x, v->agent.y)))
        return false;
    if (!claim(&taken, v->market.x, v->market.y) ||
        TILE(v, v->market.x, v->market.y) != VF_VT_MARKET)
        return false;
    for (int i = 0; i < VF_VALLEY_CROPS; i++) {
        vf_point c = v->crops[i] = get_point(r);
        if (!claim(&taken, c.x, c.y) || !is_soil(TILE(v, c.x, c.y))) return false;
    }
    /* with each tile claimed once and the counts above, the 3 animals cover the 3 animal
     * tiles (one per species) and the 3 villagers the 3 villager tiles */
    for (int i = 0; i < VF_VALLEY_ANIMALS; i++) {
        vf_valley_animal *a = &v->animals[i];
        a->x = (uint8_t)vfs_get_u8(r);
        a->y = (uint8_t)vfs_get_u8(r);
        a->species = (uint8_t)vfs_get_u8(r);
        a->sated_steps_left = (uint8_t)vfs_get_u8(r);
        a->counter = (uint8_t)vfs_get_u8(r);
        a->pending = (uint8_t)vfs_get_u8(r);
        if (!claim(&taken, a->x, a->y) || a->species >= VF_VALLEY_ANIMALS ||
            TILE(v, a->x, a->y) != VF_VT_CHICKEN + a->species ||
            TILE(v, a->x, a->y - 1) != VF_VT_BARN || a->sated_steps_left > SATED_TICKS ||
            a->counter >= PRODUCT_TICKS || a->pending > MAX_PRODUCTS)
            return false;
    }
    for (int i = 0; i < VF_VALLEY_VILLAGERS; i++) {
        vf_valley_villager *h = &v->villagers[i];
        h->x = (uint8_t)vfs_get_u8(r);
        h->y = (uint8_t)vfs_get_u8(r);
        h->relationship2 = (uint8_t)vfs_get_u8(r);
        if (!claim(&taken, h->x, h->y) || TILE(v, h->x, h->y) != VF_VT_VILLAGER ||
            TILE(v, h->x, h->y - 1) != VF_VT_COTTAGE || h->relationship2 > RELATIONSHIP2_MAX)
            return false;
    }
    for (int i = 0; i < VF_ITEM_COUNT; i++) {
        uint32_t n = vfs_get_u32(r); /* a negative count reads as a huge one */
        if (n > (uint32_t)max_inventory[i]) return false;
        v->inventory[i] = (int32_t)n;
    }
    uint32_t step = vfs_get_u32(r), units = vfs_get_u32(r);
    if (step > VF_VALLEY_HORIZON || units > MAX_REWARD_UNITS) return false;
    v->step = (int32_t)step;
    v->reward_units = (int32_t)units;
    if (!resources_add_up(v)) return false;

    /* the agent only ever walks within its start's region, which reaches every target */
    return vfv_reaches(&open, &need, v->agent);
}
