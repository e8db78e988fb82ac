/*
 * test_features.c — vf_features, what a policy sees: every farm has features and a memory
 * that fits, the pairs are in order and in range, the batch calls give the per-env calls'
 * pairs, and what no episode makes is refused without a change. (That the numbers equal what
 * the JS learners computed before they moved here is tests/js/features.test.js's.)
 */
#include <stdlib.h>

#include "check.h"
#include "valley_farm.h"

#define N 8

static vf_memory memories[2][N]; /* 26 KB each: static, not on the stack */

TEST(every_farm_has_features_and_a_memory_that_fits) {
    for (int k = 0; k < VF_KIND_COUNT; k++) {
        CHECK(vf_features_size(k, false) > 0);
        CHECK(vf_features_size(k, true) > vf_features_size(k, false));
        CHECK_EQ(vf_features_nonzero(k, false), vf_obs_size(k));
        CHECK_EQ(vf_features_nonzero(k, true) - vf_features_nonzero(k, false),
                 vf_features_size(k, true) - vf_features_size(k, false));
    }
    CHECK_EQ(vf_features_size(VF_KIND_COUNT, false), 0);
    CHECK_EQ(vf_features_nonzero(-1, true), 0);
}

/* The memory's dead reckoning takes actions 0..3 as the moves north, south, east, west. */
TEST(every_farm_moves_with_actions_0_to_3_north_south_east_west) {
    const char *const moves[4] = {"north", "south", "east", "west"};
    for (int k = 0; k < VF_KIND_COUNT; k++)
        for (int a = 0; a < 4; a++) CHECK(strcmp(vf_action_name(k, a), moves[a]) == 0);
}

TEST(pairs_ascend_within_the_features_and_every_value_is_nonzero_in_minus_one_to_one) {
    for (int k = 0; k < VF_KIND_COUNT; k++) {
        vf_env env;
        int32_t obs[VF_OBS_MAX];
        int32_t index[1024];
        float value[1024];
        vf_rng rng = vf_rng_seeded(3);
        int frames = 0;
        for (int episode = 0; episode < 20; episode++) {
            vf_reset(&env, k, (uint64_t)episode, obs);
            int action = -1;
            for (bool opening = true;; opening = false) {
                int n = vf_features(k, obs, action, opening, &memories[0][0], index, value);
                CHECK_FIRST(n > 0 && n <= vf_features_nonzero(k, true));
                for (int j = 0; j < n; j++) {
                    CHECK_FIRST(index[j] >= 0 && index[j] < vf_features_size(k, true));
                    CHECK_FIRST(j == 0 || index[j] > index[j - 1]);
                    CHECK_FIRST(value[j] != 0 && value[j] >= -1 && value[j] <= 1);
                }
                frames++;
                if (vf_terminated(&env)) break;
                action = (int)vf_rng_below(&rng, (uint32_t)vf_num_actions(k));
                vf_step(&env, action, obs);
            }
        }
        CHECK(frames > 20 * 30);
    }
}

TEST(the_vector_step_and_the_batch_call_give_each_env_its_per_env_pairs) {
    for (int k = 0; k < VF_KIND_COUNT; k++) {
        const int stride = vf_features_nonzero(k, true);
        vf_env envs[N];
        int32_t obs[N * VF_OBS_MAX], actions[N];
        uint8_t terminated[N], opening[N];
        int32_t *index = malloc(sizeof(int32_t) * N * (size_t)stride);
        float *value = malloc(sizeof(float) * N * (size_t)stride);
        int32_t count[N], one_index[1024];
        float one_value[1024];
        vf_feature_rows rows = {memories[0], index, value, count, stride};
        CHECK_EQ(vf_batch_reset(envs, N, k, 100, obs), VF_OK);
        for (int i = 0; i < N; i++) opening[i] = 1;
        CHECK_EQ(vf_batch_features(k, N, obs, NULL, opening, &rows), VF_OK);
        for (int i = 0; i < N; i++)
            vf_features(k, obs + i * vf_obs_size(k), -1, true, &memories[1][i], one_index,
                        one_value);
        vf_batch_io io = {
            .actions = actions, .obs = obs, .terminated = terminated, .features = &rows};
        vf_rng rng = vf_rng_seeded(9);
        int ended = 0;
        for (int t = 0; t < 120; t++) {
            for (int i = 0; i < N; i++)
                actions[i] = (int32_t)vf_rng_below(&rng, (uint32_t)vf_num_actions(k));
            CHECK_EQ(vf_batch_step_io(envs, N, k, &io), VF_OK);
            for (int i = 0; i < N; i++) {
                ended += terminated[i];
                int n = vf_features(k, obs + i * vf_obs_size(k), actions[i], terminated[i],
                                    &memories[1][i], one_index, one_value);
                CHECK_FIRST(n == count[i]);
                CHECK_FIRST(memcmp(one_index, index + i * stride, sizeof(int32_t) * (size_t)n) ==
                            0);
                CHECK_FIRST(memcmp(one_value, value + i * stride, sizeof(float) * (size_t)n) == 0);
            }
        }
        CHECK(ended >= N);
        /* a stride too small for the memory's pairs is refused before anything steps */
        vf_feature_rows narrow = {memories[0], index, value, count, stride - 1};
        io.features = &narrow;
        vf_env before[N];
        memcpy(before, envs, sizeof envs);
        CHECK_EQ(vf_batch_step_io(envs, N, k, &io), VF_ERR_ARGUMENT);
        CHECK(memcmp(before, envs, sizeof envs) == 0);
        CHECK_EQ(vf_batch_features(k, N, obs, actions, NULL, &narrow), VF_ERR_ARGUMENT);
        CHECK_EQ(vf_batch_features(k, N, obs, NULL, NULL, &rows), VF_ERR_ARGUMENT); /* no actions */
        free(index);
        free(value);
    }
}

