/*
 * fuzz_engine.c — a libFuzzer harness over the public C API (core/include/valley_farm.h).
 *
 * The input is a little program: each op byte picks a call and the bytes after it are its
 * arguments. Every call gets whatever the fuzzer makes up: kinds and actions out of range,
 * seeds of all 64 bits, snapshot bytes arbitrary or a valid snapshot with bytes changed,
 * batches of odd sizes. After every state the engine accepts, the harness checks what the
 * header promises: the JSON state parses, the map renders within VF_TEXT_MAX, the masks are
 * 0/1 with wait legal, every action from the state steps, and what it leads to restores
 * again (restore's states are closed under step). Every public function is called: the
 * names and texts of any kind, action, rule, event and error code, every text cut at any
 * cap, the batch calls with bad sizes and kinds, and a small beam and proof on the state
 * (tests/fuzz/fuzz_planner.c searches harder). ASan and UBSan catch the rest.
 *
 *   npm run fuzz -- 60          (tests/fuzz/run.mjs builds it with clang and runs it)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "valley_farm.h"

#include "reader.h"

/* ---- a JSON validator (the state JSON must parse) --------------------------------- */

static const char *json_value(const char *s, int depth);

static const char *skip_ws(const char *s) {
    while (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r') s++;
    return s;
}

static const char *json_string(const char *s) {
    if (*s != '"') return NULL;
    for (s++; *s && *s != '"'; s++) {
        if ((unsigned char)*s < 0x20) return NULL;
        if (*s == '\\') {
            s++;
            if (!*s || !strchr("\"\\/bfnrtu", *s)) return NULL;
        }
    }
    return *s == '"' ? s + 1 : NULL;
}

static const char *json_number(const char *s) {
    const char *start = s;
    if (*s == '-') s++;
    if (*s < '0' || *s > '9') return NULL;
    while ((*s >= '0' && *s <= '9') || *s == '.' || *s == 'e' || *s == 'E' || *s == '+' ||
           *s == '-')
        s++;
    return s > start ? s : NULL;
}

static const char *json_list(const char *s, char close, int depth, int object) {
    s = skip_ws(s + 1);
    if (*s == close) return s + 1;
    for (;;) {
        if (object) {
            s = json_string(skip_ws(s));
            if (!s) return NULL;
            s = skip_ws(s);
            if (*s++ != ':') return NULL;
        }
        s = json_value(s, depth + 1);
        if (!s) return NULL;
        s = skip_ws(s);
        if (*s == ',') {
            s++;
            continue;
        }
        return *s == close ? s + 1 : NULL;
    }
}

static const char *json_value(const char *s, int depth) {
    if (depth > 16) return NULL;
    s = skip_ws(s);
    if (*s == '{') return json_list(s, '}', depth, 1);
    if (*s == '[') return json_list(s, ']', depth, 0);
    if (*s == '"') return json_string(s);
    if (!strncmp(s, "true", 4)) return s + 4;
    if (!strncmp(s, "false", 5)) return s + 5;
    if (!strncmp(s, "null", 4)) return s + 4;
    return json_number(s);
}

static int json_ok(const char *text) {
    const char *end = json_value(text, 0);
    return end && *skip_ws(end) == '\0';
}

/* ---- what every accepted state must satisfy ------------------------------------------ */

/* What a policy sees of the state: the features of its observation open a memory and
 * follow one step, within their bounds; the same observation with one value changed (to a
 * value the state's own numbers pick) is either seen or refused with the memory unchanged. */
static vf_memory memory, memory_before;
static int32_t feature_index[1024];
static float feature_value[1024];

static void check_features(int kind, const int32_t *obs, int action, const int32_t *next_obs) {
    int most = vf_features_nonzero(kind, true), size = vf_features_size(kind, true);
    int n = vf_features(kind, obs, -1, true, &memory, feature_index, feature_value);
    REQUIRE(n > 0 && n <= most);
    n = vf_features(kind, next_obs, action, false, &memory, feature_index, feature_value);
    REQUIRE(n == -1 || (n > 0 && n <= most));
    for (int j = 0; j < n; j++) REQUIRE(feature_index[j] >= 0 && feature_index[j] < size);
    int32_t changed[VF_OBS_MAX];
    memcpy(changed, next_obs, sizeof changed);
    unsigned at =
        (unsigned)(obs[0] * 31 + next_obs[vf_obs_size(kind) - 1]) % (unsigned)vf_obs_size(kind);
    changed[at] = obs[at] - 3 + next_obs[at] % 7;
    memory_before = memory;
    n = vf_features(kind, changed, action, false, &memory, feature_index, feature_value);
    if (n < 0) REQUIRE(memcmp(&memory, &memory_before, sizeof memory) == 0);
}

/* The built-in agents act on the state's observation (mid-episode, as a policy handed over
 * would), each within the farm's actions, and a changed observation is acted on or refused
 * with the agent unchanged; now and then one plays a whole episode of the state's seed. */
static vf_agent agent, agent_before;

static void check_agents(const vf_env *env, const int32_t *obs) {
    for (int a = 0; a < VF_AGENT_KINDS; a++) {
        REQUIRE(vf_agent_init(&agent, env->kind, a, env->seed) ==
                (vf_agent_exists(env->kind, a) ? VF_OK : VF_ERR_ARGUMENT));
        if (!vf_agent_exists(env->kind, a)) continue;
        int act = vf_agent_act(&agent, obs);
        REQUIRE(act >= 0 && act < vf_num_actions(env->kind));
        int32_t changed[VF_OBS_MAX];
        memcpy(changed, obs, sizeof changed);
        unsigned at = (unsigned)(env->seed % (uint64_t)vf_obs_size(env->kind));
        changed[at] += (int32_t)(env->seed >> 60) - 8;
        agent_before = agent;
        act = vf_agent_act(&agent, changed);
        if (act < 0) REQUIRE(memcmp(&agent, &agent_before, sizeof agent) == 0);
        if ((env->seed & 15) == 0) REQUIRE(vf_agent_play(&agent, env->seed) >= 0);
    }
    REQUIRE(vf_agent_init(&agent, env->kind, VF_AGENT_KINDS, 0) == VF_ERR_ARGUMENT);
    REQUIRE(vf_agent_act(&agent, NULL) == -1);
}

static void check_state(const vf_env *env) {
    static char text[VF_TEXT_MAX];
    size_t n = vf_state_json(env, text, sizeof text);
    REQUIRE(n < sizeof text);
    REQUIRE(json_ok(text));
    REQUIRE(vf_render(env, text, sizeof text) < sizeof text);
    int kind = env->kind, na = vf_num_actions(kind);
    uint8_t mask[VF_ACTIONS_MAX];
    vf_legal_actions(env, mask);
    for (int a = 0; a < na; a++) REQUIRE(mask[a] <= 1);
    REQUIRE(mask[kind == VF_VALLEY ? VF_VA_WAIT : VF_BA_WAIT] == 1);
    int32_t obs[VF_OBS_MAX + 4];
    vf_observe(env, obs);
    if (vf_terminated(env)) return;
    for (int a = 0; a < na; a++) {
        vf_env next = *env;
        vf_step_result r;
        vf_event ev[VF_EVENTS_MAX];
        int events = vf_step_explained(&next, a, obs, &r, ev, VF_EVENTS_MAX);
        REQUIRE(events >= 0 && events <= VF_EVENTS_MAX);
        double told = 0; /* the events account for the whole reward, and read as text */
        for (int i = 0; i < events; i++) {
            told += ev[i].reward;
            REQUIRE(vf_event_code(ev[i].kind) != NULL);
            REQUIRE(vf_event_text(&next, &ev[i], text, sizeof text) < sizeof text);
        }
        REQUIRE(told == r.reward);
        REQUIRE(r.reward >= 0);
        REQUIRE(r.action_was_legal == (mask[a] == 1));
        uint8_t snap[VF_SNAPSHOT_MAX];
        size_t len = vf_snapshot(&next, snap, sizeof snap);
        REQUIRE(len == vf_snapshot_size(kind));
        vf_env back;
        REQUIRE(vf_restore(&back, kind, snap, len) == VF_OK);
        REQUIRE(vf_state_hash(&back) == vf_state_hash(&next));
        if (a == 0) {
            int32_t before[VF_OBS_MAX + 4];
            vf_observe(env, before);
            check_features(kind, before, a, obs);
            check_agents(env, before);
        }
    }
}

static void refresh_checksum(uint8_t *snap, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i + 4 < n; i++) h = (h ^ snap[i]) * 16777619u;
    for (int b = 0; b < 4; b++) snap[n - 4 + (size_t)b] = (uint8_t)(h >> (8 * b));
}

