/* valley_rules.h — ValleyFarm-v0's numbers (docs/rules/valley-farm.md), shared by the
 * rules (valley.c) and the planner's bound on them (valley_bound.c), and by nothing else. */
#ifndef VF_VALLEY_RULES_H
#define VF_VALLEY_RULES_H

#include "internal.h"

#define W             VF_VALLEY_W
#define H             VF_VALLEY_H
#define TILE(v, x, y) ((v)->tiles[(y) + VF_BORDER][(x) + VF_BORDER])

/* ---- constants of the rules --------------------------------------------------------- */

enum {
    SATED_TICKS = 10,  /* a feeding lasts this many ticks */
    PRODUCT_TICKS = 5, /* a sated animal makes one product every 5 ticks */
    GIFT_STEP2 = 15,   /* +7.5 relationship, in relationship2 units (x2) */
    RELATIONSHIP2_MAX = 200,
    PRICE_CROP = 5,
    PRICE_PRODUCT = 8,
    /* sell: m = mean(1 + r/100) = (300 + R) / 300 = (600 + R2) / 600, R2 = sum of
     * relationship2; kept as a ratio of integers so no rounding can creep in */
    PRICE_DIVISOR = 600,
    /* rewards in units of 0.05 */
    REWARD_HARVEST = 2, /* +0.1 per crop */
    REWARD_PRODUCT = 4, /* +0.2 per product */
    REWARD_COIN = 2,    /* +0.1 per coin */
    REWARD_GIFT2 = 5    /* +0.5 per relationship point = 0.25 per relationship2 = 5 units */
};

enum { START_SEEDS = 5, START_WATER = 5, START_FEED = 3, START_GIFTS = 3 };

/* The most of each item an episode can hold, for vfv_load to refuse the rest (and so
 * keep every sum in range). Seeds, water, feed and gifts never grow. Each crop costs a
 * seed; a feeding lasts 10 ticks, so yields at most 2 products; the price multiplier is at
 * most 2 (all relationships 100). Coins and the total reward are then bounded by
 * harvesting, collecting, gifting and selling everything there can be, once. */
enum {
    MAX_CROPS = START_SEEDS,
    MAX_PRODUCTS = START_FEED * (SATED_TICKS / PRODUCT_TICKS),
    MAX_COINS = 2 * (PRICE_CROP * MAX_CROPS + PRICE_PRODUCT * MAX_PRODUCTS),
    MAX_REWARD_UNITS = REWARD_HARVEST * MAX_CROPS + REWARD_PRODUCT * MAX_PRODUCTS +
                       START_GIFTS * GIFT_STEP2 * REWARD_GIFT2 + REWARD_COIN * MAX_COINS
};

/* The observation's bounds on what the inventory can show (the rules' bounds, not play's):
 * a crop is harvested at stage 3 after two waterings, so the water allows 2 crops; products
 * as above; one sale of all of them with every relationship at 100 (multiplier 2). The
 * restore accounts above count every seed as a possible crop, a looser bound of their own.
 * vf_rules_json reports these, and vf_spec_json gives them as the fields' bounds. */
enum {
    WATERINGS_PER_CROP = 2,
    SHOWN_MAX_CROPS = START_WATER / WATERINGS_PER_CROP,
    SHOWN_MAX_COINS = 2 * (PRICE_CROP * SHOWN_MAX_CROPS + PRICE_PRODUCT * MAX_PRODUCTS)
};

#endif /* VF_VALLEY_RULES_H */
