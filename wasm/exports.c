/* exports.c — the only WebAssembly-aware C: thin wrappers that give the JS loader
 * functions with plain 32-bit and double arguments.
 *
 * Why wrappers at all: a standalone module has no JS glue to split 64-bit integers, and
 * JS <-> i64 crossings cost a BigInt each; so seeds travel as two 32-bit halves, and
 * results that are not one number are written to memory the caller passes in. The export
 * list (wasm/exported_functions.json) holds these, functions of the C API that need no
 * wrapper, and the allocator (_malloc, _free) the loader places envs and buffers with. */
#include "internal.h"

static uint64_t join64(uint32_t lo, uint32_t hi) {
    return ((uint64_t)hi << 32) | lo;
}

bool vfw_reset(vf_env *env, int kind, uint32_t seed_lo, uint32_t seed_hi, int32_t *obs) {
    return vf_reset(env, kind, join64(seed_lo, seed_hi), obs);
}

/* One step for the JS env: flags[0] terminated, flags[1] legal, flags[2] the vf_why of the
 * action, judged before the step (after it, the clock has moved and the reason may be gone). */
double vfw_step(vf_env *env, int action, int32_t *obs, uint8_t *flags) {
    flags[2] = (uint8_t)vf_why_illegal(env, action);
    vf_step_result r = vf_step(env, action, obs);
    flags[0] = r.terminated;
    flags[1] = r.action_was_legal;
    return r.reward;
}

/* Why each action is illegal now: vf_num_actions bytes of vf_why (VF_WHY_LEGAL where it is
 * legal) into out, one call for all actions where vf_why_illegal would take one each. */
void vfw_illegal_reasons(const vf_env *env, uint8_t *out) {
    int n = vf_num_actions(env->kind);
    for (int a = 0; a < n; a++) out[a] = (uint8_t)vf_why_illegal(env, a);
}

/* vfw_step, plus the step's events (vf_step_explained) into ev, VF_EVENTS_MAX of them;
 * flags[3] = how many. wasm/env.js reads them with the layout vf_spec_json gives. */
double vfw_step_explained(vf_env *env, int action, int32_t *obs, uint8_t *flags, vf_event *ev) {
    flags[2] = (uint8_t)vf_why_illegal(env, action);
    vf_step_result r;
    int n = vf_step_explained(env, action, obs, &r, ev, VF_EVENTS_MAX);
    flags[0] = r.terminated;
    flags[1] = r.action_was_legal;
    flags[3] = (uint8_t)n;
    return r.reward;
}

/* Writes the episode seed as two 32-bit halves, low first. */
void vfw_seed(const vf_env *env, uint32_t *out) {
    out[0] = (uint32_t)env->seed;
    out[1] = (uint32_t)(env->seed >> 32);
}

/* Restores and, when it succeeds, writes what the JS env tracks, in one call:
 * out[0..1] the seed (low, high), out[2] the step count, out[3] terminated. */
int vfw_restore(vf_env *env, int kind, const uint8_t *buf, size_t len, uint32_t *out) {
    vf_error code = vf_restore(env, kind, buf, len);
    if (code == VF_OK) {
        out[0] = (uint32_t)env->seed;
        out[1] = (uint32_t)(env->seed >> 32);
        out[2] = (uint32_t)vf_step_count(env);
        out[3] = vf_terminated(env);
    }
    return code;
}

void vfw_state_hash(const vf_env *env, uint32_t *out) {
    uint64_t h = vf_state_hash(env);
    out[0] = (uint32_t)h;
    out[1] = (uint32_t)(h >> 32);
}

int vfw_batch_reset(vf_env *envs, int n, int kind, uint32_t seed_lo, uint32_t seed_hi,
                    int32_t *obs) {
    return vf_batch_reset(envs, n, kind, join64(seed_lo, seed_hi), obs);
}

double vfw_batch_run_random(vf_env *envs, int n, int steps, uint32_t action_seed, int32_t *obs) {
    return vf_batch_run_random(envs, n, steps, action_seed, obs);
}

/* The index of the first of n actions outside 0..num_actions - 1, or -1: the vector env
 * checks a typed array of actions here, after copying it in, and throws before stepping:
 * the same check element by element in JS was a measurable part of a 1024-env step. */
int vfw_first_bad_action(const int32_t *actions, int n, int num_actions) {
    for (int i = 0; i < n; i++)
        if ((unsigned)actions[i] >= (unsigned)num_actions) return i;
    return -1;
}

/* The vector env keeps one vf_batch_io and one vf_feature_rows in module memory and fills
 * them here once, so JS never needs their layouts; they hold pointers, so their sizes are this
 * build's own, not the engine's description's (vf_spec_json is the same in every build). */
size_t vfw_batch_io_size(void) {
    return sizeof(vf_batch_io);
}

size_t vfw_feature_rows_size(void) {
    return sizeof(vf_feature_rows);
}

void vfw_batch_io_init(vf_batch_io *io, const int32_t *actions, const uint64_t *next_seeds,
                       int32_t *obs, double *rewards, uint8_t *terminated, uint8_t *masks,
                       int32_t *final_obs, double *episode_returns, int32_t *episode_lengths,
                       uint64_t *episode_seeds, const vf_feature_rows *features,
                       int32_t autoreset) {
    vf_batch_io v = {
        actions,         next_seeds,      obs,           rewards,  terminated, masks, final_obs,
        episode_returns, episode_lengths, episode_seeds, features, autoreset,  0};
    *io = v;
}

/* The vector env's feature rows (vf_feature_rows), filled once in module memory as its
 * vf_batch_io is. */
void vfw_feature_rows_init(vf_feature_rows *rows, vf_memory *memories, int32_t *index, float *value,
                           int32_t *count, int32_t stride) {
    vf_feature_rows v = {memories, index, value, count, stride};
    *rows = v;
}

/* Row i's features (the vector env's resetEnvs). */
int vfw_features_row(int kind, const int32_t *obs, int action, bool opening,
                     const vf_feature_rows *rows, int i) {
    return vf_features_row(kind, obs, action, opening, rows, i);
}

/* The built-in agents, their 64-bit seeds as 32-bit halves (wasm/agents/index.js). */
int vfw_agent_init(vf_agent *agent, int kind, int agent_kind, uint32_t seed) {
    return vf_agent_init(agent, kind, agent_kind, seed);
}

double vfw_agent_play(vf_agent *agent, uint32_t seed_lo, uint32_t seed_hi) {
    return vf_agent_play(agent, join64(seed_lo, seed_hi));
}
