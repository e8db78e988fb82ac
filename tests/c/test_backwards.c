/*
 * test_backwards.c — BackwardsValleyFarm-v0 against its rules (docs/rules/backwards-farm.md).
 *
 * Most tests play on "the lab", a hand-built farm whose every tile is known, so expected
 * values come from the rules and this map, never from the engine:
 *
 *        x 0 1 2 3 4 5 6 7 8 9
 *     y 0  0 1 2 3 . . # # # #      0..7  fields, crops 0..7 (values 2 3 4 5 2 3 4 5)
 *       1  4 5 6 7 . . . . . #      A     animal 0, pen (5,5), bonus 3
 *       2  . . . . . . . . . #      B, C  animals 1 (9,8) bonus 1 and 2 (9,6) bonus 2
 *       3  . . . . . . . . . .      V0    villager 0, house (5,9), bonus 6
 *       4  . . . . . . . . . .      V1    villager 1, house (7,9), bonus 4
 *       5  . . . . . A . . . .      V2    villager 2, house (3,9), bonus 5
 *       6  . . . . . . . . . C      #     6 fences
 *       7  . . . . . . . . . .
 *       8  . . . . . . . . . B      The 7 x 7 square around pen A (x, y in 2..8) is open
 *       9  . . . V2. V0. V1. .      ground, for the witness tests.
 *
 * Lab statuses start at: crops 0 (Seed), animals 2 (Thriving: no arrival, so no bonus, until
 * a test says otherwise), villagers 1 (Neutral). Agent (7,4) facing north.
 */
#include <stdlib.h>

#include "check.h"
#include "valley_farm.h"

/* ---- helpers --------------------------------------------------------------------------- */

#define ST(b, x, y) ((b)->status[(y) + VF_BORDER][(x) + VF_BORDER])
#define TL(b, x, y) ((b)->tiles[(y) + VF_BORDER][(x) + VF_BORDER])

static vf_backwards *lab(vf_env *e) {
    memset(e, 0, sizeof *e);
    e->kind = VF_BACKWARDS;
    e->seed = 12345;
    vf_backwards *b = &e->u.backwards;
    for (int y = 0; y < VF_BW_H; y++)
        for (int x = 0; x < VF_BW_W; x++) TL(b, x, y) = VF_BT_GROUND;
    static const uint8_t crop_value[VF_BW_CROPS] = {2, 3, 4, 5, 2, 3, 4, 5};
    for (int i = 0; i < VF_BW_CROPS; i++) {
        vf_bw_entity c = {(uint8_t)(i % 4), (uint8_t)(i / 4), crop_value[i], 0};
        b->crops[i] = c;
        TL(b, c.x, c.y) = VF_BT_FIELD;
    }
    static const vf_bw_entity animals[VF_BW_ANIMALS] = {{5, 5, 3, 0}, {9, 8, 1, 0}, {9, 6, 2, 0}};
    static const vf_bw_entity villagers[VF_BW_VILLAGERS] = {
        {5, 9, 6, 0}, {7, 9, 4, 0}, {3, 9, 5, 0}};
    for (int i = 0; i < VF_BW_ANIMALS; i++) {
        b->animals[i] = animals[i];
        TL(b, animals[i].x, animals[i].y) = VF_BT_PEN;
        ST(b, animals[i].x, animals[i].y) = 2;
    }
    for (int i = 0; i < VF_BW_VILLAGERS; i++) {
        b->villagers[i] = villagers[i];
        TL(b, villagers[i].x, villagers[i].y) = VF_BT_HOUSE;
        ST(b, villagers[i].x, villagers[i].y) = 1;
    }
    static const vf_point fences[6] = {{6, 0}, {7, 0}, {8, 0}, {9, 0}, {9, 1}, {9, 2}};
    for (int i = 0; i < 6; i++) TL(b, fences[i].x, fences[i].y) = VF_BT_FENCE;
    b->agent.x = 7;
    b->agent.y = 4;
    b->facing = VF_NORTH;
    return b;
}

static void place(vf_backwards *b, int x, int y, int facing) {
    b->agent.x = (uint8_t)x;
    b->agent.y = (uint8_t)y;
    b->facing = (uint8_t)facing;
}

/* Lab tests edit the state by hand between steps, so each step first rebuilds what the
 * engine derives (the long random-play test checks that steps keep it themselves). */
static vf_step_result act(vf_env *e, int action) {
    vf_rederive(e);
    return vf_step(e, action, NULL);
}

static bool legal_now(const vf_env *e, int action) {
    uint8_t mask[VF_ACTIONS_MAX];
    vf_legal_actions(e, mask);
    return mask[action];
}

/* The rules: an action that does nothing is played as a wait. Steps `action` on e and a
 * wait on a byte copy, and checks the two outcomes are identical and the action illegal. */
static void check_acts_as_wait(vf_env *e, int action) {
    vf_env waited;
    memcpy(&waited, e, sizeof waited);
    CHECK(!legal_now(e, action));
    vf_step_result r = act(e, action);
    vf_step_result w = act(&waited, VF_BA_WAIT);
    CHECK(!r.action_was_legal);
    CHECK(w.action_was_legal);
    CHECK_REWARD(r.reward, w.reward);
    CHECK(r.terminated == w.terminated);
    CHECK(memcmp(e, &waited, sizeof waited) == 0);
    CHECK_EQ(e->u.backwards.step, waited.u.backwards.step);
}

static uint32_t fnv1a32(const uint8_t *p, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 16777619u;
    return h;
}

static void reseal(uint8_t *snap, size_t n) {
    uint32_t h = fnv1a32(snap, n - 4);
    for (int i = 0; i < 4; i++) snap[n - 4 + (size_t)i] = (uint8_t)(h >> (8 * i));
}

/* ---- the action set ------------------------------------------------------------------- */

TEST(the_action_names_and_sizes_follow_the_rules_file) {
    static const char *const names[VF_BW_ACTIONS] = {"north", "south",      "east",      "west",
                                                     "wait",  "water",      "fertilize", "feed",
                                                     "clean", "compliment", "insult"};
    CHECK_EQ(vf_num_actions(VF_BACKWARDS), 11);
    CHECK_EQ(vf_obs_size(VF_BACKWARDS), 55);
    for (int a = 0; a < VF_BW_ACTIONS; a++) {
        const char *n = vf_action_name(VF_BACKWARDS, a);
        CHECK(n != NULL && strcmp(n, names[a]) == 0);
    }
    CHECK(vf_action_name(VF_BACKWARDS, 11) == NULL);
}

/* ---- moves ------------------------------------------------------------------------------ */

TEST(a_move_onto_open_ground_moves_one_tile_and_faces_that_way) {
    static const int dx[4] = {0, 0, 1, -1}, dy[4] = {-1, 1, 0, 0};
    for (int d = 0; d < 4; d++) {
        for (int same = 0; same < 2; same++) { /* already facing that way, or not */
            vf_env e;
            vf_backwards *b = lab(&e);
            place(b, 7, 4, same ? d : (d + 1) % 4);
            CHECK(legal_now(&e, d));
            vf_step_result r = act(&e, d);
            CHECK(r.action_was_legal);
            CHECK_EQ(b->agent.x, 7 + dx[d]);
            CHECK_EQ(b->agent.y, 4 + dy[d]);
            CHECK_EQ(b->facing, d);
            CHECK_EQ(b->step, 1);
            CHECK_REWARD(r.reward, 0.0);
        }
    }
}

TEST(a_blocked_move_only_turns_and_is_legal_only_when_the_facing_changes) {
    /* fence east of (8,1), pen south of (5,4), house south of (5,8), map edge west of (0,5) */
    static const struct {
        int x, y, dir;
    } blocked[] = {
        {8, 1, VF_EAST}, {5, 4, VF_SOUTH}, {5, 8, VF_SOUTH}, {0, 5, VF_WEST}, {9, 9, VF_SOUTH}};
    for (size_t i = 0; i < sizeof blocked / sizeof blocked[0]; i++) {
        vf_env e;
        vf_backwards *b = lab(&e);
        int other = blocked[i].dir == VF_NORTH ? VF_SOUTH : VF_NORTH;
        place(b, blocked[i].x, blocked[i].y, other);
        CHECK(legal_now(&e, blocked[i].dir));
        vf_step_result r = act(&e, blocked[i].dir);
        CHECK(r.action_was_legal);
        CHECK_EQ(b->agent.x, blocked[i].x);
        CHECK_EQ(b->agent.y, blocked[i].y);
        CHECK_EQ(b->facing, blocked[i].dir);
        /* the same move again changes nothing */
        check_acts_as_wait(&e, blocked[i].dir);
        CHECK_EQ(b->agent.x, blocked[i].x);
        CHECK_EQ(b->step, 2);
    }
}

TEST(fields_are_walkable) {
    vf_env e;
    vf_backwards *b = lab(&e);
    place(b, 1, 2, VF_NORTH);
    vf_step_result r = act(&e, VF_BA_NORTH);
    CHECK(r.action_was_legal);
    CHECK_EQ(b->agent.x, 1);
    CHECK_EQ(b->agent.y, 1);
    CHECK_EQ(vf_bw_tile(b, 1, 1), VF_BT_FIELD); /* stage 0 -> 1: not ripe, not harvested */
    CHECK_EQ(vf_bw_status(b, 1, 1), 1);
}

TEST(wait_is_always_legal_and_changes_only_the_clock_and_the_background) {
    vf_env e;
    vf_backwards *b = lab(&e);
    static const struct {
        int x, y, f;
    } spots[] = {
        {7, 4, VF_NORTH}, {8, 1, VF_EAST}, {5, 4, VF_SOUTH}, {0, 0, VF_WEST}, {9, 9, VF_SOUTH}};
    for (size_t i = 0; i < sizeof spots / sizeof spots[0]; i++) {
        place(b, spots[i].x, spots[i].y, spots[i].f);
        CHECK(legal_now(&e, VF_BA_WAIT));
    }
    lab(&e);
    ST(b, 2, 0) = 1;
    vf_step_result r = act(&e, VF_BA_WAIT);
    CHECK(r.action_was_legal);
    CHECK_EQ(b->agent.x, 7);
    CHECK_EQ(b->agent.y, 4);
    CHECK_EQ(b->facing, VF_NORTH);
    CHECK_EQ(b->step, 1);
    CHECK_EQ(vf_bw_status(b, 2, 0), 2);
    CHECK_EQ(vf_bw_status(b, 5, 9), 1);
}

/* ---- crop verbs ------------------------------------------------------------------------- */

TEST(caring_for_a_crop_resets_it_to_seed_and_blocks_its_growth_this_step) {
    static const int verbs[2] = {VF_BA_WATER, VF_BA_FERTILIZE};
    for (int v = 0; v < 2; v++) {
        vf_env e;
        vf_backwards *b = lab(&e);
        for (int i = 0; i < VF_BW_CROPS; i++) ST(b, b->crops[i].x, b->crops[i].y) = 2;
        place(b, 1, 2, VF_NORTH); /* field (1,1), crop 5, in front */
        CHECK(legal_now(&e, verbs[v]));
        vf_step_result r = act(&e, verbs[v]);
        CHECK(r.action_was_legal);
        CHECK_REWARD(r.reward, 0.0);
        CHECK_EQ(vf_bw_status(b, 1, 1), 0); /* cared: Seed, and no growth */
        CHECK_EQ(vf_bw_status(b, 0, 1), 3); /* the others grew */
        CHECK_EQ(vf_bw_status(b, 3, 0), 3);
        CHECK_EQ(b->crops[5].done, 0);
        act(&e, VF_BA_WAIT); /* uncared again: it grows */
        CHECK_EQ(vf_bw_status(b, 1, 1), 1);
    }
}

TEST(caring_for_a_seed_crop_is_legal_and_keeps_it_at_seed) {
    vf_env e;
    vf_backwards *b = lab(&e);
    place(b, 1, 2, VF_NORTH);
    CHECK(legal_now(&e, VF_BA_WATER));
    CHECK(legal_now(&e, VF_BA_FERTILIZE));
    vf_step_result r = act(&e, VF_BA_FERTILIZE);
    CHECK(r.action_was_legal);
    CHECK_EQ(vf_bw_status(b, 1, 1), 0);
    CHECK_EQ(vf_bw_status(b, 2, 1), 1);
}

