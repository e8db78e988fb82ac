/*
 * test_valley.c — ValleyFarm-v0 against its contract, docs/rules/valley-farm.md.
 *
 * Rule tests build a hand-made farm (see `farm` below) by writing env.u.valley directly,
 * play actions through the public API, and compare with values worked out from the
 * contract by hand. Property tests reset thousands of seeds and play a million random
 * steps, checking what must always hold. Rewards are compared exactly: the engine's
 * rewards are multiples of 0.05 converted to double by one division.
 */
#include <stdlib.h>

#include "check.h"
#include "valley_farm.h"

#define T(v, x, y) ((v)->tiles[(y) + VF_BORDER][(x) + VF_BORDER])

static vf_step_result act(vf_env *e, int action) {
    return vf_step(e, action, NULL);
}

static void put_agent(vf_valley *v, int x, int y) {
    v->agent.x = (uint8_t)x;
    v->agent.y = (uint8_t)y;
}

/*
 * The hand-made farm the rule tests start from: all ground, no obstacles, step 0, the
 * start inventory, animals hungry, relationships 0. In render's symbols:
 *
 *        x  012345678901234
 *   y  0    ...............
 *      1    .____..........   soil, crops 0..3 at x = 1..4
 *      4    .B.B.B...H.H.H.   barns and cottages
 *      5    .c.o.s...v.v.v.   chicken (1,5), cow (3,5), sheep (5,5); villagers 0, 1, 2
 *      7    .......@.......   the agent at (7,7)
 *     12    .......$.......   the market at (7,12)
 */
static vf_valley *farm(vf_env *e) {
    vf_reset(e, VF_VALLEY, 1, NULL);
    vf_valley *v = &e->u.valley;
    for (int y = 0; y < VF_VALLEY_H; y++)
        for (int x = 0; x < VF_VALLEY_W; x++) T(v, x, y) = VF_VT_GROUND;
    for (int i = 0; i < 4; i++) {
        v->crops[i] = (vf_point){(uint8_t)(1 + i), 1};
        T(v, 1 + i, 1) = VF_VT_SOIL_EMPTY;
    }
    for (int i = 0; i < 3; i++) {
        int ax = 1 + 2 * i, hx = 9 + 2 * i;
        T(v, ax, 4) = VF_VT_BARN;
        T(v, ax, 5) = (uint8_t)(VF_VT_CHICKEN + i);
        v->animals[i] = (vf_valley_animal){(uint8_t)ax, 5, (uint8_t)i, 0, 0, 0};
        T(v, hx, 4) = VF_VT_COTTAGE;
        T(v, hx, 5) = VF_VT_VILLAGER;
        v->villagers[i] = (vf_valley_villager){(uint8_t)hx, 5, 0};
    }
    v->market = (vf_point){7, 12};
    T(v, 7, 12) = VF_VT_MARKET;
    put_agent(v, 7, 7);
    int32_t start[VF_ITEM_COUNT] = {5, 5, 0, 3, 0, 0, 3};
    memcpy(v->inventory, start, sizeof start);
    v->step = 0;
    v->reward_units = 0;
    return v;
}

/* Plays an action the contract makes illegal here and checks it is exactly a wait: the
 * result equals playing wait from the same state, and the step was spent. */
static void check_illegal_is_wait(vf_env *e, int action) {
    vf_env waited;
    memcpy(&waited, e, sizeof waited);
    int step = e->u.valley.step;
    vf_step_result w = act(&waited, VF_VA_WAIT);
    vf_step_result r = act(e, action);
    CHECK(!r.action_was_legal);
    CHECK(w.action_was_legal);
    CHECK_REWARD(r.reward, 0.0);
    CHECK_EQ(e->u.valley.step, step + 1);
    CHECK(memcmp(e, &waited, sizeof waited) == 0);
}

/* Checks that playing `action` changes nothing but the step (for states where nothing
 * ticks: all animals hungry). */
static void check_only_clock_moves(vf_env *e, int action) {
    vf_env before;
    memcpy(&before, e, sizeof before);
    check_illegal_is_wait(e, action);
    before.u.valley.step++;
    CHECK(memcmp(e, &before, sizeof before) == 0);
}

/* ---- moving ------------------------------------------------------------------------- */

TEST(moves_shift_the_agent_one_tile_north_south_east_west) {
    vf_env e;
    vf_valley *v = farm(&e);
    vf_step_result r = act(&e, VF_VA_NORTH);
    CHECK(r.action_was_legal);
    CHECK_REWARD(r.reward, 0.0);
    CHECK_EQ(v->agent.x, 7);
    CHECK_EQ(v->agent.y, 6); /* north is y - 1 */
    CHECK(act(&e, VF_VA_EAST).action_was_legal);
    CHECK_EQ(v->agent.x, 8);
    CHECK(act(&e, VF_VA_SOUTH).action_was_legal);
    CHECK_EQ(v->agent.y, 7);
    CHECK(act(&e, VF_VA_WEST).action_was_legal);
    CHECK_EQ(v->agent.x, 7);
    CHECK_EQ(v->step, 4);
}

TEST(moves_into_obstacle_barn_cottage_or_off_the_map_are_illegal_waits) {
    vf_env e;
    vf_valley *v = farm(&e);
    T(v, 7, 6) = VF_VT_OBSTACLE;
    check_only_clock_moves(&e, VF_VA_NORTH);
    put_agent(v, 1, 3); /* barn (1,4) to the south */
    check_only_clock_moves(&e, VF_VA_SOUTH);
    put_agent(v, 10, 4); /* cottage (9,4) to the west */
    check_only_clock_moves(&e, VF_VA_WEST);
    put_agent(v, 9, 5); /* standing on villager 0, its cottage is north */
    check_only_clock_moves(&e, VF_VA_NORTH);
    put_agent(v, 0, 0);
    check_only_clock_moves(&e, VF_VA_NORTH);
    check_only_clock_moves(&e, VF_VA_WEST);
    put_agent(v, 14, 14);
    check_only_clock_moves(&e, VF_VA_SOUTH);
    check_only_clock_moves(&e, VF_VA_EAST);
}

TEST(soil_animal_villager_and_market_tiles_are_walkable) {
    vf_env e;
    vf_valley *v = farm(&e);
    put_agent(v, 1, 2);
    CHECK(act(&e, VF_VA_NORTH).action_was_legal); /* onto soil (1,1) */
    CHECK_EQ(v->agent.y, 1);
    put_agent(v, 2, 5);
    CHECK(act(&e, VF_VA_EAST).action_was_legal); /* onto the cow (3,5) */
    CHECK_EQ(v->agent.x, 3);
    put_agent(v, 9, 6);
    CHECK(act(&e, VF_VA_NORTH).action_was_legal); /* onto villager 0 (9,5) */
    CHECK_EQ(v->agent.y, 5);
    put_agent(v, 7, 11);
    CHECK(act(&e, VF_VA_SOUTH).action_was_legal); /* onto the market (7,12) */
    CHECK_EQ(v->agent.y, 12);
    T(v, 5, 1) = VF_VT_CROP_MATURE; /* a crop at any stage can be walked on */
    put_agent(v, 5, 2);
    CHECK(act(&e, VF_VA_NORTH).action_was_legal);
}

/* ---- crops -------------------------------------------------------------------------- */

TEST(plant_on_empty_soil_uses_a_seed_and_makes_a_seedling) {
    vf_env e;
    vf_valley *v = farm(&e);
    put_agent(v, 1, 1);
    vf_step_result r = act(&e, VF_VA_PLANT);
    CHECK(r.action_was_legal);
    CHECK_REWARD(r.reward, 0.0);
    CHECK_EQ(v->inventory[VF_SEEDS], 4);
    CHECK_EQ(T(v, 1, 1), VF_VT_SOIL_SEEDED);
}

TEST(plant_without_seeds_on_planted_soil_or_off_soil_is_an_illegal_wait) {
    vf_env e;
    vf_valley *v = farm(&e);
    check_only_clock_moves(&e, VF_VA_PLANT); /* on ground */
    put_agent(v, 1, 1);
    v->inventory[VF_SEEDS] = 0;
    check_only_clock_moves(&e, VF_VA_PLANT);
    v->inventory[VF_SEEDS] = 5;
    T(v, 1, 1) = VF_VT_SOIL_SEEDED;
    check_only_clock_moves(&e, VF_VA_PLANT);
}

TEST(water_advances_a_crop_from_stage_1_to_2_to_3_using_one_water_each) {
    vf_env e;
    vf_valley *v = farm(&e);
    put_agent(v, 2, 1);
    T(v, 2, 1) = VF_VT_SOIL_SEEDED;
    vf_step_result r = act(&e, VF_VA_WATER);
    CHECK(r.action_was_legal);
    CHECK_REWARD(r.reward, 0.0);
    CHECK_EQ(T(v, 2, 1), VF_VT_CROP_GROWING);
    CHECK_EQ(v->inventory[VF_WATER], 4);
    CHECK(act(&e, VF_VA_WATER).action_was_legal);
    CHECK_EQ(T(v, 2, 1), VF_VT_CROP_MATURE);
    CHECK_EQ(v->inventory[VF_WATER], 3);
}

TEST(water_on_empty_soil_on_a_mature_crop_off_soil_or_without_water_is_an_illegal_wait) {
    vf_env e;
    vf_valley *v = farm(&e);
    check_only_clock_moves(&e, VF_VA_WATER); /* ground */
    put_agent(v, 2, 1);
    check_only_clock_moves(&e, VF_VA_WATER); /* stage 0 */
    T(v, 2, 1) = VF_VT_CROP_MATURE;
    check_only_clock_moves(&e, VF_VA_WATER); /* stage 3: mature crops never change */
    T(v, 2, 1) = VF_VT_SOIL_SEEDED;
    v->inventory[VF_WATER] = 0;
    check_only_clock_moves(&e, VF_VA_WATER);
}

TEST(harvest_of_a_mature_crop_gives_a_crop_empties_the_soil_and_rewards_0_1) {
    vf_env e;
    vf_valley *v = farm(&e);
    put_agent(v, 3, 1);
    T(v, 3, 1) = VF_VT_CROP_MATURE;
    vf_step_result r = act(&e, VF_VA_HARVEST);
    CHECK(r.action_was_legal);
    CHECK_REWARD(r.reward, 0.1);
    CHECK_EQ(v->inventory[VF_CROPS], 1);
    CHECK_EQ(T(v, 3, 1), VF_VT_SOIL_EMPTY);
    CHECK_REWARD(vf_total_reward(&e), 0.1);
}

TEST(harvest_of_an_unripe_crop_or_off_soil_is_an_illegal_wait) {
    vf_env e;
    vf_valley *v = farm(&e);
    check_only_clock_moves(&e, VF_VA_HARVEST);
    put_agent(v, 3, 1);
    for (int code = VF_VT_SOIL_EMPTY; code < VF_VT_CROP_MATURE; code++) {
        T(v, 3, 1) = (uint8_t)code;
        check_only_clock_moves(&e, VF_VA_HARVEST);
    }
}

TEST(a_crop_cycle_is_plant_water_water_harvest) {
    vf_env e;
    vf_valley *v = farm(&e);
    put_agent(v, 4, 1);
    int plan[4] = {VF_VA_PLANT, VF_VA_WATER, VF_VA_WATER, VF_VA_HARVEST};
    double total = 0;
    for (int i = 0; i < 4; i++) {
        vf_step_result r = act(&e, plan[i]);
        CHECK(r.action_was_legal);
        total += r.reward;
    }
    CHECK_REWARD(total, 0.1);
    CHECK_EQ(v->inventory[VF_SEEDS], 4);
    CHECK_EQ(v->inventory[VF_WATER], 3);
    CHECK_EQ(v->inventory[VF_CROPS], 1);
    CHECK_EQ(T(v, 4, 1), VF_VT_SOIL_EMPTY);
}

