/*
 * valley_farm.h — the whole public C API of the valley-farm engine.
 *
 * Two reinforcement-learning environments on small grid farms:
 *
 *   ValleyFarm-v0           15 x 15 farm, 50 steps, 12 actions, 37-integer observation.
 *                           Rules: docs/rules/valley-farm.md
 *   BackwardsValleyFarm-v0  10 x 10 farm whose dynamics are inverted, 40 steps,
 *                           11 actions, 55-integer observation.
 *                           Rules: docs/rules/backwards-farm.md
 *
 * Running an episode:
 *
 *     vf_env env;                                   // caller-owned, sizeof(vf_env) bytes
 *     int32_t obs[VF_OBS_MAX];
 *     vf_reset(&env, VF_VALLEY, 42, obs);           // same seed -> same everything
 *     double ret = 0;
 *     for (;;) {
 *         vf_step_result r = vf_step(&env, VF_VA_WAIT, obs);
 *         ret += r.reward;
 *         if (r.terminated) break;
 *     }
 *
 * Design rules the engine keeps, and that callers may rely on:
 *  - No global mutable state: everything lives in the vf_env the caller owns, so any number of
 *    envs (a block of thousands, for a vector env) can run side by side, on any thread.
 *  - No allocation and no I/O anywhere in the library. Text output goes into caller buffers.
 *  - Deterministic: the layout comes from one documented generator (SplitMix64, see
 *    vf_rng_next) seeded with the 64-bit episode seed; no floating point is used on the
 *    layout path or in the rules. Rewards are kept as exact integers internally and only
 *    converted to double on the way out, so native and WebAssembly builds agree bit for bit.
 *
 * Coordinates: x grows east, y grows south; north is y - 1. Directions are numbered like the
 * move actions: 0 north, 1 south, 2 east, 3 west.
 */
#ifndef VALLEY_FARM_H
#define VALLEY_FARM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================================================================
 * Environment kinds
 * ==================================================================================== */

typedef enum vf_kind {
    VF_VALLEY = 0,    /* "ValleyFarm-v0" */
    VF_BACKWARDS = 1, /* "BackwardsValleyFarm-v0" */
#ifdef VF_TEST_UNLISTED_KIND
    VF_UNLISTED, /* a kind no farm implements: CMakeLists.txt checks that it does not build */
#endif
    VF_KIND_COUNT
} vf_kind;

/* The env id string of a kind ("ValleyFarm-v0"), or NULL for a kind out of range. */
const char *vf_kind_name(int kind);

/* The kind whose id is `name`, or -1 when no env has that id. */
int vf_kind_from_name(const char *name);

/* Number of actions: 12 for the valley, 11 for the backwards farm. 0 for a bad kind. */
int vf_num_actions(int kind);

/* Length of the flat observation: 37 for the valley, 55 for the backwards farm. */
int vf_obs_size(int kind);

/* The name of an action as the rules files spell it ("north", "plant", ...), or NULL. */
const char *vf_action_name(int kind, int action);

#define VF_OBS_MAX     55 /* the longest flat observation, for buffers that serve both kinds */
#define VF_ACTIONS_MAX 12

/* Directions, shared by both farms (and equal to the move action ids). */
enum { VF_NORTH = 0, VF_SOUTH = 1, VF_EAST = 2, VF_WEST = 3 };

/* ======================================================================================
 * ValleyFarm-v0 (docs/rules/valley-farm.md)
 * ==================================================================================== */

#define VF_VALLEY_W         15
#define VF_VALLEY_H         15
#define VF_VALLEY_HORIZON   50
#define VF_VALLEY_CROPS     4
#define VF_VALLEY_ANIMALS   3
#define VF_VALLEY_VILLAGERS 3
#define VF_VALLEY_OBSTACLES 20
#define VF_VALLEY_OBS_SIZE  37
#define VF_VALLEY_ACTIONS   12

/* Tile codes, as the observation shows them. */
enum vf_valley_tile {
    VF_VT_OUT_OF_BOUNDS = 0, /* only in the observation, for cells off the map */
    VF_VT_GROUND = 1,
    VF_VT_OBSTACLE = 2,
    VF_VT_SOIL_EMPTY = 3,   /* crop stage 0; the stage of a soil tile is code - 3 */
    VF_VT_SOIL_SEEDED = 4,  /* stage 1 */
    VF_VT_CROP_GROWING = 5, /* stage 2 */
    VF_VT_CROP_MATURE = 6,  /* stage 3 */
    VF_VT_BARN = 7,         /* not walkable; its animal stands on the tile south of it */
    VF_VT_CHICKEN = 8,      /* animal tiles: code = VF_VT_CHICKEN + species */
    VF_VT_COW = 9,
    VF_VT_SHEEP = 10,
    VF_VT_VILLAGER = 11, /* a villager's home tile, south of its cottage */
    VF_VT_MARKET = 12,
    VF_VT_COTTAGE = 13, /* not walkable */
    VF_VT_COUNT = 14
};

enum vf_valley_action {
    VF_VA_NORTH = 0,
    VF_VA_SOUTH = 1,
    VF_VA_EAST = 2,
    VF_VA_WEST = 3,
    VF_VA_PLANT = 4,
    VF_VA_WATER = 5,
    VF_VA_HARVEST = 6,
    VF_VA_FEED = 7,
    VF_VA_COLLECT = 8,
    VF_VA_GIFT = 9,
    VF_VA_SELL = 10,
    VF_VA_WAIT = 11
};

enum vf_valley_species { VF_CHICKEN = 0, VF_COW = 1, VF_SHEEP = 2 };

/* Inventory slots, in the order of the observation. */
enum vf_valley_item {
    VF_SEEDS = 0,
    VF_WATER = 1,
    VF_CROPS = 2,
    VF_FEED = 3,
    VF_PRODUCTS = 4,
    VF_COINS = 5,
    VF_GIFTS = 6,
    VF_ITEM_COUNT = 7
};

/* Offsets into the flat 37-integer observation. */
enum vf_valley_obs {
    VF_VO_VIEW = 0,           /* 25 tile codes, 5 x 5 around the agent, north row first */
    VF_VO_CENTER = 25,        /* crop stage / animal sated / villager mood under the agent */
    VF_VO_INVENTORY = 26,     /* 7 counts, in vf_valley_item order */
    VF_VO_RELATIONSHIPS = 33, /* 3 relationships rounded to a multiple of 5 (halves up) */
    VF_VO_STEPS_LEFT = 36
};

/* Width of the out-of-bounds border around the stored map: the 5 x 5 view around any
 * tile then reads inside the array, with no bounds checks on the hot path. */
#define VF_BORDER 2

typedef struct vf_point {
    uint8_t x, y;
} vf_point;

typedef struct vf_valley_animal {
    uint8_t x, y;             /* the tile it stands on (its barn is at y - 1) */
    uint8_t species;          /* vf_valley_species */
    uint8_t sated_steps_left; /* 10 right after feeding, -1 per tick; 0 = hungry */
    uint8_t counter;          /* ticks since the last product or collection, 0..4 */
    uint8_t pending;          /* products waiting to be collected */
} vf_valley_animal;

