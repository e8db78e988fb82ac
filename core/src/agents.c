/* agents.c — the built-in agents (valley_farm.h, "Built-in agents"): the random agent, and
 * each farm's heuristic from its own file. The table below says which farm has which; a
 * farm without a heuristic is refused one, never given another farm's. */
#include "internal.h"

static const char *const agent_names[VF_AGENT_KINDS] = {
    [VF_AGENT_RANDOM] = "random",
    [VF_AGENT_HEURISTIC] = "heuristic",
};

const char *vf_agent_name(int agent) {
    return agent >= 0 && agent < VF_AGENT_KINDS ? agent_names[agent] : NULL;
}

/* Which farms have a heuristic: a switch naming every kind, so a farm added without saying
 * whether it has one does not build (-Wswitch). */
static bool has_heuristic(int kind) {
    switch ((vf_kind)kind) {
    case VF_VALLEY: return true;
    case VF_BACKWARDS: return true;
    case VF_KIND_COUNT: break;
    }
    return false;
}

bool vf_agent_exists(int kind, int agent) {
    if (kind < 0 || kind >= VF_KIND_COUNT) return false;
    return agent == VF_AGENT_RANDOM || (agent == VF_AGENT_HEURISTIC && has_heuristic(kind));
}

vf_error vf_agent_init(vf_agent *agent, int kind, int agent_kind, uint64_t seed) {
    if (!agent || !vf_agent_exists(kind, agent_kind)) return VF_ERR_ARGUMENT;
    memset(agent, 0, sizeof *agent);
    agent->kind = kind;
    agent->agent = agent_kind;
    agent->rng = (uint32_t)seed;
    vf_agent_reset(agent);
    return VF_OK;
}

void vf_agent_reset(vf_agent *agent) {
    if (!agent || agent->agent != VF_AGENT_HEURISTIC) return;
    switch ((vf_kind)agent->kind) {
    case VF_VALLEY: vfa_valley_reset(&agent->u.valley); return;
    case VF_BACKWARDS: vfa_backwards_reset(&agent->u.backwards); return;
    case VF_KIND_COUNT: break;
    }
}

/* mulberry32 (Tommy Ettinger, 2017): the JS package's seeded randomness (wasm/rng.js), whose
 * draws the random agent's published baselines were made with. Its output over 2^32 is a
 * number in [0, 1), and floor(u * n) is the high word of output * n. */
static uint32_t mulberry32(uint32_t *state) {
    uint32_t t = *state += 0x6D2B79F5u;
    t = (t ^ (t >> 15)) * (t | 1u);
    t ^= t + (t ^ (t >> 7)) * (t | 61u);
    return t ^ (t >> 14);
}

int vf_agent_act(vf_agent *agent, const int32_t *obs) {
    if (!agent || !vf_obs_in_bounds(agent->kind, obs)) return -1;
    if (agent->agent == VF_AGENT_RANDOM) {
        uint64_t n = (uint64_t)vf_num_actions(agent->kind);
        return (int)(((uint64_t)mulberry32(&agent->rng) * n) >> 32);
    }
    if (agent->agent != VF_AGENT_HEURISTIC) return -1;
    switch ((vf_kind)agent->kind) {
    case VF_VALLEY: return vfa_valley_act(&agent->u.valley, obs);
    case VF_BACKWARDS: return vfa_backwards_act(&agent->u.backwards, obs);
    case VF_KIND_COUNT: break;
    }
    return -1;
}

double vf_agent_play(vf_agent *agent, uint64_t seed) {
    if (!agent) return -1;
    vf_env env;
    int32_t obs[VF_OBS_MAX];
    if (!vf_reset(&env, agent->kind, seed, obs)) return -1;
    vf_agent_reset(agent);
    double total = 0;
    while (!vf_terminated(&env)) {
        int a = vf_agent_act(agent, obs);
        if (a < 0) return -1; /* no agent refuses an observation the engine made; kept safe */
        total += vf_step(&env, a, obs).reward;
    }
    return total;
}