/* ---- animals ------------------------------------------------------------------------ */

TEST(feed_makes_a_hungry_animal_sated_for_10_ticks_and_uses_one_feed) {
    vf_env e;
    vf_valley *v = farm(&e);
    put_agent(v, 3, 5);        /* the cow */
    v->animals[1].counter = 3; /* left over from an earlier feeding */
    vf_step_result r = act(&e, VF_VA_FEED);
    CHECK(r.action_was_legal);
    CHECK_REWARD(r.reward, 0.0);
    CHECK_EQ(v->inventory[VF_FEED], 2);
    CHECK_EQ(v->animals[1].sated_steps_left, 10); /* not ticked on its feeding step */
    CHECK_EQ(v->animals[1].counter, 0);
    CHECK_EQ(v->animals[1].pending, 0);
    CHECK_EQ(v->animals[0].sated_steps_left, 0);
}

TEST(feed_of_a_sated_animal_without_feed_or_off_an_animal_is_an_illegal_wait) {
    vf_env e;
    vf_valley *v = farm(&e);
    check_only_clock_moves(&e, VF_VA_FEED); /* ground */
    put_agent(v, 1, 5);
    v->inventory[VF_FEED] = 0;
    check_only_clock_moves(&e, VF_VA_FEED);
    v->inventory[VF_FEED] = 3;
    CHECK(act(&e, VF_VA_FEED).action_was_legal);
    check_illegal_is_wait(&e, VF_VA_FEED); /* sated now */
    CHECK_EQ(v->inventory[VF_FEED], 2);
}

TEST(a_fed_animal_makes_products_after_ticks_5_and_10_then_turns_hungry) {
    vf_env e;
    vf_valley *v = farm(&e);
    put_agent(v, 5, 5); /* the sheep */
    CHECK(act(&e, VF_VA_FEED).action_was_legal);
    const vf_valley_animal *a = &v->animals[2];
    for (int tick = 1; tick <= 15; tick++) {
        act(&e, VF_VA_WAIT);
        int sated_ticks = tick < 10 ? tick : 10;
        CHECK_EQ(a->pending, sated_ticks / 5);
        CHECK_EQ(a->counter, sated_ticks % 5);
        CHECK_EQ(a->sated_steps_left, 10 - sated_ticks);
    }
    CHECK_EQ(a->pending, 2);
    CHECK_EQ(a->sated_steps_left, 0);
    CHECK_EQ(v->animals[0].pending, 0); /* unfed animals never produce */
    CHECK_EQ(v->animals[0].counter, 0);
}

TEST(the_feeding_step_does_not_tick_the_fed_animal_but_ticks_the_others) {
    vf_env e;
    vf_valley *v = farm(&e);
    put_agent(v, 1, 5);
    CHECK(act(&e, VF_VA_FEED).action_was_legal); /* chicken fed */
    CHECK(act(&e, VF_VA_EAST).action_was_legal); /* chicken tick 1 */
    CHECK(act(&e, VF_VA_EAST).action_was_legal); /* tick 2, on the cow */
    CHECK(act(&e, VF_VA_FEED).action_was_legal); /* tick 3; cow fed */
    CHECK_EQ(v->animals[0].sated_steps_left, 7);
    CHECK_EQ(v->animals[0].counter, 3);
    CHECK_EQ(v->animals[1].sated_steps_left, 10);
    CHECK_EQ(v->animals[1].counter, 0);
    act(&e, VF_VA_WAIT);
    CHECK_EQ(v->animals[0].counter, 4);
    CHECK_EQ(v->animals[1].sated_steps_left, 9);
    CHECK_EQ(v->animals[1].counter, 1);
}

TEST(collect_takes_all_pending_products_rewards_0_2_each_and_keeps_hunger) {
    vf_env e;
    vf_valley *v = farm(&e);
    put_agent(v, 3, 5);
    vf_valley_animal *a = &v->animals[1];
    a->pending = 2;
    a->counter = 3;
    a->sated_steps_left = 4;
    v->inventory[VF_PRODUCTS] = 1;
    vf_step_result r = act(&e, VF_VA_COLLECT);
    CHECK(r.action_was_legal);
    CHECK_REWARD(r.reward, 0.4);
    CHECK_EQ(v->inventory[VF_PRODUCTS], 3);
    CHECK_EQ(a->pending, 0);
    /* counter reset to 0 by the collect, then this step's tick: 1; still sated */
    CHECK_EQ(a->counter, 1);
    CHECK_EQ(a->sated_steps_left, 3);
}

TEST(collect_right_after_tick_5_takes_one_and_the_next_comes_5_ticks_later) {
    vf_env e;
    vf_valley *v = farm(&e);
    put_agent(v, 1, 5);
    const vf_valley_animal *a = &v->animals[0];
    act(&e, VF_VA_FEED);
    for (int i = 0; i < 5; i++) act(&e, VF_VA_WAIT); /* ticks 1..5 */
    CHECK_EQ(a->pending, 1);
    vf_step_result r = act(&e, VF_VA_COLLECT); /* then tick 6 */
    CHECK(r.action_was_legal);
    CHECK_REWARD(r.reward, 0.2);
    CHECK_EQ(v->inventory[VF_PRODUCTS], 1);
    for (int i = 0; i < 3; i++) act(&e, VF_VA_WAIT); /* ticks 7..9 */
    CHECK_EQ(a->pending, 0);
    act(&e, VF_VA_WAIT); /* tick 10, 5 ticks after tick 5 */
    CHECK_EQ(a->pending, 1);
    CHECK_EQ(a->sated_steps_left, 0);
}

TEST(collect_resets_the_counter_so_a_mid_cycle_collect_delays_the_next_product) {
    vf_env e;
    vf_valley *v = farm(&e);
    put_agent(v, 1, 5);
    const vf_valley_animal *a = &v->animals[0];
    act(&e, VF_VA_FEED);
    for (int i = 0; i < 6; i++) act(&e, VF_VA_WAIT); /* ticks 1..6: pending 1, counter 1 */
    CHECK_EQ(a->counter, 1);
    CHECK(act(&e, VF_VA_COLLECT).action_was_legal); /* counter 0, then tick 7: 1 */
    CHECK_EQ(a->counter, 1);
    for (int i = 0; i < 5; i++) act(&e, VF_VA_WAIT); /* ticks 8..10, then hungry */
    CHECK_EQ(a->counter, 4);
    CHECK_EQ(a->pending, 0); /* so this feeding made only one product */
    CHECK_EQ(a->sated_steps_left, 0);
}

TEST(collect_with_nothing_pending_or_off_an_animal_is_an_illegal_wait) {
    vf_env e;
    vf_valley *v = farm(&e);
    check_only_clock_moves(&e, VF_VA_COLLECT); /* ground */
    put_agent(v, 1, 5);
    check_only_clock_moves(&e, VF_VA_COLLECT); /* hungry, nothing pending */
    act(&e, VF_VA_FEED);
    act(&e, VF_VA_WAIT);
    act(&e, VF_VA_WAIT);
    check_illegal_is_wait(&e, VF_VA_COLLECT); /* at tick 3 */
    CHECK_EQ(v->animals[0].counter, 3);
}

TEST(pending_products_never_expire_and_can_be_collected_while_hungry) {
    vf_env e;
    vf_valley *v = farm(&e);
    put_agent(v, 5, 5);
    act(&e, VF_VA_FEED);
    for (int i = 0; i < 30; i++) act(&e, VF_VA_WAIT);
    CHECK_EQ(v->animals[2].pending, 2);
    CHECK_EQ(v->animals[2].sated_steps_left, 0);
    CHECK(act(&e, VF_VA_FEED).action_was_legal); /* feeding again keeps what is waiting */
    CHECK_EQ(v->animals[2].pending, 2);
    for (int i = 0; i < 10; i++) act(&e, VF_VA_WAIT);
    CHECK_EQ(v->animals[2].pending, 4);
    CHECK_EQ(v->animals[2].sated_steps_left, 0);
    vf_step_result r = act(&e, VF_VA_COLLECT); /* step 43, hungry */
    CHECK(r.action_was_legal);
    CHECK_REWARD(r.reward, 0.8);
    CHECK_EQ(v->inventory[VF_PRODUCTS], 4);
    CHECK_EQ(v->animals[2].sated_steps_left, 0);
}

/* ---- villagers ---------------------------------------------------------------------- */

TEST(gift_raises_relationship_by_7_5_and_rewards_half_the_increase) {
    vf_env e;
    vf_valley *v = farm(&e);
    put_agent(v, 9, 6); /* villager 0 is north */
    vf_step_result r = act(&e, VF_VA_GIFT);
    CHECK(r.action_was_legal);
    CHECK_EQ(v->villagers[0].relationship2, 15); /* 7.5 */
    CHECK_REWARD(r.reward, 3.75);                /* 0.5 x 7.5 */
    CHECK_EQ(v->inventory[VF_GIFTS], 2);
    r = act(&e, VF_VA_GIFT);
    CHECK_EQ(v->villagers[0].relationship2, 30); /* 15 */
    CHECK_REWARD(r.reward, 3.75);
    CHECK_REWARD(vf_total_reward(&e), 7.5);
}

TEST(gift_is_capped_at_100_and_rewards_half_the_actual_increase) {
    vf_env e;
    vf_valley *v = farm(&e);
    put_agent(v, 9, 5);                  /* on villager 0's tile */
    v->villagers[0].relationship2 = 190; /* 95 -> 100: +5, reward 2.5 */
    vf_step_result r = act(&e, VF_VA_GIFT);
    CHECK(r.action_was_legal);
    CHECK_EQ(v->villagers[0].relationship2, 200);
    CHECK_REWARD(r.reward, 2.5);
    farm(&e);
    put_agent(v, 9, 5);
    v->villagers[0].relationship2 = 195; /* 97.5 -> 100: +2.5, reward 1.25 */
    r = act(&e, VF_VA_GIFT);
    CHECK_EQ(v->villagers[0].relationship2, 200);
    CHECK_REWARD(r.reward, 1.25);
}

TEST(a_villager_at_100_is_no_gift_target) {
    vf_env e;
    vf_valley *v = farm(&e);
    put_agent(v, 9, 6);
    v->villagers[0].relationship2 = 200;
    check_only_clock_moves(&e, VF_VA_GIFT);
    CHECK_EQ(v->inventory[VF_GIFTS], 3);
    /* between villagers 0 (west) and 1 (east): east comes first, unless it is at 100 */
    put_agent(v, 10, 5);
    v->villagers[0].relationship2 = 0;
    CHECK(act(&e, VF_VA_GIFT).action_was_legal);
    CHECK_EQ(v->villagers[1].relationship2, 15);
    CHECK_EQ(v->villagers[0].relationship2, 0);
    v->villagers[1].relationship2 = 200;
    CHECK(act(&e, VF_VA_GIFT).action_was_legal);
    CHECK_EQ(v->villagers[0].relationship2, 15);
}

/* Moves villager i (and its VILLAGER tile) to (x, y); its cottage stays where it was,
 * which the rules of gifting never look at. */
static void move_villager(vf_valley *v, int i, int x, int y) {
    T(v, v->villagers[i].x, v->villagers[i].y) = VF_VT_GROUND;
    v->villagers[i].x = (uint8_t)x;
    v->villagers[i].y = (uint8_t)y;
    T(v, x, y) = VF_VT_VILLAGER;
}

