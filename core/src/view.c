/* view.c — the view-limited agent (valley_farm.h, "The view-limited agent"): a view of what
 * an agent has seen, completions of it, and the planner's decision over them. The farms'
 * samplers (valley_view.c, backwards_view.c) are rows of the table at the end; what they
 * share with this file is in view.h.
 *
 * Everything a completion must agree with is checked here, the same way for every farm: its
 * start state, replayed with the view's actions through vf_step, must show the view's
 * observations, every integer of every one. A sampler's acceptance makes its completions
 * follow the generator's distribution; this replay makes them agree with the view, whatever
 * a sampler gets wrong.
 *
 * No allocation: the caller hands over the work memory (vf_view_complete_work_size,
 * vf_view_act_work_size).
 */
#include "view.h"

static const vfc_sampler *sampler_of(int kind);

/* ---- the view ------------------------------------------------------------------------- */

/* The observation's fields within the bounds the farm's description gives them (so a
 * sampler can index by them), and its steps left `left`. */
static bool obs_ok(int kind, const int32_t *obs, int left) {
    const vf_farm_spec *f = vf_farm_spec_of(kind);
    for (int i = 0; i < f->field_count; i++) {
        const vf_field_spec *field = &f->fields[i];
        for (int k = 0; k < field->length; k++) {
            const int32_t x = obs[field->offset + k];
            if (x < field->low || x > field->high) return false;
            if (field->role == VF_ROLE_STEPS_LEFT && x != left) return false;
        }
    }
    return true;
}

vf_error vf_view_start(vf_view *view, int kind, const int32_t *obs) {
    if (view == NULL || obs == NULL || !sampler_of(kind)) return VF_ERR_ARGUMENT;
    if (!obs_ok(kind, obs, vf_farm_spec_of(kind)->horizon)) return VF_ERR_ARGUMENT;
    memset(view, 0, sizeof *view);
    view->kind = kind;
    memcpy(view->obs[0], obs, (size_t)vf_obs_size(kind) * sizeof *obs);
    return VF_OK;
}

static bool view_ok(const vf_view *view) {
    return view != NULL && sampler_of(view->kind) && view->steps >= 0 &&
           view->steps <= vf_farm_spec_of(view->kind)->horizon;
}

/* A view as vf_view_start and vf_view_record keep it, every observation and action checked
 * again: a vf_view is the caller's to write, and a sampler indexes by what it holds. */
static bool view_valid(const vf_view *view) {
    if (!view_ok(view)) return false;
    const int horizon = vf_farm_spec_of(view->kind)->horizon;
    for (int t = 0; t <= view->steps; t++) {
        if (!obs_ok(view->kind, view->obs[t], horizon - t)) return false;
        if (t < view->steps && view->actions[t] >= vf_num_actions(view->kind)) return false;
    }
    return true;
}

vf_error vf_view_record(vf_view *view, int action, const int32_t *obs) {
    if (!view_ok(view) || obs == NULL) return VF_ERR_ARGUMENT;
    const int kind = view->kind, left = vf_farm_spec_of(kind)->horizon - view->steps - 1;
    if (action < 0 || action >= vf_num_actions(kind) || left < 0) return VF_ERR_ARGUMENT;
    if (!obs_ok(kind, obs, left)) return VF_ERR_ARGUMENT;
    view->actions[view->steps] = (uint8_t)action;
    memcpy(view->obs[++view->steps], obs, (size_t)vf_obs_size(kind) * sizeof *obs);
    return VF_OK;
}

/* ---- completions ------------------------------------------------------------------------ */

size_t vf_view_complete_work_size(int kind) {
    return sampler_of(kind) ? sampler_of(kind)->prep_bytes : 0;
}

/* Plays the view's actions on env (a start state) and says whether it showed the view's
 * observations all along; env ends at the view's step. */
static bool replays(const vf_view *view, vf_env *env) {
    const size_t bytes = (size_t)vf_obs_size(view->kind) * sizeof(int32_t);
    int32_t obs[VF_OBS_MAX];
    vf_observe(env, obs);
    if (memcmp(obs, view->obs[0], bytes) != 0) return false;
    for (int t = 0; t < view->steps; t++) {
        if (vf_terminated(env)) return false;
        vf_step(env, view->actions[t], obs);
        if (memcmp(obs, view->obs[t + 1], bytes) != 0) return false;
    }
    return true;
}