/* A text function cut at `cap`: the same full length as uncut, NUL-terminated in the cap. */
static void check_cut(size_t full, size_t cut, const char *buf, size_t cap) {
    REQUIRE(cut == full);
    if (cap > 0) REQUIRE(strlen(buf) == (full < cap ? full : cap - 1));
}

/* The names, codes and sentences of any number: NULL or "" outside their range. */
static void check_names(reader *r) {
    int k = (int8_t)u8(r), a = (int8_t)u8(r), code = (int8_t)u8(r);
    int valid = k == VF_VALLEY || k == VF_BACKWARDS;
    REQUIRE((vf_num_actions(k) > 0) == valid);
    REQUIRE((vf_obs_size(k) > 0) == valid);
    REQUIRE((vf_snapshot_size(k) > 0) == valid);
    REQUIRE((vf_plan_width(k) > 0) == valid);
    const char *name = vf_kind_name(k);
    if (valid) REQUIRE(name && vf_kind_from_name(name) == k);
    char made[8] = {(char)u8(r), (char)u8(r), (char)u8(r), 0};
    int from = vf_kind_from_name(made);
    REQUIRE(from < 0 || from == VF_VALLEY || from == VF_BACKWARDS);
    REQUIRE(vf_kind_from_name(NULL) < 0);
    const char *action = vf_action_name(k, a);
    REQUIRE((action != NULL) == (valid && a >= 0 && a < vf_num_actions(k)));
    REQUIRE((vf_why_code(code) != NULL) == (code >= 0 && code < VF_WHY_COUNT));
    REQUIRE((vf_why_text(code) != NULL) == (vf_why_code(code) != NULL));
    REQUIRE(vf_error_message(code) != NULL);
    for (int c = -1; c <= VF_ERR_ARGUMENT + 1; c++) REQUIRE(vf_error_message(c) != NULL);
    for (int w = -1; w <= VF_WHY_COUNT; w++)
        REQUIRE((vf_why_code(w) != NULL) == (w >= 0 && w < VF_WHY_COUNT));
    REQUIRE(vf_event_code(0) == NULL && vf_event_code(-1) == NULL);
    for (int e = 1; vf_event_code(e) != NULL; e++) REQUIRE(strlen(vf_event_code(e)) > 0);
    static char text[VF_TEXT_MAX];
    size_t cap = u8(r) % 8 ? VF_TEXT_MAX : u8(r);
    size_t full = vf_rules_json(k, text, VF_TEXT_MAX);
    REQUIRE(full < VF_TEXT_MAX);
    if (valid)
        REQUIRE(json_ok(text));
    else
        REQUIRE(full == 0);
    check_cut(full, vf_rules_json(k, text, cap), text, cap);
    /* the whole description of every farm, whole and cut at any cap */
    static char spec[VF_SPEC_MAX];
    size_t spec_full = vf_spec_json(spec, VF_SPEC_MAX);
    REQUIRE(spec_full < VF_SPEC_MAX);
    REQUIRE(json_ok(spec));
    size_t spec_cap = u8(r) % 2 ? (size_t)u8(r) * 64 : u8(r);
    check_cut(spec_full, vf_spec_json(spec, spec_cap), spec, spec_cap);
}

