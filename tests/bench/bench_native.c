/* bench_native.c — steps per second of the native engine, the baseline the WebAssembly
 * and JS paths are compared with (npm run bench runs it and reads its JSON lines).
 *
 *   valley-farm-bench [--steps N] [--repeats R]      every env at 1 and 1024 envs
 *   valley-farm-bench --serve                        one measurement per line of stdin:
 *       ENV ENVS STEPS   ->  {"env":…,"envs":…,"steps":…,"seconds":…,"stepsPerSec":…}
 *
 * The serve mode is how npm run bench alternates native slices with WebAssembly ones in
 * short turns: one long-lived process keeps its envs warm, where a process per slice
 * would pay its start-up and a cold cache in every slice. A bad line (unknown env, envs
 * outside 1..1024, steps outside 1..10^10) ends it with a message and status 2.
 *
 * Each measurement plays N env-steps of uniformly random actions with vf_batch_run_random
 * (the same C function the WebAssembly path calls), resetting episodes as they end and
 * writing every observation, on one env and on a batch of 1024. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime and CLOCK_THREAD_CPUTIME_ID */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "valley_farm.h"

/* The CPU time this thread ran, not the wall clock: on a machine shared with other work the
 * scheduler takes the core away for whole time slices, which the wall clock would count as
 * the engine's time (npm run bench times its JS side the same way, process.cpuUsage). */
static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Reads "ENV ENVS STEPS" lines until end of input; answers each with one JSON line. */
static int serve(void) {
    vf_env *envs[VF_KIND_COUNT][2] = {{NULL}}; /* per kind: a batch of 1 and of 1024, kept warm */
    int32_t *obs = malloc(sizeof(int32_t) * VF_OBS_MAX * 1024);
    char line[256], name[64];
    double sink = 0;
    uint64_t round = 0;
    while (obs && fgets(line, sizeof line, stdin)) {
        long long n = 0, steps = 0;
        int kind = -1;
        if (sscanf(line, "%63s %lld %lld", name, &n, &steps) == 3) kind = vf_kind_from_name(name);
        line[strcspn(line, "\r\n")] = '\0';
        if (kind < 0 || (n != 1 && n != 1024) || steps < 1 || steps > 10000000000LL) {
            fprintf(stderr,
                    "valley-farm-bench --serve: bad line '%.60s': expected ENV ENVS STEPS with ENV "
                    "ValleyFarm-v0 or BackwardsValleyFarm-v0, ENVS 1 or 1024, STEPS 1..10^10\n",
                    line);
            return 2;
        }
        vf_env **batch = &envs[kind][n == 1024];
        if (!*batch) {
            *batch = malloc(sizeof(vf_env) * (size_t)n);
            if (!*batch) return 1;
            vf_batch_reset(*batch, (int)n, kind, 1, obs);
        }
        long long rounds = steps / n > 0 ? steps / n : 1;
        /* an untimed tenth first: the caches held the other path's data (bench.mjs's timed()) */
        sink +=
            vf_batch_run_random(*batch, (int)n, rounds / 10 > 0 ? rounds / 10 : 1, ++round, obs);
        double t0 = now_seconds();
        sink += vf_batch_run_random(*batch, (int)n, rounds, ++round, obs);
        double seconds = now_seconds() - t0;
        printf(
            "{\"env\":\"%s\",\"envs\":%lld,\"steps\":%lld,\"seconds\":%.6f,\"stepsPerSec\":%.0f}\n",
            vf_kind_name(kind), n, rounds * n, seconds, (double)(rounds * n) / seconds);
        fflush(stdout);
    }
    return sink < 0;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "--serve") == 0) return serve();
    long long steps = 20000000;
    int repeats = 7;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--steps") == 0)
            steps = atoll(argv[i + 1]);
        else if (strcmp(argv[i], "--repeats") == 0)
            repeats = atoi(argv[i + 1]);
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
