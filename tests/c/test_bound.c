/*
 * test_bound.c — the valley planner's bound at its edges. vf_plan_bound counts each part of
 * what is left to earn only if the steps left allow it; an off-by-one in any of those counts
 * makes the bound unsound exactly when the steps left are just enough, which random states
 * rarely hit. So each test here builds such a state: a short script earns something with
 * not one step to spare, and the bound from the state before it must be at least that.
 */
#include "check.h"
#include "valley_farm.h"

#define TILE(v, x, y) ((v)->tiles[(y) + VF_BORDER][(x) + VF_BORDER])

/* A valley episode with nothing left to earn: no inventory, hungry animals with nothing
 * pending, every field empty soil. Scenarios then add exactly what they test. */
static vf_env bare(uint64_t seed) {
    vf_env env;
    vf_reset(&env, VF_VALLEY, seed, NULL);
    vf_valley *v = &env.u.valley;
    for (int i = 0; i < VF_ITEM_COUNT; i++) v->inventory[i] = 0;
    for (int i = 0; i < VF_VALLEY_ANIMALS; i++) {
        v->animals[i].sated_steps_left = 0;
        v->animals[i].counter = 0;
        v->animals[i].pending = 0;
    }
    for (int i = 0; i < VF_VALLEY_CROPS; i++)
        TILE(v, v->crops[i].x, v->crops[i].y) = VF_VT_SOIL_EMPTY;
    return env;
}

/* Moves the market onto a ground tile next to (x, y); returns the move from (x, y) onto it
 * (VF_VA_NORTH .. VF_VA_WEST), or -1 when no neighbour is plain ground. */
static int market_next_to(vf_valley *v, int x, int y) {
    static const int dx[4] = {0, 0, 1, -1}, dy[4] = {-1, 1, 0, 0}; /* north, south, east, west */
    for (int k = 0; k < 4; k++) {
        int nx = x + dx[k], ny = y + dy[k];
        if (nx < 0 || ny < 0 || nx >= VF_VALLEY_W || ny >= VF_VALLEY_H) continue;
        if (TILE(v, nx, ny) != VF_VT_GROUND) continue;
        TILE(v, v->market.x, v->market.y) = VF_VT_GROUND;
        TILE(v, nx, ny) = VF_VT_MARKET;
        v->market = (vf_point){(uint8_t)nx, (uint8_t)ny};
        return k;
    }
    return -1;
}

/* Sets the clock so that the script is exactly the steps left, then checks that the script
 * plays legally and earns something, and that the bound from the start is at least that. */
static void check_edge(vf_env env, const int *script, int n, const char *what, uint64_t seed) {
    env.u.valley.step = VF_VALLEY_HORIZON - n;
    const double bound = vf_plan_bound(&env);
    double earned = 0;
    bool legal = true;
    for (int i = 0; i < n; i++) {
        vf_step_result r = vf_step(&env, script[i], NULL);
        earned += r.reward;
        legal &= r.action_was_legal;
    }
    CHECK_FIRST(legal && earned > 0); /* the scenario is what it claims */
    if (bound < earned - 1e-9) {
        CHECK_FIRST(bound >= earned - 1e-9);
        printf("  %s, seed %llu: bound %.2f, a play of its %d steps earns %.2f\n", what,
               (unsigned long long)seed, bound, n, earned);
    }
}

enum { N = VF_VA_NORTH, COLLECT = VF_VA_COLLECT, SELL = VF_VA_SELL, WAIT = VF_VA_WAIT };