/* The texts of a state cut at any cap, and the rule behind every action's mask bit. */
static void check_texts_and_reasons(reader *r, const vf_env *env) {
    static char text[VF_TEXT_MAX], full_text[VF_TEXT_MAX];
    size_t cap = u8(r);
    check_cut(vf_render(env, full_text, sizeof full_text), vf_render(env, text, cap), text, cap);
    check_cut(vf_state_json(env, full_text, sizeof full_text), vf_state_json(env, text, cap), text,
              cap);
    uint8_t snap[VF_SNAPSHOT_MAX];
    size_t size = vf_snapshot_size(env->kind);
    REQUIRE(vf_snapshot(env, snap, size - 1) == 0);
    REQUIRE(vf_snapshot(env, snap, size) == size);
    uint8_t mask[VF_ACTIONS_MAX];
    vf_legal_actions(env, mask);
    int na = vf_num_actions(env->kind);
    for (int a = -2; a < na + 2; a++) {
        vf_why why = vf_why_illegal(env, a);
        REQUIRE(why >= 0 && why < VF_WHY_COUNT);
        int legal = a >= 0 && a < na && mask[a] == 1 && !vf_terminated(env);
        REQUIRE((why == VF_WHY_LEGAL) == legal);
    }
    vf_env copy = *env;
    vf_rederive(&copy);
    REQUIRE(vf_state_hash(&copy) == vf_state_hash(env));
    REQUIRE(vf_step_count(env) >= 0 && vf_total_reward(env) >= 0);
}

