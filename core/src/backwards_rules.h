/* backwards_rules.h — BackwardsValleyFarm-v0's numbers, tables and grid access (docs/rules/
 * backwards-farm.md), shared by the rules (backwards.c), the planner's bound on them
 * (backwards_bound.c) and the completion sampler (backwards_view.c), and by nothing else. */
#ifndef VF_BACKWARDS_RULES_H
#define VF_BACKWARDS_RULES_H

#include "internal.h"

#define W VF_BW_W
#define H VF_BW_H

/* Padded-grid access by map coordinates; x and y may be up to VF_BORDER off the map. */
#define TILE(b, x, y)   ((b)->tiles[(y) + VF_BORDER][(x) + VF_BORDER])
#define STATUS(b, x, y) ((b)->status[(y) + VF_BORDER][(x) + VF_BORDER])

/* The status values the rules act on: a crop pays at Harvest-Ready, an animal at Thriving,
 * a villager on becoming Friendly. */
enum { HARVEST_READY = 3, THRIVING = 2, FRIENDLY = 2 };

/* ---- rules as data ------------------------------------------------------------------ */

/* Tile properties by tile code (the table of the rules file). */
static const struct tile_info {
    uint8_t status_max; /* status values run 0..status_max; 0 on tiles without status */
    uint8_t symbol;     /* index into symbols[] of status 0 (render) */
} tile_info[VF_BT_COUNT] = {
    [VF_BT_OUT_OF_BOUNDS] = {0, 0}, [VF_BT_GROUND] = {0, 0}, [VF_BT_FENCE] = {0, 1},
    [VF_BT_FIELD] = {3, 2},         [VF_BT_PEN] = {2, 6},    [VF_BT_HOUSE] = {2, 9},
};

/* The three entity lists: where their entities stand, how many there are, the ranges of
 * their values, their generator zone, and how the JSON names them. */
enum { CROPS = 0, ANIMALS = 1, VILLAGERS = 2, KINDS = 3 };
static const struct entity_kind {
    uint8_t tile, count;
    uint8_t value_min, value_max;             /* crop value, animal bonus, villager bonus */
    uint8_t zone_w, zone_h;                   /* the rectangle reset draws them in */
    const char *list, *status, *value, *done; /* JSON keys */
} kinds[KINDS] = {
    [CROPS] = {VF_BT_FIELD, VF_BW_CROPS, 2, 5, 4, 4, "crops", "stage", "value", "harvested"},
    [ANIMALS] = {VF_BT_PEN, VF_BW_ANIMALS, 1, 3, 3, 3, "animals", "health", "bonus", "rewarded"},
    [VILLAGERS] = {VF_BT_HOUSE, VF_BW_VILLAGERS, 3, 6, 3, 3, "villagers", "mood", "bonus",
                   "rewarded"},
};

#endif /* VF_BACKWARDS_RULES_H */