typedef struct vf_valley_villager {
    uint8_t x, y;          /* its home tile (its cottage is at y - 1) */
    uint8_t relationship2; /* twice the relationship, 0..200: relationships move in steps of
                              2.5, so this is exact; the relationship is relationship2 / 2 */
} vf_valley_villager;

/* The full state of one ValleyFarm-v0 episode. */
typedef struct vf_valley {
    /* The map; tile (x, y) is tiles[y + VF_BORDER][x + VF_BORDER] (see vf_valley_tile).
     * Soil tiles carry their crop stage in their code, so this is also the crops' state. */
    uint8_t tiles[VF_VALLEY_H + 2 * VF_BORDER][VF_VALLEY_W + 2 * VF_BORDER];
    vf_point agent;
    vf_point market;
    vf_point crops[VF_VALLEY_CROPS]; /* soil tiles, in generator order */
    vf_valley_animal animals[VF_VALLEY_ANIMALS];
    vf_valley_villager villagers[VF_VALLEY_VILLAGERS];
    int32_t inventory[VF_ITEM_COUNT]; /* vf_valley_item order */
    int32_t step;                     /* actions taken this episode, 0..50 */
    int32_t reward_units;             /* total reward so far, in units of 0.05 */
} vf_valley;

/* ======================================================================================
 * BackwardsValleyFarm-v0 (docs/rules/backwards-farm.md)
 * ==================================================================================== */

#define VF_BW_W              10
#define VF_BW_H              10
#define VF_BW_HORIZON        40
#define VF_BW_CROPS          8
#define VF_BW_ANIMALS        3
#define VF_BW_VILLAGERS      3
#define VF_BW_FENCES_MIN     6
#define VF_BW_FENCES_MAX     12
#define VF_BW_METER_MAX      100
#define VF_BW_FARM_VALUE_END 300 /* Farm Value that ends the episode early */
#define VF_BW_OBS_SIZE       55
#define VF_BW_ACTIONS        11

enum vf_bw_tile {
    VF_BT_OUT_OF_BOUNDS = 0,
    VF_BT_GROUND = 1,
    VF_BT_FENCE = 2,
    VF_BT_FIELD = 3, /* status: crop stage 0 Seed, 1 Sprout, 2 Growing, 3 Harvest-Ready */
    VF_BT_PEN = 4,   /* status: animal health 0 Weak, 1 Healthy, 2 Thriving */
    VF_BT_HOUSE = 5, /* status: villager mood 0 Hostile, 1 Neutral, 2 Friendly */
    VF_BT_COUNT = 6
};

enum vf_bw_action {
    VF_BA_NORTH = 0,
    VF_BA_SOUTH = 1,
    VF_BA_EAST = 2,
    VF_BA_WEST = 3,
    VF_BA_WAIT = 4,
    VF_BA_WATER = 5,
    VF_BA_FERTILIZE = 6,
    VF_BA_FEED = 7,
    VF_BA_CLEAN = 8,
    VF_BA_COMPLIMENT = 9,
    VF_BA_INSULT = 10
};

/* Offsets into the flat 55-integer observation. */
enum vf_bw_obs {
    VF_BO_TERRAIN = 0, /* 25 tile codes, 5 x 5 around the agent, north row first */
    VF_BO_STATUS = 25, /* 25 status values for the same cells */
    VF_BO_X = 50,
    VF_BO_Y = 51,
    VF_BO_FACING = 52,
    VF_BO_STEPS_LEFT = 53,
    VF_BO_FARM_VALUE = 54
};

/* A field, pen or house and its hidden values. Its visible value (crop stage, animal
 * health, villager mood) lives in vf_backwards.status at its tile, the one place it is
 * kept, because the observation reads it from there. */
typedef struct vf_bw_entity {
    uint8_t x, y;  /* its FIELD, PEN or HOUSE tile */
    uint8_t value; /* crop: value 2..5; animal: bonus 1..3; villager: bonus 3..6 */
    uint8_t done;  /* crop: harvested; animal / villager: bonus paid ("rewarded") */
} vf_bw_entity;

/* The full state of one BackwardsValleyFarm-v0 episode. */
typedef struct vf_backwards {
    /* Tile codes and status values; (x, y) is [y + VF_BORDER][x + VF_BORDER]. */
    uint8_t tiles[VF_BW_H + 2 * VF_BORDER][VF_BW_W + 2 * VF_BORDER];
    uint8_t status[VF_BW_H + 2 * VF_BORDER][VF_BW_W + 2 * VF_BORDER];
    vf_point agent;
    uint8_t facing; /* VF_NORTH .. VF_WEST */
    vf_bw_entity crops[VF_BW_CROPS];
    vf_bw_entity animals[VF_BW_ANIMALS];
    vf_bw_entity villagers[VF_BW_VILLAGERS];
    int32_t crop_yield, animal_health, social_affinity; /* the meters, each 0..100 */
    int32_t step;                                       /* actions taken this episode, 0..40 */
    /* Derived from the fields above, for speed: bit i is set while crop i (0..7), or
     * animal i - 8 (8..10), still grows in the background tick (a crop unharvested and
     * below Harvest-Ready, an animal below Thriving). Reset, step and restore keep it;
     * code that edits a state by hand calls vf_rederive afterwards (sanitizer builds,
     * VF_CHECK_DERIVED, stop at the next step when it did not). */
    uint32_t growing;
} vf_backwards;

/* ======================================================================================
 * One environment, either kind
 * ==================================================================================== */

/* Caller-owned: declare it, or allocate sizeof(vf_env) bytes (an array of them for a
 * vector env). It holds no pointers, so it may be copied with memcpy. vf_reset or
 * vf_restore initialises it; before that its contents are undefined. */
typedef struct vf_env {
    uint64_t seed; /* the seed of the current episode */
    int32_t kind;  /* vf_kind */
    union {
        vf_valley valley;
        vf_backwards backwards;
    } u;
} vf_env;

typedef struct vf_step_result {
    double reward;         /* >= 0; exact: a multiple of 0.05 (valley) or an integer */
    bool terminated;       /* the episode is over; call vf_reset to play on */
    bool action_was_legal; /* false: the action changed nothing but the clock (a wait) */
} vf_step_result;

/* Rebuilds the fields the engine derives from the others (vf_backwards.growing) after
 * code has edited env's state by hand, as tests and tools do. vf_reset, vf_step and
 * vf_restore keep them up to date themselves. */
void vf_rederive(vf_env *env);

/* Starts a new episode of `kind` (vf_kind) drawn from `seed`, and writes its first
 * observation into `obs` (vf_obs_size(kind) integers) unless obs is NULL.
 * Returns false, leaving env untouched, only when kind is not a vf_kind. */
bool vf_reset(vf_env *env, int kind, uint64_t seed, int32_t *obs);

/* Plays one action and writes the next observation into `obs` (unless NULL).
 * An illegal action is played as a wait: the step is spent, nothing else changes.
 * Not an error, but no step either: an action id outside [0, vf_num_actions), or stepping
 * a terminated episode; the env is unchanged and the result is {0, terminated, false}.
 * No allocation, no I/O. */
vf_step_result vf_step(vf_env *env, int action, int32_t *obs);

/* Writes the current observation (vf_obs_size integers). */
void vf_observe(const vf_env *env, int32_t *obs);