/* Plays `count` steps, each a legal action chosen by the input: play that gets somewhere. */
static void play_legal(reader *r, vf_env *env, int count) {
    int32_t obs[VF_OBS_MAX];
    uint8_t mask[VF_ACTIONS_MAX];
    int na = vf_num_actions(env->kind);
    for (int i = 0; i < count && !vf_terminated(env); i++) {
        vf_legal_actions(env, mask);
        int legal[VF_ACTIONS_MAX], n = 0;
        for (int a = 0; a < na; a++)
            if (mask[a]) legal[n++] = a;
        vf_step(env, legal[u8(r) % n], obs);
    }
}

/* A small beam and proof from the state: the plan replays to its return, within the bound. */
static void check_small_plan(reader *r, vf_env *env) {
    static uint8_t work[8 << 20];
    int width = 1 + u8(r) % 2;
    size_t need = vf_plan_work_size(env->kind, width);
    REQUIRE(need > 0 && need <= sizeof work);
    vf_plan plan;
    REQUIRE(vf_plan_beam(env, width, work, need - 1, &plan) == VF_ERR_ARGUMENT);
    REQUIRE(vf_plan_beam(env, 0, work, sizeof work, &plan) == VF_ERR_ARGUMENT);
    REQUIRE(vf_plan_beam(env, width, work, need, &plan) == VF_OK);
    REQUIRE(plan.best_return <= plan.upper_bound + 1e-9);
    REQUIRE(plan.upper_bound == vf_plan_bound(env));
    uint8_t how = u8(r);
    if (how & 1) {
        int states = 1 + u8(r) % 64;
        size_t proof = vf_plan_prove_work_size(env->kind, states);
        REQUIRE(proof > 0 && proof <= sizeof work);
        double beam = plan.best_return;
        REQUIRE(vf_plan_prove(env, states, work, proof, &plan) == VF_OK);
        REQUIRE(plan.best_return >= beam);
    }
    REQUIRE(vf_plan_prove_work_size(env->kind, 0) == 0);
    REQUIRE(vf_plan_work_size(env->kind, VF_PLAN_WIDTH_MAX + 1) == 0);
    if (how & 2) { /* play the first part of the plan: states that farm, harvest and sell */
        int32_t obs[VF_OBS_MAX];
        int steps = plan.length < 1 + (how >> 2) ? plan.length : 1 + (how >> 2);
        for (int i = 0; i < steps; i++) vf_step(env, plan.actions[i], obs);
        check_state(env);
    }
}

/* ---- the program ---------------------------------------------------------------------- */