/* A memory that refuses a row is left exactly as it was. */
static void check_refused(int kind, const int32_t *obs, int action, bool opening, vf_memory *m) {
    int32_t index[1024];
    float value[1024];
    vf_memory *before = malloc(sizeof *before);
    memcpy(before, m, sizeof *m);
    CHECK_EQ(vf_features(kind, obs, action, opening, m, index, value), -1);
    CHECK(memcmp(before, m, sizeof *m) == 0);
    free(before);
}

TEST(what_no_episode_makes_is_refused_and_changes_nothing) {
    int32_t index[1024];
    float value[1024];
    vf_memory *m = &memories[0][0];
    for (int k = 0; k < VF_KIND_COUNT; k++) {
        vf_env env;
        int32_t obs[VF_OBS_MAX];
        vf_reset(&env, k, 5, obs);
        CHECK(vf_features(k, obs, -1, true, m, index, value) > 0);
        /* a value outside its field's bounds: the steps left above the horizon */
        int32_t bad[VF_OBS_MAX];
        memcpy(bad, obs, sizeof obs);
        bad[vf_obs_size(k) - (k == VF_VALLEY ? 1 : 2)] = 1000;
        check_refused(k, bad, VF_NORTH, false, m);
        CHECK_EQ(vf_features(k, bad, -1, true, NULL, index, value), -1);
        /* more steps than the horizon without a new episode */
        for (int t = 0;
             t < 50 && vf_features(k, obs, 11 % vf_num_actions(k), false, m, index, value) > 0;
             t++) {
        }
        check_refused(k, obs, VF_NORTH, false, m);
        /* a memory opened for another farm, and arguments that are not there */
        CHECK(vf_features(k, obs, -1, true, m, index, value) > 0);
        int32_t other[VF_OBS_MAX];
        vf_reset(&env, 1 - k, 5, other);
        check_refused(1 - k, other, VF_NORTH, false, m);
        CHECK_EQ(vf_features(k, NULL, -1, true, m, index, value), -1);
        CHECK_EQ(vf_features(k, obs, -1, true, m, NULL, value), -1);
        CHECK_EQ(vf_features(VF_KIND_COUNT, obs, -1, true, m, index, value), -1);
    }
    /* dead reckoning (the valley has no coordinates) told every step that east is open walks
     * off the farm: the 15th step east is refused */
    int32_t ground[VF_OBS_MAX];
    for (int j = 0; j < VF_VALLEY_OBS_SIZE; j++) ground[j] = 1;
    ground[VF_VO_STEPS_LEFT] = VF_VALLEY_HORIZON;
    CHECK(vf_features(VF_VALLEY, ground, -1, true, m, index, value) > 0);
    for (int t = 0; t < VF_VALLEY_W - 1; t++)
        CHECK(vf_features(VF_VALLEY, ground, VF_EAST, false, m, index, value) > 0);
    check_refused(VF_VALLEY, ground, VF_EAST, false, m);
}

int main(void) {
    RUN(every_farm_has_features_and_a_memory_that_fits);
    RUN(every_farm_moves_with_actions_0_to_3_north_south_east_west);
    RUN(pairs_ascend_within_the_features_and_every_value_is_nonzero_in_minus_one_to_one);
    RUN(the_vector_step_and_the_batch_call_give_each_env_its_per_env_pairs);
    RUN(what_no_episode_makes_is_refused_and_changes_nothing);
    return check_summary();
}