/* Facing ground, a fence, a pen, a house and the map edge. */
static const struct {
    int x, y, f;
} not_a_field[] = {{7, 4, VF_NORTH}, {8, 1, VF_EAST}, {5, 4, VF_SOUTH}, {5, 8, VF_SOUTH},
                   {0, 5, VF_WEST},  {1, 1, VF_SOUTH} /* standing on a field, facing ground */};
static const struct {
    int x, y, f;
} not_a_pen[] = {
    {7, 4, VF_NORTH}, {8, 1, VF_EAST}, {1, 2, VF_NORTH}, {5, 8, VF_SOUTH}, {9, 9, VF_EAST}};
static const struct {
    int x, y, f;
} not_a_house[] = {
    {7, 4, VF_NORTH}, {8, 1, VF_EAST}, {1, 2, VF_NORTH}, {5, 4, VF_SOUTH}, {4, 9, VF_SOUTH}};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

TEST(crop_verbs_without_a_field_in_front_act_as_wait_and_are_illegal) {
    for (size_t i = 0; i < COUNT(not_a_field); i++) {
        for (int v = VF_BA_WATER; v <= VF_BA_FERTILIZE; v++) {
            vf_env e;
            vf_backwards *b = lab(&e);
            for (int c = 0; c < VF_BW_CROPS; c++) ST(b, b->crops[c].x, b->crops[c].y) = 1;
            place(b, not_a_field[i].x, not_a_field[i].y, not_a_field[i].f);
            check_acts_as_wait(&e, v);
            CHECK_EQ(vf_bw_status(b, 0, 0), 2);
        }
    }
}

/* ---- animal verbs ----------------------------------------------------------------------- */

TEST(feeding_or_cleaning_an_animal_makes_it_weak_and_blocks_its_growth_this_step) {
    for (int v = VF_BA_FEED; v <= VF_BA_CLEAN; v++) {
        vf_env e;
        vf_backwards *b = lab(&e);
        ST(b, 5, 5) = 2;
        ST(b, 9, 8) = 0;
        ST(b, 9, 6) = 1;
        place(b, 5, 4, VF_SOUTH); /* pen (5,5), animal 0, in front */
        CHECK(legal_now(&e, v));
        vf_step_result r = act(&e, v);
        CHECK(r.action_was_legal);
        CHECK_EQ(vf_bw_status(b, 5, 5), 0);
        CHECK_EQ(vf_bw_status(b, 9, 8), 1);
        CHECK_EQ(vf_bw_status(b, 9, 6), 2); /* thrived, but 4 columns away: unwitnessed */
        CHECK_REWARD(r.reward, 0.0);
        CHECK_EQ(b->animals[2].done, 0);
        /* a Weak animal can still be cared for: legal, and it stays Weak */
        r = act(&e, v);
        CHECK(r.action_was_legal);
        CHECK_EQ(vf_bw_status(b, 5, 5), 0);
        act(&e, VF_BA_WAIT);
        CHECK_EQ(vf_bw_status(b, 5, 5), 1);
    }
}

TEST(animal_verbs_without_a_pen_in_front_act_as_wait_and_are_illegal) {
    for (size_t i = 0; i < COUNT(not_a_pen); i++) {
        for (int v = VF_BA_FEED; v <= VF_BA_CLEAN; v++) {
            vf_env e;
            vf_backwards *b = lab(&e);
            place(b, not_a_pen[i].x, not_a_pen[i].y, not_a_pen[i].f);
            ST(b, 5, 5) = 0;
            check_acts_as_wait(&e, v);
            CHECK_EQ(vf_bw_status(b, 5, 5), 1);
        }
    }
}

/* ---- villager verbs --------------------------------------------------------------------- */

TEST(compliment_lowers_and_insult_raises_a_villagers_mood_by_one) {
    vf_env e;
    vf_backwards *b = lab(&e);
    place(b, 5, 8, VF_SOUTH); /* house (5,9), villager 0, Neutral */
    CHECK(legal_now(&e, VF_BA_COMPLIMENT));
    vf_step_result r = act(&e, VF_BA_COMPLIMENT);
    CHECK(r.action_was_legal);
    CHECK_EQ(vf_bw_status(b, 5, 9), 0);
    r = act(&e, VF_BA_INSULT);
    CHECK(r.action_was_legal);
    CHECK_EQ(vf_bw_status(b, 5, 9), 1);
    CHECK_REWARD(r.reward, 0.0); /* Hostile -> Neutral pays nothing */
    CHECK_EQ(b->social_affinity, 0);
    CHECK_EQ(vf_bw_status(b, 7, 9), 1); /* the others are untouched */
    CHECK_EQ(vf_bw_status(b, 3, 9), 1);
}

TEST(compliment_on_a_hostile_or_insult_on_a_friendly_villager_acts_as_wait) {
    vf_env e;
    vf_backwards *b = lab(&e);
    place(b, 5, 8, VF_SOUTH);
    ST(b, 5, 9) = 0;
    CHECK(legal_now(&e, VF_BA_INSULT));
    check_acts_as_wait(&e, VF_BA_COMPLIMENT);
    CHECK_EQ(vf_bw_status(b, 5, 9), 0);
    ST(b, 5, 9) = 2;
    CHECK(legal_now(&e, VF_BA_COMPLIMENT));
    check_acts_as_wait(&e, VF_BA_INSULT);
    CHECK_EQ(vf_bw_status(b, 5, 9), 2);
    CHECK_EQ(b->social_affinity, 0);
    CHECK_EQ(b->villagers[0].done, 0);
}

TEST(social_verbs_without_a_house_in_front_act_as_wait_and_are_illegal) {
    for (size_t i = 0; i < COUNT(not_a_house); i++) {
        for (int v = VF_BA_COMPLIMENT; v <= VF_BA_INSULT; v++) {
            vf_env e;
            vf_backwards *b = lab(&e);
            place(b, not_a_house[i].x, not_a_house[i].y, not_a_house[i].f);
            check_acts_as_wait(&e, v);
        }
    }
}

TEST(villagers_never_drift_on_their_own) {
    vf_env e;
    vf_backwards *b = lab(&e);
    place(b, 0, 5, VF_NORTH);
    ST(b, 5, 9) = 0;
    ST(b, 7, 9) = 1;
    ST(b, 3, 9) = 2;
    for (int i = 0; i < VF_BW_HORIZON; i++) act(&e, VF_BA_WAIT);
    CHECK_EQ(vf_bw_status(b, 5, 9), 0);
    CHECK_EQ(vf_bw_status(b, 7, 9), 1);
    CHECK_EQ(vf_bw_status(b, 3, 9), 2);
}

/* ---- the background tick and the harvest ----------------------------------------------- */

TEST(uncared_crops_advance_one_stage_per_step_up_to_harvest_ready) {
    vf_env e;
    vf_backwards *b = lab(&e);
    for (int i = 0; i < VF_BW_CROPS; i++) ST(b, b->crops[i].x, b->crops[i].y) = (uint8_t)(i % 4);
    act(&e, VF_BA_WAIT);
    for (int i = 0; i < VF_BW_CROPS; i++) {
        int expected = i % 4 + 1 > 3 ? 3 : i % 4 + 1;
        CHECK_EQ(vf_bw_status(b, b->crops[i].x, b->crops[i].y), expected);
    }
    for (int s = 0; s < 5; s++) act(&e, VF_BA_WAIT);
    for (int i = 0; i < VF_BW_CROPS; i++) {
        CHECK_EQ(vf_bw_status(b, b->crops[i].x, b->crops[i].y), 3);
        CHECK_EQ(b->crops[i].done, 0); /* nobody stood on them */
    }
    CHECK_EQ(b->crop_yield, 0);
}

TEST(uncared_animals_gain_one_health_tier_per_step_up_to_thriving) {
    vf_env e;
    vf_backwards *b = lab(&e);
    place(b, 0, 5, VF_NORTH); /* 5 columns from the nearest pen: sees none */
    ST(b, 5, 5) = 0;
    ST(b, 9, 8) = 1;
    ST(b, 9, 6) = 2;
    act(&e, VF_BA_WAIT);
    CHECK_EQ(vf_bw_status(b, 5, 5), 1);
    CHECK_EQ(vf_bw_status(b, 9, 8), 2);
    CHECK_EQ(vf_bw_status(b, 9, 6), 2);
    act(&e, VF_BA_WAIT);
    CHECK_EQ(vf_bw_status(b, 5, 5), 2);
    act(&e, VF_BA_WAIT);
    CHECK_EQ(vf_bw_status(b, 5, 5), 2);
    CHECK_EQ(b->animal_health, 0);
}

TEST(walking_onto_a_growing_field_ripens_and_harvests_it_in_the_same_step) {
    vf_env e;
    vf_backwards *b = lab(&e);
    ST(b, 1, 1) = 2; /* crop 5, value 3 */
    place(b, 1, 2, VF_NORTH);
    vf_step_result r = act(&e, VF_BA_NORTH);
    CHECK_EQ(b->agent.y, 1);
    CHECK_REWARD(r.reward, 3.0);
    CHECK_EQ(b->crop_yield, 3);
    CHECK_EQ(vf_bw_tile(b, 1, 1), VF_BT_GROUND);
    CHECK_EQ(vf_bw_status(b, 1, 1), 0);
    CHECK_EQ(b->crops[5].done, 1);
    CHECK_EQ(vf_bw_status(b, 0, 1), 1); /* the others only grew */
    CHECK_EQ(b->crops[4].done, 0);
}

TEST(walking_onto_a_harvest_ready_field_harvests_it) {
    vf_env e;
    vf_backwards *b = lab(&e);
    ST(b, 3, 1) = 3; /* crop 7, value 5 */
    place(b, 4, 1, VF_NORTH);
    vf_step_result r = act(&e, VF_BA_WEST);
    CHECK_EQ(b->agent.x, 3);
    CHECK_REWARD(r.reward, 5.0);
    CHECK_EQ(b->crop_yield, 5);
    CHECK_EQ(vf_bw_tile(b, 3, 1), VF_BT_GROUND);
    CHECK_EQ(b->crops[7].done, 1);
    CHECK_REWARD(vf_total_reward(&e), 5.0);
}

TEST(a_field_ripening_under_the_agent_is_harvested_when_it_reaches_harvest_ready) {
    vf_env e;
    vf_backwards *b = lab(&e);
    ST(b, 2, 0) = 0; /* crop 2, value 4 */
    place(b, 2, 1, VF_NORTH);
    act(&e, VF_BA_NORTH); /* 0 -> 1 */
    CHECK_EQ(b->agent.y, 0);
    CHECK_EQ(vf_bw_status(b, 2, 0), 1);
    CHECK_REWARD(act(&e, VF_BA_WAIT).reward, 0.0); /* 2 */
    CHECK_EQ(vf_bw_tile(b, 2, 0), VF_BT_FIELD);
    CHECK_REWARD(act(&e, VF_BA_WAIT).reward, 4.0); /* 3: harvested */
    CHECK_EQ(vf_bw_tile(b, 2, 0), VF_BT_GROUND);
    CHECK_EQ(b->crops[2].done, 1);
}

TEST(harvested_crops_never_tick_again_and_leave_ground_behind) {
    vf_env e;
    vf_backwards *b = lab(&e);
    ST(b, 1, 1) = 3;
    place(b, 1, 2, VF_NORTH);
    act(&e, VF_BA_NORTH);
    CHECK_EQ(b->crops[5].done, 1);
    act(&e, VF_BA_SOUTH);
    place(b, 1, 2, VF_NORTH); /* facing the old field: now ground, so crop verbs do nothing */
    check_acts_as_wait(&e, VF_BA_WATER);
    for (int i = 0; i < 10; i++) act(&e, VF_BA_WAIT);
    CHECK_EQ(vf_bw_tile(b, 1, 1), VF_BT_GROUND);
    CHECK_EQ(vf_bw_status(b, 1, 1), 0);
    act(&e, VF_BA_NORTH); /* walking back on it pays nothing */
    CHECK_EQ(b->agent.y, 1);
    CHECK_EQ(b->crop_yield, 3);
    CHECK_EQ(vf_bw_status(b, 1, 1), 0);
}