TEST(gift_target_order_is_own_tile_then_north_east_south_west) {
    vf_env e;
    vf_valley *v = farm(&e);
    v->inventory[VF_GIFTS] = 3;
    move_villager(v, 0, 8, 7);              /* east of the agent at (7,7) */
    move_villager(v, 1, 7, 6);              /* north */
    move_villager(v, 2, 7, 7);              /* own tile */
    for (int want = 2; want >= 0; want--) { /* own, then north, then east */
        CHECK(act(&e, VF_VA_GIFT).action_was_legal);
        CHECK_EQ(v->villagers[want].relationship2, 15);
        v->villagers[want].relationship2 = 200;
    }
    v = farm(&e);
    move_villager(v, 0, 6, 7);              /* west */
    move_villager(v, 1, 7, 8);              /* south */
    move_villager(v, 2, 8, 7);              /* east */
    for (int want = 2; want >= 0; want--) { /* east, then south, then west */
        CHECK(act(&e, VF_VA_GIFT).action_was_legal);
        CHECK_EQ(v->villagers[want].relationship2, 15);
        v->villagers[want].relationship2 = 200;
    }
    v->inventory[VF_GIFTS] = 3;
    check_illegal_is_wait(&e, VF_VA_GIFT); /* everyone at 100 */
}

TEST(gift_without_gifts_or_with_no_villager_on_or_next_to_the_agent_is_an_illegal_wait) {
    vf_env e;
    vf_valley *v = farm(&e);
    check_only_clock_moves(&e, VF_VA_GIFT); /* nobody near (7,7) */
    put_agent(v, 10, 6);                    /* diagonal to villagers 0 and 1 */
    check_only_clock_moves(&e, VF_VA_GIFT);
    put_agent(v, 9, 7); /* two tiles south of villager 0 */
    check_only_clock_moves(&e, VF_VA_GIFT);
    put_agent(v, 9, 6);
    v->inventory[VF_GIFTS] = 0;
    check_only_clock_moves(&e, VF_VA_GIFT);
}

TEST(mood_on_a_villager_tile_is_wary_below_25_neutral_below_50_friendly_from_50) {
    vf_env e;
    vf_valley *v = farm(&e);
    put_agent(v, 11, 5); /* villager 1 */
    static const int r2[] = {0, 45, 50, 95, 100, 150, 200};
    static const int want[] = {0, 0, 1, 1, 2, 2, 2};
    for (int i = 0; i < 7; i++) {
        v->villagers[1].relationship2 = (uint8_t)r2[i];
        int32_t obs[VF_OBS_MAX];
        vf_observe(&e, obs);
        CHECK_EQ(obs[VF_VO_CENTER], want[i]);
    }
    /* a gift that crosses a threshold shows at once: 20 -> 27.5 */
    v->villagers[1].relationship2 = 40;
    int32_t obs[VF_OBS_MAX];
    vf_step(&e, VF_VA_GIFT, obs);
    CHECK_EQ(obs[VF_VO_CENTER], 1);
}

TEST(observed_relationships_round_to_the_nearest_multiple_of_5_with_halves_up) {
    vf_env e;
    vf_valley *v = farm(&e);
    /* relationship2 = 2 r:  17.5 -> 20, 12.5 -> 15, 7.5 -> 10, 2.5 -> 5, 97.5 -> 100,
     * 22.5 -> 25, 10 -> 10, 0 -> 0, 100 -> 100 */
    static const int r2[] = {35, 25, 15, 5, 195, 45, 20, 0, 200};
    static const int want[] = {20, 15, 10, 5, 100, 25, 10, 0, 100};
    for (int i = 0; i < 9; i++) {
        v->villagers[i % 3].relationship2 = (uint8_t)r2[i];
        int32_t obs[VF_OBS_MAX];
        vf_observe(&e, obs);
        CHECK_EQ(obs[VF_VO_RELATIONSHIPS + i % 3], want[i]);
    }
}

/* ---- market ------------------------------------------------------------------------- */

TEST(sell_pays_floor_of_base_price_times_mean_relationship_multiplier) {
    vf_env e;
    vf_valley *v = farm(&e);
    put_agent(v, 7, 12);
    /* crops 2, products 3: base 5 x 2 + 8 x 3 = 34. Relationships 10, 32.5, 50: R = 92.5,
     * m = mean(1.1, 1.325, 1.5) = 392.5 / 300. coins = floor(34 x 392.5 / 300)
     * = floor(13345 / 300) = floor(44.483...) = 44; reward 0.1 x 44 = 4.4 */
    v->inventory[VF_CROPS] = 2;
    v->inventory[VF_PRODUCTS] = 3;
    v->inventory[VF_COINS] = 7;
    v->villagers[0].relationship2 = 20;
    v->villagers[1].relationship2 = 65;
    v->villagers[2].relationship2 = 100;
    vf_step_result r = act(&e, VF_VA_SELL);
    CHECK(r.action_was_legal);
    CHECK_EQ(v->inventory[VF_COINS], 7 + 44);
    CHECK_REWARD(r.reward, 4.4);
    CHECK_EQ(v->inventory[VF_CROPS], 0);
    CHECK_EQ(v->inventory[VF_PRODUCTS], 0);
}

TEST(sell_at_relationships_0_pays_the_base_price_and_at_100_pays_double) {
    vf_env e;
    vf_valley *v = farm(&e);
    put_agent(v, 7, 12);
    v->inventory[VF_PRODUCTS] = 1; /* products alone sell too: 8 x 1 = 8 coins */
    vf_step_result r = act(&e, VF_VA_SELL);
    CHECK(r.action_was_legal);
    CHECK_EQ(v->inventory[VF_COINS], 8);
    CHECK_REWARD(r.reward, 0.8);
    v->inventory[VF_COINS] = 0;
    v->inventory[VF_CROPS] = 1; /* 5 x 1 = 5 coins, reward 0.5 */
    r = act(&e, VF_VA_SELL);
    CHECK_EQ(v->inventory[VF_COINS], 5);
    CHECK_REWARD(r.reward, 0.5);
    v->inventory[VF_CROPS] = 1;
    v->inventory[VF_PRODUCTS] = 1;
    for (int i = 0; i < 3; i++) v->villagers[i].relationship2 = 200;
    r = act(&e, VF_VA_SELL); /* (5 + 8) x 2 = 26 coins, reward 2.6 */
    CHECK_EQ(v->inventory[VF_COINS], 5 + 26);
    CHECK_REWARD(r.reward, 2.6);
    /* one relationship 2.5: 5 x 302.5 / 300 = 5.04 -> 5 coins (rounded down) */
    for (int i = 0; i < 3; i++) v->villagers[i].relationship2 = 0;
    v->villagers[1].relationship2 = 5;
    v->inventory[VF_CROPS] = 1;
    r = act(&e, VF_VA_SELL);
    CHECK_EQ(v->inventory[VF_COINS], 31 + 5);
    CHECK_REWARD(r.reward, 0.5);
}

TEST(sell_with_nothing_to_sell_or_off_the_market_is_an_illegal_wait) {
    vf_env e;
    vf_valley *v = farm(&e);
    put_agent(v, 7, 12);
    v->inventory[VF_COINS] = 9; /* coins are not goods */
    check_only_clock_moves(&e, VF_VA_SELL);
    put_agent(v, 7, 11);
    v->inventory[VF_CROPS] = 2;
    check_only_clock_moves(&e, VF_VA_SELL);
}

TEST(wait_is_always_legal_and_changes_only_the_clock) {
    vf_env e;
    farm(&e);
    vf_env before;
    memcpy(&before, &e, sizeof e);
    vf_step_result r = act(&e, VF_VA_WAIT);
    CHECK(r.action_was_legal);
    CHECK_REWARD(r.reward, 0.0);
    before.u.valley.step = 1;
    CHECK(memcmp(&e, &before, sizeof e) == 0);
    uint8_t mask[VF_ACTIONS_MAX];
    vf_legal_actions(&e, mask);
    CHECK_EQ(mask[VF_VA_WAIT], 1);
}

/* ---- observation and horizon -------------------------------------------------------- */

TEST(view_is_the_5x5_square_centred_on_the_agent_north_row_first_west_cell_first) {
    vf_env e;
    vf_valley *v = farm(&e);
    put_agent(v, 3, 6);
    T(v, 4, 8) = VF_VT_OBSTACLE; /* row +2, column +1 */
    int32_t obs[VF_OBS_MAX];
    vf_observe(&e, obs);
    static const int32_t want[25] = {
        7, 1, 7, 1, 7,  /* y = 4, x = 1..5: barns */
        8, 1, 9, 1, 10, /* y = 5: chicken, cow, sheep */
        1, 1, 1, 1, 1,  /* y = 6: the agent's row */
        1, 1, 1, 1, 1,  1, 1, 1, 2, 1,
    };
    for (int i = 0; i < 25; i++) CHECK_EQ(obs[VF_VO_VIEW + i], want[i]);
    put_agent(v, 1, 1); /* on soil: index 12 shows what is under the agent */
    vf_observe(&e, obs);
    CHECK_EQ(obs[VF_VO_VIEW + 12], VF_VT_SOIL_EMPTY);
    CHECK_EQ(obs[VF_VO_VIEW + 13], VF_VT_SOIL_EMPTY);
    CHECK_EQ(obs[VF_VO_VIEW + 10], VF_VT_OUT_OF_BOUNDS); /* x = -1 */
}

TEST(view_cells_off_the_map_are_0_at_the_corners) {
    vf_env e;
    vf_valley *v = farm(&e);
    T(v, 1, 0) = VF_VT_OBSTACLE;
    T(v, 0, 1) = VF_VT_MARKET;
    put_agent(v, 0, 0);
    int32_t obs[VF_OBS_MAX];
    vf_observe(&e, obs);
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++) {
            int i = (dy + 2) * 5 + (dx + 2);
            if (dx < 0 || dy < 0)
                CHECK_EQ(obs[i], 0);
            else
                CHECK(obs[i] != 0);
        }
    CHECK_EQ(obs[13], VF_VT_OBSTACLE);
    CHECK_EQ(obs[17], VF_VT_MARKET);
    put_agent(v, 14, 14);
    T(v, 13, 14) = VF_VT_OBSTACLE;
    vf_observe(&e, obs);
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++) {
            int i = (dy + 2) * 5 + (dx + 2);
            if (dx > 0 || dy > 0)
                CHECK_EQ(obs[i], 0);
            else
                CHECK(obs[i] != 0);
        }
    CHECK_EQ(obs[11], VF_VT_OBSTACLE);
}

TEST(center_shows_crop_stage_animal_sated_villager_mood_and_0_elsewhere) {
    vf_env e;
    vf_valley *v = farm(&e);
    int32_t obs[VF_OBS_MAX];
    vf_observe(&e, obs);
    CHECK_EQ(obs[VF_VO_CENTER], 0); /* ground */
    put_agent(v, 2, 1);
    for (int stage = 0; stage <= 3; stage++) {
        T(v, 2, 1) = (uint8_t)(VF_VT_SOIL_EMPTY + stage);
        vf_observe(&e, obs);
        CHECK_EQ(obs[VF_VO_CENTER], stage);
    }
    put_agent(v, 3, 5);
    vf_observe(&e, obs);
    CHECK_EQ(obs[VF_VO_CENTER], 0); /* hungry cow */
    vf_step(&e, VF_VA_FEED, obs);
    CHECK_EQ(obs[VF_VO_CENTER], 1);
    put_agent(v, 13, 5);
    v->villagers[2].relationship2 = 120;
    vf_observe(&e, obs);
    CHECK_EQ(obs[VF_VO_CENTER], 2);
    put_agent(v, 7, 12);
    vf_observe(&e, obs);
    CHECK_EQ(obs[VF_VO_CENTER], 0); /* market */
}

