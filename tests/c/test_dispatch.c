/*
 * test_dispatch.c — the engine's one list of farms: every kind in vf_kind has a farm and a
 * planner, and an env whose kind is none of them (never reset, or overwritten) is refused
 * by every call, never run as another farm's state.
 */
#include <stdlib.h>

#include "check.h"
#include "valley_farm.h"

TEST(every_kind_has_a_farm_with_a_name_actions_an_observation_and_a_planner) {
    for (int k = 0; k < VF_KIND_COUNT; k++) {
        CHECK(vf_kind_name(k) != NULL);
        CHECK_EQ(vf_kind_from_name(vf_kind_name(k)), k);
        CHECK(vf_num_actions(k) > 0 && vf_num_actions(k) <= VF_ACTIONS_MAX);
        CHECK(vf_obs_size(k) > 0 && vf_obs_size(k) <= VF_OBS_MAX);
        CHECK(vf_snapshot_size(k) > 0);
        CHECK(vf_plan_width(k) > 0);
        CHECK(vf_plan_work_size(k, 1) > 0);
    }
}

/* A live backwards episode whose kind field is then set to one no farm has: the state bytes
 * are a valid backwards state, so a dispatch that falls back to "not the valley" would play
 * them. */
static vf_env foreign_env(int kind) {
    vf_env env;
    vf_reset(&env, VF_BACKWARDS, 5, NULL);
    vf_step(&env, VF_BA_EAST, NULL);
    env.kind = kind;
    return env;
}

TEST(an_env_of_no_farm_is_never_stepped_observed_or_planned_as_another_farm) {
    const int kinds[] = {VF_KIND_COUNT, VF_KIND_COUNT + 1, 1000, -1};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        vf_env env = foreign_env(kinds[i]);
        const vf_env before = env;

        vf_step_result r = vf_step(&env, VF_BA_WEST, NULL);
        CHECK(r.terminated && !r.action_was_legal && r.reward == 0);
        CHECK(memcmp(&env, &before, sizeof env) == 0);
        vf_step_result explained;
        vf_event events[VF_EVENTS_MAX];
        CHECK_EQ(vf_step_explained(&env, 0, NULL, &explained, events, VF_EVENTS_MAX), 0);
        CHECK(memcmp(&env, &before, sizeof env) == 0);
        vf_rederive(&env);
        CHECK(memcmp(&env, &before, sizeof env) == 0);

        int32_t obs[VF_OBS_MAX];
        uint8_t mask[VF_ACTIONS_MAX];
        memset(obs, 0x5A, sizeof obs);
        memset(mask, 0x5A, sizeof mask);
        vf_observe(&env, obs);
        vf_legal_actions(&env, mask);
        for (int k = 0; k < VF_OBS_MAX; k++) CHECK_FIRST(obs[k] == 0x5A5A5A5A);
        for (int k = 0; k < VF_ACTIONS_MAX; k++) CHECK_FIRST(mask[k] == 0x5A);

        CHECK_EQ(vf_why_illegal(&env, 0), VF_WHY_NOT_AN_ACTION);
        CHECK(vf_terminated(&env));
        CHECK_EQ(vf_step_count(&env), 0);
        CHECK(vf_total_reward(&env) == 0);

        char text[VF_TEXT_MAX];
        CHECK_EQ(vf_render(&env, text, sizeof text), 0);
        CHECK_EQ(vf_state_json(&env, text, sizeof text), 0);
        vf_event e = {VF_EV_CROP_READY, 0, 0, 0, 0, 0, 0, 0, 0};
        CHECK_EQ(vf_event_text(&env, &e, text, sizeof text), 0);
        uint8_t snap[VF_SNAPSHOT_MAX];
        CHECK_EQ(vf_snapshot(&env, snap, sizeof snap), 0);

        CHECK(vf_plan_bound(&env) == 0);
        size_t bytes = vf_plan_work_size(VF_BACKWARDS, 8);
        void *work = malloc(bytes);
        vf_plan plan = {0};
        CHECK_EQ(vf_plan_beam(&env, 8, work, bytes, &plan), VF_ERR_ARGUMENT);
        CHECK_EQ(vf_plan_prove(&env, 8, work, bytes, &plan), VF_ERR_ARGUMENT);
        free(work);

        CHECK_EQ(vf_batch_legal_actions(&env, 1, mask), VF_ERR_ARGUMENT);
        int32_t action = 0;
        CHECK_EQ(vf_batch_step(&env, 1, &action, NULL, NULL, NULL), VF_ERR_ARGUMENT);
        CHECK(vf_batch_run_random(&env, 1, 10, 1, NULL) == -1);
        CHECK(memcmp(&env, &before, sizeof env) == 0);
    }
}

int main(void) {
    RUN(every_kind_has_a_farm_with_a_name_actions_an_observation_and_a_planner);
    RUN(an_env_of_no_farm_is_never_stepped_observed_or_planned_as_another_farm);
    return check_summary();
}