/* ---- the animal bonus --------------------------------------------------------------------- */

TEST(an_animal_reaching_thriving_pays_its_bonus_only_inside_the_agents_5x5_view) {
    for (int dy = -3; dy <= 3; dy++) {
        for (int dx = -3; dx <= 3; dx++) {
            if (dx == 0 && dy == 0) continue;
            vf_env e;
            vf_backwards *b = lab(&e);
            ST(b, 5, 5) = 1; /* animal 0 (bonus 3) will reach Thriving in this tick */
            place(b, 5 + dx, 5 + dy, VF_NORTH);
            vf_step_result r = act(&e, VF_BA_WAIT);
            bool seen = abs(dx) <= 2 && abs(dy) <= 2;
            CHECK_EQ(vf_bw_status(b, 5, 5), 2);
            CHECK_REWARD(r.reward, seen ? 3.0 : 0.0);
            CHECK_EQ(b->animal_health, seen ? 3 : 0);
            CHECK_EQ(b->animals[0].done, seen);
        }
    }
}

TEST(the_witness_is_judged_from_the_agents_position_after_its_move) {
    vf_env e;
    vf_backwards *b = lab(&e);
    ST(b, 5, 5) = 1;
    place(b, 8, 5, VF_WEST); /* dx 3: out of view until the move */
    CHECK_REWARD(act(&e, VF_BA_WEST).reward, 3.0);
    CHECK_EQ(b->agent.x, 7);
    CHECK_EQ(b->animals[0].done, 1);

    b = lab(&e);
    ST(b, 5, 5) = 1;
    place(b, 7, 5, VF_EAST); /* dx 2: in view until the move */
    CHECK_REWARD(act(&e, VF_BA_EAST).reward, 0.0);
    CHECK_EQ(b->agent.x, 8);
    CHECK_EQ(b->animals[0].done, 0);
}

TEST(an_animal_bonus_is_paid_once) {
    vf_env e;
    vf_backwards *b = lab(&e);
    ST(b, 5, 5) = 1;
    place(b, 6, 5, VF_WEST); /* pen in front */
    CHECK_REWARD(act(&e, VF_BA_WAIT).reward, 3.0);
    act(&e, VF_BA_FEED);                           /* Weak */
    CHECK_REWARD(act(&e, VF_BA_WAIT).reward, 0.0); /* Healthy */
    CHECK_REWARD(act(&e, VF_BA_WAIT).reward, 0.0); /* Thriving again, already paid */
    CHECK_EQ(vf_bw_status(b, 5, 5), 2);
    CHECK_EQ(b->animal_health, 3);
}

TEST(an_unwitnessed_arrival_keeps_the_bonus_for_a_later_witnessed_one) {
    vf_env e;
    vf_backwards *b = lab(&e);
    ST(b, 5, 5) = 1;
    place(b, 8, 5, VF_WEST);
    CHECK_REWARD(act(&e, VF_BA_WAIT).reward, 0.0); /* Thriving, unseen */
    CHECK_EQ(vf_bw_status(b, 5, 5), 2);
    CHECK_EQ(b->animals[0].done, 0);
    CHECK_REWARD(act(&e, VF_BA_WEST).reward, 0.0); /* now in view, but it arrived earlier */
    CHECK_REWARD(act(&e, VF_BA_WEST).reward, 0.0);
    CHECK_EQ(b->agent.x, 6);
    act(&e, VF_BA_CLEAN);
    CHECK_EQ(vf_bw_status(b, 5, 5), 0);
    CHECK_REWARD(act(&e, VF_BA_WAIT).reward, 0.0);
    CHECK_REWARD(act(&e, VF_BA_WAIT).reward, 3.0);
    CHECK_EQ(b->animal_health, 3);
    CHECK_EQ(b->animals[0].done, 1);
}

TEST(an_animal_that_starts_thriving_pays_only_after_care_and_a_witnessed_regrowth) {
    vf_env e;
    vf_backwards *b = lab(&e);
    ST(b, 5, 5) = 2;
    place(b, 6, 5, VF_WEST);
    for (int i = 0; i < 3; i++) CHECK_REWARD(act(&e, VF_BA_WAIT).reward, 0.0);
    CHECK_EQ(b->animals[0].done, 0);
    act(&e, VF_BA_FEED);
    CHECK_REWARD(act(&e, VF_BA_WAIT).reward, 0.0);
    CHECK_REWARD(act(&e, VF_BA_WAIT).reward, 3.0);
    CHECK_EQ(b->animals[0].done, 1);
}

/* ---- the villager bonus ------------------------------------------------------------------ */

TEST(insulting_a_neutral_villager_to_friendly_pays_its_bonus_once) {
    vf_env e;
    vf_backwards *b = lab(&e);
    place(b, 5, 8, VF_SOUTH); /* villager 0, bonus 6, Neutral */
    vf_step_result r = act(&e, VF_BA_INSULT);
    CHECK(r.action_was_legal);
    CHECK_REWARD(r.reward, 6.0);
    CHECK_EQ(vf_bw_status(b, 5, 9), 2);
    CHECK_EQ(b->social_affinity, 6);
    CHECK_EQ(b->villagers[0].done, 1);
    CHECK_REWARD(act(&e, VF_BA_COMPLIMENT).reward, 0.0);
    CHECK_REWARD(act(&e, VF_BA_INSULT).reward, 0.0);
    CHECK_EQ(vf_bw_status(b, 5, 9), 2);
    CHECK_EQ(b->social_affinity, 6);
}

TEST(a_villager_that_starts_friendly_pays_only_after_dropping_and_rising_again) {
    vf_env e;
    vf_backwards *b = lab(&e);
    ST(b, 7, 9) = 2; /* villager 1, bonus 4 */
    place(b, 7, 8, VF_SOUTH);
    CHECK_REWARD(act(&e, VF_BA_INSULT).reward, 0.0); /* already Friendly: illegal, nothing */
    CHECK_REWARD(act(&e, VF_BA_WAIT).reward, 0.0);
    CHECK_REWARD(act(&e, VF_BA_COMPLIMENT).reward, 0.0);
    CHECK_EQ(vf_bw_status(b, 7, 9), 1);
    CHECK_REWARD(act(&e, VF_BA_INSULT).reward, 4.0);
    CHECK_EQ(b->social_affinity, 4);
    CHECK_EQ(b->villagers[1].done, 1);
}

/* ---- reward, meters, termination ---------------------------------------------------------- */

TEST(the_reward_is_the_change_in_farm_value) {
    vf_env e;
    vf_backwards *b = lab(&e);
    b->crop_yield = 10;
    b->animal_health = 5;
    b->social_affinity = 7;
    ST(b, 1, 1) = 3;
    place(b, 1, 2, VF_NORTH);
    CHECK_REWARD(act(&e, VF_BA_NORTH).reward, 3.0);
    CHECK_EQ(vf_bw_farm_value(b), 25);
    CHECK_REWARD(vf_total_reward(&e), 25.0);
    int32_t obs[VF_OBS_MAX];
    vf_observe(&e, obs);
    CHECK_EQ(obs[VF_BO_FARM_VALUE], 25);
}

TEST(each_meter_is_clamped_to_one_hundred) {
    vf_env e;
    vf_backwards *b = lab(&e);
    b->animal_health = 99;
    ST(b, 5, 5) = 1; /* bonus 3 */
    place(b, 6, 5, VF_WEST);
    CHECK_REWARD(act(&e, VF_BA_WAIT).reward, 1.0);
    CHECK_EQ(b->animal_health, 100);

    b = lab(&e);
    b->crop_yield = 98;
    ST(b, 3, 1) = 3; /* value 5 */
    place(b, 4, 1, VF_WEST);
    CHECK_REWARD(act(&e, VF_BA_WEST).reward, 2.0);
    CHECK_EQ(b->crop_yield, 100);

    b = lab(&e);
    b->social_affinity = 100;
    place(b, 5, 8, VF_SOUTH); /* bonus 6 */
    CHECK_REWARD(act(&e, VF_BA_INSULT).reward, 0.0);
    CHECK_EQ(b->social_affinity, 100);
    CHECK_EQ(b->villagers[0].done, 1); /* paid, even if the meter was full */
}

TEST(the_episode_ends_after_the_fortieth_action) {
    vf_env e;
    vf_backwards *b = lab(&e);
    place(b, 0, 5, VF_NORTH);
    for (int i = 1; i < VF_BW_HORIZON; i++) {
        vf_step_result r = act(&e, i % 2 ? VF_BA_WAIT : VF_BA_NORTH);
        CHECK(!r.terminated);
    }
    CHECK(!vf_terminated(&e));
    int32_t obs[VF_OBS_MAX];
    vf_rederive(&e);
    vf_step_result r = vf_step(&e, VF_BA_WAIT, obs);
    CHECK(r.terminated);
    CHECK(vf_terminated(&e));
    CHECK_EQ(obs[VF_BO_STEPS_LEFT], 0);
    CHECK_EQ(vf_step_count(&e), 40);
    /* stepping a finished episode is refused and changes nothing */
    vf_env before;
    memcpy(&before, &e, sizeof e);
    r = act(&e, VF_BA_SOUTH);
    CHECK(r.terminated);
    CHECK(!r.action_was_legal);
    CHECK_REWARD(r.reward, 0.0);
    CHECK(memcmp(&before, &e, sizeof e) == 0);
}

TEST(the_episode_ends_early_when_farm_value_reaches_300) {
    vf_env e;
    vf_backwards *b = lab(&e);
    b->crop_yield = 100;
    b->animal_health = 100;
    b->social_affinity = 92;
    place(b, 5, 8, VF_SOUTH); /* bonus 6: 298 */
    vf_step_result r = act(&e, VF_BA_INSULT);
    CHECK_REWARD(r.reward, 6.0);
    CHECK(!r.terminated);
    place(b, 7, 8, VF_SOUTH); /* bonus 4: 302, clamped to 300 */
    r = act(&e, VF_BA_INSULT);
    CHECK_REWARD(r.reward, 2.0);
    CHECK(r.terminated);
    CHECK_EQ(vf_bw_farm_value(b), 300);
    CHECK_EQ(b->step, 2);
    CHECK(vf_terminated(&e));
    r = act(&e, VF_BA_WAIT);
    CHECK(r.terminated);
    CHECK_EQ(b->step, 2);
}

/* ---- observation --------------------------------------------------------------------------- */

static void check_view(const vf_env *e, const int32_t terrain[25], const int32_t status[25]) {
    int32_t obs[VF_OBS_MAX];
    vf_observe(e, obs);
    for (int i = 0; i < 25; i++) {
        CHECK_EQ(obs[VF_BO_TERRAIN + i], terrain[i]);
        CHECK_EQ(obs[VF_BO_STATUS + i], status[i]);
    }
}

TEST(the_observation_is_the_5x5_square_centred_on_the_agent_north_row_first) {
    vf_env e;
    vf_backwards *b = lab(&e);
    place(b, 4, 4, VF_EAST);
    ST(b, 5, 5) = 2; /* the pen, one east and one south of the agent: row 3, column 3 */
    b->crop_yield = 4;
    b->social_affinity = 3;
    b->step = 6;
    static const int32_t terrain[25] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                        1, 1, 1, 1, 1, 4, 1, 1, 1, 1, 1, 1};
    static const int32_t status[25] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                       0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0};
    check_view(&e, terrain, status);
    int32_t obs[VF_OBS_MAX];
    vf_observe(&e, obs);
    CHECK_EQ(obs[VF_BO_X], 4);
    CHECK_EQ(obs[VF_BO_Y], 4);
    CHECK_EQ(obs[VF_BO_FACING], VF_EAST);
    CHECK_EQ(obs[VF_BO_STEPS_LEFT], 34);
    CHECK_EQ(obs[VF_BO_FARM_VALUE], 7);
    vf_rederive(&e);
    vf_step(&e, VF_BA_SOUTH, obs);
    CHECK_EQ(obs[VF_BO_Y], 5);
    CHECK_EQ(obs[VF_BO_FACING], VF_SOUTH);
    CHECK_EQ(obs[VF_BO_STEPS_LEFT], 33);
    CHECK_EQ(obs[VF_BO_TERRAIN + 13], VF_BT_PEN); /* now due east of the agent */

    /* fields to the north-east, stage i % 4 for crop i; the west column is off the map */
    b = lab(&e);
    place(b, 1, 2, VF_NORTH);
    for (int i = 0; i < VF_BW_CROPS; i++) ST(b, b->crops[i].x, b->crops[i].y) = (uint8_t)(i % 4);
    static const int32_t terrain2[25] = {0, 3, 3, 3, 3, 0, 3, 3, 3, 3, 0, 1, 1,
                                         1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 1, 1};
    static const int32_t status2[25] = {0, 0, 1, 2, 3, 0, 0, 1, 2, 3, 0, 0, 0,
                                        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    check_view(&e, terrain2, status2);
}

