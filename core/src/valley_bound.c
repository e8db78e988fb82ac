/* valley_bound.c — what the valley planner (planner.c) knows of the rules: an upper bound
 * on the reward play from a state can still earn (vf_plan_bound), and the potential that
 * ranks its beam's states. Both measure walks along the shortest paths the planner gives
 * them (vfv_reach); tests/c/test_bound.c checks the bound at its edges. */
#include "valley_rules.h"

/* For the planner's ranking (not a bound): the reward the state holds but has not cashed,
 * counted only where the steps left allow cashing it along the shortest paths in `reach`:
 * goods in hand if the market can still be reached; each animal's products (pending and
 * still to come from its feeding) if they can be collected there and sold; a ripe crop if
 * it can be harvested and sold. Products to come count for part of their value, as they
 * still need the trip. A beam ranked by reward alone walks away from unsold goods and fed
 * animals; one that counts what can no longer be sold hoards it. */
int32_t vfv_plan_potential_units(const vf_valley *v, const vfv_reach *reach) {
    const int32_t *inv = v->inventory;
    const int left = VF_VALLEY_HORIZON - v->step;
    int crops = 0, products = 0, extra = 0; /* to sell, and their harvest/collect reward */
    int32_t later = 0;                      /* products still to come, at part value */
    if (reach->to_market + 1 <= left) {
        crops = inv[VF_CROPS];
        products = inv[VF_PRODUCTS];
    }
    for (int i = 0; i < VF_VALLEY_ANIMALS; i++) {
        const vf_valley_animal *a = &v->animals[i];
        const int trip = reach->to_animal[i] + 1 + reach->animal_to_market[i] + 1;
        if (a->pending > 0 && trip <= left) {
            products += a->pending;
            extra += REWARD_PRODUCT * a->pending;
        }
        /* the next product comes after 5 - counter ticks, one more 5 ticks later */
        for (int due = PRODUCT_TICKS - a->counter; due <= a->sated_steps_left;
             due += PRODUCT_TICKS) {
            int wait = due > reach->to_animal[i] ? due - reach->to_animal[i] : 0;
            if (trip + wait > left) break;
            later += 1;
        }
    }
    for (int i = 0; i < VF_VALLEY_CROPS; i++) {
        const vf_point c = v->crops[i];
        if (TILE(v, c.x, c.y) == VF_VT_CROP_MATURE &&
            reach->to_crop[i] + 1 + reach->crop_to_market[i] + 1 <= left) {
            crops++;
            extra += REWARD_HARVEST;
        }
    }
    int r2sum = v->villagers[0].relationship2 + v->villagers[1].relationship2 +
                v->villagers[2].relationship2;
    int32_t base = PRICE_CROP * crops + PRICE_PRODUCT * products;
    int32_t sale = REWARD_COIN * (base * (PRICE_DIVISOR + r2sum) / PRICE_DIVISOR);
    int32_t product_value =
        REWARD_PRODUCT + REWARD_COIN * PRICE_PRODUCT * (PRICE_DIVISOR + r2sum) / PRICE_DIVISOR;
    return sale + extra + later * product_value / 2;
}

/* How many of the n crops (each needing need[i] waterings) the water can ripen, among those
 * allowed by ok[i]: fewest waterings first. */
static int ripen_count(const int *need, const int *ok, int n, int water) {
    int ripen = 0;
    for (int w = 0; w <= WATERINGS_PER_CROP; w++)
        for (int i = 0; i < n; i++)
            if (ok[i] && need[i] == w && water >= w) {
                water -= w;
                ripen++;
            }
    return ripen;
}

/* The planner's upper bound (vf_plan_bound): what is left, each part at its most, with the
 * limits the restore bound above leaves out because it must hold for every state restore
 * accepts:
 *  - water: a crop ripens only after its waterings, 2 from seed, and water is not
 *    replenished;
 *  - price: gifts raise the relationships by 7.5 each, to at most 100, so no sale pays
 *    more than (600 + R2 + the gifts' rise) / 600 of its base. Each sale rounds down and
 *    the sum of rounded-down parts is at most the rounded-down sum, so pricing everything
 *    in one sale at that multiplier is an upper bound;
 *  - time: each part counts only if the steps left allow it on its own, along the
 *    shortest paths in `reach` (every action is one step and a move one tile): a gift per
 *    step once at a gift tile; goods sold only if the market can be reached and a sale
 *    made; a product collected only after it appears (a feeding's first after 5 ticks and
 *    the feeding's own step) and there; a crop harvested only after its waterings on its
 *    field (a seed: plant, water, water, harvest). Each part is judged as if it were the
 *    only thing left to do, so the sum is still a bound, only a tighter one late in an
 *    episode, where the planner's proof needs it (vf_plan_prove). */
