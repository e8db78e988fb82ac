/* backwards_rules.h — BackwardsValleyFarm-v0's numbers and grid access (docs/rules/
 * backwards-farm.md), shared by the rules (backwards.c) and the planner's bound on them
 * (backwards_bound.c), and by nothing else. */
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

#endif /* VF_BACKWARDS_RULES_H */