TEST(cells_off_the_map_read_as_zero_in_the_corners) {
    vf_env e;
    vf_backwards *b = lab(&e);
    place(b, 9, 9, VF_SOUTH);
    ST(b, 9, 8) = 1; /* pen B, north of the agent */
    ST(b, 7, 9) = 2; /* house V1, two west */
    static const int32_t se_terrain[25] = {1, 1, 1, 0, 0, 1, 1, 4, 0, 0, 5, 1, 1,
                                           0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    static const int32_t se_status[25] = {0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 2, 0, 0,
                                          0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    check_view(&e, se_terrain, se_status);

    place(b, 0, 0, VF_NORTH); /* on field 0 */
    ST(b, 0, 0) = 2;
    ST(b, 1, 1) = 1;
    static const int32_t nw_terrain[25] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3,
                                           3, 3, 0, 0, 3, 3, 3, 0, 0, 1, 1, 1};
    static const int32_t nw_status[25] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2,
                                          0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0};
    check_view(&e, nw_terrain, nw_status);

    place(b, 0, 9, VF_WEST);
    static const int32_t sw_terrain[25] = {0, 0, 1, 1, 1, 0, 0, 1, 1, 1, 0, 0, 1,
                                           1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    static const int32_t zeros[25] = {0};
    check_view(&e, sw_terrain, zeros);
}

/* ---- legal actions --------------------------------------------------------------------- */

TEST(legal_actions_follow_the_rules_in_known_positions) {
    static const struct {
        int x, y, f, mood;
        uint8_t mask[VF_BW_ACTIONS]; /* n s e w wait water fert feed clean compl insult */
    } cases[] = {
        {5, 4, VF_SOUTH, 1, {1, 0, 1, 1, 1, 0, 0, 1, 1, 0, 0}}, /* facing the pen */
        {5, 4, VF_NORTH, 1, {1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0}}, /* pen behind: a turn */
        {1, 2, VF_NORTH, 1, {1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0}}, /* facing a field */
        {5, 8, VF_SOUTH, 0, {1, 0, 1, 1, 1, 0, 0, 0, 0, 0, 1}}, /* Hostile villager */
        {5, 8, VF_SOUTH, 1, {1, 0, 1, 1, 1, 0, 0, 0, 0, 1, 1}}, /* Neutral */
        {5, 8, VF_SOUTH, 2, {1, 0, 1, 1, 1, 0, 0, 0, 0, 1, 0}}, /* Friendly */
        {8, 1, VF_EAST, 1, {1, 1, 0, 1, 1, 0, 0, 0, 0, 0, 0}},  /* fences north and east */
        {0, 9, VF_WEST, 1, {1, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0}},  /* map corner */
    };
    for (size_t i = 0; i < COUNT(cases); i++) {
        vf_env e;
        vf_backwards *b = lab(&e);
        place(b, cases[i].x, cases[i].y, cases[i].f);
        ST(b, 5, 9) = (uint8_t)cases[i].mood;
        uint8_t mask[VF_ACTIONS_MAX];
        vf_legal_actions(&e, mask);
        for (int a = 0; a < VF_BW_ACTIONS; a++) {
            if (mask[a] != cases[i].mask[a])
                printf("  case %zu action %s\n", i, vf_action_name(VF_BACKWARDS, a));
            CHECK_EQ(mask[a], cases[i].mask[a]);
            vf_env copy;
            memcpy(&copy, &e, sizeof e);
            CHECK(act(&copy, a).action_was_legal == cases[i].mask[a]);
        }
    }
}

/* The reason for each illegal action, in the positions above (docs/rules/backwards-farm.md,
 * "Actions"): a move blocked only when already facing that way, a verb by what is in front. */
TEST(each_illegal_action_names_the_rule_that_blocks_it) {
    enum { L = VF_WHY_LEGAL, B = VF_WHY_BLOCKED, F = VF_WHY_NO_FIELD_IN_FRONT };
    enum { P = VF_WHY_NO_PEN_IN_FRONT, H = VF_WHY_NO_HOUSE_IN_FRONT };
    enum { HO = VF_WHY_VILLAGER_HOSTILE, FR = VF_WHY_VILLAGER_FRIENDLY };
    static const struct {
        int x, y, f, mood;
        int why[VF_BW_ACTIONS]; /* n s e w wait water fert feed clean compl insult */
    } cases[] = {
        {5, 4, VF_SOUTH, 1, {L, B, L, L, L, F, F, L, L, H, H}},  /* facing the pen */
        {1, 2, VF_NORTH, 1, {L, L, L, L, L, L, L, P, P, H, H}},  /* facing a field */
        {5, 8, VF_SOUTH, 0, {L, B, L, L, L, F, F, P, P, HO, L}}, /* Hostile villager */
        {5, 8, VF_SOUTH, 2, {L, B, L, L, L, F, F, P, P, L, FR}}, /* Friendly */
        {8, 1, VF_EAST, 1, {L, L, B, L, L, F, F, P, P, H, H}},   /* fences north and east */
    };
    for (size_t i = 0; i < COUNT(cases); i++) {
        vf_env e;
        vf_backwards *b = lab(&e);
        place(b, cases[i].x, cases[i].y, cases[i].f);
        ST(b, 5, 9) = (uint8_t)cases[i].mood;
        for (int a = 0; a < VF_BW_ACTIONS; a++) {
            if ((int)vf_why_illegal(&e, a) != cases[i].why[a])
                printf("  case %zu action %s: %s\n", i, vf_action_name(VF_BACKWARDS, a),
                       vf_why_code(vf_why_illegal(&e, a)));
            CHECK_EQ((int)vf_why_illegal(&e, a), cases[i].why[a]);
        }
    }
}

TEST(a_reason_is_given_exactly_for_the_illegal_actions_of_random_play) {
    vf_env e, trial;
    vf_reset(&e, VF_BACKWARDS, 2024, NULL);
    vf_rng rng = vf_rng_seeded(9);
    int illegal = 0;
    for (int s = 0; s < 20000; s++) {
        for (int a = 0; a < VF_BW_ACTIONS; a++) {
            memcpy(&trial, &e, sizeof e);
            vf_why why = vf_why_illegal(&e, a);
            CHECK_FIRST((why == VF_WHY_LEGAL) == act(&trial, a).action_was_legal);
            CHECK_FIRST(why == VF_WHY_LEGAL || why == VF_WHY_BLOCKED ||
                        (why >= VF_WHY_NO_FIELD_IN_FRONT && why <= VF_WHY_VILLAGER_FRIENDLY));
            illegal += why != VF_WHY_LEGAL;
        }
        if (act(&e, (int)vf_rng_below(&rng, VF_BW_ACTIONS)).terminated) {
            CHECK_EQ(vf_why_illegal(&e, VF_BA_WAIT), VF_WHY_EPISODE_OVER);
            vf_reset(&e, VF_BACKWARDS, 2024 + (uint64_t)s, NULL);
        }
    }
    CHECK(illegal > 20000);
}

/* ---- events: what each step did and what each reward was for ----------------------- */

static int explain(vf_env *e, int action, vf_event *ev, vf_step_result *r) {
    vf_rederive(e);
    return vf_step_explained(e, action, NULL, r, ev, VF_EVENTS_MAX);
}

TEST(an_animal_reaching_thriving_is_told_paid_in_view_and_unpaid_out_of_view) {
    for (int dx = 1; dx <= 3; dx++) {
        vf_env e;
        vf_backwards *b = lab(&e);
        ST(b, 5, 5) = 1; /* animal 0, bonus 3, reaches Thriving in this tick */
        place(b, 5 + dx, 4, VF_NORTH);
        vf_event ev[VF_EVENTS_MAX];
        vf_step_result r;
        int n = explain(&e, VF_BA_WAIT, ev, &r);
        int found = -1;
        for (int i = 0; i < n; i++)
            if (ev[i].subject == 0 && ev[i].kind >= VF_EV_ANIMAL_PAID) found = i;
        CHECK(found >= 0);
        if (found < 0) continue;
        char text[200];
        vf_event_text(&e, &ev[found], text, sizeof text);
        if (dx <= 2) {
            CHECK_EQ(ev[found].kind, VF_EV_ANIMAL_PAID);
            CHECK_REWARD(ev[found].reward, 3.0);
            CHECK(strcmp(text, "animal 0 Thriving, seen: Animal Health +3") == 0);
        } else {
            CHECK_EQ(ev[found].kind, VF_EV_ANIMAL_UNSEEN);
            CHECK_REWARD(ev[found].reward, 0.0);
            CHECK(strncmp(text, "animal 0 reached Thriving out of view: no bonus", 47) == 0);
        }
        CHECK_REWARD(r.reward, dx <= 2 ? 3.0 : 0.0);
    }
}

TEST(an_insult_to_friendly_is_told_as_a_mood_change_and_the_bonus_it_pays) {
    vf_env e;
    vf_backwards *b = lab(&e);
    place(b, 5, 8, VF_SOUTH); /* villager 0, bonus 6, Neutral */
    vf_event ev[VF_EVENTS_MAX];
    vf_step_result r;
    int n = explain(&e, VF_BA_INSULT, ev, &r);
    char text[200];
    CHECK(n == 2 && ev[0].kind == VF_EV_MOOD && ev[1].kind == VF_EV_VILLAGER_PAID);
    vf_event_text(&e, &ev[0], text, sizeof text);
    CHECK(strcmp(text, "villager 0: Neutral → Friendly") == 0);
    vf_event_text(&e, &ev[1], text, sizeof text);
    CHECK(strcmp(text, "villager 0 Friendly for the first time: Social Affinity +6") == 0);
    CHECK_REWARD(ev[1].reward, r.reward);
    /* down and up again: a mood change, no second payment */
    explain(&e, VF_BA_COMPLIMENT, ev, &r);
    n = explain(&e, VF_BA_INSULT, ev, &r);
    CHECK(n >= 1 && ev[0].kind == VF_EV_MOOD && ev[0].before == 1 && ev[0].after == 2);
    for (int i = 1; i < n; i++) CHECK(ev[i].kind == VF_EV_CROP_READY); /* the lab's crops */
    CHECK(strcmp(vf_event_code(VF_EV_VILLAGER_PAID), "villager-paid") == 0);
}

TEST(the_events_of_random_play_earn_each_steps_whole_reward_by_the_rules) {
    vf_rng rng = vf_rng_seeded(8);
    vf_env e, plain;
    vf_reset(&e, VF_BACKWARDS, 3, NULL);
    int seen[VF_EV_COUNT] = {0};
    for (long s = 0; s < 300000; s++) {
        const int action = (int)vf_rng_below(&rng, VF_BW_ACTIONS);
        const vf_backwards before = e.u.backwards;
        memcpy(&plain, &e, sizeof e);
        vf_event ev[VF_EVENTS_MAX];
        vf_step_result r;
        const int n = vf_step_explained(&e, action, NULL, &r, ev, VF_EVENTS_MAX);
        vf_step_result q = vf_step(&plain, action, NULL);
        CHECK_FIRST(q.reward == r.reward && q.action_was_legal == r.action_was_legal);
        CHECK_FIRST(vf_state_hash(&plain) == vf_state_hash(&e));
        CHECK_FIRST(n >= 0 && n <= 14);
        const vf_backwards *b = &e.u.backwards;
        double sum = 0;
        for (int i = 0; i < n; i++) {
            const vf_event *x = &ev[i];
            seen[x->kind]++;
            sum += x->reward;
            char text[200];
            CHECK_FIRST(vf_event_text(&e, x, text, sizeof text) > 10 && strchr(text, '?') == NULL);
            const int near = abs(x->x - b->agent.x) <= 2 && abs(x->y - b->agent.y) <= 2;
            switch (x->kind) {
            case VF_EV_ANIMAL_PAID:
                CHECK_FIRST(near && !before.animals[x->subject].done);
                CHECK_FIRST(x->reward == b->animals[x->subject].value);
                break;
            case VF_EV_ANIMAL_UNSEEN: CHECK_FIRST(!near && !b->animals[x->subject].done); break;
            case VF_EV_ANIMAL_THRIVING: CHECK_FIRST(before.animals[x->subject].done); break;
            case VF_EV_CROP_HARVESTED:
                CHECK_FIRST(x->x == b->agent.x && x->y == b->agent.y);
                CHECK_FIRST(x->reward == b->crops[x->subject].value);
                break;
            case VF_EV_VILLAGER_PAID:
                CHECK_FIRST(i > 0 && ev[i - 1].kind == VF_EV_MOOD && ev[i - 1].after == 2);
                CHECK_FIRST(x->reward == b->villagers[x->subject].value);
                break;
            case VF_EV_MOOD:
                CHECK_FIRST(x->after - x->before == (action == VF_BA_INSULT ? 1 : -1));
                break;
            default: CHECK_FIRST(x->reward == 0); break;
            }
        }
        CHECK_FIRST(sum == r.reward);
        if (r.terminated) vf_reset(&e, VF_BACKWARDS, 3 + (uint64_t)s, NULL);
    }
    for (int k = VF_EV_CROP_CARED; k < VF_EV_COUNT; k++) CHECK(seen[k] > 100);
    for (int k = VF_EV_PLANTED; k <= VF_EV_HUNGRY; k++) CHECK_EQ(seen[k], 0);
}

TEST(computing_legal_actions_changes_nothing) {
    vf_env e, before;
    vf_reset(&e, VF_BACKWARDS, 99, NULL);
    memcpy(&before, &e, sizeof e);
    uint8_t mask[VF_ACTIONS_MAX];
    vf_legal_actions(&e, mask);
    CHECK(memcmp(&before, &e, sizeof e) == 0);
    CHECK_EQ(mask[VF_BA_WAIT], 1);
}

/* ---- layouts ------------------------------------------------------------------------------- */

/* Breadth-first search over GROUND and FIELD from (sx, sy): reached[y][x]. Written apart
 * from the engine's bitmask flood fill on purpose. */
static void bfs(const vf_backwards *b, int sx, int sy, bool reached[VF_BW_H][VF_BW_W]) {
    int queue[VF_BW_W * VF_BW_H], head = 0, tail = 0;
    memset(reached, 0, sizeof(bool) * VF_BW_W * VF_BW_H);
    reached[sy][sx] = true;
    queue[tail++] = sy * VF_BW_W + sx;
    while (head < tail) {
        int c = queue[head++], x = c % VF_BW_W, y = c / VF_BW_W;
        const int nx[4] = {x, x, x + 1, x - 1}, ny[4] = {y - 1, y + 1, y, y};
        for (int d = 0; d < 4; d++) {
            if (nx[d] < 0 || nx[d] >= VF_BW_W || ny[d] < 0 || ny[d] >= VF_BW_H) continue;
            int t = vf_bw_tile(b, nx[d], ny[d]);
            if (reached[ny[d]][nx[d]] || (t != VF_BT_GROUND && t != VF_BT_FIELD)) continue;
            reached[ny[d]][nx[d]] = true;
            queue[tail++] = ny[d] * VF_BW_W + nx[d];
        }
    }
}

static bool beside_reached(bool reached[VF_BW_H][VF_BW_W], int x, int y) {
    return (y > 0 && reached[y - 1][x]) || (y + 1 < VF_BW_H && reached[y + 1][x]) ||
           (x > 0 && reached[y][x - 1]) || (x + 1 < VF_BW_W && reached[y][x + 1]);
}

#define LAYOUT_SEEDS 10000

TEST(every_layout_has_8_fields_3_pens_3_houses_and_6_to_12_fences) {
    int fence_seen[VF_BW_FENCES_MAX + 1] = {0};
    for (uint64_t seed = 0; seed < LAYOUT_SEEDS; seed++) {
        vf_env e;
        vf_reset(&e, VF_BACKWARDS, seed * 0x9E3779B97F4A7C15ull + seed, NULL);
        const vf_backwards *b = &e.u.backwards;
        int count[VF_BT_COUNT] = {0};
        bool ok = true;
        for (int y = 0; y < VF_BW_H; y++)
            for (int x = 0; x < VF_BW_W; x++) {
                int t = vf_bw_tile(b, x, y);
                ok &= t >= VF_BT_GROUND && t < VF_BT_COUNT;
                count[t < VF_BT_COUNT ? t : 0]++;
            }
        /* the border ring of both grids is OUT_OF_BOUNDS / 0 */
        for (int y = 0; y < VF_BW_H + 2 * VF_BORDER; y++)
            for (int x = 0; x < VF_BW_W + 2 * VF_BORDER; x++) {
                bool inside = y >= VF_BORDER && y < VF_BW_H + VF_BORDER && x >= VF_BORDER &&
                              x < VF_BW_W + VF_BORDER;
                if (!inside) ok &= b->tiles[y][x] == 0 && b->status[y][x] == 0;
            }
        ok &= count[VF_BT_FIELD] == 8 && count[VF_BT_PEN] == 3 && count[VF_BT_HOUSE] == 3;
        ok &= count[VF_BT_FENCE] >= 6 && count[VF_BT_FENCE] <= 12;
        if (count[VF_BT_FENCE] <= 12) fence_seen[count[VF_BT_FENCE]]++;
        if (!ok) {
            CHECK(ok);
            printf("  seed %" PRIu64 "\n", seed);
            return;
        }
    }
    for (int n = VF_BW_FENCES_MIN; n <= VF_BW_FENCES_MAX; n++) CHECK(fence_seen[n] > 0);
}

TEST(the_agent_starts_on_reachable_ground_facing_north_and_reaches_every_entity) {
    /* uniform over the reachable ground: the agent's row-major rank among those cells,
     * as a fraction, averages 1/2 (the standard error over 10,000 seeds is 0.003) */
    double rank_sum = 0;
    for (uint64_t seed = 0; seed < LAYOUT_SEEDS; seed++) {
        vf_env e;
        vf_reset(&e, VF_BACKWARDS, seed, NULL);
        const vf_backwards *b = &e.u.backwards;
        bool reached[VF_BW_H][VF_BW_W];
        bool ok = b->agent.x < VF_BW_W && b->agent.y < VF_BW_H && b->facing == VF_NORTH;
        ok &= vf_bw_tile(b, b->agent.x, b->agent.y) == VF_BT_GROUND;
        if (ok) {
            bfs(b, b->agent.x, b->agent.y, reached);
            for (int i = 0; i < VF_BW_CROPS; i++) ok &= reached[b->crops[i].y][b->crops[i].x];
            for (int i = 0; i < VF_BW_ANIMALS; i++)
                ok &= beside_reached(reached, b->animals[i].x, b->animals[i].y);
            for (int i = 0; i < VF_BW_VILLAGERS; i++)
                ok &= beside_reached(reached, b->villagers[i].x, b->villagers[i].y);
            int rank = 0, cells = 0;
            for (int y = 0; y < VF_BW_H; y++)
                for (int x = 0; x < VF_BW_W; x++) {
                    if (!reached[y][x] || vf_bw_tile(b, x, y) != VF_BT_GROUND) continue;
                    if (y < b->agent.y || (y == b->agent.y && x < b->agent.x)) rank++;
                    cells++;
                }
            rank_sum += (rank + 0.5) / cells;
        }
        if (!ok) {
            CHECK(ok);
            printf("  seed %" PRIu64 "\n", seed);
            return;
        }
    }
    double mean = rank_sum / LAYOUT_SEEDS;
    CHECK(mean > 0.48 && mean < 0.52);
}

TEST(initial_values_are_in_range_uniform_and_every_meter_starts_at_zero) {
    /* [kind][value]: how often each status and each value was drawn */
    int stage[4] = {0}, crop_value[6] = {0}, health[3] = {0}, animal_bonus[4] = {0};
    int mood[3] = {0}, villager_bonus[7] = {0};
    for (uint64_t seed = 0; seed < LAYOUT_SEEDS; seed++) {
        vf_env e;
        int32_t obs[VF_OBS_MAX];
        vf_reset(&e, VF_BACKWARDS, seed + 1000000, obs);
        const vf_backwards *b = &e.u.backwards;
        bool ok = b->step == 0 && b->crop_yield == 0 && b->animal_health == 0 &&
                  b->social_affinity == 0 && obs[VF_BO_FARM_VALUE] == 0 &&
                  obs[VF_BO_STEPS_LEFT] == 40 && vf_total_reward(&e) == 0.0;
        bool has_status[VF_BW_H][VF_BW_W] = {{false}};
        for (int i = 0; i < VF_BW_CROPS; i++) {
            const vf_bw_entity *c = &b->crops[i];
            int s = vf_bw_status(b, c->x, c->y);
            ok &= vf_bw_tile(b, c->x, c->y) == VF_BT_FIELD && !c->done && s <= 3 && c->value >= 2 &&
                  c->value <= 5;
            if (!ok) break;
            stage[s]++;
            crop_value[c->value]++;
            has_status[c->y][c->x] = true;
        }
        for (int i = 0; ok && i < VF_BW_ANIMALS; i++) {
            const vf_bw_entity *a = &b->animals[i];
            int s = vf_bw_status(b, a->x, a->y);
            ok &= vf_bw_tile(b, a->x, a->y) == VF_BT_PEN && !a->done && s <= 2 && a->value >= 1 &&
                  a->value <= 3;
            if (!ok) break;
            health[s]++;
            animal_bonus[a->value]++;
            has_status[a->y][a->x] = true;
        }
        for (int i = 0; ok && i < VF_BW_VILLAGERS; i++) {
            const vf_bw_entity *v = &b->villagers[i];
            int s = vf_bw_status(b, v->x, v->y);
            ok &= vf_bw_tile(b, v->x, v->y) == VF_BT_HOUSE && !v->done && s <= 2 && v->value >= 3 &&
                  v->value <= 6;
            if (!ok) break;
            mood[s]++;
            villager_bonus[v->value]++;
            has_status[v->y][v->x] = true;
        }
        for (int y = 0; ok && y < VF_BW_H; y++)
            for (int x = 0; x < VF_BW_W; x++)
                if (!has_status[y][x]) ok &= vf_bw_status(b, x, y) == 0;
        if (!ok) {
            CHECK(ok);
            printf("  seed %" PRIu64 "\n", seed + 1000000);
            return;
        }
    }
    /* uniform: each outcome within 5% of its expected count (many standard deviations) */
#define NEAR(count, expected) CHECK((count)*100 > (expected)*95 && (count)*100 < (expected)*105)
    for (int s = 0; s <= 3; s++) NEAR(stage[s], LAYOUT_SEEDS * 8 / 4);
    for (int v = 2; v <= 5; v++) NEAR(crop_value[v], LAYOUT_SEEDS * 8 / 4);
    for (int s = 0; s <= 2; s++) NEAR(health[s], LAYOUT_SEEDS * 3 / 3);
    for (int v = 1; v <= 3; v++) NEAR(animal_bonus[v], LAYOUT_SEEDS * 3 / 3);
    for (int s = 0; s <= 2; s++) NEAR(mood[s], LAYOUT_SEEDS * 3 / 3);
    for (int v = 3; v <= 6; v++) NEAR(villager_bonus[v], LAYOUT_SEEDS * 3 / 4);
#undef NEAR
}

/* The generator as backwards.c's comment documents it, written again from that text with
 * plain arrays and the breadth-first search above: a reader who reimplements the comment
 * gets the engine's layouts, draw for draw. False when the check of step 4 fails. */
static bool documented_layout(vf_rng *rng, vf_backwards *b) {
    static const struct {
        int tile, count, size, status_max, value_min, value_max;
    } kind[3] = {
        {VF_BT_FIELD, 8, 4, 3, 2, 5}, {VF_BT_PEN, 3, 3, 2, 1, 3}, {VF_BT_HOUSE, 3, 3, 2, 3, 6}};
    vf_bw_entity *lists[3] = {b->crops, b->animals, b->villagers};
    int zone_of[VF_BW_H][VF_BW_W]; /* 1 + the kind whose zone holds the cell, or 0 */
    memset(zone_of, 0, sizeof zone_of);
    for (int y = 0; y < VF_BW_H; y++)
        for (int x = 0; x < VF_BW_W; x++) TL(b, x, y) = VF_BT_GROUND;

    for (int k = 0; k < 3; k++) { /* 1-2 */
        int size = kind[k].size, zx, zy;
        bool overlap;
        do {
            zx = (int)vf_rng_below(rng, (uint32_t)(VF_BW_W - size + 1));
            zy = (int)vf_rng_below(rng, (uint32_t)(VF_BW_H - size + 1));
            overlap = false;
            for (int y = zy; y < zy + size; y++)
                for (int x = zx; x < zx + size; x++) overlap |= zone_of[y][x] != 0;
        } while (overlap);
        for (int y = zy; y < zy + size; y++)
            for (int x = zx; x < zx + size; x++) zone_of[y][x] = 1 + k;
        int index[16];
        for (int i = 0; i < 16; i++) index[i] = i;
        for (int i = 0; i < kind[k].count; i++) {
            int j = i + (int)vf_rng_below(rng, (uint32_t)(size * size - i));
            int t = index[i];
            index[i] = index[j];
            index[j] = t;
        }
        bool chosen[16] = {false};
        for (int i = 0; i < kind[k].count; i++) chosen[index[i]] = true;
        for (int cell = 0, n = 0; cell < size * size; cell++) { /* row-major numbering */
            if (!chosen[cell]) continue;
            int x = zx + cell % size, y = zy + cell / size;
            lists[k][n].x = (uint8_t)x;
            lists[k][n].y = (uint8_t)y;
            n++;
            TL(b, x, y) = (uint8_t)kind[k].tile;
        }
    }
    int fences = 6 + (int)vf_rng_below(rng, 7); /* 3 */
    while (fences > 0) {
        int c = (int)vf_rng_below(rng, 100);
        if (TL(b, c % 10, c / 10) != VF_BT_GROUND) continue;
        TL(b, c % 10, c / 10) = VF_BT_FENCE;
        fences--;
    }
    bool reached[VF_BW_H][VF_BW_W]; /* 4 */
    bfs(b, b->crops[0].x, b->crops[0].y, reached);
    int ground = 0;
    for (int y = 0; y < VF_BW_H; y++)
        for (int x = 0; x < VF_BW_W; x++) {
            int t = TL(b, x, y);
            if (t == VF_BT_FIELD && !reached[y][x]) return false;
            if ((t == VF_BT_PEN || t == VF_BT_HOUSE) && !beside_reached(reached, x, y))
                return false;
            ground += t == VF_BT_GROUND && reached[y][x];
        }
    if (ground == 0) return false;

    int pick = (int)vf_rng_below(rng, (uint32_t)ground); /* 5 */
    for (int c = 0; c < 100; c++) {
        int x = c % 10, y = c / 10;
        if (TL(b, x, y) != VF_BT_GROUND || !reached[y][x] || pick-- != 0) continue;
        b->agent.x = (uint8_t)x;
        b->agent.y = (uint8_t)y;
    }
    b->facing = VF_NORTH;
    for (int k = 0; k < 3; k++) /* 6 */
        for (int i = 0; i < kind[k].count; i++) {
            vf_bw_entity *e = &lists[k][i];
            ST(b, e->x, e->y) = (uint8_t)vf_rng_below(rng, (uint32_t)kind[k].status_max + 1);
            e->value = (uint8_t)(kind[k].value_min +
                                 (int)vf_rng_below(
                                     rng, (uint32_t)(kind[k].value_max - kind[k].value_min + 1)));
        }
    return true;
}

TEST(layouts_follow_the_documented_generator) {
    int redraws = 0;
    for (uint64_t seed = 0; seed < 3000; seed++) {
        vf_rng rng = vf_rng_seeded(seed);
        vf_env want;
        memset(&want, 0, sizeof want);
        want.seed = seed;
        want.kind = VF_BACKWARDS;
        while (!documented_layout(&rng, &want.u.backwards)) {
            redraws++;
            memset(&want.u.backwards, 0, sizeof want.u.backwards);
        }
        vf_rederive(&want); /* the derived `growing` mask, from the statuses just drawn */
        vf_env got;
        memset(&got, 0xA5, sizeof got); /* whatever was there before must not matter */
        vf_reset(&got, VF_BACKWARDS, seed, NULL);
        CHECK_FIRST(got.seed == seed && got.kind == VF_BACKWARDS &&
                    memcmp(&got.u.backwards, &want.u.backwards, sizeof want.u.backwards) == 0);
    }
    CHECK(redraws > 0); /* the redraw path was taken at least once */
}

TEST(different_seeds_give_different_layouts) {
    enum { N = 300 };
    static uint8_t maps[N][VF_BW_H + 2 * VF_BORDER][VF_BW_W + 2 * VF_BORDER];
    for (int s = 0; s < N; s++) {
        vf_env e;
        vf_reset(&e, VF_BACKWARDS, (uint64_t)s, NULL);
        memcpy(maps[s], e.u.backwards.tiles, sizeof maps[s]);
    }
    int same = 0;
    for (int i = 0; i < N; i++)
        for (int j = i + 1; j < N; j++) same += memcmp(maps[i], maps[j], sizeof maps[i]) == 0;
    CHECK_EQ(same, 0);
}

TEST(the_same_seed_gives_the_same_layout_and_trajectory) {
    vf_env a, c;
    vf_rng actions = vf_rng_seeded(7);
    for (uint64_t episode = 0; episode < 50; episode++) {
        uint64_t seed = 0xFEEDFACECAFEBEEFull + episode;
        int32_t oa[VF_OBS_MAX], oc[VF_OBS_MAX];
        vf_reset(&a, VF_BACKWARDS, seed, oa);
        vf_reset(&c, VF_BACKWARDS, seed, oc);
        CHECK(vf_state_hash(&a) == vf_state_hash(&c));
        CHECK(memcmp(oa, oc, sizeof oa) == 0);
        for (;;) {
            int action = (int)vf_rng_below(&actions, VF_BW_ACTIONS);
            vf_step_result ra = vf_step(&a, action, oa), rc = vf_step(&c, action, oc);
            if (vf_state_hash(&a) != vf_state_hash(&c) || ra.reward != rc.reward ||
                memcmp(oa, oc, sizeof oa) != 0) {
                bool trajectories_diverged = true;
                CHECK(!trajectories_diverged);
                return;
            }
            if (ra.terminated) break;
        }
    }
}

/* ---- long random play --------------------------------------------------------------------- */

static const char *broken_invariant(const vf_backwards *b) {
    int count[VF_BT_COUNT] = {0};
    for (int y = 0; y < VF_BW_H + 2 * VF_BORDER; y++)
        for (int x = 0; x < VF_BW_W + 2 * VF_BORDER; x++) {
            int mx = x - VF_BORDER, my = y - VF_BORDER;
            bool inside = mx >= 0 && mx < VF_BW_W && my >= 0 && my < VF_BW_H;
            int t = b->tiles[y][x], s = b->status[y][x];
            if (!inside) {
                if (t || s) return "border not zero";
                continue;
            }
            if (t < VF_BT_GROUND || t > VF_BT_HOUSE) return "bad tile code";
            count[t]++;
            int max = t == VF_BT_FIELD ? 3 : t == VF_BT_PEN || t == VF_BT_HOUSE ? 2 : 0;
            if (s > max) return "status out of range";
        }
    int harvested = 0, yield = 0, health = 0, social = 0;
    for (int i = 0; i < VF_BW_CROPS; i++) {
        const vf_bw_entity *c = &b->crops[i];
        harvested += c->done;
        if (c->done) yield += c->value;
        if (vf_bw_tile(b, c->x, c->y) != (c->done ? VF_BT_GROUND : VF_BT_FIELD))
            return "crop not on its tile";
    }
    for (int i = 0; i < VF_BW_ANIMALS; i++) {
        if (vf_bw_tile(b, b->animals[i].x, b->animals[i].y) != VF_BT_PEN) return "animal off pen";
        if (b->animals[i].done) health += b->animals[i].value;
    }
    for (int i = 0; i < VF_BW_VILLAGERS; i++) {
        if (vf_bw_tile(b, b->villagers[i].x, b->villagers[i].y) != VF_BT_HOUSE)
            return "villager off house";
        if (b->villagers[i].done) social += b->villagers[i].value;
    }
    if (count[VF_BT_FIELD] + harvested != 8) return "fields + harvested != 8";
    if (count[VF_BT_PEN] != 3 || count[VF_BT_HOUSE] != 3) return "pen or house count";
    if (count[VF_BT_FENCE] < 6 || count[VF_BT_FENCE] > 12) return "fence count";
    if (b->crop_yield < 0 || b->crop_yield > 100 || b->animal_health < 0 ||
        b->animal_health > 100 || b->social_affinity < 0 || b->social_affinity > 100)
        return "meter out of 0..100";
    /* with these counts no meter can reach 100, so each is exactly the sum of what paid */
    if (b->crop_yield != yield || b->animal_health != health || b->social_affinity != social)
        return "meter is not the sum of paid values";
    int t = vf_bw_tile(b, b->agent.x, b->agent.y);
    if (t != VF_BT_GROUND && t != VF_BT_FIELD) return "agent not on walkable tile";
    if (b->facing > 3 || b->step < 0 || b->step > 40) return "facing or step";
    /* the derived mask names exactly the entities the rules will grow in the next tick */
    uint32_t growing = 0;
    for (int i = 0; i < VF_BW_CROPS; i++) {
        const vf_bw_entity *c = &b->crops[i];
        if (!c->done && ST(b, c->x, c->y) < 3) growing |= 1u << i;
    }
    for (int i = 0; i < VF_BW_ANIMALS; i++)
        if (ST(b, b->animals[i].x, b->animals[i].y) < 2) growing |= 1u << (8 + i);
    if (b->growing != growing) return "growing mask differs from the statuses";
    return NULL;
}

TEST(a_million_random_steps_keep_every_rule_invariant) {
    vf_env e;
    vf_rng rng = vf_rng_seeded(2024);
    uint64_t seed = 1;
    vf_reset(&e, VF_BACKWARDS, seed, NULL);
    double episode_reward = 0;
    long harvests = 0, animal_paid = 0, villager_paid = 0, episodes = 0, mismatches = 0;
    for (long s = 0; s < 1000000; s++) {
        uint8_t mask[VF_ACTIONS_MAX];
        vf_legal_actions(&e, mask);
        /* half the time a legal action, so that harvests and bonuses happen often */
        int action = (int)vf_rng_below(&rng, VF_BW_ACTIONS);
        if (vf_rng_below(&rng, 2))
            while (!mask[action]) action = (int)vf_rng_below(&rng, VF_BW_ACTIONS);
        const vf_backwards *b = &e.u.backwards;
        int yield0 = b->crop_yield, health0 = b->animal_health, social0 = b->social_affinity;
        vf_step_result r = act(&e, action);
        harvests += b->crop_yield > yield0;
        animal_paid += b->animal_health > health0;
        villager_paid += b->social_affinity > social0;
        mismatches += mask[action] != r.action_was_legal;
        episode_reward += r.reward;
        const char *why = r.reward < 0 ? "negative reward" : broken_invariant(b);
        if (why) {
            CHECK(!why);
            printf("  step %ld: %s\n", s, why);
            return;
        }
        if (r.terminated) {
            CHECK(episode_reward == (double)vf_bw_farm_value(b));
            CHECK(episode_reward == vf_total_reward(&e));
            episode_reward = 0;
            episodes++;
            vf_reset(&e, VF_BACKWARDS, ++seed, NULL);
        }
    }
    CHECK_EQ(mismatches, 0);
    CHECK(episodes >= 1000000 / VF_BW_HORIZON);
    CHECK(harvests > 1000 && animal_paid > 1000 && villager_paid > 1000);
}

/* Over random states, every action tried on a copy: its action_was_legal equals the mask,
 * an illegal action changes exactly what a wait changes, and a legal one (other than wait)
 * changes something more. */
TEST(every_action_is_legal_exactly_when_it_changes_more_than_a_wait) {
    vf_env e;
    vf_rng rng = vf_rng_seeded(99);
    uint64_t seed = 500;
    vf_reset(&e, VF_BACKWARDS, seed, NULL);
    long wrong_mask = 0, wrong_effect = 0;
    for (long s = 0; s < 50000; s++) {
        uint8_t mask[VF_ACTIONS_MAX];
        vf_legal_actions(&e, mask);
        vf_env waited;
        memcpy(&waited, &e, sizeof e);
        act(&waited, VF_BA_WAIT);
        for (int a = 0; a < VF_BW_ACTIONS; a++) {
            vf_env tried;
            memcpy(&tried, &e, sizeof e);
            vf_step_result r = act(&tried, a);
            wrong_mask += r.action_was_legal != mask[a];
            if (a != VF_BA_WAIT)
                wrong_effect += r.action_was_legal != (memcmp(&tried, &waited, sizeof e) != 0);
        }
        /* move on with a legal action half the time, so that the farm changes */
        int action = (int)vf_rng_below(&rng, VF_BW_ACTIONS);
        if (vf_rng_below(&rng, 2))
            while (!mask[action]) action = (int)vf_rng_below(&rng, VF_BW_ACTIONS);
        if (act(&e, action).terminated) vf_reset(&e, VF_BACKWARDS, ++seed, NULL);
    }
    CHECK_EQ(wrong_mask, 0);
    CHECK_EQ(wrong_effect, 0);
}

/* ---- snapshots ----------------------------------------------------------------------------- */

TEST(a_snapshot_restored_mid_episode_continues_identically) {
    vf_rng rng = vf_rng_seeded(5);
    for (uint64_t seed = 0; seed < 200; seed++) {
        vf_env e, f;
        vf_reset(&e, VF_BACKWARDS, seed, NULL);
        int cut = (int)vf_rng_below(&rng, VF_BW_HORIZON);
        for (int i = 0; i < cut; i++) act(&e, (int)vf_rng_below(&rng, VF_BW_ACTIONS));
        uint8_t snap[VF_SNAPSHOT_MAX];
        size_t n = vf_snapshot(&e, snap, sizeof snap);
        CHECK(n == vf_snapshot_size(VF_BACKWARDS) && n > 0);
        vf_reset(&f, VF_BACKWARDS, seed + 777, NULL);
        CHECK_EQ(vf_restore(&f, VF_BACKWARDS, snap, n), VF_OK);
        CHECK(vf_state_hash(&e) == vf_state_hash(&f));
        CHECK(memcmp(&e.u.backwards, &f.u.backwards, sizeof e.u.backwards) == 0);
        CHECK(e.seed == f.seed);
        while (!vf_terminated(&e)) {
            int a = (int)vf_rng_below(&rng, VF_BW_ACTIONS);
            vf_step_result re = act(&e, a), rf = act(&f, a);
            CHECK(re.reward == rf.reward && re.terminated == rf.terminated &&
                  re.action_was_legal == rf.action_was_legal);
            if (vf_state_hash(&e) != vf_state_hash(&f)) {
                bool restored_episode_diverged = true;
                CHECK(!restored_episode_diverged);
                return;
            }
        }
        /* the finished state restores too */
        n = vf_snapshot(&e, snap, sizeof snap);
        CHECK_EQ(vf_restore(&f, VF_BACKWARDS, snap, n), VF_OK);
        CHECK(vf_terminated(&f));
    }
}

TEST(a_flipped_payload_byte_is_refused_as_corrupted_and_leaves_the_env_untouched) {
    vf_env e, target, before;
    vf_reset(&e, VF_BACKWARDS, 31, NULL);
    for (int i = 0; i < 9; i++) act(&e, i % VF_BW_ACTIONS);
    uint8_t snap[VF_SNAPSHOT_MAX];
    size_t n = vf_snapshot(&e, snap, sizeof snap);
    vf_reset(&target, VF_BACKWARDS, 32, NULL);
    act(&target, VF_BA_WAIT);
    memcpy(&before, &target, sizeof target);
    for (size_t at = 8; at < n - 4; at += 13) {
        snap[at] ^= 0x10;
        CHECK_EQ(vf_restore(&target, VF_BACKWARDS, snap, n), VF_ERR_CHECKSUM);
        CHECK(memcmp(&before, &target, sizeof target) == 0);
        snap[at] ^= 0x10;
    }
    CHECK_EQ(vf_restore(&target, VF_BACKWARDS, snap, n), VF_OK);
}

TEST(a_resealed_snapshot_with_an_impossible_status_is_refused_as_invalid) {
    vf_env e, before;
    vf_backwards *b = lab(&e);
    uint8_t one[VF_SNAPSHOT_MAX], two[VF_SNAPSHOT_MAX];
    size_t n = vf_snapshot(&e, one, sizeof one);
    ST(b, 0, 0) = 1; /* find crop 0's status byte: the one byte that changes */
    vf_snapshot(&e, two, sizeof two);
    ST(b, 0, 0) = 0;
    size_t at = 0;
    int differing = 0;
    for (size_t i = 8; i < n - 4; i++)
        if (one[i] != two[i]) {
            at = i;
            differing++;
        }
    CHECK_EQ(differing, 1);
    CHECK_EQ(vf_restore(&e, VF_BACKWARDS, one, n), VF_OK); /* the lab itself is valid */
    one[at] = 4;                                           /* a stage past Harvest-Ready */
    reseal(one, n);
    memcpy(&before, &e, sizeof e);
    CHECK_EQ(vf_restore(&e, VF_BACKWARDS, one, n), VF_ERR_INVALID);
    CHECK(memcmp(&before, &e, sizeof e) == 0);
    one[at] = 3;
    reseal(one, n);
    CHECK_EQ(vf_restore(&e, VF_BACKWARDS, one, n), VF_OK);
    CHECK_EQ(vf_bw_status(b, 0, 0), 3);
}

/* Each breaks one thing the rules guarantee; vf_snapshot writes it, vf_restore refuses. */
static void break_tile_code(vf_backwards *b) {
    TL(b, 4, 4) = 6;
}
static void break_tile_zero(vf_backwards *b) {
    TL(b, 4, 4) = 0;
}
static void break_field_stage(vf_backwards *b) {
    ST(b, 2, 1) = 4;
}
static void break_ground_status(vf_backwards *b) {
    ST(b, 4, 4) = 1;
}
static void break_fence_status(vf_backwards *b) {
    ST(b, 6, 0) = 1;
}
static void break_health(vf_backwards *b) {
    ST(b, 5, 5) = 3;
}
static void break_mood(vf_backwards *b) {
    ST(b, 7, 9) = 3;
}
static void break_crop_value_low(vf_backwards *b) {
    b->crops[3].value = 1;
}
static void break_crop_value_high(vf_backwards *b) {
    b->crops[3].value = 6;
}
static void break_animal_bonus_low(vf_backwards *b) {
    b->animals[1].value = 0;
}
static void break_animal_bonus_high(vf_backwards *b) {
    b->animals[1].value = 4;
}
static void break_villager_bonus_low(vf_backwards *b) {
    b->villagers[2].value = 2;
}
static void break_villager_bonus_high(vf_backwards *b) {
    b->villagers[2].value = 7;
}
static void break_done_flag(vf_backwards *b) {
    b->animals[0].done = 2;
}
static void break_crop_off_map(vf_backwards *b) {
    b->crops[0].x = 10;
}
static void break_harvested_on_field(vf_backwards *b) {
    b->crops[0].done = 1;
}
static void break_field_vanished(vf_backwards *b) {
    TL(b, 0, 0) = VF_BT_GROUND;
}
static void break_extra_field(vf_backwards *b) {
    TL(b, 4, 4) = VF_BT_FIELD;
}
static void break_extra_pen(vf_backwards *b) {
    TL(b, 4, 4) = VF_BT_PEN;
}
static void break_shared_pen(vf_backwards *b) {
    b->animals[1].x = 5; /* two animals in pen (5,5), none in pen (9,8) */
    b->animals[1].y = 5;
}
static void break_villager_on_pen(vf_backwards *b) {
    b->villagers[0].x = 9;
    b->villagers[0].y = 8;
}
static void break_too_few_fences(vf_backwards *b) {
    TL(b, 9, 2) = VF_BT_GROUND;
}
static void break_too_many_fences(vf_backwards *b) {
    for (int x = 0; x < 7; x++) TL(b, x, 3) = VF_BT_FENCE; /* 13, with a gap at the east end */
}
static void break_meter_high(vf_backwards *b) {
    b->animal_health = 101;
}
static void break_meter_negative(vf_backwards *b) {
    b->crop_yield = -1;
}
static void break_step_high(vf_backwards *b) {
    b->step = 41;
}
static void break_step_negative(vf_backwards *b) {
    b->step = -1;
}
static void break_facing(vf_backwards *b) {
    b->facing = 4;
}
static void break_agent_on_fence(vf_backwards *b) {
    place(b, 6, 0, VF_NORTH);
}
static void break_agent_on_pen(vf_backwards *b) {
    place(b, 5, 5, VF_NORTH);
}
static void break_agent_off_map(vf_backwards *b) {
    place(b, 10, 4, VF_NORTH);
}
static void break_agent_walled_in(vf_backwards *b) {
    /* (9,0) becomes ground enclosed by the fences at (8,0) and (9,1); one more fence
     * elsewhere keeps the count at 6 */
    TL(b, 9, 0) = VF_BT_GROUND;
    TL(b, 9, 3) = VF_BT_FENCE;
    place(b, 9, 0, VF_NORTH);
}

TEST(snapshots_of_states_the_rules_cannot_reach_are_refused_as_invalid) {
    static void (*const breakers[])(vf_backwards *) = {break_tile_code,
                                                       break_tile_zero,
                                                       break_field_stage,
                                                       break_ground_status,
                                                       break_fence_status,
                                                       break_health,
                                                       break_mood,
                                                       break_crop_value_low,
                                                       break_crop_value_high,
                                                       break_animal_bonus_low,
                                                       break_animal_bonus_high,
                                                       break_villager_bonus_low,
                                                       break_villager_bonus_high,
                                                       break_done_flag,
                                                       break_crop_off_map,
                                                       break_harvested_on_field,
                                                       break_field_vanished,
                                                       break_extra_field,
                                                       break_extra_pen,
                                                       break_shared_pen,
                                                       break_villager_on_pen,
                                                       break_too_few_fences,
                                                       break_too_many_fences,
                                                       break_meter_high,
                                                       break_meter_negative,
                                                       break_step_high,
                                                       break_step_negative,
                                                       break_facing,
                                                       break_agent_on_fence,
                                                       break_agent_on_pen,
                                                       break_agent_off_map,
                                                       break_agent_walled_in};
    uint8_t snap[VF_SNAPSHOT_MAX];
    vf_env e, target, before;
    vf_reset(&target, VF_BACKWARDS, 3, NULL);
    memcpy(&before, &target, sizeof target);
    /* the unbroken lab, and the lab with a harvested crop and 12 fences, are valid */
    lab(&e);
    size_t n = vf_snapshot(&e, snap, sizeof snap);
    CHECK_EQ(vf_restore(&target, VF_BACKWARDS, snap, n), VF_OK);
    vf_backwards *b = lab(&e);
    b->crops[6].done = 1;
    TL(b, 2, 1) = VF_BT_GROUND;
    b->crop_yield = 4;
    for (int x = 0; x < 6; x++) TL(b, x, 3) = VF_BT_FENCE;
    n = vf_snapshot(&e, snap, sizeof snap);
    CHECK_EQ(vf_restore(&target, VF_BACKWARDS, snap, n), VF_OK);
    memcpy(&target, &before, sizeof target);

    for (size_t i = 0; i < COUNT(breakers); i++) {
        breakers[i](lab(&e));
        n = vf_snapshot(&e, snap, sizeof snap);
        CHECK(n > 0);
        vf_error err = vf_restore(&target, VF_BACKWARDS, snap, n);
        if (err != VF_ERR_INVALID) printf("  breaker %zu accepted (error %d)\n", i, err);
        CHECK_EQ(err, VF_ERR_INVALID);
        CHECK(memcmp(&before, &target, sizeof target) == 0);
    }
}

TEST(every_reset_state_survives_a_snapshot_round_trip) {
    for (uint64_t seed = 0; seed < 2000; seed++) {
        vf_env e, f;
        vf_reset(&e, VF_BACKWARDS, seed * 31 + 7, NULL);
        uint8_t snap[VF_SNAPSHOT_MAX];
        size_t n = vf_snapshot(&e, snap, sizeof snap);
        memset(&f, 0xAB, sizeof f); /* never reset before */
        if (vf_restore(&f, VF_BACKWARDS, snap, n) != VF_OK ||
            memcmp(&e.u.backwards, &f.u.backwards, sizeof e.u.backwards) != 0) {
            bool round_trip_failed = true;
            CHECK(!round_trip_failed);
            printf("  seed %" PRIu64 "\n", seed * 31 + 7);
            return;
        }
    }
}

TEST(a_valley_snapshot_is_refused_as_the_wrong_kind) {
    vf_env valley, e, before;
    vf_reset(&valley, VF_VALLEY, 11, NULL);
    uint8_t snap[VF_SNAPSHOT_MAX];
    size_t n = vf_snapshot(&valley, snap, sizeof snap);
    CHECK(n > 0);
    vf_reset(&e, VF_BACKWARDS, 11, NULL);
    memcpy(&before, &e, sizeof e);
    CHECK_EQ(vf_restore(&e, VF_BACKWARDS, snap, n), VF_ERR_KIND);
    CHECK(memcmp(&before, &e, sizeof e) == 0);
}

/* ---- text ---------------------------------------------------------------------------------- */

TEST(state_json_reports_a_hand_set_state_exactly) {
    vf_env e;
    vf_backwards *b = lab(&e);
    place(b, 4, 4, VF_EAST);
    b->step = 3;
    ST(b, 0, 0) = 2;
    b->crops[1].done = 1; /* harvested: (1,0) is ground, its stage is reported as 3 */
    TL(b, 1, 0) = VF_BT_GROUND;
    ST(b, 5, 5) = 1;
    b->animals[0].done = 1;
    ST(b, 7, 9) = 2;
    b->crop_yield = 3;
    b->animal_health = 3;
    static const char expected[] =
        "{\"width\":10,\"height\":10,\"step\":3,\"agent\":{\"x\":4,\"y\":4,\"facing\":2},"
        "\"tiles\":[[3,1,3,3,1,1,2,2,2,2],[3,3,3,3,1,1,1,1,1,2],[1,1,1,1,1,1,1,1,1,2],"
        "[1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,4,1,1,1,1],"
        "[1,1,1,1,1,1,1,1,1,4],[1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,4],"
        "[1,1,1,5,1,5,1,5,1,1]],"
        "\"crops\":[{\"x\":0,\"y\":0,\"stage\":2,\"value\":2,\"harvested\":false},"
        "{\"x\":1,\"y\":0,\"stage\":3,\"value\":3,\"harvested\":true},"
        "{\"x\":2,\"y\":0,\"stage\":0,\"value\":4,\"harvested\":false},"
        "{\"x\":3,\"y\":0,\"stage\":0,\"value\":5,\"harvested\":false},"
        "{\"x\":0,\"y\":1,\"stage\":0,\"value\":2,\"harvested\":false},"
        "{\"x\":1,\"y\":1,\"stage\":0,\"value\":3,\"harvested\":false},"
        "{\"x\":2,\"y\":1,\"stage\":0,\"value\":4,\"harvested\":false},"
        "{\"x\":3,\"y\":1,\"stage\":0,\"value\":5,\"harvested\":false}],"
        "\"animals\":[{\"x\":5,\"y\":5,\"health\":1,\"bonus\":3,\"rewarded\":true},"
        "{\"x\":9,\"y\":8,\"health\":2,\"bonus\":1,\"rewarded\":false},"
        "{\"x\":9,\"y\":6,\"health\":2,\"bonus\":2,\"rewarded\":false}],"
        "\"villagers\":[{\"x\":5,\"y\":9,\"mood\":1,\"bonus\":6,\"rewarded\":false},"
        "{\"x\":7,\"y\":9,\"mood\":2,\"bonus\":4,\"rewarded\":false},"
        "{\"x\":3,\"y\":9,\"mood\":1,\"bonus\":5,\"rewarded\":false}],"
        "\"meters\":{\"cropYield\":3,\"animalHealth\":3,\"socialAffinity\":0},"
        "\"farmValue\":6}";
    char buf[VF_TEXT_MAX];
    size_t n = vf_state_json(&e, buf, sizeof buf);
    CHECK_EQ(n, strlen(expected));
    CHECK(strcmp(buf, expected) == 0);
    if (strcmp(buf, expected) != 0) printf("  got %s\n", buf);
}

TEST(render_draws_every_tile_the_agent_and_the_meters) {
    vf_env e;
    vf_backwards *b = lab(&e);
    place(b, 4, 4, VF_EAST);
    ST(b, 1, 0) = 3;
    ST(b, 5, 5) = 2;
    ST(b, 9, 6) = 0;
    ST(b, 9, 8) = 1;
    ST(b, 5, 9) = 0;
    ST(b, 7, 9) = 2;
    b->step = 12;
    b->social_affinity = 4;
    char buf[VF_TEXT_MAX];
    size_t n = vf_render(&e, buf, sizeof buf);
    CHECK_EQ(n, strlen(buf));
    static const char map[] = "0300..####\n"
                              "0000.....#\n"
                              ".........#\n"
                              "..........\n"
                              "....>.....\n"
                              ".....t....\n"
                              ".........w\n"
                              "..........\n"
                              ".........h\n"
                              "...N.X.F..\n";
    CHECK(strncmp(buf, map, strlen(map)) == 0);
    CHECK(strstr(buf, "> agent, facing east, on ground\n") != NULL);
    CHECK(strstr(buf, "t pen, animal Thriving\n") != NULL);
    CHECK(strstr(buf, "X house, villager Hostile\n") != NULL);
    CHECK(strstr(buf, "h pen, animal Healthy\n") != NULL);
    CHECK(strstr(buf, "2 field") == NULL); /* no Growing crop: no legend line */
    CHECK(strstr(buf, "step 12/40  crop yield 0  animal health 0  social affinity 4  farm "
                      "value 4\n") != NULL);
    if (strncmp(buf, map, strlen(map)) != 0) printf("%s", buf);

    /* any state fits in VF_TEXT_MAX, and each facing has its arrow */
    static const char arrows[4] = {'^', 'v', '>', '<'};
    for (int f = 0; f < 4; f++) {
        b->facing = (uint8_t)f;
        vf_render(&e, buf, sizeof buf);
        CHECK(buf[4 * 11 + 4] == arrows[f]);
    }
    vf_reset(&e, VF_BACKWARDS, 8, NULL);
    CHECK(vf_render(&e, buf, sizeof buf) < VF_TEXT_MAX);
    CHECK(vf_state_json(&e, buf, sizeof buf) < VF_TEXT_MAX);
}

int main(void) {
    RUN(the_action_names_and_sizes_follow_the_rules_file);
    RUN(a_move_onto_open_ground_moves_one_tile_and_faces_that_way);
    RUN(a_blocked_move_only_turns_and_is_legal_only_when_the_facing_changes);
    RUN(fields_are_walkable);
    RUN(wait_is_always_legal_and_changes_only_the_clock_and_the_background);
    RUN(caring_for_a_crop_resets_it_to_seed_and_blocks_its_growth_this_step);
    RUN(caring_for_a_seed_crop_is_legal_and_keeps_it_at_seed);
    RUN(crop_verbs_without_a_field_in_front_act_as_wait_and_are_illegal);
    RUN(feeding_or_cleaning_an_animal_makes_it_weak_and_blocks_its_growth_this_step);
    RUN(animal_verbs_without_a_pen_in_front_act_as_wait_and_are_illegal);
    RUN(compliment_lowers_and_insult_raises_a_villagers_mood_by_one);
    RUN(compliment_on_a_hostile_or_insult_on_a_friendly_villager_acts_as_wait);
    RUN(social_verbs_without_a_house_in_front_act_as_wait_and_are_illegal);
    RUN(villagers_never_drift_on_their_own);
    RUN(uncared_crops_advance_one_stage_per_step_up_to_harvest_ready);
    RUN(uncared_animals_gain_one_health_tier_per_step_up_to_thriving);
    RUN(walking_onto_a_growing_field_ripens_and_harvests_it_in_the_same_step);
    RUN(walking_onto_a_harvest_ready_field_harvests_it);
    RUN(a_field_ripening_under_the_agent_is_harvested_when_it_reaches_harvest_ready);
    RUN(harvested_crops_never_tick_again_and_leave_ground_behind);
    RUN(an_animal_reaching_thriving_pays_its_bonus_only_inside_the_agents_5x5_view);
    RUN(the_witness_is_judged_from_the_agents_position_after_its_move);
    RUN(an_animal_bonus_is_paid_once);
    RUN(an_unwitnessed_arrival_keeps_the_bonus_for_a_later_witnessed_one);
    RUN(an_animal_that_starts_thriving_pays_only_after_care_and_a_witnessed_regrowth);
    RUN(insulting_a_neutral_villager_to_friendly_pays_its_bonus_once);
    RUN(a_villager_that_starts_friendly_pays_only_after_dropping_and_rising_again);
    RUN(the_reward_is_the_change_in_farm_value);
    RUN(each_meter_is_clamped_to_one_hundred);
    RUN(the_episode_ends_after_the_fortieth_action);
    RUN(the_episode_ends_early_when_farm_value_reaches_300);
    RUN(the_observation_is_the_5x5_square_centred_on_the_agent_north_row_first);
    RUN(cells_off_the_map_read_as_zero_in_the_corners);
    RUN(legal_actions_follow_the_rules_in_known_positions);
    RUN(each_illegal_action_names_the_rule_that_blocks_it);
    RUN(a_reason_is_given_exactly_for_the_illegal_actions_of_random_play);
    RUN(an_animal_reaching_thriving_is_told_paid_in_view_and_unpaid_out_of_view);
    RUN(an_insult_to_friendly_is_told_as_a_mood_change_and_the_bonus_it_pays);
    RUN(the_events_of_random_play_earn_each_steps_whole_reward_by_the_rules);
    RUN(computing_legal_actions_changes_nothing);
    RUN(every_layout_has_8_fields_3_pens_3_houses_and_6_to_12_fences);
    RUN(the_agent_starts_on_reachable_ground_facing_north_and_reaches_every_entity);
    RUN(initial_values_are_in_range_uniform_and_every_meter_starts_at_zero);
    RUN(layouts_follow_the_documented_generator);
    RUN(different_seeds_give_different_layouts);
    RUN(the_same_seed_gives_the_same_layout_and_trajectory);
    RUN(a_million_random_steps_keep_every_rule_invariant);
    RUN(every_action_is_legal_exactly_when_it_changes_more_than_a_wait);
    RUN(a_snapshot_restored_mid_episode_continues_identically);
    RUN(a_flipped_payload_byte_is_refused_as_corrupted_and_leaves_the_env_untouched);
    RUN(a_resealed_snapshot_with_an_impossible_status_is_refused_as_invalid);
    RUN(snapshots_of_states_the_rules_cannot_reach_are_refused_as_invalid);
    RUN(every_reset_state_survives_a_snapshot_round_trip);
    RUN(a_valley_snapshot_is_refused_as_the_wrong_kind);
    RUN(state_json_reports_a_hand_set_state_exactly);
    RUN(render_draws_every_tile_the_agent_and_the_meters);
    return check_summary();
}