/* Writes vf_num_actions bytes: 1 where the action is legal now (changes more than the
 * clock), else 0. The valley's wait and the backwards farm's wait are always legal. */
void vf_legal_actions(const vf_env *env, uint8_t *mask);

/* Why an action is illegal: the rule that blocks it, one code for both farms (each farm
 * uses the codes listed in its rules document, docs/rules/). VF_WHY_LEGAL when the action
 * is legal. Where several rules block an action, the first in this list is reported. */
typedef enum vf_why {
    VF_WHY_LEGAL = 0,
    VF_WHY_NOT_AN_ACTION,      /* the id is outside [0, vf_num_actions) */
    VF_WHY_EPISODE_OVER,       /* the episode has ended: reset first */
    VF_WHY_BLOCKED,            /* a move into a tile one cannot walk on, or off the map
                                    (backwards: only when already facing that way) */
    VF_WHY_NOT_ON_EMPTY_SOIL,  /* valley plant: the agent is not on empty soil */
    VF_WHY_NO_SEEDS,           /* valley plant: no seeds left */
    VF_WHY_NOT_ON_YOUNG_CROP,  /* valley water: not on a seedling or growing crop */
    VF_WHY_NO_WATER,           /* valley water: no water left */
    VF_WHY_NOT_ON_MATURE_CROP, /* valley harvest */
    VF_WHY_NOT_ON_ANIMAL,      /* valley feed, collect */
    VF_WHY_ANIMAL_SATED,       /* valley feed: the animal was fed and is not hungry yet */
    VF_WHY_NO_FEED,            /* valley feed: no feed left */
    VF_WHY_NO_PRODUCTS,        /* valley collect: the animal has no products waiting */
    VF_WHY_NO_GIFTS,           /* valley gift: no gifts left */
    VF_WHY_NO_VILLAGER_NEAR,   /* valley gift: no villager on or next to the agent's tile */
    VF_WHY_VILLAGERS_AT_MAX,   /* valley gift: every villager in reach is at 100 already */
    VF_WHY_NOT_ON_MARKET,      /* valley sell */
    VF_WHY_NOTHING_TO_SELL,    /* valley sell: no crops and no products */
    VF_WHY_NO_FIELD_IN_FRONT,  /* backwards water, fertilize */
    VF_WHY_NO_PEN_IN_FRONT,    /* backwards feed, clean */
    VF_WHY_NO_HOUSE_IN_FRONT,  /* backwards compliment, insult */
    VF_WHY_VILLAGER_HOSTILE,   /* backwards compliment: the mood is Hostile, it can't drop */
    VF_WHY_VILLAGER_FRIENDLY,  /* backwards insult: the mood is Friendly, it can't rise */
    VF_WHY_COUNT
} vf_why;

/* The rule that blocks `action` in env's current state (VF_WHY_LEGAL when none does):
 * vf_why_illegal(env, a) == VF_WHY_LEGAL exactly when vf_legal_actions marks a legal and
 * the episode is running. Read-only; cheap enough to ask before every step. */
vf_why vf_why_illegal(const vf_env *env, int action);

/* A vf_why's short stable code ("no-seeds") and a sentence for players ("you have no
 * seeds left"); NULL for a value outside [0, VF_WHY_COUNT). */
const char *vf_why_code(int why);
const char *vf_why_text(int why);

/* ---- what a step did: events ----------------------------------------------------------
 *
 * vf_step_explained plays a step exactly as vf_step does and also lists what happened in it
 * and what each part of the reward was for: "gift to villager 2: relationship 40 -> 47.5,
 * +3.75". It is the slow path, for players, logs and replays (it copies the state before
 * the step and compares); agents in a hurry call vf_step. The rewards of a step's events
 * add up to the step's reward exactly. Fields a kind does not list are 0 (subject -1). */
typedef enum vf_event_kind {
    VF_EV_NONE = 0,
    /* ValleyFarm-v0; x, y is where it happened */
    VF_EV_PLANTED,   /* count: seeds left */
    VF_EV_WATERED,   /* before -> after: the crop stage; count: water left */
    VF_EV_HARVESTED, /* count: crops held; reward 0.1 */
    VF_EV_FED,       /* subject: the animal; count: feed left; sated for the next 10 ticks */
    VF_EV_COLLECTED, /* subject: the animal; count: products taken; reward 0.2 each */
    VF_EV_GIFT,      /* subject: the villager; before -> after: relationship; count: gifts
                        left; count2: the mood after (0 wary, 1 neutral, 2 friendly);
                        reward 0.5 x the gain */
    VF_EV_SOLD,      /* count: crops, count2: products; before: the price multiplier;
                        after: the coins paid; reward 0.1 a coin */
    VF_EV_PRODUCT,   /* subject: the animal that made a product; count: products waiting */
    VF_EV_HUNGRY,    /* subject: the animal whose feeding ran out */
    /* BackwardsValleyFarm-v0; x, y is the entity's FIELD, PEN or HOUSE tile */
    VF_EV_CROP_CARED,      /* subject: the crop; before -> 0: its stage (back to Seed) */
    VF_EV_ANIMAL_CARED,    /* subject: the animal; before -> 0: its health (back to Weak) */
    VF_EV_MOOD,            /* subject: the villager; before -> after: its mood */
    VF_EV_CROP_READY,      /* subject: a crop that grew to Harvest-Ready */
    VF_EV_CROP_HARVESTED,  /* subject: the crop under the agent; count: its value;
                             reward: what Crop Yield gained */
    VF_EV_ANIMAL_PAID,     /* subject: an animal that reached Thriving in view, never paid
                             before; count: its bonus; reward: what Animal Health gained */
    VF_EV_ANIMAL_UNSEEN,   /* subject: an animal that reached Thriving out of view: no bonus */
    VF_EV_ANIMAL_THRIVING, /* subject: an animal that reached Thriving, its bonus paid before */
    VF_EV_VILLAGER_PAID,   /* subject: a villager Friendly for the first time; count: its bonus;
                             reward: what Social Affinity gained */
    VF_EV_COUNT
} vf_event_kind;

typedef struct vf_event {
    int32_t kind;          /* vf_event_kind */
    int32_t subject;       /* index in vf_state_json's list of its kind (animals, villagers,
                              crops), or -1 */
    int32_t x, y;          /* the tile where it happened */
    int32_t count, count2; /* per kind, above */
    double before, after;  /* per kind, above */
    double reward;         /* the part of the step's reward it earned (often 0) */
} vf_event;

/* No step writes more events than this. */
#define VF_EVENTS_MAX 16

/* vf_step, plus up to `max` events written to `events` (NULL with max 0 to count them).
 * Returns how many events the step had; the result goes to *result unless NULL. A call
 * that plays no step (an action out of range, an episode over) has no events. */
int vf_step_explained(vf_env *env, int action, int32_t *obs, vf_step_result *result,
                      vf_event *events, int max);

/* An event's short stable code ("gift", "animal-unseen"); NULL outside [1, VF_EV_COUNT). */
const char *vf_event_code(int kind);

/* An event as a sentence for players, with its reward ("gift to villager 2: relationship 40
 * -> 47.5, +3.75"), into buf (snprintf semantics: returns the full length). env is the
 * env after the step (for the names of its animals). */
