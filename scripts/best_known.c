/*
 * best_known.c — plans every seed of a range with the engine's beam search (vf_plan_beam),
 * then proves the plan optimal or finds a better one (vf_plan_prove), and
 * prints one JSON line per seed: its best return, the plan, the upper bound (equal to the
 * return once proven), the beam's own return and the milliseconds it all took.
 * scripts/best-known.mjs runs it over the evaluation splits and writes the data file.
 *
 *   valley-farm-best-known ENV FIRST_SEED COUNT [WIDTH]
 *   ENV: ValleyFarm-v0 | BackwardsValleyFarm-v0; WIDTH: the beam (1..65536), by default
 *   the engine's (vf_plan_width)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "valley_farm.h"

static int usage(const char *why) {
    fprintf(
        stderr,
        "valley-farm-best-known: %s\nusage: valley-farm-best-known ENV FIRST_SEED COUNT [WIDTH]\n",
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
    if (argc != 4 && argc != 5) return usage("three or four arguments are needed");
    int kind = vf_kind_from_name(argv[1]);
    if (kind < 0) {
        char why[256] = "ENV must be one of the engine's env ids:";
        for (int k = 0; k < VF_KIND_COUNT; k++)
            snprintf(why + strlen(why), sizeof why - strlen(why), " %s", vf_kind_name(k));
        return usage(why);
    }
    unsigned long long first, count, width;
    width = (unsigned long long)vf_plan_width(kind);
    if (!parse_u64(argv[2], &first) || !parse_u64(argv[3], &count) ||
        (argc == 5 && !parse_u64(argv[4], &width)))
        return usage("FIRST_SEED, COUNT and WIDTH must be whole numbers");
    size_t bytes = vf_plan_work_size(kind, (int)(width > VF_PLAN_WIDTH_MAX ? 0 : width));
    if (bytes == 0) return usage("WIDTH must be 1 to 65536");
    void *work = malloc(bytes);
    if (!work) return usage("out of memory for the beam");
    /* the proof's table: small first (most seeds need a few hundred thousand states), larger
     * only for a seed that fills it (a handful need the largest, 3 GB: allocated then) */
    const int tables[3] = {VF_PROVE_STATES / 16, VF_PROVE_STATES, VF_PROVE_STATES_MAX};
    size_t proof_bytes = vf_plan_prove_work_size(kind, tables[1]);
    void *proof = malloc(proof_bytes);
    if (!proof) return usage("out of memory for the proof");
    static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    for (unsigned long long k = 0; k < count; k++) {
        vf_env env;
        vf_reset(&env, kind, first + k, NULL);
        clock_t t0 = clock();
        vf_plan plan;
        if (vf_plan_beam(&env, (int)width, work, bytes, &plan) != VF_OK)
            return usage("the planner refused its arguments");
        const double beam = plan.best_return;
        for (int t = 0; t < 3 && plan.best_return < plan.upper_bound; t++) {
            if (vf_plan_prove_work_size(kind, tables[t]) > proof_bytes) {
                free(proof);
                proof_bytes = vf_plan_prove_work_size(kind, tables[t]);
                proof = malloc(proof_bytes);
                if (!proof) return usage("out of memory for the proof's largest table");
            }
            if (vf_plan_prove(&env, tables[t], proof, proof_bytes, &plan) != VF_OK)
                return usage("the proof refused its arguments");
        }
        char actions[VF_PLAN_MAX + 1];
        for (int i = 0; i < plan.length; i++) actions[i] = digits[plan.actions[i]];
        actions[plan.length] = '\0';
        printf("{\"seed\":%llu,\"width\":%llu,\"best\":%.2f,\"bound\":%.2f,\"actions\":\"%s\","
               "\"beam\":%.2f,\"ms\":%.0f}\n",
               first + k, width, plan.best_return, plan.upper_bound, actions, beam,
               1000.0 * (double)(clock() - t0) / CLOCKS_PER_SEC);
        fflush(stdout);
    }
    free(work);
    free(proof);
    return 0;
}