TEST(observation_carries_inventory_in_item_order_and_steps_left) {
    vf_env e;
    int32_t obs[VF_OBS_MAX];
    vf_reset(&e, VF_VALLEY, 5, obs);
    static const int32_t start[7] = {5, 5, 0, 3,
                                     0, 0, 3}; /* seeds water crops feed
                                                              products coins gifts */
    for (int i = 0; i < 7; i++) CHECK_EQ(obs[VF_VO_INVENTORY + i], start[i]);
    CHECK_EQ(obs[VF_VO_STEPS_LEFT], 50);
    for (int i = 0; i < 7; i++) e.u.valley.inventory[i] = 10 + i;
    vf_step(&e, VF_VA_WAIT, obs);
    vf_step(&e, VF_VA_WAIT, obs);
    vf_step(&e, VF_VA_NORTH, obs);
    for (int i = 0; i < 7; i++) CHECK_EQ(obs[VF_VO_INVENTORY + i], 10 + i);
    CHECK_EQ(obs[VF_VO_STEPS_LEFT], 47);
}

TEST(episode_terminates_exactly_after_the_50th_action) {
    vf_env e;
    vf_reset(&e, VF_VALLEY, 9, NULL);
    for (int i = 1; i <= 50; i++) {
        vf_step_result r = act(&e, i % 12);
        CHECK_FIRST(r.terminated == (i == 50));
        CHECK_FIRST(vf_terminated(&e) == (i == 50));
    }
    CHECK_EQ(vf_step_count(&e), 50);
    int32_t obs[VF_OBS_MAX];
    vf_observe(&e, obs);
    CHECK_EQ(obs[VF_VO_STEPS_LEFT], 0);
    /* stepping a finished episode is refused and changes nothing */
    vf_env before;
    memcpy(&before, &e, sizeof e);
    vf_step_result r = act(&e, VF_VA_WAIT);
    CHECK(r.terminated);
    CHECK(!r.action_was_legal);
    CHECK_REWARD(r.reward, 0.0);
    CHECK(memcmp(&e, &before, sizeof e) == 0);
}

TEST(action_names_and_sizes_match_the_contract) {
    static const char *const names[12] = {"north",   "south", "east",    "west", "plant", "water",
                                          "harvest", "feed",  "collect", "gift", "sell",  "wait"};
    for (int i = 0; i < 12; i++) CHECK(strcmp(vf_action_name(VF_VALLEY, i), names[i]) == 0);
    CHECK(vf_action_name(VF_VALLEY, 12) == NULL);
    CHECK_EQ(vf_num_actions(VF_VALLEY), 12);
    CHECK_EQ(vf_obs_size(VF_VALLEY), 37);
}

/* ---- layouts ------------------------------------------------------------------------ */

static bool test_walkable(int code) { /* the contract's tile table */
    return code == VF_VT_GROUND || (code >= VF_VT_SOIL_EMPTY && code <= VF_VT_CROP_MATURE) ||
           (code >= VF_VT_CHICKEN && code <= VF_VT_MARKET);
}

/* Plain breadth-first search from (sx, sy); seen[y][x] = 1 for every reached tile. */
static void bfs(const vf_valley *v, int sx, int sy, uint8_t seen[15][15]) {
    int queue[225], head = 0, tail = 0;
    memset(seen, 0, 225);
    seen[sy][sx] = 1;
    queue[tail++] = sy * 15 + sx;
    while (head < tail) {
        int x = queue[head] % 15, y = queue[head] / 15;
        head++;
        static const int dx[4] = {0, 0, 1, -1}, dy[4] = {-1, 1, 0, 0};
        for (int d = 0; d < 4; d++) {
            int nx = x + dx[d], ny = y + dy[d];
            if (nx < 0 || ny < 0 || nx >= 15 || ny >= 15 || seen[ny][nx]) continue;
            if (!test_walkable(T(v, nx, ny))) continue;
            seen[ny][nx] = 1;
            queue[tail++] = ny * 15 + nx;
        }
    }
}

TEST(every_layout_over_10000_seeds_keeps_the_contract) {
    int relationship_seen[5] = {0};
    int species_first[3] = {0};
    vf_env e;
    memset(&e, 0xCD, sizeof e); /* reset must not depend on what was there */
    for (uint64_t seed = 0; seed < 10000; seed++) {
        vf_reset(&e, VF_VALLEY, seed * 0x9E3779B97F4A7C15ull + 3, NULL);
        const vf_valley *v = &e.u.valley;
        int counts[256] = {0};
        for (int y = -VF_BORDER; y < 15 + VF_BORDER; y++)
            for (int x = -VF_BORDER; x < 15 + VF_BORDER; x++) {
                bool inside = x >= 0 && y >= 0 && x < 15 && y < 15;
                if (inside)
                    counts[T(v, x, y)]++;
                else
                    CHECK_FIRST(T(v, x, y) == VF_VT_OUT_OF_BOUNDS);
            }
        CHECK_FIRST(counts[0] == 0);
        CHECK_FIRST(counts[VF_VT_OBSTACLE] == 20);
        CHECK_FIRST(counts[VF_VT_SOIL_EMPTY] == 4);
        CHECK_FIRST(counts[VF_VT_SOIL_SEEDED] + counts[VF_VT_CROP_GROWING] +
                        counts[VF_VT_CROP_MATURE] ==
                    0);
        CHECK_FIRST(counts[VF_VT_BARN] == 3);
        CHECK_FIRST(counts[VF_VT_CHICKEN] == 1);
        CHECK_FIRST(counts[VF_VT_COW] == 1);
        CHECK_FIRST(counts[VF_VT_SHEEP] == 1);
        CHECK_FIRST(counts[VF_VT_VILLAGER] == 3);
        CHECK_FIRST(counts[VF_VT_COTTAGE] == 3);
        CHECK_FIRST(counts[VF_VT_MARKET] == 1);
        CHECK_FIRST(counts[VF_VT_GROUND] == 225 - 20 - 4 - 3 - 3 - 3 - 3 - 1);

        uint8_t seen[15][15];
        bfs(v, v->agent.x, v->agent.y, seen);
        CHECK_FIRST(v->agent.x < 15 && v->agent.y < 15);
        CHECK_FIRST(T(v, v->agent.x, v->agent.y) == VF_VT_GROUND);
        int species_mask = 0;
        for (int i = 0; i < 3; i++) {
            const vf_valley_animal *a = &v->animals[i];
            CHECK_FIRST(a->species < 3);
            species_mask |= 1 << a->species;
            CHECK_FIRST(T(v, a->x, a->y) == VF_VT_CHICKEN + a->species);
            CHECK_FIRST(a->y >= 1 && T(v, a->x, a->y - 1) == VF_VT_BARN);
            CHECK_FIRST(seen[a->y][a->x]);
            CHECK_FIRST(a->sated_steps_left == 0 && a->counter == 0 && a->pending == 0);
            const vf_valley_villager *h = &v->villagers[i];
            CHECK_FIRST(T(v, h->x, h->y) == VF_VT_VILLAGER);
            CHECK_FIRST(h->y >= 1 && T(v, h->x, h->y - 1) == VF_VT_COTTAGE);
            CHECK_FIRST(seen[h->y][h->x]);
            CHECK_FIRST(h->relationship2 % 20 == 0 && h->relationship2 <= 80);
            relationship_seen[h->relationship2 / 20 % 5]++;
            for (int j = 0; j < i; j++)
                CHECK_FIRST(h->x != v->villagers[j].x || h->y != v->villagers[j].y);
        }
        species_first[v->animals[0].species % 3]++;
        CHECK_FIRST(species_mask == 7);
        for (int i = 0; i < 4; i++) {
            const vf_point *c = &v->crops[i];
            CHECK_FIRST(T(v, c->x, c->y) == VF_VT_SOIL_EMPTY);
            CHECK_FIRST(seen[c->y][c->x]);
            for (int j = 0; j < i; j++) CHECK_FIRST(c->x != v->crops[j].x || c->y != v->crops[j].y);
        }
        CHECK_FIRST(T(v, v->market.x, v->market.y) == VF_VT_MARKET);
        CHECK_FIRST(seen[v->market.y][v->market.x]);
        static const int32_t start[7] = {5, 5, 0, 3, 0, 0, 3};
        CHECK_FIRST(memcmp(v->inventory, start, sizeof start) == 0);
        CHECK_FIRST(v->step == 0 && v->reward_units == 0);
    }
    /* every relationship value and every species order is drawn (30000 draws of 5 values,
     * 10000 of 3: each expected thousands of times) */
    for (int k = 0; k < 5; k++) CHECK(relationship_seen[k] > 5000);
    for (int s = 0; s < 3; s++) CHECK(species_first[s] > 3000);
}

/* The generator as valley.c's comment documents it, written again from that text: a
 * reader who reimplements the comment gets the engine's layouts. */
static bool documented_layout(vf_rng *rng, vf_valley *v) {
    memset(v, 0, sizeof *v);
    for (int y = 0; y < 15; y++)
        for (int x = 0; x < 15; x++) T(v, x, y) = VF_VT_GROUND;
    int species[3] = {0, 1, 2};
    for (int i = 2; i > 0; i--) {
        int j = (int)vf_rng_below(rng, (uint32_t)i + 1), t = species[i];
        species[i] = species[j];
        species[j] = t;
    }
    for (int b = 0; b < 6; b++) { /* 3 barns, then 3 cottages */
        int x, y;
        do {
            uint32_t k = vf_rng_below(rng, 15 * 14);
            x = (int)(k % 15);
            y = (int)(k / 15);
        } while (T(v, x, y) != VF_VT_GROUND || T(v, x, y + 1) != VF_VT_GROUND);
        T(v, x, y) = b < 3 ? VF_VT_BARN : VF_VT_COTTAGE;
        T(v, x, y + 1) = (uint8_t)(b < 3 ? VF_VT_CHICKEN + species[b] : VF_VT_VILLAGER);
        if (b < 3)
            v->animals[b] =
                (vf_valley_animal){(uint8_t)x, (uint8_t)(y + 1), (uint8_t)species[b], 0, 0, 0};
        else
            v->villagers[b - 3] = (vf_valley_villager){(uint8_t)x, (uint8_t)(y + 1), 0};
    }
    for (int i = 0; i < 4 + 1 + 20 + 1; i++) { /* soil, market, obstacles, start */
        int x, y;
        do {
            uint32_t k = vf_rng_below(rng, 225);
            x = (int)(k % 15);
            y = (int)(k / 15);
        } while (T(v, x, y) != VF_VT_GROUND);
        vf_point p = {(uint8_t)x, (uint8_t)y};
        if (i < 4) {
            v->crops[i] = p;
            T(v, x, y) = VF_VT_SOIL_EMPTY;
        } else if (i == 4) {
            v->market = p;
            T(v, x, y) = VF_VT_MARKET;
        } else if (i < 25) {
            T(v, x, y) = VF_VT_OBSTACLE;
        } else {
            v->agent = p;
        }
    }
    uint8_t seen[15][15];
    bfs(v, v->agent.x, v->agent.y, seen);
    for (int y = 0; y < 15; y++)
        for (int x = 0; x < 15; x++)
            if (T(v, x, y) != VF_VT_GROUND && test_walkable(T(v, x, y)) && !seen[y][x])
                return false;
    return true;
}