int32_t vfv_plan_bound_units(const vf_valley *v, const vfv_reach *reach) {
    const int32_t *inv = v->inventory;
    const int left = VF_VALLEY_HORIZON - v->step;
    const int sale = 1;      /* the sell action */
    int rise = 0, r2sum = 0; /* the most the gifts that fit can add to the relationships */
    int gifts = left - reach->to_gift;
    gifts = gifts < 0 ? 0 : gifts > inv[VF_GIFTS] ? inv[VF_GIFTS] : gifts;
    for (int i = 0; i < VF_VALLEY_VILLAGERS; i++) {
        r2sum += v->villagers[i].relationship2;
        rise += RELATIONSHIP2_MAX - v->villagers[i].relationship2;
    }
    if (rise > GIFT_STEP2 * gifts) rise = GIFT_STEP2 * gifts;

    int collect = 0, sold_products = 0, sold_crops = 0;
    if (reach->to_market + sale <= left) {
        sold_crops += inv[VF_CROPS];
        sold_products += inv[VF_PRODUCTS];
    }
    /* products: pending, still to come from a feeding, and from the feed left (fed at the
     * nearest animal, ignoring whether it is hungry) */
    const int per_feeding = SATED_TICKS / PRODUCT_TICKS;
    int feed_collect[SATED_TICKS / PRODUCT_TICKS] = {0},
                                   feed_sold[SATED_TICKS / PRODUCT_TICKS] = {0};
    for (int i = 0; i < VF_VALLEY_ANIMALS; i++) {
        const vf_valley_animal *a = &v->animals[i];
        const int there = reach->to_animal[i], back = reach->animal_to_market[i] + sale;
        if (a->pending > 0 && there + 1 <= left) {
            collect += a->pending;
            sold_products += there + 1 + back <= left ? a->pending : 0;
        }
        for (int due = PRODUCT_TICKS - a->counter; due <= a->sated_steps_left;
             due += PRODUCT_TICKS) {
            const int at = (due > there ? due : there) + 1; /* the collect's step */
            collect += (at <= left);
            sold_products += (at + back <= left);
        }
        for (int k = 0; k < per_feeding; k++) {
            const int at = there + 1 + PRODUCT_TICKS * (k + 1) + 1; /* feed, ticks, collect */
            feed_collect[k] |= (at <= left);
            feed_sold[k] |= (at + back <= left);
        }
    }
    for (int k = 0; k < per_feeding; k++) {
        collect += inv[VF_FEED] * feed_collect[k];
        sold_products += inv[VF_FEED] * feed_sold[k];
    }

    /* crops: each in the ground, then each seed (planted on the nearest field that allows
     * it), with the steps it needs on its field: its waterings and the harvest */
    int need[VF_VALLEY_CROPS + START_SEEDS], harvest_ok[VF_VALLEY_CROPS + START_SEEDS],
        sale_ok[VF_VALLEY_CROPS + START_SEEDS], n = 0;
    int seed_harvest = 0, seed_sale = 0;
    for (int i = 0; i < VF_VALLEY_CROPS; i++) {
        const int there = reach->to_crop[i], back = reach->crop_to_market[i] + sale;
        const int stage = TILE(v, v->crops[i].x, v->crops[i].y) - VF_VT_SOIL_EMPTY;
        const int plant_to_harvest = 1 + WATERINGS_PER_CROP + 1;
        seed_harvest |= (there + plant_to_harvest <= left);
        seed_sale |= (there + plant_to_harvest + back <= left);
        if (stage == 0) continue;
        need[n] = (VF_VT_CROP_MATURE - VF_VT_SOIL_EMPTY) - stage; /* waterings to ripen */
        harvest_ok[n] = (there + need[n] + 1 <= left);
        sale_ok[n] = (there + need[n] + 1 + back <= left);
        n++;
    }
    for (int k = 0; k < inv[VF_SEEDS]; k++, n++) {
        need[n] = WATERINGS_PER_CROP;
        harvest_ok[n] = seed_harvest;
        sale_ok[n] = seed_sale;
    }
    /* harvested and sold are counted apart: each count is the most there could be */
    const int harvested = ripen_count(need, harvest_ok, n, inv[VF_WATER]);
    sold_crops += ripen_count(need, sale_ok, n, inv[VF_WATER]);

    int32_t base = PRICE_CROP * sold_crops + PRICE_PRODUCT * sold_products;
    int32_t coins = base * (PRICE_DIVISOR + r2sum + rise) / PRICE_DIVISOR;
    return REWARD_HARVEST * harvested + REWARD_PRODUCT * collect + REWARD_GIFT2 * rise +
           REWARD_COIN * coins;
}