TEST(the_bound_counts_a_product_collected_and_sold_in_exactly_the_steps_left) {
    int scenarios = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        vf_env env = bare(seed);
        vf_valley *v = &env.u.valley;
        const vf_valley_animal *a = &v->animals[0];
        v->agent = (vf_point){a->x, a->y};
        const int to_market = market_next_to(v, a->x, a->y);
        if (to_market < 0) continue;
        scenarios++;
        /* pending: collect now; collect, step to the market, sell */
        v->animals[0].pending = 1;
        check_edge(env, (int[]){COLLECT}, 1, "pending, collected", seed);
        check_edge(env, (int[]){COLLECT, to_market, SELL}, 3, "pending, sold", seed);
        /* to come: one tick away (the tick follows the step's action) */
        v->animals[0].pending = 0;
        v->animals[0].sated_steps_left = 5;
        v->animals[0].counter = 4;
        check_edge(env, (int[]){WAIT, COLLECT}, 2, "next tick, collected", seed);
        check_edge(env, (int[]){WAIT, COLLECT, to_market, SELL}, 4, "next tick, sold", seed);
        /* feed left: fed now, five ticks from the next step, then collected */
        v->animals[0].sated_steps_left = 0;
        v->animals[0].counter = 0;
        v->inventory[VF_FEED] = 1;
        check_edge(env, (int[]){VF_VA_FEED, WAIT, WAIT, WAIT, WAIT, WAIT, COLLECT}, 7,
                   "feed, collected", seed);
        check_edge(env, (int[]){VF_VA_FEED, WAIT, WAIT, WAIT, WAIT, WAIT, COLLECT, to_market, SELL},
                   9, "feed, sold", seed);
        /* goods in hand */
        v->inventory[VF_FEED] = 0;
        v->inventory[VF_PRODUCTS] = 1;
        check_edge(env, (int[]){to_market, SELL}, 2, "goods in hand, sold", seed);
    }
    CHECK(scenarios >= 20);
}

TEST(the_bound_counts_a_crop_grown_harvested_and_sold_in_exactly_the_steps_left) {
    int scenarios = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        vf_env env = bare(seed);
        vf_valley *v = &env.u.valley;
        const vf_point c = v->crops[0];
        v->agent = c;
        const int to_market = market_next_to(v, c.x, c.y);
        if (to_market < 0) continue;
        scenarios++;
        /* a seed: plant, two waterings, harvest (and sell) */
        v->inventory[VF_SEEDS] = 1;
        v->inventory[VF_WATER] = 2;
        const int grow[] = {VF_VA_PLANT, VF_VA_WATER, VF_VA_WATER, VF_VA_HARVEST, to_market, SELL};
        check_edge(env, grow, 4, "seed, harvested", seed);
        check_edge(env, grow, 6, "seed, sold", seed);
        /* a growing crop: one watering, harvest (and sell) */
        v->inventory[VF_SEEDS] = 0;
        v->inventory[VF_WATER] = 1;
        TILE(v, c.x, c.y) = VF_VT_CROP_GROWING;
        const int ripen[] = {VF_VA_WATER, VF_VA_HARVEST, to_market, SELL};
        check_edge(env, ripen, 2, "growing crop, harvested", seed);
        check_edge(env, ripen, 4, "growing crop, sold", seed);
        /* a mature crop */
        v->inventory[VF_WATER] = 0;
        TILE(v, c.x, c.y) = VF_VT_CROP_MATURE;
        check_edge(env, (int[]){VF_VA_HARVEST}, 1, "mature crop, harvested", seed);
        check_edge(env, (int[]){VF_VA_HARVEST, to_market, SELL}, 3, "mature crop, sold", seed);
    }
    CHECK(scenarios >= 20);
}

TEST(the_bound_counts_a_gift_and_the_price_it_raises_in_exactly_the_steps_left) {
    int scenarios = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        vf_env env = bare(seed);
        vf_valley *v = &env.u.valley;
        const vf_valley_villager *home = &v->villagers[0];
        v->agent = (vf_point){home->x, home->y};
        const int to_market = market_next_to(v, home->x, home->y);
        if (to_market < 0) continue;
        scenarios++;
        for (int i = 0; i < VF_VALLEY_VILLAGERS; i++) v->villagers[i].relationship2 = 100;
        v->inventory[VF_GIFTS] = 2;
        check_edge(env, (int[]){VF_VA_GIFT}, 1, "a gift", seed);
        check_edge(env, (int[]){VF_VA_GIFT, VF_VA_GIFT}, 2, "two gifts", seed);
        v->inventory[VF_CROPS] = 2;
        v->inventory[VF_PRODUCTS] = 2;
        check_edge(env, (int[]){VF_VA_GIFT, VF_VA_GIFT, to_market, SELL}, 4,
                   "two gifts, then a sale at their price", seed);
    }
    CHECK(scenarios >= 20);
}

int main(void) {
    RUN(the_bound_counts_a_product_collected_and_sold_in_exactly_the_steps_left);
    RUN(the_bound_counts_a_crop_grown_harvested_and_sold_in_exactly_the_steps_left);
    RUN(the_bound_counts_a_gift_and_the_price_it_raises_in_exactly_the_steps_left);
    return check_summary();
}
