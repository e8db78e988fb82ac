/*
 * view_limited.c — plays every seed of a range with the view-limited agent (vf_view_act: the
 * planner over completions of what the agent has seen) and prints one JSON line per seed: its
 * return, its actions and the CPU milliseconds the episode took.
 * scripts/view-limited.mjs runs it over the test split and writes the data.
 *
 *   valley-farm-view-limited ENV FIRST_SEED COUNT COMPLETIONS WIDTH [AGENT_SEED]
 *   ENV: ValleyFarm-v0 | BackwardsValleyFarm-v0; COMPLETIONS: 1 .. 1024, or 0 for the
 *   control that decides the same way on the true state (the whole farm in view); WIDTH: the
 *   planner's beam (1 .. 65536); AGENT_SEED: the agent's own stream (default 1), never the
 *   episode's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "valley_farm.h"

static int usage(const char *why) {
    fprintf(stderr,
            "valley-farm-view-limited: %s\nusage: valley-farm-view-limited ENV FIRST_SEED COUNT "
            "COMPLETIONS WIDTH [AGENT_SEED]\n",
            why);
    return 2;
}

static int parse_u64(const char *s, unsigned long long *out) {
    char *end;
    errno = 0;
    *out = strtoull(s, &end, 10);
    return errno == 0 && *s >= '0' && *s <= '9' && *end == '\0';
}

int main(int argc, char **argv) {
    if (argc != 6 && argc != 7) return usage("five or six arguments are needed");
    const int kind = vf_kind_from_name(argv[1]);
    if (kind < 0) {
        char why[256] = "ENV must be one of the engine's env ids:";
        for (int k = 0; k < VF_KIND_COUNT; k++)
            snprintf(why + strlen(why), sizeof why - strlen(why), " %s", vf_kind_name(k));
        return usage(why);
    }
    unsigned long long first, count, completions, width, agent_seed = 1;
    if (!parse_u64(argv[2], &first) || !parse_u64(argv[3], &count) ||
        !parse_u64(argv[4], &completions) || !parse_u64(argv[5], &width) ||
        (argc == 7 && !parse_u64(argv[6], &agent_seed)))
        return usage("FIRST_SEED, COUNT, COMPLETIONS, WIDTH and AGENT_SEED must be whole numbers");
    if (completions > VF_VIEW_COMPLETIONS_MAX) return usage("COMPLETIONS must be 0 to 1024");
    if (width < 1 || width > VF_PLAN_WIDTH_MAX) return usage("WIDTH must be 1 to 65536");
    const int k = (int)completions, w = (int)width;
    const size_t bytes = k > 0 ? vf_view_act_work_size(kind, k, w) : vf_plan_work_size(kind, w);
    void *work = malloc(bytes);
    if (!work) return usage("out of memory for the agent");
    static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    for (unsigned long long s = first; s < first + count; s++) {
        const clock_t t0 = clock();
        vf_env env;
        int32_t obs[VF_OBS_MAX];
        vf_view view;
        vf_reset(&env, kind, s, obs);
        vf_view_start(&view, kind, obs);
        char actions[VF_PLAN_MAX + 1];
        int n = 0;
        double total = 0;
        while (!vf_terminated(&env)) {
            int a;
            const vf_error e = k > 0 ? vf_view_act(&view, k, w, agent_seed, work, bytes, &a)
                                     : vf_view_choose(&env, 1, w, work, bytes, &a, NULL);
            if (e != VF_OK) {
                fprintf(stderr, "valley-farm-view-limited: seed %llu, step %d: %s\n", s, n,
                        vf_error_message(e));
                return 1;
            }
            total += vf_step(&env, a, obs).reward;
            vf_view_record(&view, a, obs);
            actions[n++] = digits[a];
        }
        actions[n] = '\0';
        printf("{\"seed\":%llu,\"completions\":%d,\"width\":%d,\"return\":%.2f,\"actions\":\"%s\","
               "\"ms\":%.0f}\n",
               s, k, w, total, actions, 1000.0 * (double)(clock() - t0) / CLOCKS_PER_SEC);
        fflush(stdout);
    }
    free(work);
    return 0;
}
