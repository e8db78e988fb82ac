/* generate.c — writes tests/golden/trajectories.txt, the golden trajectories that pin the
 * engine's behaviour: native tests (tests/c/test_engine.c) and WebAssembly tests
 * (tests/js/golden.test.js) replay it and must match every number.
 *
 * Regenerate only when a rule change is intended, after the rules tests pass:
 *   cmake --build build --target valley-farm-golden && build/valley-farm-golden > tests/golden/trajectories.txt
 *
 * Format, one record per line, '#' starts a comment:
 *   episode <env id> <seed> <policy>
 *   reset <state hash> <obs hash>
 *   step <action> <reward %.17g> <terminated 0/1> <legal 0/1> <state hash> <obs hash>
 * Hashes are 64-bit FNV-1a in 16 hex digits: the state hash is vf_state_hash (over the
 * snapshot bytes); the obs hash is over the observation's int32 values, little-endian. */
#include <stdio.h>

#include "valley_farm.h"

static uint64_t obs_hash(const int32_t *obs, int n) {
    uint64_t h = 14695981039346656037ull;
    for (int i = 0; i < n; i++)
        for (int b = 0; b < 4; b++)
            h = (h ^ (((uint32_t)obs[i] >> (8 * b)) & 0xFF)) * 1099511628211ull;
    return h;
}

/* "random": any action; "legal": a random action among the legal ones, so the episode
 * sees planting, feeding, selling, caring and insulting rather than mostly walls. */
static int choose(vf_env *env, vf_rng *rng, int legal_only) {
    int n = vf_num_actions(env->kind);
    if (!legal_only) return (int)vf_rng_below(rng, (uint32_t)n);
    uint8_t mask[VF_ACTIONS_MAX];
    int legal[VF_ACTIONS_MAX], count = 0;
    vf_legal_actions(env, mask);
    for (int a = 0; a < n; a++)
        if (mask[a]) legal[count++] = a;
    return legal[vf_rng_below(rng, (uint32_t)count)];
}

int main(void) {
    static const uint64_t seeds[] = {
        0, 1, 2, 3, 42, 1234567, 9007199254740991ull, 18446744073709551615ull};
    printf("# valley-farm golden trajectories, format 1 (see tests/golden/generate.c)\n");
    for (int kind = 0; kind < VF_KIND_COUNT; kind++) {
        for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
            for (int legal_only = 0; legal_only < 2; legal_only++) {
                vf_env env;
                int32_t obs[VF_OBS_MAX];
                int n = vf_obs_size(kind);
                vf_rng rng = vf_rng_seeded(seeds[s] * 31 + (uint64_t)legal_only);
                vf_reset(&env, kind, seeds[s], obs);
                printf("episode %s %llu %s\n", vf_kind_name(kind), (unsigned long long)seeds[s],
                       legal_only ? "legal" : "random");
                printf("reset %016llx %016llx\n", (unsigned long long)vf_state_hash(&env),
                       (unsigned long long)obs_hash(obs, n));
                for (;;) {
                    int a = choose(&env, &rng, legal_only);
                    vf_step_result r = vf_step(&env, a, obs);
                    printf("step %d %.17g %d %d %016llx %016llx\n", a, r.reward, r.terminated,
                           r.action_was_legal, (unsigned long long)vf_state_hash(&env),
                           (unsigned long long)obs_hash(obs, n));
                    if (r.terminated) break;
                }
            }
        }
    }
    return 0;
}
