/*
 * test_agents.c — the built-in agents (core/src/agents.c): the heuristics play every test and
 * validation seed to the returns wasm/data/baselines.json publishes (made by the JS heuristics
 * they were ported from), the random agent's 16 seeded runs average to its published
 * per-seed means, and a farm is never given an agent it does not have.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "valley_farm.h"

/* The published rows of one env and split: [seed, random mean, heuristic return], read from
 * baselines.json (its perSeed object, one row a line). */
typedef struct row {
    long seed;
    double random, heuristic;
} row;

static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)n + 1);
    if (text && fread(text, 1, (size_t)n, f) != (size_t)n) n = 0;
    if (text) text[n] = '\0';
    fclose(f);
    return text;
}

static int published(const char *text, int kind, const char *split, row *rows, int most) {
    char key[128];
    snprintf(key, sizeof key, "\"%s\":{", vf_kind_name(kind));
    const char *env = strstr(strstr(text, "\"perSeed\""), key);
    if (!env) return 0;
    snprintf(key, sizeof key, "\"%s\":[", split);
    const char *p = strstr(env, key);
    if (!p) return 0;
    p += strlen(key);
    int n = 0;
    while (n < most && *p == '[') {
        char *end;
        rows[n].seed = strtol(p + 1, &end, 10);
        rows[n].random = strtod(end + 1, &end);
        rows[n].heuristic = strtod(end + 1, &end);
        n++;
        p = end + 1; /* past ']' */
        while (*p == ',' || *p == '\n') p++;
    }
    return n;
}

static double play(vf_agent *agent, int kind, uint64_t seed) {
    vf_env env;
    int32_t obs[VF_OBS_MAX];
    vf_reset(&env, kind, seed, obs);
    vf_agent_reset(agent);
    double total = 0;
    while (!vf_terminated(&env)) {
        int a = vf_agent_act(agent, obs);
        CHECK_FIRST(a >= 0 && a < vf_num_actions(kind));
        total += vf_step(&env, a, obs).reward;
    }
    return total;
}

static vf_agent agent; /* each holds its map: static, not on the stack */

static void check_split(int kind, const char *split, int first, int count) {
    char *text = read_file(VF_DATA_DIR "/baselines.json");
    CHECK(text != NULL);
    if (!text) return;
    row *rows = calloc((size_t)count, sizeof *rows);
    CHECK_EQ(published(text, kind, split, rows, count), count);
    int heuristic_off = 0, random_off = 0;
    for (int i = 0; i < count; i++) {
        CHECK_FIRST(rows[i].seed == first + i);
        CHECK_EQ(vf_agent_init(&agent, kind, VF_AGENT_HEURISTIC, 0), VF_OK);
        double h = play(&agent, kind, (uint64_t)rows[i].seed);
        if (fabs(h - rows[i].heuristic) > 1e-9) {
            if (!heuristic_off++)
                printf("  %s seed %ld: the heuristic earns %.4f, published %.4f\n",
                       vf_kind_name(kind), rows[i].seed, h, rows[i].heuristic);
        }
        double sum = 0;
        for (int k = 1; k <= VF_RANDOM_RUNS; k++) {
            CHECK_EQ(vf_agent_init(&agent, kind, VF_AGENT_RANDOM, (uint64_t)k), VF_OK);
            sum += play(&agent, kind, (uint64_t)rows[i].seed);
        }
        double mean = floor(sum / VF_RANDOM_RUNS * 1e4 + 0.5) / 1e4; /* as published: 4 decimals */
        if (fabs(mean - rows[i].random) > 1e-9 && !random_off++)
            printf("  %s seed %ld: the random agent's mean is %.4f, published %.4f\n",
                   vf_kind_name(kind), rows[i].seed, mean, rows[i].random);
    }
    CHECK_EQ(heuristic_off, 0);
    CHECK_EQ(random_off, 0);
    free(rows);
    free(text);
}

