/*
 * fuzz_view.c — a libFuzzer harness for the view-limited agent (core/src/view.c and the farms'
 * completion samplers, valley_view.c and backwards_view.c): views the input plays, and views
 * it alters.
 *
 * The input picks a kind and a seed, plays legal actions it chooses and records what the agent
 * saw; then it may alter integers of the recorded observations (a view no episode shows, which
 * the calls must complete faithfully or refuse, never crash on), and it asks for a completion
 * and for the agent's action, in work memory of exactly the size the engine asks for
 * (malloc'd, so ASan sees a byte written past it), checking what the header promises:
 *  - a completion's start, replayed with the view's actions, shows every observation of the
 *    view; its `now` is where that replay ends; its start is a state restore accepts; an
 *    altered view is completed so too, or refused (out of bounds) or found to be no episode's;
 *  - the agent's action for a played view is legal in the true state;
 *  - one byte too little work memory is refused, and a refused record changes nothing.
 *
 *   npm run fuzz -- 60          (tests/fuzz/run.mjs builds it with clang and runs it)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "valley_farm.h"

#include "reader.h"

/* Whether start, replayed with the view's actions, shows the view's observations; *end gets
 * the state it ends in. */
static int shows(const vf_view *view, const vf_env *start, vf_env *end) {
    const size_t bytes = (size_t)vf_obs_size(view->kind) * sizeof(int32_t);
    int32_t obs[VF_OBS_MAX];
    *end = *start;
    vf_observe(end, obs);
    if (memcmp(obs, view->obs[0], bytes) != 0) return 0;
    for (int t = 0; t < view->steps; t++) {
        vf_step(end, view->actions[t], obs);
        if (memcmp(obs, view->obs[t + 1], bytes) != 0) return 0;
    }
    return 1;
}

static int restorable(const vf_env *env) {
    uint8_t snap[VF_SNAPSHOT_MAX];
    vf_env back;
    const size_t n = vf_snapshot(env, snap, sizeof snap);
    return n > 0 && vf_restore(&back, env->kind, snap, n) == VF_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r = {data, data + size};
    const int kind = u8(&r) & 1, na = vf_num_actions(kind);
    vf_env env;
    int32_t obs[VF_OBS_MAX];
    vf_view view;
    REQUIRE(vf_reset(&env, kind, u64(&r) % 4096, obs));
    REQUIRE(vf_view_start(&view, kind, obs) == VF_OK);
    const int steps = u8(&r) % (VF_PLAN_MAX + 1);
    uint8_t mask[VF_ACTIONS_MAX];
    for (int i = 0; i < steps && !vf_terminated(&env); i++) {
        vf_legal_actions(&env, mask);
        int legal[VF_ACTIONS_MAX], n = 0;
        for (int a = 0; a < na; a++)
            if (mask[a]) legal[n++] = a;
        const int a = legal[u8(&r) % n];
        vf_step(&env, a, obs);
        /* a bad record first: refused, and the view as it was */
        const vf_view before = view;
        int32_t bad[VF_OBS_MAX];
        memcpy(bad, obs, sizeof bad);
        bad[u8(&r) % vf_obs_size(kind)] = -1 - (int32_t)u8(&r);
        REQUIRE(vf_view_record(&view, a, bad) == VF_ERR_ARGUMENT);
        REQUIRE(vf_view_record(&view, na + u8(&r) % 4, obs) == VF_ERR_ARGUMENT);
        REQUIRE(memcmp(&view, &before, sizeof view) == 0);
        REQUIRE(vf_view_record(&view, a, obs) == VF_OK);
    }
    /* now and then a view no episode shows: integers of its observations altered */
    const int altered = u8(&r) % 8 == 0 ? 1 + u8(&r) % 3 : 0;
    for (int i = 0; i < altered; i++)
        view.obs[u8(&r) % (view.steps + 1)][u8(&r) % vf_obs_size(kind)] = u8(&r) % 16;

    const size_t need = vf_view_complete_work_size(kind);
    uint8_t *work = malloc(need);
    REQUIRE(work);
    vf_env start, now, end;
    const uint64_t seed = u64(&r);
    REQUIRE(vf_view_complete(&view, seed, work, need - 1, &start, &now) == VF_ERR_ARGUMENT);
    const vf_error e = vf_view_complete(&view, seed, work, need, &start, &now);
    free(work);
    REQUIRE(e == VF_OK || (altered && (e == VF_ERR_INVALID || e == VF_ERR_ARGUMENT)));
    if (e == VF_OK) {
        REQUIRE(shows(&view, &start, &end));
        REQUIRE(vf_state_hash(&end) == vf_state_hash(&now));
        REQUIRE(restorable(&start));
    }
    if (altered || vf_terminated(&env) || u8(&r) % 4 != 0) return 0;

    /* the agent: a few completions and a narrow beam keep a run short */
    const int completions = 1 + u8(&r) % 3, width = 1 + u8(&r) % 2;
    const size_t act_need = vf_view_act_work_size(kind, completions, width);
    REQUIRE(vf_view_act_work_size(kind, 0, width) == 0 && vf_view_act_work_size(kind, 1, 0) == 0);
    work = malloc(act_need);
    REQUIRE(work);
    int action = -1;
    REQUIRE(vf_view_act(&view, completions, width, seed, work, act_need - 1, &action) ==
            VF_ERR_ARGUMENT);
    /* now and then from an earlier step first, so that the later call keeps its completions */
    const int earlier = u8(&r) % 2 ? u8(&r) % (view.steps + 1) : view.steps;
    if (earlier < view.steps) {
        vf_view prefix = view;
        prefix.steps = earlier;
        REQUIRE(vf_view_act(&prefix, completions, width, seed, work, act_need, &action) == VF_OK);
    }
    REQUIRE(vf_view_act(&view, completions, width, seed, work, act_need, &action) == VF_OK);
    vf_legal_actions(&env, mask);
    REQUIRE(action >= 0 && action < na && mask[action]);
    /* the same decision with the whole farm in view: its action's value is its plan's return */
    double values[VF_ACTIONS_MAX];
    REQUIRE(vf_view_choose(&env, 1, width, work, act_need, &action, values) == VF_OK);
    REQUIRE(mask[action] && (values[action] >= 0 || values[action] == -1));
    free(work);
    return 0;
}