/* The stream of completion j of the view's step: distinct for every (seed, step, j). */
static uint64_t stream(uint64_t seed, int step, int j) {
    vf_rng r = vf_rng_seeded(seed ^ ((uint64_t)step << 32 | (uint32_t)j) * 0xD1B54A32D192ED03ull);
    return vf_rng_next(&r);
}

/* Draws from a prepared view until a start is accepted and replays (see the file comment). */
static vf_error draw(const vf_view *view, const void *prep, uint64_t seed, vf_env *start,
                     vf_env *now) {
    const vfc_sampler *s = sampler_of(view->kind);
    vf_rng rng = vf_rng_seeded(seed);
    for (int attempt = 0; attempt < VF_VIEW_ATTEMPTS_MAX; attempt++) {
        vf_env first, last;
        const vfc_outcome o = s->attempt(view, prep, &rng, &first);
        if (o == VFC_NEVER) break;
        if (o == VFC_REJECTED) continue;
        last = first;
        if (!replays(view, &last)) continue;
        if (start) *start = first;
        if (now) *now = last;
        return VF_OK;
    }
    return VF_ERR_INVALID;
}

vf_error vf_view_complete(const vf_view *view, uint64_t seed, void *work, size_t work_size,
                          vf_env *start, vf_env *now) {
    if (!view_valid(view) || work == NULL || work_size < vf_view_complete_work_size(view->kind))
        return VF_ERR_ARGUMENT;
    if (!sampler_of(view->kind)->prepare(view, work)) return VF_ERR_INVALID;
    return draw(view, work, seed, start, now);
}

/* ---- the decision ------------------------------------------------------------------------- */

/* The reward a plan earns from a state, in whole units (an action illegal there is played as
 * the wait it is). */
static int64_t earns(const vf_env *state, const vf_plan *plan) {
    vf_env env = *state;
    const int32_t before = vf_reward_units(&env);
    for (int i = 0; i < plan->length && !vf_terminated(&env); i++)
        vf_step(&env, plan->actions[i], NULL);
    return vf_reward_units(&env) - before;
}

vf_error vf_view_choose(const vf_env *states, int n, int width, void *work, size_t work_size,
                        int *action, double *values) {
    if (states == NULL || action == NULL || work == NULL || n < 1 || n > VF_VIEW_COMPLETIONS_MAX)
        return VF_ERR_ARGUMENT;
    const int kind = states[0].kind;
    const size_t need = vf_plan_work_size(kind, width);
    if (need == 0 || work_size < need) return VF_ERR_ARGUMENT;
    for (int j = 0; j < n; j++)
        if (states[j].kind != kind || vf_terminated(&states[j])) return VF_ERR_ARGUMENT;
    const int na = vf_num_actions(kind);
    uint8_t mask[VF_ACTIONS_MAX];
    vf_legal_actions(&states[0], mask);
    *action = 0;
    while (!mask[*action]) (*action)++; /* a legal one, for when no plan earns anything */
    int64_t best_of[VF_ACTIONS_MAX];
    for (int a = 0; a < na; a++) best_of[a] = -1;
    /* in whole reward units, so equal sums compare equal and the first plan wins a tie */
    int64_t best = -1;
    for (int j = 0; j < n; j++) {
        vf_plan plan;
        vf_plan_beam(&states[j], width, work, work_size, &plan);
        if (plan.length == 0) continue;
        int64_t sum = 0;
        for (int i = 0; i < n; i++) sum += earns(&states[i], &plan);
        const int first = plan.actions[0];
        if (sum > best_of[first]) best_of[first] = sum;
        if (sum > best) {
            best = sum;
            *action = first;
        }
    }
    if (values)
        for (int a = 0; a < na; a++)
            values[a] = best_of[a] < 0 ? -1 : (double)best_of[a] / vf_units_per_reward(kind) / n;
    return VF_OK;
}