TEST(layouts_follow_the_documented_generator) {
    int redraws = 0;
    for (uint64_t seed = 0; seed < 2000; seed++) {
        vf_rng rng = vf_rng_seeded(seed);
        vf_valley want;
        while (!documented_layout(&rng, &want)) redraws++;
        for (int i = 0; i < 3; i++)
            want.villagers[i].relationship2 = (uint8_t)(20 * vf_rng_below(&rng, 5));
        int32_t start[7] = {5, 5, 0, 3, 0, 0, 3};
        memcpy(want.inventory, start, sizeof start);
        vf_env e;
        vf_reset(&e, VF_VALLEY, seed, NULL);
        CHECK_FIRST(memcmp(&e.u.valley, &want, sizeof want) == 0);
    }
    CHECK(redraws > 0); /* the redraw path was taken at least once */
}

TEST(the_same_seed_gives_the_same_layout_and_different_seeds_different_ones) {
    static vf_valley maps[100];
    vf_env a, b;
    memset(&b, 0x5A, sizeof b);
    for (int i = 0; i < 100; i++) {
        vf_reset(&a, VF_VALLEY, (uint64_t)i, NULL);
        vf_reset(&b, VF_VALLEY, (uint64_t)i, NULL);
        CHECK_FIRST(memcmp(&a.u.valley, &b.u.valley, sizeof a.u.valley) == 0);
        maps[i] = a.u.valley;
    }
    int distinct = 0;
    for (int i = 0; i < 100; i++) {
        bool unique = true;
        for (int j = 0; j < 100; j++)
            if (j != i && memcmp(maps[i].tiles, maps[j].tiles, sizeof maps[i].tiles) == 0)
                unique = false;
        distinct += unique;
    }
    CHECK(distinct >= 95);
}

/* ---- random play -------------------------------------------------------------------- */

/* A uniformly random action a third of the time (so illegal actions are played often);
 * else a random legal one. */
static int pick_action(vf_rng *rng, const uint8_t *mask) {
    if (vf_rng_below(rng, 3) == 0) return (int)vf_rng_below(rng, 12);
    int legal[12], n = 0;
    for (int a = 0; a < 12; a++)
        if (mask[a]) legal[n++] = a;
    return legal[vf_rng_below(rng, (uint32_t)n)];
}

/* A busier player, so that whole crop cycles, feeding, collecting, gifting and selling
 * happen thousands of times in random play: a third of the time a uniformly random
 * action; else any legal farm action (plant .. sell) when there is one; else a step
 * towards a goal tile (a random crop, animal, villager or the market; more often the
 * market when there is something to sell), drawn anew when reached or after 12 steps,
 * or a random legal move when no step gets closer. */
typedef struct player {
    vf_rng rng;
    int gx, gy, ttl;
} player;

static int play(player *p, const vf_valley *v, const uint8_t *mask) {
    vf_rng *rng = &p->rng;
    if (vf_rng_below(rng, 3) == 0) return (int)vf_rng_below(rng, 12);
    int options[12], n = 0;
    for (int a = VF_VA_PLANT; a <= VF_VA_SELL; a++)
        if (mask[a]) options[n++] = a;
    if (n) return options[vf_rng_below(rng, (uint32_t)n)];
    if (p->ttl-- <= 0 || (p->gx == v->agent.x && p->gy == v->agent.y)) {
        uint32_t k = vf_rng_below(rng, 11);
        vf_point g = k < 4 ? v->crops[k] : v->market;
        if (k >= 4 && k < 7) g = (vf_point){v->animals[k - 4].x, v->animals[k - 4].y};
        if (k >= 7 && k < 10) g = (vf_point){v->villagers[k - 7].x, v->villagers[k - 7].y};
        if (v->inventory[VF_CROPS] + v->inventory[VF_PRODUCTS] > 0 && vf_rng_below(rng, 2))
            g = v->market; /* goods to sell: head for the market */
        p->gx = g.x;
        p->gy = g.y;
        p->ttl = 12;
    }
    static const int dx[4] = {0, 0, 1, -1}, dy[4] = {-1, 1, 0, 0};
    int closer[4], nc = 0, moves[4], nm = 0;
    int here = abs(p->gx - v->agent.x) + abs(p->gy - v->agent.y);
    for (int d = 0; d < 4; d++) {
        if (!mask[d]) continue;
        moves[nm++] = d;
        if (abs(p->gx - v->agent.x - dx[d]) + abs(p->gy - v->agent.y - dy[d]) < here)
            closer[nc++] = d;
    }
    if (nc) return closer[vf_rng_below(rng, (uint32_t)nc)];
    if (nm) return moves[vf_rng_below(rng, (uint32_t)nm)];
    return VF_VA_WAIT;
}

TEST(a_million_random_steps_keep_every_invariant) {
    player p = {vf_rng_seeded(2024), 0, 0, 0};
    vf_env e, before, again;
    vf_reset(&e, VF_VALLEY, 100, NULL);
    int32_t episode_units = 0;
    double episode_sum = 0;
    int episodes = 0, sells = 0, gifts = 0, collects = 0, harvests = 0, illegal = 0;
    uint8_t snap[VF_SNAPSHOT_MAX];
    for (long s = 0; s < 1000000; s++) {
        uint8_t mask[VF_ACTIONS_MAX];
        vf_legal_actions(&e, mask);
        int action = play(&p, &e.u.valley, mask);
        memcpy(&before, &e, sizeof e);
        int32_t obs[VF_OBS_MAX];
        vf_step_result r = vf_step(&e, action, obs);
        const vf_valley *v = &e.u.valley;

        CHECK_FIRST(r.action_was_legal == (mask[action] != 0));
        CHECK_FIRST(r.reward >= 0.0);
        int32_t units = (int32_t)(r.reward * 20.0 + 0.5);
        CHECK_FIRST(units / 20.0 == r.reward); /* a multiple of 0.05, exactly */
        episode_units += units;
        episode_sum += r.reward;
        if (!r.action_was_legal) {
            illegal++;
            vf_step(&before, VF_VA_WAIT, NULL);
            CHECK_FIRST(memcmp(&before, &e, sizeof e) == 0);
        } else {
            sells += action == VF_VA_SELL;
            gifts += action == VF_VA_GIFT;
            collects += action == VF_VA_COLLECT;
            harvests += action == VF_VA_HARVEST;
        }
        CHECK_FIRST(v->inventory[VF_SEEDS] >= 0 && v->inventory[VF_SEEDS] <= 5);
        CHECK_FIRST(v->inventory[VF_WATER] >= 0 && v->inventory[VF_WATER] <= 5);
        CHECK_FIRST(v->inventory[VF_FEED] >= 0 && v->inventory[VF_FEED] <= 3);
        CHECK_FIRST(v->inventory[VF_GIFTS] >= 0 && v->inventory[VF_GIFTS] <= 3);
        CHECK_FIRST(v->inventory[VF_CROPS] >= 0 && v->inventory[VF_PRODUCTS] >= 0 &&
                    v->inventory[VF_COINS] >= 0);
        for (int i = 0; i < 3; i++) {
            CHECK_FIRST(v->villagers[i].relationship2 <= 200);
            CHECK_FIRST(v->animals[i].sated_steps_left <= 10 && v->animals[i].counter <= 4);
        }
        CHECK_FIRST(obs[VF_VO_VIEW + 12] == T(v, v->agent.x, v->agent.y));
        CHECK_FIRST(obs[VF_VO_STEPS_LEFT] == 50 - v->step);
        CHECK_FIRST(test_walkable(T(v, v->agent.x, v->agent.y)));

        if (s % 997 == 0) { /* every state play reaches must survive a snapshot */
            size_t n = vf_snapshot(&e, snap, sizeof snap);
            CHECK_FIRST(vf_restore(&again, VF_VALLEY, snap, n) == VF_OK);
            CHECK_FIRST(memcmp(&again.u.valley, &e.u.valley, sizeof e.u.valley) == 0);
        }
        if (r.terminated) {
            CHECK_FIRST(episode_units == v->reward_units);
            double total = vf_total_reward(&e), diff = total - episode_sum;
            CHECK_FIRST(diff < 1e-9 && diff > -1e-9);
            CHECK_FIRST(total == episode_units / 20.0);
            episode_units = 0;
            episode_sum = 0;
            episodes++;
            vf_reset(&e, VF_VALLEY, 100 + (uint64_t)episodes % 37, NULL);
        }
    }
    CHECK_EQ(episodes, 1000000 / 50);
    printf("  (%d episodes: %d harvests, %d collects, %d gifts, %d sells, %d illegal)\n", episodes,
           harvests, collects, gifts, sells, illegal);
    /* the play did reach the interesting actions */
    CHECK(sells > 1000);
    CHECK(gifts > 1000);
    CHECK(collects > 1000);
    CHECK(harvests > 1000);
    CHECK(illegal > 1000);
}

TEST(legal_actions_mask_agrees_with_action_was_legal_for_all_12_actions) {
    player p = {vf_rng_seeded(77), 0, 0, 0};
    vf_env e, trial;
    vf_reset(&e, VF_VALLEY, 4242, NULL);
    int legal_seen[12] = {0};
    for (int s = 0; s < 30000; s++) {
        uint8_t mask[VF_ACTIONS_MAX];
        vf_legal_actions(&e, mask);
        for (int a = 0; a < 12; a++) {
            memcpy(&trial, &e, sizeof e);
            vf_step_result r = act(&trial, a);
            CHECK_FIRST(r.action_was_legal == (mask[a] == 1));
            legal_seen[a] += r.action_was_legal;
        }
        if (act(&e, play(&p, &e.u.valley, mask)).terminated)
            vf_reset(&e, VF_VALLEY, 4242 + (uint64_t)s, NULL);
    }
    for (int a = 0; a < 12; a++) CHECK(legal_seen[a] > 0);
}

/* The animal whose tile the agent stands on, or NULL (one animal per species). */
static const vf_valley_animal *animal_under(const vf_valley *v) {
    int code = vf_valley_tile(v, v->agent.x, v->agent.y);
    for (int i = 0; i < VF_VALLEY_ANIMALS; i++)
        if (code == VF_VT_CHICKEN + v->animals[i].species) return &v->animals[i];
    return NULL;
}