enum { BATCH = 9 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r = {data, data + size};
    vf_env env;
    int live = 0; /* env holds a state the engine made or accepted */
    vf_env batch[BATCH];
    int batch_live = 0;
    int32_t obs[BATCH * VF_OBS_MAX];
    for (int ops = 0; ops < 64 && r.p < r.end; ops++) {
        switch (u8(&r) % 11) {
        case 0: { /* reset with any kind and seed */
            int kind = (int8_t)u8(&r) % 4;
            uint64_t seed = u64(&r);
            vf_env before = env;
            int ok = vf_reset(&env, kind, seed, obs);
            REQUIRE(ok == (kind == 0 || kind == 1));
            if (!ok && live) REQUIRE(memcmp(&before, &env, sizeof env) == 0);
            if (ok) {
                live = 1;
                check_state(&env);
            }
            break;
        }
        case 1: { /* steps with any action id */
            if (!live) break;
            int count = u8(&r) % 16;
            for (int i = 0; i < count; i++) vf_step(&env, (int8_t)u8(&r), obs);
            check_state(&env);
            break;
        }
        case 2: { /* restore arbitrary bytes */
            uint8_t buf[VF_SNAPSHOT_MAX + 8];
            size_t len = (size_t)u8(&r) * 2;
            if (len > sizeof buf) len = sizeof buf;
            for (size_t i = 0; i < len; i++) buf[i] = u8(&r);
            if (u8(&r) & 1) refresh_checksum(buf, len >= 4 ? len : 4);
            vf_env target = env;
            vf_error e = vf_restore(&target, u8(&r) % 3, buf, len);
            if (e == VF_OK) {
                env = target;
                live = 1;
                check_state(&env);
            } else {
                REQUIRE(memcmp(&target, &env, sizeof env) == 0);
                REQUIRE(vf_error_message(e) != NULL);
            }
            break;
        }
        case 3: { /* a valid snapshot with bytes changed, checksum fixed */
            if (!live) break;
            uint8_t snap[VF_SNAPSHOT_MAX];
            size_t len = vf_snapshot(&env, snap, sizeof snap);
            int changes = 1 + u8(&r) % 4;
            for (int i = 0; i < changes; i++) snap[8 + u8(&r) % (len - 12)] = u8(&r);
            refresh_checksum(snap, len);
            vf_env target;
            if (vf_restore(&target, env.kind, snap, len) == VF_OK) {
                env = target;
                check_state(&env);
            }
            break;
        }
        case 4: { /* batch calls with odd sizes and kinds */
            /* sizes the engine must refuse (below 1, above VF_BATCH_MAX) and ones that fit
             * this harness's arrays; never a valid size larger than them */
            static const int sizes[] = {-1, 0, VF_BATCH_MAX + 1, INT32_MIN, 1, 2, 3, 5, 8, BATCH};
            int n = sizes[u8(&r) % (sizeof sizes / sizeof sizes[0])];
            int kind = (int8_t)u8(&r) % 3;
            uint64_t seed = u64(&r);
            vf_error e = vf_batch_reset(batch, n, kind, seed, obs);
            int ok = n >= 1 && n <= BATCH && (kind == 0 || kind == 1);
            REQUIRE((e == VF_OK) == ok);
            if (ok) batch_live = n;
            break;
        }
        case 5: { /* a vector step on the batch, with masks and bookkeeping */
            if (!batch_live) break;
            int32_t actions[BATCH];
            double rewards[BATCH], returns[BATCH];
            uint8_t term[BATCH], masks[BATCH * VF_ACTIONS_MAX];
            int32_t finals[BATCH * VF_OBS_MAX], lengths[BATCH];
            uint64_t seeds[BATCH];
            uint64_t next_seeds[BATCH];
            for (int i = 0; i < batch_live; i++) actions[i] = (int8_t)u8(&r);
            for (int i = 0; i < batch_live; i++) next_seeds[i] = u64(&r);
            uint8_t outputs = u8(&r); /* which outputs the call gets (the rest NULL) */
            vf_batch_io io = {actions, outputs & 1 ? next_seeds : NULL, outputs & 2 ? obs : NULL,
                              outputs & 4 ? rewards : NULL, outputs & 8 ? term : NULL,
                              outputs & 16 ? masks : NULL, outputs & 32 ? finals : NULL,
                              outputs & 64 ? returns : NULL, outputs & 128 ? lengths : NULL,
                              outputs & 2 ? seeds : NULL, NULL,
                              /* both autoreset modes, chosen by a bit the input has anyway */
                              .autoreset = (int32_t)(next_seeds[0] >> 63)};
            int rounds = u8(&r) % 64;
            /* with observations and an odd number of rounds, each env's features too, into
             * memories that may hold anything (another batch's, another kind's) */
            static vf_memory memories[BATCH];
            static int32_t index[BATCH * 512], count[BATCH];
            static float value[BATCH * 512];
            vf_feature_rows rows = {rounds & 2 ? memories : NULL, index, value, count, 512};
            if ((outputs & 2) && (rounds & 1)) io.features = &rows;
            for (int t = 0; t < rounds; t++) {
                REQUIRE(vf_batch_step_io(batch, batch_live, batch[0].kind, &io) == VF_OK);
                for (int i = 0; io.features && i < batch_live; i++)
                    REQUIRE(count[i] >= -1 && count[i] <= 512);
            }
            if (io.features) { /* the same rows from the batch call, each refused or seen */
                vf_error e = vf_batch_features(batch[0].kind, batch_live, obs, actions,
                                               outputs & 8 ? term : NULL, &rows);
                REQUIRE(e == VF_OK || e == VF_ERR_INVALID);
                rows.stride = 3;
                REQUIRE(vf_batch_features(batch[0].kind, batch_live, obs, actions, NULL, &rows) ==
                        VF_ERR_ARGUMENT);
            }
            REQUIRE(vf_batch_step_io(batch, batch_live, 1 - batch[0].kind, &io) == VF_ERR_ARGUMENT);
            REQUIRE(vf_batch_run_random(batch, batch_live, u8(&r), u64(&r), obs) >= 0);
            check_state(&batch[u8(&r) % batch_live]);
            break;
        }
        case 6: /* legal play, far into an episode */
            if (!live) break;
            play_legal(&r, &env, u8(&r));
            check_state(&env);
            break;
        case 7: /* names, codes, the rules' JSON of any kind, cut anywhere */
            check_names(&r);
            break;
        case 8: /* the state's texts cut anywhere, and why each action is (il)legal */
            if (live) check_texts_and_reasons(&r, &env);
            break;
        case 9: { /* the plain batch step and the batch masks, with bad sizes and NULLs */
            static const int sizes[] = {-1, 0, VF_BATCH_MAX + 1, 1, 2, 3, 5, 8, BATCH};
            int n = sizes[u8(&r) % (sizeof sizes / sizeof sizes[0])];
            int32_t actions[BATCH];
            double rewards[BATCH];
            uint8_t term[BATCH], masks[BATCH * VF_ACTIONS_MAX];
            for (int i = 0; i < BATCH; i++) actions[i] = (int8_t)u8(&r);
            uint8_t outputs = u8(&r);
            if (live && (outputs & 8) && n >= 1 && n <= BATCH) { /* a batch of copies of the env */
                for (int i = 0; i < n; i++) batch[i] = env;
                batch_live = n;
                REQUIRE(vf_batch_run_random(batch, n, u8(&r) % 4, u64(&r), NULL) >= 0);
            }
            int fits = n >= 1 && n <= batch_live;
            vf_error e = vf_batch_step(fits || n < 1 || n > VF_BATCH_MAX ? batch : NULL, n, actions,
                                       outputs & 1 ? obs : NULL, outputs & 2 ? rewards : NULL,
                                       outputs & 4 ? term : NULL);
            REQUIRE((e == VF_OK) == fits);
            e = vf_batch_legal_actions(fits || n < 1 || n > VF_BATCH_MAX ? batch : NULL, n, masks);
            REQUIRE((e == VF_OK) == fits);
            if (fits) {
                int na = vf_num_actions(batch[0].kind);
                for (int i = 0; i < n * na; i++) REQUIRE(masks[i] <= 1);
            }
            REQUIRE(vf_batch_step(NULL, 1, actions, obs, rewards, term) == VF_ERR_ARGUMENT);
            REQUIRE(vf_batch_legal_actions(NULL, 1, masks) == VF_ERR_ARGUMENT);
            break;
        }
        case 10: /* a small beam and proof from the state */
            if (live) check_small_plan(&r, &env);
            break;
        }
    }
    return 0;
}