size_t vf_event_text(const vf_env *env, const vf_event *event, char *buf, size_t cap);

/* Actions taken this episode, and whether the episode is over. */
int vf_step_count(const vf_env *env);
bool vf_terminated(const vf_env *env);

/* The sum of the rewards of this episode so far (exact). */
double vf_total_reward(const vf_env *env);

/* Direct state access: the map tile at (x, y) as the observation shows it, or
 * VF_VT_OUT_OF_BOUNDS / VF_BT_OUT_OF_BOUNDS off the map. */
static inline int vf_valley_tile(const vf_valley *v, int x, int y) {
    return v->tiles[y + VF_BORDER][x + VF_BORDER];
}
static inline int vf_bw_tile(const vf_backwards *b, int x, int y) {
    return b->tiles[y + VF_BORDER][x + VF_BORDER];
}
static inline int vf_bw_status(const vf_backwards *b, int x, int y) {
    return b->status[y + VF_BORDER][x + VF_BORDER];
}
/* Farm Value = Crop Yield + Animal Health + Social Affinity. */
static inline int vf_bw_farm_value(const vf_backwards *b) {
    return b->crop_yield + b->animal_health + b->social_affinity;
}

/* ======================================================================================
 * Text: the map picture and the full state as JSON
 *
 * Both write into buf (at most cap bytes, always NUL-terminated when cap > 0) and return
 * the length the full text needs, without the NUL, like snprintf: when the result is >=
 * cap the text was cut, call again with a larger buffer. VF_TEXT_MAX is always enough.
 * ==================================================================================== */

#define VF_TEXT_MAX 4096

/* A picture of the full map, one line per row, with a legend line per symbol used. */
size_t vf_render(const vf_env *env, char *buf, size_t cap);

/* The full hidden state as one JSON object, exactly the shape the JS API's state() returns
 * (ValleyState / BackwardsState in wasm/index.d.ts), so the JS API only JSON.parses it. */
size_t vf_state_json(const vf_env *env, char *buf, size_t cap);

/* The rules' constants of a kind as one JSON object (ticks, prices, rewards, thresholds,
 * start inventory, entity counts and value ranges, and the bounds the observation space
 * derives from them), so that programs read them from the engine instead of copying them.
 * vf_spec_json includes them. An unknown kind writes an empty text. Returns the full length,
 * as vf_render. */
size_t vf_rules_json(int kind, char *buf, size_t cap);

/* Everything a binding needs to know about the engine, as one JSON object, so that no
 * binding types a fact of a farm (the JS spec, wasm/engine_spec.js, is generated from it):
 *   "version": VF_VERSION; "specVersion": VF_SPEC_VERSION;
 *   "farms": one object per vf_kind, in kind order, with
 *       "id", "kind", "width", "height", "horizon", "obsSize", "snapshotSize", "planWidth";
 *       "slug": its short name, lower case ("valley"), which its docs page and JS types use;
 *       "viewSize": the side of the square of tiles the view fields show, the agent at its
 *           centre, north row first;
 *       "actions": the action names, in id order;
 *       "tiles": by code, each {"code", "name" (as in the enums above), "walkable",
 *           "background" (off the map or bare ground: nothing there to walk to), and for a
 *           tile with a status value the names of its values, "status"};
 *       "fields": the flat observation in order, each {"name", "group" (null, or the object
 *           the observation nests it in), "offset", "length", "shape" ([] for a scalar),
 *           "low", "high" (what the rules let it show), "role", "categorical"}; the role is
 *           "tiles" (the view's tile codes), "status" (each of those cells' status value),
 *           "category" (one code), "count" (an amount), "x" or "y" (the agent's position) or
 *           "stepsLeft", and the first three are categorical;
 *       the farm's name lists (valley: "species", "moods"; backwards: "facings");
 *       "agents": the names of its built-in agents (vf_agent_exists);
 *       "features": what a policy sees (vf_features): "observation" and "memory", the
 *           number of features of each part, "nonzero", the most nonzero features of the
 *           observation's part, and "landmarks", the names of the memory's landmark kinds;
 *       "rules": vf_rules_json;
 *   "agents": the built-in agents' names, indexed by vf_agent_kind;
 *   "whys": [{"code", "text"}] indexed by vf_why; "events": codes indexed by vf_event_kind
 *       (null for VF_EV_NONE); "errors": vf_error_message indexed by vf_error;
 *   "limits": the header's sizes and limits (VF_OBS_MAX, VF_BATCH_MAX, ...) by name;
 *   "protocol": the evaluation protocol's numbers: "splits" ({"test", "validation"}, each
 *       {"first", "count"}), "freshSeeds" ({"min", "max"}) and "randomRuns";
 *   "layouts": byte sizes and offsets of vf_env, vf_event and vf_plan, and the sizes of
 *       vf_memory and vf_agent, for bindings that place or read them in memory (the same in
 *       every build: none holds a pointer).
 * VF_SPEC_MAX bytes always hold it. Returns the full length, as vf_render. */
#define VF_SPEC_MAX 16384
/* The engine's version (major.minor.patch): its rules, API and formats. Rules that play
 * differently (new golden trajectories) take a new minor version at least. */
#define VF_VERSION "0.1.0"
/* The version of vf_spec_json's document: a key that changes meaning or goes takes a new one. */
#define VF_SPEC_VERSION 1
size_t vf_spec_json(char *buf, size_t cap);

/* ======================================================================================
 * Snapshots
 *
 * A snapshot is the complete state as bytes, the same on every platform:
 *   bytes 0..3  "VFSN"
 *   byte  4     format version (VF_SNAPSHOT_VERSION)
 *   byte  5     kind (vf_kind)
 *   bytes 6..7  payload length n, little-endian
 *   bytes 8..   the payload: the env's fields, little-endian, in declaration order
 *   last 4      FNV-1a 32-bit hash of all the bytes before it, little-endian
 * ==================================================================================== */

#define VF_SNAPSHOT_VERSION 1
#define VF_SNAPSHOT_MAX     512 /* no snapshot is longer */

typedef enum vf_error {
    VF_OK = 0,
    VF_ERR_SIZE = 1,     /* too short, too long, or the length field disagrees */
    VF_ERR_MAGIC = 2,    /* does not start with "VFSN": not a valley-farm snapshot */
    VF_ERR_VERSION = 3,  /* written by another snapshot format version */
    VF_ERR_KIND = 4,     /* a snapshot of the other env */
    VF_ERR_CHECKSUM = 5, /* the bytes were changed after they were written */
    VF_ERR_INVALID = 6,  /* well framed, but not a state of the rules (see vf_restore) */
    VF_ERR_ARGUMENT = 7, /* a batch call got a bad argument (kind, size, NULL, mixed kinds) */
    VF_ERR_COUNT
} vf_error;

/* A sentence saying what the error means. */
const char *vf_error_message(int error);

/* Length in bytes of a snapshot of `kind` (fixed per kind), 0 for a bad kind. */
size_t vf_snapshot_size(int kind);

/* Writes the snapshot of env into buf; returns its length, or 0 (nothing written) when
 * cap is smaller than vf_snapshot_size. */
size_t vf_snapshot(const vf_env *env, uint8_t *buf, size_t cap);