TEST(the_heuristics_and_the_random_agent_earn_the_published_returns_on_every_test_seed) {
    for (int k = 0; k < VF_KIND_COUNT; k++) check_split(k, "test", VF_TEST_FIRST, VF_TEST_COUNT);
}

TEST(and_on_every_validation_seed) {
    for (int k = 0; k < VF_KIND_COUNT; k++)
        check_split(k, "validation", VF_VALIDATION_FIRST, VF_VALIDATION_COUNT);
}

TEST(a_farm_is_never_given_an_agent_it_does_not_have) {
    vf_agent a;
    memset(&a, 0x5A, sizeof a);
    const vf_agent before = a;
    CHECK_EQ(vf_agent_init(&a, VF_KIND_COUNT, VF_AGENT_RANDOM, 1), VF_ERR_ARGUMENT);
    CHECK_EQ(vf_agent_init(&a, -1, VF_AGENT_HEURISTIC, 1), VF_ERR_ARGUMENT);
    CHECK_EQ(vf_agent_init(&a, VF_VALLEY, VF_AGENT_KINDS, 1), VF_ERR_ARGUMENT);
    CHECK_EQ(vf_agent_init(NULL, VF_VALLEY, VF_AGENT_RANDOM, 1), VF_ERR_ARGUMENT);
    CHECK(memcmp(&a, &before, sizeof a) == 0);
    CHECK(!vf_agent_exists(VF_KIND_COUNT, VF_AGENT_RANDOM));
    for (int k = 0; k < VF_KIND_COUNT; k++) CHECK(vf_agent_exists(k, VF_AGENT_RANDOM));
    CHECK(strcmp(vf_agent_name(VF_AGENT_HEURISTIC), "heuristic") == 0);
    CHECK(vf_agent_name(VF_AGENT_KINDS) == NULL);
}

TEST(an_observation_outside_its_bounds_is_refused_and_changes_nothing) {
    for (int k = 0; k < VF_KIND_COUNT; k++) {
        vf_env env;
        int32_t obs[VF_OBS_MAX];
        vf_reset(&env, k, 9, obs);
        CHECK_EQ(vf_agent_init(&agent, k, VF_AGENT_HEURISTIC, 0), VF_OK);
        CHECK(vf_agent_act(&agent, obs) >= 0);
        vf_agent *before = malloc(sizeof agent);
        memcpy(before, &agent, sizeof agent);
        obs[3] = 99; /* no tile has code 99 */
        CHECK_EQ(vf_agent_act(&agent, obs), -1);
        CHECK_EQ(vf_agent_act(&agent, NULL), -1);
        CHECK(memcmp(before, &agent, sizeof agent) == 0);
        free(before);
    }
}

/* The random agent draws mulberry32's sequence: the first draws of seed 1, as the JS
 * package's seededRandom(1) gives them (wasm/rng.js: 0.6270739405881613, 0.002735721180215478,
 * 0.5274470399599522 -> actions 7, 0, 6 of 12). */
TEST(the_random_agent_draws_mulberry32s_sequence) {
    CHECK_EQ(vf_agent_init(&agent, VF_VALLEY, VF_AGENT_RANDOM, 1), VF_OK);
    vf_env env;
    int32_t obs[VF_OBS_MAX];
    vf_reset(&env, VF_VALLEY, 1, obs);
    CHECK_EQ(vf_agent_act(&agent, obs), 7);
    CHECK_EQ(vf_agent_act(&agent, obs), 0);
    CHECK_EQ(vf_agent_act(&agent, obs), 6);
}

int main(void) {
    RUN(the_heuristics_and_the_random_agent_earn_the_published_returns_on_every_test_seed);
    RUN(and_on_every_validation_seed);
    RUN(a_farm_is_never_given_an_agent_it_does_not_have);
    RUN(an_observation_outside_its_bounds_is_refused_and_changes_nothing);
    RUN(the_random_agent_draws_mulberry32s_sequence);
    return check_summary();
}
