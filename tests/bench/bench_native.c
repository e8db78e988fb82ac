/* bench_native.c — steps per second of the native engine, the baseline the WebAssembly
 * and JS paths are compared with (npm run bench runs it and reads its JSON lines).
 *
 *   valley-farm-bench [--steps N] [--repeats R]
 *
 * Each measurement plays N env-steps of uniformly random actions with vf_batch_run_random
 * (the same C function the WebAssembly path calls), resetting episodes as they end and
 * writing every observation, on one env and on a batch of 1024. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "valley_farm.h"

static double now_seconds(void) {
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    long long steps = 20000000;
    int repeats = 7;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--steps") == 0) steps = atoll(argv[i + 1]);
        else if (strcmp(argv[i], "--repeats") == 0) repeats = atoi(argv[i + 1]);
    }
    if (repeats < 1 || repeats > 99 || steps < 1024) {
        fprintf(stderr, "usage: %s [--steps N >= 1024] [--repeats 1..99]\n", argv[0]);
        return 2;
    }
    static const int batch_sizes[] = {1, 1024};
    vf_env *envs = malloc(sizeof(vf_env) * 1024);
    int32_t *obs = malloc(sizeof(int32_t) * VF_OBS_MAX * 1024);
    if (!envs || !obs) return 1;
    double sink = 0;
    for (int kind = 0; kind < VF_KIND_COUNT; kind++) {
        for (size_t b = 0; b < sizeof batch_sizes / sizeof batch_sizes[0]; b++) {
            int n = batch_sizes[b];
            long long rounds = steps / n;
            double rate[99];
            vf_batch_reset(envs, n, kind, 1, obs);
            sink += vf_batch_run_random(envs, n, rounds / 10, 7, obs); /* warm-up */
            for (int r = 0; r < repeats; r++) {
                double t0 = now_seconds();
                sink += vf_batch_run_random(envs, n, rounds, (uint64_t)r, obs);
                rate[r] = (double)(rounds * n) / (now_seconds() - t0);
            }
            qsort(rate, (size_t)repeats, sizeof rate[0], compare_doubles);
            printf("{\"env\":\"%s\",\"path\":\"native\",\"envs\":%d,\"stepsPerSec\":%.0f,"
                   "\"min\":%.0f,\"max\":%.0f,\"repeats\":%d,\"stepsPerRepeat\":%lld}\n",
                   vf_kind_name(kind), n, rate[repeats / 2], rate[0], rate[repeats - 1], repeats,
                   rounds * n);
        }
    }
    free(envs);
    free(obs);
    return sink < 0; /* uses the rewards so the work cannot be optimised away */
}