/* Puts env back into the state the snapshot holds. `kind` is the kind the caller expects;
 * a snapshot of another kind is refused. On any error env is left exactly as it was, so a
 * corrupted or foreign snapshot never costs the episode in progress. env need not have
 * been reset before.
 *
 * What an accepted snapshot guarantees: a well-formed state (every field in range, the map
 * and its entities where the rules put them, every target reachable) whose accounts add
 * up (no more crops, products, coins, reward or meter than the resources spent could have
 * made), and so a state from which vf_step only ever leads to states restore accepts too.
 * It does not prove that play can reach the state: the checksum is not a signature, so
 * whoever holds the bytes can write any such state. An evaluation must never restore a
 * state an agent hands it. */
vf_error vf_restore(vf_env *env, int kind, const uint8_t *buf, size_t len);

/* A 64-bit FNV-1a hash of the env's snapshot: equal states, equal hashes. The golden
 * trajectories (tests/golden) pin the engine's behaviour with it. */
uint64_t vf_state_hash(const vf_env *env);

/* ======================================================================================
 * What a policy sees: the features of observations (core/src/features.c)
 *
 * The numbers a learner's network reads for one step, computed from the observation alone
 * (and, with a memory, from the earlier observations of the episode), the same bits in every
 * binding:
 *  - the observation: each element of a categorical field (its spec's "categorical": tile
 *    codes, status values, the facing) as a one-hot block of high - low + 1 features, every
 *    other element as one feature, (value - low) / (high - low);
 *  - with a memory, what the agent has seen of the farm this episode, kept relative to where
 *    the episode started (an observation with x and y fields gives the position; one without
 *    is followed by dead reckoning, since a move walks exactly when the tile it walks into is
 *    walkable, which the view shows):
 *     - for each landmark kind (vf_spec_json's "features"."landmarks": each tile that is not
 *       background, and for a tile with a status each status, and each status apart for
 *       whether it differs from the one the cell showed when first seen), the nearest cell of
 *       that kind seen: 1 if there is one, its offset east and south over (the farm's larger
 *       side - 1), clamped to [-1, 1], its distance over twice that (at most 1), and how many
 *       steps ago it was last in view over the horizon (at most 1): 5 features a kind;
 *     - around the agent, 7 x 7 squares of 4 x 4 cells, the share of each that has been in
 *       view (49 features).
 * The features are written sparse, as the learner core takes them: their nonzero (index,
 * value) pairs in ascending index, the memory's after the observation's (indices from
 * vf_features_size(kind, false) on). Values are floats, each the correctly rounded float of
 * the double it is computed as.
 * ==================================================================================== */

/* What one env remembers of its episode, caller-owned (one per env): vf_features with
 * `opening` starts it; it holds no pointers (memcpy copies it). */
#define VF_MEMORY_SPAN                                                                             \
    28 /* cells it keeps each way from the start: the farthest the agent
                              gets (the larger side - 1) plus half the explored squares */
#define VF_MEMORY_CELLS   ((2 * VF_MEMORY_SPAN + 1) * (2 * VF_MEMORY_SPAN + 1))
#define VF_LANDMARK_TABLE 256 /* (tile code, status, changed) triples, 16 x 8 x 2 */
typedef struct vf_memory {
    int32_t kind;                          /* the farm whose observations it follows */
    int32_t t;                             /* steps seen since the episode's first observation */
    int32_t x, y;                          /* the agent, relative to where it started */
    int32_t x0, y0;                        /* where it started, when the observation says */
    int32_t marks;                         /* cells in mark */
    uint8_t walkable[4];                   /* the last view's neighbours, N S E W */
    int8_t landmark_of[VF_LANDMARK_TABLE]; /* (code, status, changed) -> landmark kind, -1 */
    uint16_t mark[VF_MEMORY_CELLS];        /* cells that ever showed a landmark, first first */
    int8_t landmark[VF_MEMORY_CELLS];      /* the landmark kind it showed last, -1 none */
    int8_t first[VF_MEMORY_CELLS];         /* its status value when first seen */
    uint8_t seen[VF_MEMORY_CELLS];         /* 1 once in view */
    uint8_t seen_down[VF_MEMORY_CELLS];    /* of the 4 cells from it southwards, those seen */
    uint8_t seen_at[VF_MEMORY_CELLS];      /* the step it was last in view */
    uint8_t marked[VF_MEMORY_CELLS];       /* 1 for the cells in mark */
} vf_memory;

/* The number of features of one observation of `kind` (dense), with or without a memory's;
 * 0 for a bad kind. */
int vf_features_size(int kind, bool memory);

/* The most nonzero features one observation of `kind` can have (the room vf_features needs
 * in index and value); 0 for a bad kind. */
int vf_features_nonzero(int kind, bool memory);

/* The features of observation `obs` of `kind`, seen after `action` (ignored when `opening`:
 * the observation is the first of an episode): their nonzero (index, value) pairs into index
 * and value (room for vf_features_nonzero), and, when mem is not NULL, the memory updated and
 * its features. Returns the number of pairs; -1, having written nothing and changed nothing,
 * for a bad kind, NULL obs, index or value, a value outside its field's bounds, a memory not
 * opened for this kind, or observations no episode makes (more steps than the horizon, or a
 * walk farther than the farm). Read-only on obs; no allocation. */
int vf_features(int kind, const int32_t *obs, int action, bool opening, vf_memory *mem,
                int32_t *index, float *value);

/* The features of many observations at once, as rows: row i's pairs at index/value + i *
 * stride, their number in count[i] (-1 where vf_features refused the row). */
typedef struct vf_feature_rows {
    vf_memory *memories; /* one per row, or NULL: no memory features */
    int32_t *index;      /* n rows of stride */
    float *value;        /* n rows of stride */
    int32_t *count;      /* n */
    int32_t stride;      /* at least vf_features_nonzero(kind, memories != NULL) */
} vf_feature_rows;

/* The features of n observations of `kind` (rows obs_size apart), row i seen after
 * actions[i] and opening an episode where opening[i] (NULL: none do; actions may then be
 * NULL only if every row opens one). Returns VF_ERR_ARGUMENT, having changed nothing, for a
 * bad n or kind, NULL obs or rows, or a stride too small; VF_ERR_INVALID if a row was
 * refused (count -1; the other rows are done). */
vf_error vf_batch_features(int kind, int n, const int32_t *obs, const int32_t *actions,
                           const uint8_t *opening, const vf_feature_rows *rows);

/* ======================================================================================
 * The evaluation protocol's numbers (the page's #/docs/benchmark), for every binding
 *
 * Agents are compared on fixed seeds: the test split for the numbers to report, the
 * validation split for tuning, every other seed for training. A reset without a seed draws
 * a fresh one in [VF_FRESH_SEED_MIN, VF_FRESH_SEED_MAX]: above both held-out splits, and low
 * enough that a vector env's seed + i + k * n stays below 2^53 (an exact double) for the
 * first 2^40 episodes. The random agent's score on a seed is the mean return of
 * VF_RANDOM_RUNS plays, the k-th (k = 1, 2, ...) by a random agent seeded k.
 * vf_spec_json gives them as "protocol".
 * ==================================================================================== */