/* Each reason checked against the rule it names (docs/rules/valley-farm.md, "Actions"). */
static bool valley_reason_holds(const vf_valley *v, int action, vf_why why) {
    const int x = v->agent.x, y = v->agent.y, here = vf_valley_tile(v, x, y);
    const int32_t *inv = v->inventory;
    const vf_valley_animal *a = animal_under(v);
    int near = 0, open = 0; /* villagers on or next to the agent's tile; those below 100 */
    for (int i = 0; i < VF_VALLEY_VILLAGERS; i++) {
        const vf_valley_villager *h = &v->villagers[i];
        if (abs(h->x - x) + abs(h->y - y) <= 1) near++, open += h->relationship2 < 200;
    }
    switch (why) {
    case VF_WHY_BLOCKED: {
        static const int dx[4] = {0, 0, 1, -1}, dy[4] = {-1, 1, 0, 0};
        int t = vf_valley_tile(v, x + dx[action], y + dy[action]);
        return action <= VF_VA_WEST && (t == VF_VT_OUT_OF_BOUNDS || t == VF_VT_OBSTACLE ||
                                        t == VF_VT_BARN || t == VF_VT_COTTAGE);
    }
    case VF_WHY_NOT_ON_EMPTY_SOIL: return action == VF_VA_PLANT && here != VF_VT_SOIL_EMPTY;
    case VF_WHY_NO_SEEDS: return action == VF_VA_PLANT && inv[VF_SEEDS] == 0;
    case VF_WHY_NOT_ON_YOUNG_CROP:
        return action == VF_VA_WATER && here != VF_VT_SOIL_SEEDED && here != VF_VT_CROP_GROWING;
    case VF_WHY_NO_WATER: return action == VF_VA_WATER && inv[VF_WATER] == 0;
    case VF_WHY_NOT_ON_MATURE_CROP: return action == VF_VA_HARVEST && here != VF_VT_CROP_MATURE;
    case VF_WHY_NOT_ON_ANIMAL: return (action == VF_VA_FEED || action == VF_VA_COLLECT) && !a;
    case VF_WHY_ANIMAL_SATED: return action == VF_VA_FEED && a && a->sated_steps_left > 0;
    case VF_WHY_NO_FEED: return action == VF_VA_FEED && a && inv[VF_FEED] == 0;
    case VF_WHY_NO_PRODUCTS: return action == VF_VA_COLLECT && a && a->pending == 0;
    case VF_WHY_NO_GIFTS: return action == VF_VA_GIFT && inv[VF_GIFTS] == 0;
    case VF_WHY_NO_VILLAGER_NEAR: return action == VF_VA_GIFT && near == 0;
    case VF_WHY_VILLAGERS_AT_MAX: return action == VF_VA_GIFT && near > 0 && open == 0;
    case VF_WHY_NOT_ON_MARKET: return action == VF_VA_SELL && here != VF_VT_MARKET;
    case VF_WHY_NOTHING_TO_SELL:
        return action == VF_VA_SELL && inv[VF_CROPS] == 0 && inv[VF_PRODUCTS] == 0;
    default: return false; /* no other reason applies to the valley */
    }
}

TEST(every_illegal_action_has_a_reason_that_names_the_rule_blocking_it) {
    player p = {vf_rng_seeded(78), 0, 0, 0};
    vf_env e, trial;
    vf_reset(&e, VF_VALLEY, 5151, NULL);
    int seen[VF_WHY_COUNT] = {0};
    for (int s = 0; s < 30000; s++) {
        uint8_t mask[VF_ACTIONS_MAX];
        vf_legal_actions(&e, mask);
        for (int a = 0; a < 12; a++) {
            vf_why why = vf_why_illegal(&e, a);
            memcpy(&trial, &e, sizeof e);
            CHECK_FIRST((why == VF_WHY_LEGAL) == act(&trial, a).action_was_legal);
            if (why != VF_WHY_LEGAL) CHECK_FIRST(valley_reason_holds(&e.u.valley, a, why));
            seen[why]++;
        }
        if (act(&e, play(&p, &e.u.valley, mask)).terminated) {
            CHECK_EQ(vf_why_illegal(&e, VF_VA_WAIT), VF_WHY_EPISODE_OVER);
            vf_reset(&e, VF_VALLEY, 5151 + (uint64_t)s, NULL);
        }
    }
    /* random play runs out of nothing but water, and gifts never reach 100: those three
     * reasons are set up by hand in the next test */
    for (int w = VF_WHY_BLOCKED; w <= VF_WHY_NOTHING_TO_SELL; w++)
        if (w != VF_WHY_NO_SEEDS && w != VF_WHY_NO_FEED && w != VF_WHY_VILLAGERS_AT_MAX)
            CHECK(seen[w] > 0);
    CHECK_EQ(vf_why_illegal(&e, 12), VF_WHY_NOT_AN_ACTION);
    CHECK_EQ(vf_why_illegal(&e, -1), VF_WHY_NOT_AN_ACTION);
}

TEST(no_seeds_no_feed_and_villagers_at_100_are_the_reasons_where_they_block) {
    vf_env e;
    vf_valley *v = farm(&e);
    put_agent(v, 1, 1); /* on empty soil */
    v->inventory[VF_SEEDS] = 0;
    CHECK_EQ(vf_why_illegal(&e, VF_VA_PLANT), VF_WHY_NO_SEEDS);
    put_agent(v, 3, 5); /* on the cow, hungry */
    v->inventory[VF_FEED] = 0;
    CHECK_EQ(vf_why_illegal(&e, VF_VA_FEED), VF_WHY_NO_FEED);
    v->animals[1].sated_steps_left = 4; /* sated wins: it is the first rule in the list */
    CHECK_EQ(vf_why_illegal(&e, VF_VA_FEED), VF_WHY_ANIMAL_SATED);
    put_agent(v, 10, 5); /* between villagers 0 and 1 */
    v->villagers[0].relationship2 = 200;
    CHECK_EQ(vf_why_illegal(&e, VF_VA_GIFT), VF_WHY_LEGAL); /* villager 1 can still take one */
    v->villagers[1].relationship2 = 200;
    CHECK_EQ(vf_why_illegal(&e, VF_VA_GIFT), VF_WHY_VILLAGERS_AT_MAX);
    CHECK(!act(&e, VF_VA_GIFT).action_was_legal);
}

TEST(every_reason_has_a_distinct_code_and_a_sentence) {
    for (int w = 0; w < VF_WHY_COUNT; w++) {
        CHECK(vf_why_code(w) && strlen(vf_why_code(w)) > 0);
        CHECK(vf_why_text(w) && strlen(vf_why_text(w)) > 10);
        for (int u = 0; u < w; u++) CHECK(strcmp(vf_why_code(w), vf_why_code(u)) != 0);
    }
    CHECK(vf_why_code(VF_WHY_COUNT) == NULL && vf_why_text(-1) == NULL);
}

/* ---- events: what each step did and what each reward was for ----------------------- */

static void event_text(const vf_env *e, const vf_event *ev, char *buf) {
    vf_event_text(e, ev, buf, 160);
}

TEST(a_steps_events_earn_its_whole_reward_each_by_the_rule_that_pays_it) {
    player p = {vf_rng_seeded(77), 0, 0, 0};
    vf_env e, plain;
    vf_reset(&e, VF_VALLEY, 9, NULL);
    int seen[VF_EV_COUNT] = {0};
    for (long s = 0; s < 300000; s++) {
        uint8_t mask[VF_ACTIONS_MAX];
        vf_legal_actions(&e, mask);
        const int action = play(&p, &e.u.valley, mask);
        const vf_valley before = e.u.valley;
        memcpy(&plain, &e, sizeof e);
        vf_event ev[VF_EVENTS_MAX];
        vf_step_result r;
        const int n = vf_step_explained(&e, action, NULL, &r, ev, VF_EVENTS_MAX);
        vf_step_result q = vf_step(&plain, action, NULL);
        /* explaining a step changes nothing about it */
        CHECK_FIRST(q.reward == r.reward && q.terminated == r.terminated &&
                    q.action_was_legal == r.action_was_legal);
        CHECK_FIRST(vf_state_hash(&plain) == vf_state_hash(&e));
        CHECK_FIRST(n >= 0 && n <= 7);
        double sum = 0;
        int rewarded = 0;
        for (int i = 0; i < n; i++) {
            const vf_event *x = &ev[i];
            seen[x->kind]++;
            sum += x->reward;
            rewarded += x->reward > 0;
            char text[160];
            event_text(&e, x, text);
            CHECK_FIRST(strlen(text) > 10 && strchr(text, '?') == NULL);
            switch (x->kind) {
            case VF_EV_HARVESTED: CHECK_FIRST(x->reward == 0.1); break;
            case VF_EV_COLLECTED:
                CHECK_FIRST(x->count == before.animals[x->subject].pending);
                CHECK_FIRST(x->reward == (4 * x->count) / 20.0); /* 0.2 a product */
                break;
            case VF_EV_GIFT:
                CHECK_FIRST(x->after - x->before <= 7.5 && x->after <= 100);
                CHECK_FIRST(x->reward == 0.5 * (x->after - x->before));
                break;
            case VF_EV_SOLD: {
                int r2 = before.villagers[0].relationship2 + before.villagers[1].relationship2 +
                         before.villagers[2].relationship2;
                int base = 5 * x->count + 8 * x->count2;
                CHECK_FIRST(x->count == before.inventory[VF_CROPS] &&
                            x->count2 == before.inventory[VF_PRODUCTS]);
                CHECK_FIRST(x->after == base * (600 + r2) / 600); /* floor(base x m) coins */
                CHECK_FIRST(x->reward == (2 * (int)x->after) / 20.0);
                break;
            }
            case VF_EV_PRODUCT: CHECK_FIRST(x->count >= 1 && x->reward == 0); break;
            default: CHECK_FIRST(x->reward == 0); break;
            }
        }
        CHECK_FIRST(sum == r.reward);
        CHECK_FIRST(rewarded == (r.reward > 0)); /* one source of reward per step */
        if (r.terminated) vf_reset(&e, VF_VALLEY, 9 + (uint64_t)s, NULL);
    }
    for (int k = VF_EV_PLANTED; k <= VF_EV_HUNGRY; k++) CHECK(seen[k] > 100);
    for (int k = VF_EV_CROP_CARED; k < VF_EV_COUNT; k++) CHECK_EQ(seen[k], 0);
}

TEST(a_gift_and_a_sale_are_told_with_the_numbers_of_the_rules) {
    vf_env e;
    vf_valley *v = farm(&e);
    put_agent(v, 9, 5); /* on villager 0, relationship 0 */
    vf_event ev[VF_EVENTS_MAX];
    char text[160];
    CHECK_EQ(vf_step_explained(&e, VF_VA_GIFT, NULL, NULL, ev, VF_EVENTS_MAX), 1);
    CHECK_EQ(ev[0].kind, VF_EV_GIFT);
    CHECK(strcmp(vf_event_code(ev[0].kind), "gift") == 0);
    event_text(&e, &ev[0], text);
    CHECK(strcmp(text, "gift to villager 0: relationship 0 → 7.5 (wary), +3.75") == 0);

    /* relationships 50, 25, 0: R = 75, m = 1.25; 2 crops and a product: floor(18 x 1.25) = 22 */
    v->villagers[0].relationship2 = 100;
    v->villagers[1].relationship2 = 50;
    v->villagers[2].relationship2 = 0;
    v->inventory[VF_CROPS] = 2;
    v->inventory[VF_PRODUCTS] = 1;
    put_agent(v, 7, 12);
    vf_step_result r;
    CHECK_EQ(vf_step_explained(&e, VF_VA_SELL, NULL, &r, ev, VF_EVENTS_MAX), 1);
    event_text(&e, &ev[0], text);
    CHECK(strcmp(text, "sold 2 crops and 1 product at 125 %: 22 coins, +2.2") == 0);
    CHECK_REWARD(r.reward, 2.2);
}

TEST(a_feeding_is_told_then_its_two_products_then_the_hunger) {
    vf_env e;
    vf_valley *v = farm(&e);
    put_agent(v, 3, 5); /* on the cow */
    vf_event ev[VF_EVENTS_MAX];
    char text[160];
    CHECK_EQ(vf_step_explained(&e, VF_VA_FEED, NULL, NULL, ev, VF_EVENTS_MAX), 1);
    event_text(&e, &ev[0], text);
    CHECK(strcmp(text, "fed the cow: sated for 10 ticks, a product every 5 (2 feed left)") == 0);
    int at[11] = {0}; /* the events of each tick after the feeding */
    for (int t = 1; t <= 10; t++) {
        int n = vf_step_explained(&e, VF_VA_WAIT, NULL, NULL, ev, VF_EVENTS_MAX);
        at[t] = n;
        if (t == 5) {
            CHECK_EQ(ev[0].kind, VF_EV_PRODUCT);
            event_text(&e, &ev[0], text);
            CHECK(strcmp(text, "the cow made a product (1 waiting: collect them)") == 0);
        }
        if (t == 10) {
            CHECK(n == 2 && ev[0].kind == VF_EV_PRODUCT && ev[0].count == 2);
            CHECK(ev[1].kind == VF_EV_HUNGRY && ev[1].subject == 1);
        }
    }
    CHECK(at[1] == 0 && at[4] == 0 && at[5] == 1 && at[6] == 0 && at[10] == 2);
    /* a call that plays no step tells nothing */
    CHECK_EQ(vf_step_explained(&e, 99, NULL, NULL, ev, VF_EVENTS_MAX), 0);
    CHECK(vf_event_code(0) == NULL && vf_event_code(VF_EV_COUNT) == NULL);
}