/* ---- the agent ------------------------------------------------------------------------------ */

/* The agent's memory in its work memory: which view its completions were drawn for. */
typedef struct memory {
    uint64_t magic;  /* MEMORY_MAGIC once written */
    uint64_t seed;   /* the agent's stream */
    uint64_t digest; /* of the view's first `steps` steps */
    int32_t kind, completions, steps;
} memory;
#define MEMORY_MAGIC 0x4D454D5745495646ull /* "FVIEWMEM" */

/* A digest of the view's first `steps` steps: its observations and actions. */
static uint64_t digest(const vf_view *view, int steps) {
    const uint64_t a =
        vfs_fnv1a64((const uint8_t *)view->obs, (size_t)(steps + 1) * VF_OBS_MAX * sizeof(int32_t));
    return a ^ vfs_fnv1a64(view->actions, (size_t)steps) * 0x9E3779B97F4A7C15ull;
}

/* Work memory: the memory, the sampler's, the completions' start states and current states,
 * the beam's; each part 16-byte aligned. */
static size_t aligned(size_t n) {
    return (n + 15) & ~(size_t)15;
}

size_t vf_view_act_work_size(int kind, int completions, int width) {
    const size_t beam = vf_plan_work_size(kind, width);
    if (!sampler_of(kind) || completions < 1 || completions > VF_VIEW_COMPLETIONS_MAX || beam == 0)
        return 0;
    return aligned(sizeof(memory)) + aligned(sampler_of(kind)->prep_bytes) +
           2 * aligned((size_t)completions * sizeof(vf_env)) + beam;
}

vf_error vf_view_act(const vf_view *view, int completions, int width, uint64_t seed, void *work,
                     size_t work_size, int *action) {
    if (!view_valid(view) || action == NULL || work == NULL) return VF_ERR_ARGUMENT;
    const int kind = view->kind;
    const size_t need = vf_view_act_work_size(kind, completions, width);
    if (need == 0 || work_size < need) return VF_ERR_ARGUMENT;
    if (view->steps >= vf_farm_spec_of(kind)->horizon) return VF_ERR_ARGUMENT;
    memory *m = work;
    uint8_t *prep = (uint8_t *)work + aligned(sizeof(memory));
    vf_env *starts = (vf_env *)(prep + aligned(sampler_of(kind)->prep_bytes));
    vf_env *states = (vf_env *)((uint8_t *)starts + aligned((size_t)completions * sizeof(vf_env)));
    uint8_t *beam = (uint8_t *)states + aligned((size_t)completions * sizeof(vf_env));
    /* the completions kept from an earlier step of this view, if they are this agent's */
    const bool kept = view->steps > 0 && m->magic == MEMORY_MAGIC && m->seed == seed &&
                      m->kind == kind && m->completions == completions && m->steps >= 0 &&
                      m->steps < view->steps && m->digest == digest(view, m->steps);
    bool prepared = false;
    for (int j = 0; j < completions; j++) {
        if (kept) {
            states[j] = starts[j];
            if (replays(view, &states[j])) continue;
        }
        if (!prepared && !sampler_of(kind)->prepare(view, prep)) return VF_ERR_INVALID;
        prepared = true;
        const vf_error e = draw(view, prep, stream(seed, view->steps, j), &starts[j], &states[j]);
        if (e != VF_OK) {
            m->magic = 0;
            return e;
        }
    }
    *m = (memory){MEMORY_MAGIC, seed, digest(view, view->steps), kind, completions, view->steps};
    return vf_view_choose(states, completions, width, beam, vf_plan_work_size(kind, width), action,
                          NULL);
}

/* ---- the farms' samplers ------------------------------------------------------------------- */

static const vfc_sampler *const samplers[] = {
    [VF_VALLEY] = &vfv_sampler,
    [VF_BACKWARDS] = &vfb_sampler,
};
_Static_assert(sizeof samplers / sizeof samplers[0] == VF_KIND_COUNT,
               "every vf_kind has its completion sampler here");

static const vfc_sampler *sampler_of(int kind) {
    return kind >= 0 && kind < VF_KIND_COUNT ? samplers[kind] : NULL;
}