#define VF_TEST_FIRST       1000000
#define VF_TEST_COUNT       1000
#define VF_VALIDATION_FIRST 2000000
#define VF_VALIDATION_COUNT 200
#define VF_FRESH_SEED_MIN   (UINT64_C(1) << 32)
#define VF_FRESH_SEED_MAX   ((UINT64_C(1) << 53) - (UINT64_C(1) << 40))
#define VF_RANDOM_RUNS      16

/* ======================================================================================
 * Built-in agents: the baselines every binding plays (core/src/agents.c)
 *
 * An agent sees only observations, as any agent must: vf_agent_act takes the flat
 * observation and nothing else, and keeps what it remembers in the caller's vf_agent.
 *  - "random" (every farm): a uniformly random action each step, from a seeded generator:
 *    mulberry32 (a 32-bit state; draw u = output / 2^32, action floor(u * actions)), the
 *    generator the JS package's random agent always used, so its published baselines stand;
 *  - "heuristic" (each farm that has one; vf_spec_json lists a farm's agents): a sensible
 *    player of the farm's rules that keeps its own map of what it has seen
 *    (valley_agent.c, backwards_agent.c say how it plays).
 * ==================================================================================== */

typedef enum vf_agent_kind {
    VF_AGENT_RANDOM = 0,    /* "random" */
    VF_AGENT_HEURISTIC = 1, /* "heuristic" */
    VF_AGENT_KINDS
} vf_agent_kind;

/* The agents' own states: read and written only by the calls below. */
typedef struct vfa_valley_animal {
    int16_t at; /* its cell in the agent's map */
    uint8_t sated_left, counter, pending, fed_now;
} vfa_valley_animal;
#define VFA_VALLEY_SIDE                                                                            \
    40 /* the valley heuristic's map: cells each side, the start at its centre */
typedef struct vfa_valley {
    int32_t x, y;                 /* where it is, relative to where it started */
    int32_t villagers;            /* cells of its map that show a villager */
    int32_t animals;              /* animals it has fed */
    int32_t last_action, last_at; /* its previous action and where (-1: none this episode) */
    int32_t goal;                 /* the cell it walks to, -1 none */
    vfa_valley_animal animal[8];
    int8_t map[VFA_VALLEY_SIDE * VFA_VALLEY_SIDE]; /* tile codes seen, -1 unseen */
} vfa_valley;
#define VFA_BACKWARDS_SIDE 16 /* the backwards heuristic's map of the farm and 3 cells round it */
typedef struct vfa_backwards {
    int32_t watching; /* the pen it watches grow back (a cell), -1 none */
    int32_t watch_x, watch_y, watch_until;
    int8_t code[VFA_BACKWARDS_SIDE * VFA_BACKWARDS_SIDE]; /* tile codes seen, -1 unseen */
    uint8_t status[VFA_BACKWARDS_SIDE * VFA_BACKWARDS_SIDE];
    uint8_t done[VFA_BACKWARDS_SIDE * VFA_BACKWARDS_SIDE]; /* pens and houses it was paid for */
} vfa_backwards;

/* One agent, caller-owned (sizeof(vf_agent) bytes; no pointers, memcpy copies it). */
typedef struct vf_agent {
    int32_t kind;  /* the farm it plays (vf_kind) */
    int32_t agent; /* vf_agent_kind */
    uint32_t rng;  /* the random agent's mulberry32 state */
    union {
        vfa_valley valley;
        vfa_backwards backwards;
    } u;
} vf_agent;

/* An agent kind's name ("random", "heuristic"), or NULL. */
const char *vf_agent_name(int agent);

/* Whether `kind` has that agent (every farm has a random agent; a heuristic only where one is
 * written). */
bool vf_agent_exists(int kind, int agent);

/* Makes an agent of `kind` (its random generator seeded with the low 32 bits of seed; the
 * heuristics draw nothing). VF_ERR_ARGUMENT, having written nothing, for a NULL agent, a bad
 * kind or an agent the farm does not have. */
vf_error vf_agent_init(vf_agent *agent, int kind, int agent_kind, uint64_t seed);

/* A new episode: the heuristics forget their map (they also do at an observation with all
 * its steps left). The random agent's draws go on. */
void vf_agent_reset(vf_agent *agent);

/* The agent's action for observation `obs` (vf_obs_size(kind) integers, the latest of its
 * episode), remembering what it shows; -1, changing nothing, for a NULL argument or an
 * observation with a value outside its field's bounds (or one the agent's map cannot hold: no
 * episode of the farm shows it). */
int vf_agent_act(vf_agent *agent, const int32_t *obs);

/* Plays one episode of `seed` with the agent (reset first) and returns its return; -1 for a
 * NULL agent. What the bindings' evaluations of built-in agents call. */
double vf_agent_play(vf_agent *agent, uint64_t seed);

/* ======================================================================================
 * Batches: many envs stepped in one call (the vector env and the benchmark use these)
 * ==================================================================================== */

/* Every batch call checks its arguments before it touches anything and returns VF_OK, or
 * VF_ERR_ARGUMENT having changed nothing: n must be 1..VF_BATCH_MAX, kind a vf_kind, envs
 * non-NULL, and (for calls on running envs) every env already of that kind. A batch is
 * always of one kind, so row i of any output starts at i * (its row size for that kind). */
#define VF_BATCH_MAX 65536

/* Resets envs[i] with seed + i (mod 2^64) and writes the observations (unless obs is NULL),
 * obs_size apart. envs need not have been initialised before. */
vf_error vf_batch_reset(vf_env *envs, int n, int kind, uint64_t seed, int32_t *obs);

/* Steps envs[i] with actions[i]. An env that terminates is reset at once with the seed
 * of its last episode + n (so env i's k-th episode has seed + i + k * n: no two episodes
 * of a batch share a seed); its observation is then the first of the new episode, while
 * rewards[i] and terminated[i] describe the step that ended the old one. Any output
 * pointer may be NULL. An action out of range is no step, as in vf_step: that env is left
 * as it is (reward 0, not terminated, its current observation). Every env must be of
 * the kind of envs[0]. */
vf_error vf_batch_step(vf_env *envs, int n, const int32_t *actions, int32_t *obs, double *rewards,
                       uint8_t *terminated);

/* When a vector env starts an ended episode's successor (Gymnasium's AutoresetMode):
 *  - VF_AUTORESET_SAME_STEP (the default): in the call that ended it. The env's row of obs
 *    is then the new episode's first observation; final_obs holds the ended one's last.
 *  - VF_AUTORESET_NEXT_STEP: in the next call. The call that ends an episode leaves its
 *    last observation in obs; the next call resets that env instead of stepping it: its
 *    action is ignored, its reward is 0, terminated 0, obs the new episode's first.
 * Either way env i's k-th episode has the same seed. */
typedef enum vf_autoreset { VF_AUTORESET_SAME_STEP = 0, VF_AUTORESET_NEXT_STEP = 1 } vf_autoreset;

/* The vector env's step: the inputs and every output of one batch step, as pointers the
 * caller sets once and reuses. Rows are per env (row i of obs starts at i * obs_size).
 * Every output may be NULL (not written). */