TEST(the_same_seed_and_actions_give_the_same_state_hash_sequence) {
    vf_env a, b;
    vf_reset(&a, VF_VALLEY, 31337, NULL);
    vf_reset(&b, VF_VALLEY, 31337, NULL);
    vf_rng ra = vf_rng_seeded(5), rb = vf_rng_seeded(5);
    int same = 0;
    for (int s = 0; s < 500; s++) {
        uint8_t ma[12], mb[12];
        vf_legal_actions(&a, ma);
        vf_legal_actions(&b, mb);
        vf_step_result x = act(&a, pick_action(&ra, ma));
        vf_step_result y = act(&b, pick_action(&rb, mb));
        CHECK_FIRST(x.reward == y.reward);
        same += vf_state_hash(&a) == vf_state_hash(&b);
        if (x.terminated) {
            vf_reset(&a, VF_VALLEY, 31337 + (uint64_t)s, NULL);
            vf_reset(&b, VF_VALLEY, 31337 + (uint64_t)s, NULL);
        }
    }
    CHECK_EQ(same, 500);
    vf_reset(&b, VF_VALLEY, 31338, NULL);
    CHECK(vf_state_hash(&a) != vf_state_hash(&b));
}

/* ---- snapshots ---------------------------------------------------------------------- */

static void play_random(vf_env *e, vf_rng *rng, int steps) {
    for (int s = 0; s < steps; s++) {
        uint8_t mask[12];
        vf_legal_actions(e, mask);
        act(e, pick_action(rng, mask));
    }
}

TEST(a_snapshot_restores_mid_episode_and_play_continues_identically) {
    vf_env e, r;
    vf_rng rng = vf_rng_seeded(8);
    vf_reset(&e, VF_VALLEY, 606, NULL);
    play_random(&e, &rng, 23);
    uint8_t buf[VF_SNAPSHOT_MAX];
    size_t n = vf_snapshot(&e, buf, sizeof buf);
    CHECK(n > 0);
    CHECK_EQ(n, vf_snapshot_size(VF_VALLEY));
    memset(&r, 0xEE, sizeof r); /* never reset */
    CHECK_EQ(vf_restore(&r, VF_VALLEY, buf, n), VF_OK);
    CHECK(r.seed == e.seed);
    CHECK(memcmp(&r.u.valley, &e.u.valley, sizeof e.u.valley) == 0);
    CHECK(vf_state_hash(&r) == vf_state_hash(&e));
    vf_rng ra = vf_rng_seeded(9), rb = vf_rng_seeded(9);
    for (int s = 0; s < 27; s++) {
        uint8_t mask[12];
        vf_legal_actions(&e, mask);
        int32_t oe[VF_OBS_MAX], orr[VF_OBS_MAX];
        vf_step_result x = vf_step(&e, pick_action(&ra, mask), oe);
        vf_legal_actions(&r, mask);
        vf_step_result y = vf_step(&r, pick_action(&rb, mask), orr);
        CHECK_FIRST(x.reward == y.reward && x.terminated == y.terminated);
        CHECK_FIRST(memcmp(oe, orr, VF_VALLEY_OBS_SIZE * sizeof(int32_t)) == 0);
        CHECK_FIRST(vf_state_hash(&e) == vf_state_hash(&r));
    }
    CHECK(vf_terminated(&r));
    CHECK_REWARD(vf_total_reward(&r), vf_total_reward(&e));
}

static void put_u32_le(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* Recomputes the FNV-1a-32 checksum over all but the last 4 bytes, as a forger would. */
static void reseal(uint8_t *buf, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i + 4 < n; i++) h = (h ^ buf[i]) * 16777619u;
    put_u32_le(buf + n - 4, h);
}

TEST(restore_refuses_a_flipped_byte_truncation_and_a_resealed_bad_tile_keeping_the_env) {
    vf_env e, before;
    vf_rng rng = vf_rng_seeded(3);
    vf_reset(&e, VF_VALLEY, 11, NULL);
    play_random(&e, &rng, 10);
    uint8_t buf[VF_SNAPSHOT_MAX];
    size_t n = vf_snapshot(&e, buf, sizeof buf);
    vf_reset(&e, VF_VALLEY, 12, NULL); /* an episode in progress the bad restores must keep */
    play_random(&e, &rng, 5);
    memcpy(&before, &e, sizeof e);

    buf[8 + 40] ^= 0x10; /* a tile byte in the payload */
    CHECK_EQ(vf_restore(&e, VF_VALLEY, buf, n), VF_ERR_CHECKSUM);
    CHECK(memcmp(&e, &before, sizeof e) == 0);
    buf[8 + 40] ^= 0x10;

    CHECK_EQ(vf_restore(&e, VF_VALLEY, buf, n - 1), VF_ERR_SIZE);
    CHECK(memcmp(&e, &before, sizeof e) == 0);

    /* payload: seed (8 bytes), then the 225 tiles; tile (0,0) is at 8 + 8 */
    uint8_t saved = buf[16];
    buf[16] = 99;
    reseal(buf, n);
    CHECK_EQ(vf_restore(&e, VF_VALLEY, buf, n), VF_ERR_INVALID);
    CHECK(memcmp(&e, &before, sizeof e) == 0);
    buf[16] = saved;
    reseal(buf, n);
    CHECK_EQ(vf_restore(&e, VF_VALLEY, buf, n), VF_OK);
}

/* A state change that no play can produce; vf_snapshot writes it, vf_restore refuses. */
typedef void (*mutation)(vf_valley *v);

static int find_tile(const vf_valley *v, int code, int *x, int *y) {
    for (*y = 0; *y < 15; (*y)++)
        for (*x = 0; *x < 15; (*x)++)
            if (T(v, *x, *y) == code) return 1;
    return 0;
}

static void m_step_51(vf_valley *v) {
    v->step = 51;
}
static void m_relationship_over_100(vf_valley *v) {
    v->villagers[1].relationship2 = 201;
}
static void m_sated_11(vf_valley *v) {
    v->animals[0].sated_steps_left = 11;
}
static void m_counter_5(vf_valley *v) {
    v->animals[2].counter = 5;
}
static void m_negative_seeds(vf_valley *v) {
    v->inventory[VF_SEEDS] = -1;
}
static void m_negative_coins(vf_valley *v) {
    v->inventory[VF_COINS] = -3;
}
static void m_too_many_gifts(vf_valley *v) {
    v->inventory[VF_GIFTS] = 4;
}
static void m_agent_on_obstacle(vf_valley *v) {
    int x, y;
    find_tile(v, VF_VT_OBSTACLE, &x, &y);
    put_agent(v, x, y);
}
static void m_agent_on_barn(vf_valley *v) {
    put_agent(v, v->animals[1].x, v->animals[1].y - 1);
}
static void m_agent_off_map(vf_valley *v) {
    v->agent.x = 15;
}
static void m_extra_obstacle(vf_valley *v) {
    for (int y = 0; y < 15; y++)
        for (int x = 0; x < 15; x++)
            if (T(v, x, y) == VF_VT_GROUND && (x != v->agent.x || y != v->agent.y)) {
                T(v, x, y) = VF_VT_OBSTACLE; /* 21 obstacles */
                return;
            }
}
static void m_obstacle_to_cottage(vf_valley *v) {
    int x, y;
    find_tile(v, VF_VT_OBSTACLE, &x, &y);
    T(v, x, y) = VF_VT_COTTAGE;
}
static void m_species_swapped(vf_valley *v) {
    uint8_t s = v->animals[0].species;
    v->animals[0].species = v->animals[1].species;
    v->animals[1].species = s;
}
static void m_crop_twice(vf_valley *v) {
    v->crops[1] = v->crops[0];
}
static void m_crop_on_ground(vf_valley *v) {
    int x, y;
    find_tile(v, VF_VT_GROUND, &x, &y);
    v->crops[2] = (vf_point){(uint8_t)x, (uint8_t)y};
}
static void m_villager_moved(vf_valley *v) {
    v->villagers[0].x = (uint8_t)(v->villagers[0].x ^ 1);
}
static void m_market_moved(vf_valley *v) {
    v->market.y = (uint8_t)(v->market.y ^ 1);
}
static void m_barn_gone(vf_valley *v) {
    T(v, v->animals[2].x, v->animals[2].y - 1) = VF_VT_GROUND;
}
/* Swaps a building with an obstacle: every count stays right, but an animal or villager
 * no longer has its building to the north. */
static void swap_with_obstacle(vf_valley *v, int bx, int by) {
    int x, y;
    find_tile(v, VF_VT_OBSTACLE, &x, &y);
    T(v, x, y) = T(v, bx, by);
    T(v, bx, by) = VF_VT_OBSTACLE;
}
static void m_barn_moved(vf_valley *v) {
    swap_with_obstacle(v, v->animals[0].x, v->animals[0].y - 1);
}
static void m_cottage_moved(vf_valley *v) {
    swap_with_obstacle(v, v->villagers[2].x, v->villagers[2].y - 1);
}
static void m_soil_stage_only_on_soil(vf_valley *v) {
    T(v, v->market.x, v->market.y) = VF_VT_SOIL_EMPTY; /* 5 soil, no market */
}
/* Walls the market in with 4 obstacles taken from elsewhere, keeping every count right;
 * false when this map does not allow it (the market's neighbours are not all free
 * ground, or the agent stands next to it). */
static bool wall_in_market(vf_valley *v) {
    static const int dx[4] = {0, 0, 1, -1}, dy[4] = {-1, 1, 0, 0};
    int mx = v->market.x, my = v->market.y, walls = 0;
    if (abs(v->agent.x - mx) + abs(v->agent.y - my) <= 1) return false;
    for (int d = 0; d < 4; d++) {
        int x = mx + dx[d], y = my + dy[d];
        if (x < 0 || y < 0 || x > 14 || y > 14) continue;
        if (T(v, x, y) != VF_VT_GROUND) return false;
    }
    for (int d = 0; d < 4; d++) {
        int x = mx + dx[d], y = my + dy[d];
        if (x < 0 || y < 0 || x > 14 || y > 14) continue;
        T(v, x, y) = VF_VT_OBSTACLE;
        walls++;
    }
    for (int y = 0; y < 15 && walls; y++)
        for (int x = 0; x < 15 && walls; x++)
            if (T(v, x, y) == VF_VT_OBSTACLE && abs(x - mx) + abs(y - my) != 1) {
                T(v, x, y) = VF_VT_GROUND;
                walls--;
            }
    return true;
}