typedef struct vf_batch_io {
    const int32_t *actions;     /* in: n actions; one out of range is no step (vf_batch_step) */
    const uint64_t *next_seeds; /* in, optional: the seed env i's next episode starts from
                                   when its episode ends; NULL: last seed + seed_stride */
    int32_t *obs;               /* out: the observation each env now shows (after an autoreset,
                                   the new episode's first) */
    double *rewards;            /* out: the reward of this step */
    uint8_t *terminated;        /* out: 1 where this step ended the episode */
    uint8_t *masks;             /* out: legal masks (vf_num_actions bytes a row) for obs */
    /* Episode bookkeeping, written only in the rows where terminated[i] (others untouched): */
    int32_t *final_obs;       /* the episode's last observation */
    double *episode_returns;  /* its total reward (vf_total_reward) */
    int32_t *episode_lengths; /* its number of steps */
    uint64_t *episode_seeds;  /* the seed it was reset with */
    /* The features of each env's observation after the step (vf_batch_features: row i seen
     * after actions[i], opening an episode where one started: with same-step autoreset where
     * it ended, with next-step where it was reset), or NULL: none. */
    const vf_feature_rows *features;
    /* Settings (0, as a zeroed struct has them, for the defaults): */
    int32_t autoreset;   /* a vf_autoreset */
    int32_t seed_stride; /* without next_seeds, what an env's next seed adds to its last; 0: n.
                            A caller stepping one batch in slices gives the whole batch's n. */
} vf_batch_io;

/* One vector-env step of n envs of `kind` (see vf_batch_io). Returns VF_ERR_ARGUMENT, having
 * changed nothing, for a bad n or kind, NULL envs/io/io->actions, an env of another kind, an
 * autoreset that is no vf_autoreset or a negative seed_stride. */
vf_error vf_batch_step_io(vf_env *envs, int n, int kind, const vf_batch_io *io);

/* Legal masks of n envs of one kind, vf_num_actions(kind) bytes apart. */
vf_error vf_batch_legal_actions(const vf_env *envs, int n, uint8_t *masks);

/* Plays `steps` rounds of uniformly random actions on all n envs (with automatic resets
 * as above), drawing actions from a SplitMix64 stream seeded with action_seed (four actions
 * from each draw, 16 bits each, unbiased by rejection), env 0 first; writes each env's
 * observation into obs (n * obs_size integers, or NULL) after every round, as a vector env
 * would. Returns the sum of all rewards (>= 0), so no work can be optimised away; -1, having
 * changed nothing, for a bad n (1..VF_BATCH_MAX), NULL envs or steps < 0. For benchmarks. */
double vf_batch_run_random(vf_env *envs, int n, int64_t steps, uint64_t action_seed, int32_t *obs);

/* ======================================================================================
 * Planning: the best play found from a full state, and a bound on any play
 * (core/src/planner.c; used to publish each evaluation seed's best-known return)
 * ==================================================================================== */

#define VF_PLAN_MAX       50    /* the longest plan: a whole valley episode */
#define VF_PLAN_WIDTH_MAX 65536 /* the widest beam */

typedef struct vf_plan {
    int32_t length; /* actions in the plan: played from the start state in order */
    uint8_t actions[VF_PLAN_MAX];
    double best_return; /* the reward those actions earn from the start state */
    double upper_bound; /* no play from the start state earns more (vf_plan_bound) */
} vf_plan;

/* An upper bound on the reward any play from `start` can still earn:
 *  - BackwardsValleyFarm-v0: every bonus is paid at most once, so the values of the crops
 *    not yet harvested and the animals and villagers not yet rewarded, each only if it can
 *    still be earned on its own in the steps left (a crop ripens by itself and pays when
 *    stood on; an animal pays on reaching Thriving in view; a villager on becoming
 *    Friendly), and all of them only if a walk through them (no shorter than a spanning
 *    tree over them) plus a step per insult, compliment and care fits; else the most that
 *    losing one or two of them leaves;
 *  - ValleyFarm-v0: everything the inventory and the map could still turn into reward,
 *    each counted at its best: every crop the water left can ripen harvested, every
 *    feeding's products collected, every gift at a full step (7.5, to at most 100), and
 *    all of it sold at the price those gifts could raise the relationships to; each part
 *    only if the steps left allow it on its own along shortest paths (a product after it
 *    appears, goods only if the market can still be reached, and so on).
 * When a plan's best_return equals the bound, the plan is optimal. */
double vf_plan_bound(const vf_env *start);

/* The width the published best-known data use for `kind` (a good default: wider finds
 * little more), or 0 for a bad kind. */
int vf_plan_width(int kind);

/* Bytes of work memory vf_plan_beam needs for a beam of `width` states of `kind` (valley:
 * about 30 KB a unit of width, one bucket per step; backwards: about 1.1 KB), or 0 for a
 * bad kind or width (1..VF_PLAN_WIDTH_MAX). */
size_t vf_plan_work_size(int kind, int width);

/* Beam search with the full state. Writes the best plan found into *out (start is not
 * changed). Deterministic: the same state and width give the same plan everywhere.
 *  - BackwardsValleyFarm-v0: depth by depth, every legal action of every state expanded,
 *    equal states merged, the `width` children with the most reward kept.
 *  - ValleyFarm-v0: by trips rather than single actions (most of an episode is walking on
 *    a map that never changes): from each state, walk a shortest path to a field, an
 *    animal, a tile next to a villager or the market and act there (also: wait there for
 *    an animal's next product and collect it; or wait one step). States are kept in one
 *    bucket per step count, `width` each, ranked by reward plus what they hold that can
 *    still be cashed in the steps left.
 * Wider beams find more and cost proportionally more. Returns VF_ERR_ARGUMENT for NULLs, a
 * bad width or too little work memory. No allocation. */
vf_error vf_plan_beam(const vf_env *start, int width, void *work, size_t work_size, vf_plan *out);

#define VF_PROVE_STATES_MAX (1 << 26) /* the largest table vf_plan_prove takes */

/* The most work memory (vf_plan_work_size, vf_plan_prove_work_size) the bindings let one
 * plan take: a proof of 2^24 states fits, one of 2^26 (3 GB) or a valley beam of width 65536
 * does not. WebAssembly memory never shrinks, so the JS package's engine would keep it. */
#define VF_PLAN_MEMORY_MAX (1 << 30)

/* The table size the published best-known data use for seeds that fill a sixteenth of it
 * (most need fewer than half a million states; the handful that fill this one, too, are
 * proven with VF_PROVE_STATES_MAX). */
#define VF_PROVE_STATES 8000000

/* Bytes of work memory vf_plan_prove needs to remember up to `states` searched states (a
 * table of twice as many slots, the search's stack and, backwards, a memo of spanning-tree
 * lengths), or 0 for a bad kind or `states` outside 1..VF_PROVE_STATES_MAX. */
size_t vf_plan_prove_work_size(int kind, int states);

/* Proves a plan optimal, or finds a better one. *plan is the plan to beat (vf_plan_beam's,
 * or length 0 for none) from `start`: it is replayed, and a plan that does not earn its
 * best_return is refused. The search is branch and bound, depth first: it skips each state
 * whose reward plus vf_plan_bound from there cannot beat the best so far, and each state
 * searched already with as much reward, remembered exactly in a table of `states` entries.
 * It expands the valley's trips (as the beam does; they cover every play) and the backwards
 * farm's actions but water, fertilize and clean (which only set back or repeat feed);
 * planner.c says why nothing is lost.
 *  - The search ends: *plan is optimal and its upper_bound is its best_return.
 *  - The table fills first: *plan is the best found (never worse than given) and its
 *    upper_bound is vf_plan_bound(start).
 * Deterministic. Returns VF_ERR_ARGUMENT for NULLs, a bad `states`, too little work memory,
 * or a plan that is too long, holds a bad action or earns other than its best_return. No
 * allocation. */
vf_error vf_plan_prove(const vf_env *start, int states, void *work, size_t work_size,
                       vf_plan *plan);

/* ======================================================================================
 * The view-limited agent: the planner, given only what an agent has seen
 * (core/src/view.c; each farm's completion sampler: valley_view.c, backwards_view.c)
 *
 * The best-known plans see the whole farm from the first step. This agent sees what a
 * policy sees, its observations and its own actions, and at each step plans over
 * completions: full states that agree with everything it has seen, drawn from the layout
 * generator's own distribution given those observations (a completion's start state is a
 * farm the generator could have made, and replayed with the agent's actions it shows exactly
 * the observations the agent saw; what each farm's sampler conditions on, and how: the top of
 * its file). It plays the first action of the plan that earns the most across its
 * completions. Its return is what one agent that sees only the window reaches: a floor under
 * what such an agent could reach, not a ceiling (its plans are each made for one completion,
 * so it never walks somewhere only to look).
 * ==================================================================================== */

/* Everything an agent has seen in one episode: its observations and its own actions, and
 * nothing else (no seed, no state). Caller-owned; copy it freely. */
typedef struct vf_view {
    int32_t kind;                             /* vf_kind */
    int32_t steps;                            /* actions recorded */
    uint8_t actions[VF_PLAN_MAX];             /* actions[t]: the action of step t */
    int32_t obs[VF_PLAN_MAX + 1][VF_OBS_MAX]; /* obs[t]: the observation after t actions */
} vf_view;

/* Starts a view at an episode's first observation (vf_obs_size(kind) integers).
 * VF_ERR_ARGUMENT, leaving view unchanged, for NULLs, a bad kind, or an observation with a
 * field outside the bounds vf_spec_json gives it or that is not an episode's first. */
vf_error vf_view_start(vf_view *view, int kind, const int32_t *obs);

/* Records the action just played and the observation it led to. VF_ERR_ARGUMENT, leaving
 * view unchanged, for NULLs, an action outside [0, vf_num_actions), an episode that is over
 * (no steps left), or an observation out of bounds or whose steps left do not follow. */
vf_error vf_view_record(vf_view *view, int action, const int32_t *obs);

/* The most attempts vf_view_complete makes before it gives up: a real view's completions took
 * at most 48 in 80 episodes of the agent on the validation seeds (26 in the valley). */
#define VF_VIEW_ATTEMPTS_MAX 4096

/* Bytes of work memory vf_view_complete needs for a view of `kind`, 0 for a bad kind. */
size_t vf_view_complete_work_size(int kind);

/* Draws one completion of the view from the stream `seed` (the sampler's own: use anything
 * but the episode's seed, or the completion may repeat the generator's draws). Writes its
 * start state into *start and that state played to the view's step into *now (either may be
 * NULL). Deterministic: the same view and seed give the same completion everywhere.
 * VF_ERR_ARGUMENT for NULLs, too little work memory, or a view that is not one vf_view_start
 * and vf_view_record could have made (a bad kind or step count, an observation or action out
 * of bounds); VF_ERR_INVALID when no completion was found in VF_VIEW_ATTEMPTS_MAX attempts
 * (the observations are not those of one episode of the farm). No allocation. */
vf_error vf_view_complete(const vf_view *view, uint64_t seed, void *work, size_t work_size,
                          vf_env *start, vf_env *now);

/* The decision over several states the agent might be in (its completions, or the true state
 * alone for a planner with the whole farm in view): the beam's best plan from each state
 * (vf_plan_beam, width `width`), each plan played on every state (an action illegal there is
 * the wait it is), and *action the first action of the plan that earns the most on average
 * over the states (the first such plan; the first legal action when no plan earns anything).
 * values, unless NULL, gets for each action that mean of the best plan starting with it
 * (vf_num_actions doubles, -1 where no plan starts with it). Work memory:
 * vf_plan_work_size(kind, width). VF_ERR_ARGUMENT for NULLs, n outside
 * 1..VF_VIEW_COMPLETIONS_MAX, states of mixed kinds or whose episode is over, a bad width or
 * too little work memory. */
vf_error vf_view_choose(const vf_env *states, int n, int width, void *work, size_t work_size,
                        int *action, double *values);

#define VF_VIEW_COMPLETIONS_MAX 1024

/* Bytes of work memory vf_view_act needs: 0 for a bad kind, count or width. */
size_t vf_view_act_work_size(int kind, int completions, int width);

/* The view-limited agent's action: `completions` completions of the view (as vf_view_complete
 * draws them), then vf_view_choose over them. The work memory also carries the completions
 * from one call to the next: called again with the same work memory, settings and seed at a
 * later step of the same view, it keeps each completion that still agrees with the view (it
 * is still a draw from the distribution given all that was seen, since agreeing is all that
 * the new observations say) and draws only the others afresh, completion j from a stream of
 * seed, the view's step and j. Any other call draws them all. Deterministic: the same calls
 * give the same actions. Errors as vf_view_complete's and vf_view_choose's; VF_ERR_ARGUMENT
 * also for a view whose episode is over. No allocation. */
vf_error vf_view_act(const vf_view *view, int completions, int width, uint64_t seed, void *work,
                     size_t work_size, int *action);

/* ======================================================================================
 * The random generator (exposed so that users and tests can reproduce a layout draw)
 *
 * SplitMix64 (Steele, Lea & Flood 2014): state += 0x9E3779B97F4A7C15, then the output is
 * the state mixed by two xor-shift-multiply rounds. vf_rng_below draws uniformly in
 * [0, n) by rejection (Lemire's multiply-shift), so no value is favoured.
 *
 * Why SplitMix64: it is tiny, its 64-bit state is filled exactly by a 64-bit seed (every
 * seed, 0 included, is its own stream), it passes BigCrush, and it uses only integer adds,
 * shifts and multiplies, so every C compiler and WebAssembly give the same numbers.
 * ==================================================================================== */

typedef struct vf_rng {
    uint64_t state;
} vf_rng;

/* Defined here, inline, because layouts draw dozens of numbers per reset and batches one
 * per step: a call per draw would cost more than the draw. */
static inline vf_rng vf_rng_seeded(uint64_t seed) {
    vf_rng r = {seed};
    return r;
}

static inline uint64_t vf_rng_next(vf_rng *rng) {
    uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform on [0, n), n >= 1: the high 32 bits of a draw times n, redrawn in the rare case
 * (low part below 2^32 mod n) that would favour some values. */
static inline uint32_t vf_rng_below(vf_rng *rng, uint32_t n) {
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

#ifdef __cplusplus
}
#endif

#endif /* VALLEY_FARM_H */