TEST(restore_refuses_a_layout_with_an_unreachable_market) {
    int tried = 0;
    for (uint64_t seed = 0; seed < 200 && tried < 5; seed++) {
        vf_env e, target;
        vf_reset(&e, VF_VALLEY, seed, NULL);
        if (!wall_in_market(&e.u.valley)) continue;
        tried++;
        uint8_t buf[VF_SNAPSHOT_MAX];
        size_t n = vf_snapshot(&e, buf, sizeof buf);
        CHECK_EQ(vf_restore(&target, VF_VALLEY, buf, n), VF_ERR_INVALID);
    }
    CHECK_EQ(tried, 5);
}

TEST(restore_refuses_states_the_rules_cannot_produce) {
    static const mutation mutations[] = {
        m_step_51,
        m_relationship_over_100,
        m_sated_11,
        m_counter_5,
        m_negative_seeds,
        m_negative_coins,
        m_too_many_gifts,
        m_agent_on_obstacle,
        m_agent_on_barn,
        m_agent_off_map,
        m_extra_obstacle,
        m_obstacle_to_cottage,
        m_species_swapped,
        m_crop_twice,
        m_crop_on_ground,
        m_villager_moved,
        m_market_moved,
        m_barn_gone,
        m_soil_stage_only_on_soil,
        m_barn_moved,
        m_cottage_moved,
    };
    int n_mut = (int)(sizeof mutations / sizeof mutations[0]);
    for (int i = 0; i < n_mut; i++) {
        vf_env e, target;
        vf_reset(&e, VF_VALLEY, 500 + (uint64_t)i, NULL);
        vf_reset(&target, VF_VALLEY, 1, NULL);
        uint8_t buf[VF_SNAPSHOT_MAX];
        size_t n = vf_snapshot(&e, buf, sizeof buf);
        CHECK_EQ(vf_restore(&target, VF_VALLEY, buf, n), VF_OK); /* the control */
        mutations[i](&e.u.valley);
        n = vf_snapshot(&e, buf, sizeof buf);
        vf_reset(&target, VF_VALLEY, 1, NULL);
        vf_env before;
        memcpy(&before, &target, sizeof target);
        int err = vf_restore(&target, VF_VALLEY, buf, n);
        if (err != VF_ERR_INVALID) printf("  mutation %d restored with %d\n", i, err);
        CHECK_EQ(err, VF_ERR_INVALID);
        CHECK(memcmp(&target, &before, sizeof target) == 0);
    }
}

/* ---- text --------------------------------------------------------------------------- */

static bool contains(const char *text, const char *part) {
    return strstr(text, part) != NULL;
}

TEST(state_json_has_the_api_shape_with_exact_decimals) {
    vf_env e;
    vf_valley *v = farm(&e);
    v->step = 3;
    v->reward_units = 75;                /* 3.75 */
    v->villagers[0].relationship2 = 25;  /* 12.5 */
    v->villagers[2].relationship2 = 200; /* 100 */
    v->villagers[1].relationship2 = 100; /* 50 */
    v->animals[0] = (vf_valley_animal){1, 5, VF_CHICKEN, 4, 2, 1};
    T(v, 1, 1) = VF_VT_CROP_GROWING;
    v->inventory[VF_COINS] = 44;
    char buf[VF_TEXT_MAX];
    size_t n = vf_state_json(&e, buf, sizeof buf);
    CHECK_EQ(n, strlen(buf));
    CHECK(contains(buf, "{\"width\":15,\"height\":15,\"step\":3,\"agent\":{\"x\":7,\"y\":7},"
                        "\"tiles\":[[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],[1,5,3,3,3,1,"));
    CHECK(contains(buf, ",[1,8,1,9,1,10,1,1,1,11,1,11,1,11,1],"));
    CHECK(contains(buf, ",[1,1,1,1,1,1,1,12,1,1,1,1,1,1,1],"));
    CHECK(contains(buf, "\"inventory\":{\"seeds\":5,\"water\":5,\"crops\":0,\"feed\":3,"
                        "\"products\":0,\"coins\":44,\"gifts\":3}"));
    CHECK(contains(buf, "\"crops\":[{\"x\":1,\"y\":1,\"stage\":2},{\"x\":2,\"y\":1,\"stage\":0},"));
    CHECK(contains(buf, "\"animals\":[{\"x\":1,\"y\":5,\"species\":\"chicken\",\"sated\":true,"
                        "\"satedStepsLeft\":4,\"counter\":2,\"pending\":1},{\"x\":3,\"y\":5,"
                        "\"species\":\"cow\",\"sated\":false,\"satedStepsLeft\":0,"
                        "\"counter\":0,\"pending\":0},{\"x\":5,\"y\":5,\"species\":\"sheep\""));
    CHECK(contains(buf, "\"villagers\":[{\"x\":9,\"y\":5,\"relationship\":12.5,\"mood\":0},"
                        "{\"x\":11,\"y\":5,\"relationship\":50,\"mood\":2},"
                        "{\"x\":13,\"y\":5,\"relationship\":100,\"mood\":2}]"));
    CHECK(contains(buf, "\"market\":{\"x\":7,\"y\":12},\"totalReward\":3.75}"));
    CHECK(buf[n - 1] == '}' && buf[0] == '{');
    /* snprintf semantics: a short buffer gets a cut, terminated text and the full length */
    char small[10];
    CHECK_EQ(vf_state_json(&e, small, sizeof small), n);
    CHECK_EQ(strlen(small), 9);
    v->reward_units = 2; /* 0.1 */
    vf_state_json(&e, buf, sizeof buf);
    CHECK(contains(buf, "\"totalReward\":0.1}"));
    v->reward_units = 0;
    vf_state_json(&e, buf, sizeof buf);
    CHECK(contains(buf, "\"totalReward\":0}"));
}

TEST(render_draws_the_map_with_the_agent_a_legend_and_a_status_line) {
    vf_env e;
    vf_valley *v = farm(&e);
    v->step = 7;
    char buf[VF_TEXT_MAX];
    size_t n = vf_render(&e, buf, sizeof buf);
    CHECK(n < VF_TEXT_MAX);
    CHECK_EQ(n, strlen(buf));
    /* 15 lines of 15 symbols; the agent at column 7 of line 7 */
    const char *line = buf;
    for (int y = 0; y < 15; y++) {
        const char *end = strchr(line, '\n');
        CHECK(end != NULL && end - line == 15);
        if (!end) return;
        if (y == 7) CHECK_EQ(line[7], '@');
        line = end + 1;
    }
    int ats = 0;
    for (const char *p = buf; *p; p++) ats += *p == '@';
    CHECK(ats >= 1);
    CHECK(contains(buf, "agent"));
    CHECK(contains(buf, "step 7/50"));
    CHECK(contains(buf, "gifts 3"));
    /* every random layout fits with room to spare */
    for (uint64_t s = 0; s < 200; s++) {
        vf_reset(&e, VF_VALLEY, s, NULL);
        CHECK_FIRST(vf_render(&e, buf, sizeof buf) < VF_TEXT_MAX);
        CHECK_FIRST(vf_state_json(&e, buf, sizeof buf) < VF_TEXT_MAX);
    }
}

int main(void) {
    RUN(moves_shift_the_agent_one_tile_north_south_east_west);
    RUN(moves_into_obstacle_barn_cottage_or_off_the_map_are_illegal_waits);
    RUN(soil_animal_villager_and_market_tiles_are_walkable);
    RUN(plant_on_empty_soil_uses_a_seed_and_makes_a_seedling);
    RUN(plant_without_seeds_on_planted_soil_or_off_soil_is_an_illegal_wait);
    RUN(water_advances_a_crop_from_stage_1_to_2_to_3_using_one_water_each);
    RUN(water_on_empty_soil_on_a_mature_crop_off_soil_or_without_water_is_an_illegal_wait);
    RUN(harvest_of_a_mature_crop_gives_a_crop_empties_the_soil_and_rewards_0_1);
    RUN(harvest_of_an_unripe_crop_or_off_soil_is_an_illegal_wait);
    RUN(a_crop_cycle_is_plant_water_water_harvest);
    RUN(feed_makes_a_hungry_animal_sated_for_10_ticks_and_uses_one_feed);
    RUN(feed_of_a_sated_animal_without_feed_or_off_an_animal_is_an_illegal_wait);
    RUN(a_fed_animal_makes_products_after_ticks_5_and_10_then_turns_hungry);
    RUN(the_feeding_step_does_not_tick_the_fed_animal_but_ticks_the_others);
    RUN(collect_takes_all_pending_products_rewards_0_2_each_and_keeps_hunger);
    RUN(collect_right_after_tick_5_takes_one_and_the_next_comes_5_ticks_later);
    RUN(collect_resets_the_counter_so_a_mid_cycle_collect_delays_the_next_product);
    RUN(collect_with_nothing_pending_or_off_an_animal_is_an_illegal_wait);
    RUN(pending_products_never_expire_and_can_be_collected_while_hungry);
    RUN(gift_raises_relationship_by_7_5_and_rewards_half_the_increase);
    RUN(gift_is_capped_at_100_and_rewards_half_the_actual_increase);
    RUN(a_villager_at_100_is_no_gift_target);
    RUN(gift_target_order_is_own_tile_then_north_east_south_west);
    RUN(gift_without_gifts_or_with_no_villager_on_or_next_to_the_agent_is_an_illegal_wait);
    RUN(mood_on_a_villager_tile_is_wary_below_25_neutral_below_50_friendly_from_50);
    RUN(observed_relationships_round_to_the_nearest_multiple_of_5_with_halves_up);
    RUN(sell_pays_floor_of_base_price_times_mean_relationship_multiplier);
    RUN(sell_at_relationships_0_pays_the_base_price_and_at_100_pays_double);
    RUN(sell_with_nothing_to_sell_or_off_the_market_is_an_illegal_wait);
    RUN(wait_is_always_legal_and_changes_only_the_clock);
    RUN(view_is_the_5x5_square_centred_on_the_agent_north_row_first_west_cell_first);
    RUN(view_cells_off_the_map_are_0_at_the_corners);
    RUN(center_shows_crop_stage_animal_sated_villager_mood_and_0_elsewhere);
    RUN(observation_carries_inventory_in_item_order_and_steps_left);
    RUN(episode_terminates_exactly_after_the_50th_action);
    RUN(action_names_and_sizes_match_the_contract);
    RUN(every_layout_over_10000_seeds_keeps_the_contract);
    RUN(layouts_follow_the_documented_generator);
    RUN(the_same_seed_gives_the_same_layout_and_different_seeds_different_ones);
    RUN(a_million_random_steps_keep_every_invariant);
    RUN(legal_actions_mask_agrees_with_action_was_legal_for_all_12_actions);
    RUN(every_illegal_action_has_a_reason_that_names_the_rule_blocking_it);
    RUN(no_seeds_no_feed_and_villagers_at_100_are_the_reasons_where_they_block);
    RUN(every_reason_has_a_distinct_code_and_a_sentence);
    RUN(a_steps_events_earn_its_whole_reward_each_by_the_rule_that_pays_it);
    RUN(a_gift_and_a_sale_are_told_with_the_numbers_of_the_rules);
    RUN(a_feeding_is_told_then_its_two_products_then_the_hunger);
    RUN(the_same_seed_and_actions_give_the_same_state_hash_sequence);
    RUN(a_snapshot_restores_mid_episode_and_play_continues_identically);
    RUN(restore_refuses_a_flipped_byte_truncation_and_a_resealed_bad_tile_keeping_the_env);
    RUN(restore_refuses_states_the_rules_cannot_produce);
    RUN(restore_refuses_a_layout_with_an_unreachable_market);
    RUN(state_json_has_the_api_shape_with_exact_decimals);
    RUN(render_draws_the_map_with_the_agent_a_legend_and_a_status_line);
    return check_summary();
}
