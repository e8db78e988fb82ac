/*
 * test_view.c — the view-limited agent (valley_farm.h, "The view-limited agent"): its
 * completions agree with everything the agent saw, are farms the generator could make, and
 * follow the generator's distribution given the view; the agent plays legal actions, never
 * earns more than a play with the whole farm in view could, and is the same for a seed.
 */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "internal.h"

static const int kinds[] = {VF_VALLEY, VF_BACKWARDS};

/* One played episode and what its agent saw: the view, and the legal masks and states of
 * the true env at every step (what completions are checked against). */
typedef struct episode {
    vf_view view;
    uint8_t masks[VF_PLAN_MAX + 1][VF_ACTIONS_MAX];
    vf_env truth[VF_PLAN_MAX + 1];
} episode;

/* Plays seed with legal actions drawn from rng, biased to moves so that the agent sees much of
 * the map, and stops after `steps` actions or at the end. */
static void play(episode *ep, int kind, uint64_t seed, int steps, vf_rng *rng) {
    vf_env env;
    int32_t obs[VF_OBS_MAX];
    vf_reset(&env, kind, seed, obs);
    CHECK_EQ(vf_view_start(&ep->view, kind, obs), VF_OK);
    const int na = vf_num_actions(kind);
    for (int t = 0;; t++) {
        ep->truth[t] = env;
        vf_legal_actions(&env, ep->masks[t]);
        if (t == steps || vf_terminated(&env)) return;
        int a;
        do a = (int)vf_rng_below(rng, vf_rng_below(rng, 2) ? 4 : (uint32_t)na);
        while (!ep->masks[t][a]);
        vf_step(&env, a, obs);
        CHECK_EQ(vf_view_record(&ep->view, a, obs), VF_OK);
    }
}

/* Whether a start state, replayed with the view's actions, shows every observation of the
 * view and the true env's legal masks at every step; *now: the state at the view's step. */
static bool agrees(const episode *ep, const vf_env *start, vf_env *now) {
    const vf_view *v = &ep->view;
    const int n = vf_obs_size(v->kind), na = vf_num_actions(v->kind);
    vf_env env = *start;
    int32_t obs[VF_OBS_MAX];
    uint8_t mask[VF_ACTIONS_MAX];
    for (int t = 0;; t++) {
        vf_observe(&env, obs);
        vf_legal_actions(&env, mask);
        if (memcmp(obs, v->obs[t], (size_t)n * sizeof *obs) != 0) return false;
        if (memcmp(mask, ep->masks[t], (size_t)na) != 0) return false;
        if (t == v->steps) break;
        vf_step(&env, v->actions[t], NULL);
    }
    *now = env;
    return true;
}

TEST(completions_agree_with_every_observation_and_legal_mask_the_agent_saw) {
    static episode ep;
    vf_rng rng = vf_rng_seeded(3);
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        const int kind = kinds[k];
        void *work = malloc(vf_view_complete_work_size(kind));
        int checked = 0;
        for (uint64_t seed = 500; seed < 512; seed++) {
            play(&ep, kind, seed, VF_PLAN_MAX, &rng);
            for (int steps = 0; steps <= ep.view.steps; steps += 3) {
                episode prefix = ep;
                prefix.view.steps = steps;
                for (int j = 0; j < 2; j++) {
                    vf_env start, now, replayed;
                    const vf_error e =
                        vf_view_complete(&prefix.view, seed * 977 + (uint64_t)j, work,
                                         vf_view_complete_work_size(kind), &start, &now);
                    CHECK_EQ(e, VF_OK);
                    if (e != VF_OK) {
                        printf("  kind %d, seed %d, step %d: no completion\n", kind, (int)seed,
                               steps);
                        continue;
                    }
                    CHECK_FIRST(agrees(&prefix, &start, &replayed));
                    CHECK_FIRST(vf_state_hash(&replayed) == vf_state_hash(&now));
                    CHECK_FIRST(vf_step_count(&start) == 0 && vf_step_count(&now) == steps);
                    checked++;
                }
            }
        }
        CHECK(checked > 100);
        free(work);
    }
}

/* ---- what the generator guarantees ------------------------------------------------------ */

static bool restorable(const vf_env *env) {
    uint8_t snap[VF_SNAPSHOT_MAX];
    vf_env back;
    const size_t n = vf_snapshot(env, snap, sizeof snap);
    return n > 0 && vf_restore(&back, env->kind, snap, n) == VF_OK &&
           vf_state_hash(&back) == vf_state_hash(env);
}

/* A valley start the generator could have drawn: restore's checks (counts, each animal and
 * villager south of its building, one animal of each species, every target reachable from the
 * agent), and what reset puts in: the agent on ground, the start inventory, hungry animals,
 * relationships 10 x below(5). */
static bool valley_start_ok(const vf_env *env) {
    vf_env reset;
    vf_reset(&reset, VF_VALLEY, 0, NULL);
    const vf_valley *v = &env->u.valley;
    bool ok = restorable(env) && v->step == 0 && v->reward_units == 0 &&
              memcmp(v->inventory, reset.u.valley.inventory, sizeof v->inventory) == 0 &&
              vf_valley_tile(v, v->agent.x, v->agent.y) == VF_VT_GROUND;
    int obstacles = 0;
    for (int y = 0; y < VF_VALLEY_H; y++)
        for (int x = 0; x < VF_VALLEY_W; x++)
            obstacles += vf_valley_tile(v, x, y) == VF_VT_OBSTACLE;
    ok &= obstacles == VF_VALLEY_OBSTACLES;
    for (int i = 0; i < VF_VALLEY_ANIMALS; i++) {
        const vf_valley_animal *a = &v->animals[i];
        ok &= a->sated_steps_left == 0 && a->counter == 0 && a->pending == 0;
    }
    for (int i = 0; i < VF_VALLEY_VILLAGERS; i++)
        ok &= v->villagers[i].relationship2 % 20 == 0 && v->villagers[i].relationship2 <= 80;
    for (int i = 0; i < VF_VALLEY_CROPS; i++)
        ok &= vf_valley_tile(v, v->crops[i].x, v->crops[i].y) == VF_VT_SOIL_EMPTY;
    return ok;
}

/* The corners of the w x h zones that hold e[0 .. n), which must be listed row-major (the
 * generator's order); returns how many. */
static int zones_holding(const vf_bw_entity *e, int n, int w, int h, int *corner) {
    for (int i = 1; i < n; i++)
        if (e[i].y < e[i - 1].y || (e[i].y == e[i - 1].y && e[i].x <= e[i - 1].x)) return 0;
    int count = 0;
    for (int y = 0; y + h <= VF_BW_H; y++)
        for (int x = 0; x + w <= VF_BW_W; x++) {
            bool in = true;
            for (int i = 0; i < n; i++)
                in &= e[i].x >= x && e[i].x < x + w && e[i].y >= y && e[i].y < y + h;
            if (in) corner[count++] = y * VF_BW_W + x;
        }
    return count;
}

static bool apart(int a, int aw, int b, int bw) { /* zones of sides aw and bw at corners a, b */
    const int ax = a % VF_BW_W, ay = a / VF_BW_W, bx = b % VF_BW_W, by = b / VF_BW_W;
    return !(ax < bx + bw && bx < ax + aw && ay < by + bw && by < ay + aw);
}

/* A backwards start the generator could have drawn: restore's checks (counts, fences 6-12,
 * reachability), the generator's check with the agent among its reachable ground cells, zones
 * of 4 x 4, 3 x 3 and 3 x 3 that do not overlap and hold the fields, pens and houses in
 * row-major order, statuses and values in their ranges, nothing paid, facing north. */
static bool backwards_start_ok(const vf_env *env) {
    const vf_backwards *b = &env->u.backwards;
    bool ok = restorable(env) && b->step == 0 && vf_bw_farm_value(b) == 0 && b->facing == VF_NORTH;
    vfg_mask start;
    ok &= vfb_layout_check(b, &start) && vfg_has(&start, b->agent.x, b->agent.y);
    int crop[VF_BW_W * VF_BW_H], pen[VF_BW_W * VF_BW_H], village[VF_BW_W * VF_BW_H];
    const int nc = zones_holding(b->crops, VF_BW_CROPS, 4, 4, crop),
              np = zones_holding(b->animals, VF_BW_ANIMALS, 3, 3, pen),
              nv = zones_holding(b->villagers, VF_BW_VILLAGERS, 3, 3, village);
    bool zones = false;
    for (int c = 0; c < nc; c++)
        for (int p = 0; p < np; p++)
            for (int v = 0; v < nv; v++)
                zones |= apart(crop[c], 4, pen[p], 3) && apart(crop[c], 4, village[v], 3) &&
                         apart(pen[p], 3, village[v], 3);
    ok &= zones;
    const vf_bw_entity *lists[3] = {b->crops, b->animals, b->villagers};
    const int counts[3] = {VF_BW_CROPS, VF_BW_ANIMALS, VF_BW_VILLAGERS};
    const int status_max[3] = {3, 2, 2}, value_min[3] = {2, 1, 3}, value_max[3] = {5, 3, 6};
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < counts[k]; i++) {
            const vf_bw_entity *e = &lists[k][i];
            ok &= e->done == 0 && e->value >= value_min[k] && e->value <= value_max[k] &&
                  vf_bw_status(b, e->x, e->y) <= status_max[k];
        }
    return ok;
}

TEST(completions_are_farms_the_generator_could_make) {
    static episode ep;
    vf_rng rng = vf_rng_seeded(4);
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        const int kind = kinds[k];
        void *work = malloc(vf_view_complete_work_size(kind));
        for (uint64_t seed = 600; seed < 610; seed++) {
            play(&ep, kind, seed, (int)(seed % 40), &rng);
            for (int j = 0; j < 8; j++) {
                vf_env start;
                CHECK_EQ(vf_view_complete(&ep.view, seed * 31 + (uint64_t)j, work,
                                          vf_view_complete_work_size(kind), &start, NULL),
                         VF_OK);
                CHECK_FIRST(kind == VF_VALLEY ? valley_start_ok(&start)
                                              : backwards_start_ok(&start));
            }
        }
        /* and the checks above hold for the generator's own farms */
        for (uint64_t seed = 0; seed < 200; seed++) {
            vf_env env;
            vf_reset(&env, kind, seed, NULL);
            env.seed = 0;
            CHECK_FIRST(kind == VF_VALLEY ? valley_start_ok(&env) : backwards_start_ok(&env));
        }
        free(work);
    }
}

/* ---- the generator's distribution, given a view --------------------------------------------
 * The generator's farms whose first observation is a given one are draws from the
 * distribution the sampler must draw from. So both are counted into the same buckets of a few
 * statistics and compared by a chi-square test of two samples; a sampler that gets a weight
 * wrong (the pairs' odds, the zones' prior, the agent's start among the ground it can reach)
 * moves these statistics by more than the test allows. Fixed seeds: the test is the same
 * every run (its threshold has a chance of 1 in 10,000 of failing a correct sampler). */

#define BUCKETS 16
typedef int (*statistic)(const vf_env *env);

/* Chi-square of two samples counted into buckets, and its degrees of freedom. */
static double chi_square(const long *a, long na, const long *b, long nb, int *df) {
    double chi = 0;
    *df = -1;
    for (int i = 0; i < BUCKETS; i++) {
        if (a[i] + b[i] == 0) continue;
        ++*df;
        const double d = (double)nb * (double)a[i] - (double)na * (double)b[i];
        chi += d * d / ((double)na * (double)nb * (double)(a[i] + b[i]));
    }
    return chi;
}

/* The chi-square with df degrees of freedom that a correct sampler exceeds once in 10,000
 * (Wilson and Hilferty's approximation, z = 3.719). */
static double chi_limit(int df) {
    const double c = 2.0 / (9.0 * df), w = 1 - c + 3.719 * sqrt(c);
    return df * w * w * w;
}

static int clamp(int x) {
    return x < BUCKETS - 1 ? x : BUCKETS - 1;
}

static int valley_agent_x(const vf_env *e) {
    return e->u.valley.agent.x;
}
static int valley_agent_y(const vf_env *e) {
    return e->u.valley.agent.y;
}
static int valley_market_distance(const vf_env *e) {
    const vf_valley *v = &e->u.valley;
    return clamp((abs(v->market.x - v->agent.x) + abs(v->market.y - v->agent.y)) / 2);
}
static int valley_nearest_villager(const vf_env *e) {
    const vf_valley *v = &e->u.valley;
    int best = 99;
    for (int i = 0; i < VF_VALLEY_VILLAGERS; i++) {
        const int d = abs(v->villagers[i].x - v->agent.x) + abs(v->villagers[i].y - v->agent.y);
        best = d < best ? d : best;
    }
    return clamp(best / 2);
}
static int backwards_fences(const vf_env *e) {
    int n = 0;
    for (int y = 0; y < VF_BW_H; y++)
        for (int x = 0; x < VF_BW_W; x++) n += vf_bw_tile(&e->u.backwards, x, y) == VF_BT_FENCE;
    return n;
}
static int backwards_first_field_row(const vf_env *e) {
    return e->u.backwards.crops[0].y;
}
static int backwards_first_pen_column(const vf_env *e) {
    return e->u.backwards.animals[0].x;
}
static int backwards_start_cells(const vf_env *e) { /* the agent's 1 / n_start */
    vfg_mask start;
    vfb_layout_check(&e->u.backwards, &start);
    int n = 0;
    for (int y = 0; y < VF_BW_H; y++) n += __builtin_popcount(start.rows[y]);
    return clamp(n / 6);
}
static int backwards_first_crop(const vf_env *e) {
    const vf_backwards *b = &e->u.backwards;
    return vf_bw_status(b, b->crops[0].x, b->crops[0].y) * 4 + b->crops[0].value - 2;
}

/* Compares the sampler with the generator on the seeds [0, seeds) whose first observation
 * shows `shown` (a predicate on it), drawing as many completions of the first one's view. */
static void compare(int kind, long seeds, bool (*shown)(const int32_t *obs), const statistic *stats,
                    int n_stats) {
    long gen[8][BUCKETS] = {{0}}, smp[8][BUCKETS] = {{0}}, n_gen = 0;
    int32_t obs[VF_OBS_MAX], first[VF_OBS_MAX];
    for (long s = 0; s < seeds; s++) {
        vf_env env;
        vf_reset(&env, kind, (uint64_t)s, obs);
        if (!shown(obs)) continue;
        if (n_gen++ == 0) memcpy(first, obs, sizeof obs);
        for (int i = 0; i < n_stats; i++) gen[i][stats[i](&env)]++;
    }
    CHECK(n_gen > 1000);
    vf_view view;
    CHECK_EQ(vf_view_start(&view, kind, first), VF_OK);
    const size_t bytes = vf_view_complete_work_size(kind);
    void *work = malloc(bytes);
    const long n_smp = n_gen;
    for (long j = 0; j < n_smp; j++) {
        vf_env start;
        CHECK_EQ(vf_view_complete(&view, 7000 + (uint64_t)j, work, bytes, &start, NULL), VF_OK);
        for (int i = 0; i < n_stats; i++) smp[i][stats[i](&start)]++;
    }
    free(work);
    for (int i = 0; i < n_stats; i++) {
        int df;
        const double chi = chi_square(gen[i], n_gen, smp[i], n_smp, &df);
        if (!(chi < chi_limit(df))) printf("  statistic %d: chi-square %.1f, %d df\n", i, chi, df);
        CHECK(chi < chi_limit(df));
    }
}

/* The valley's agent in the open: 25 ground tiles around it, not at an edge. */
static bool valley_open_ground(const int32_t *obs) {
    for (int k = 0; k < 25; k++)
        if (obs[VF_VO_VIEW + k] != VF_VT_GROUND) return false;
    return true;
}

/* The backwards agent in the north-west corner, on ground with ground around it. */
static bool backwards_corner(const int32_t *obs) {
    if (obs[VF_BO_X] != 0 || obs[VF_BO_Y] != 0) return false;
    for (int k = 0; k < 25; k++) {
        const bool on = k % 5 >= 2 && k / 5 >= 2;
        if (obs[VF_BO_TERRAIN + k] != (on ? VF_BT_GROUND : VF_BT_OUT_OF_BOUNDS)) return false;
    }
    return true;
}

TEST(completions_follow_the_generators_distribution_given_the_view) {
    const statistic valley[] = {valley_agent_x, valley_agent_y, valley_market_distance,
                                valley_nearest_villager};
    compare(VF_VALLEY, 400000, valley_open_ground, valley, 4);
    const statistic backwards[] = {backwards_fences, backwards_first_field_row,
                                   backwards_first_pen_column, backwards_start_cells,
                                   backwards_first_crop};
    compare(VF_BACKWARDS, 400000, backwards_corner, backwards, 5);
}

/* ---- the agent --------------------------------------------------------------------------- */

TEST(the_agent_plays_legal_actions_and_never_earns_more_than_the_farms_bound) {
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        const int kind = kinds[k], completions = 2, width = 2;
        const size_t bytes = vf_view_act_work_size(kind, completions, width);
        void *work = malloc(bytes);
        for (uint64_t seed = 700; seed < 703; seed++) {
            vf_env env;
            int32_t obs[VF_OBS_MAX];
            vf_view view;
            vf_reset(&env, kind, seed, obs);
            const double bound = vf_plan_bound(&env);
            vf_view_start(&view, kind, obs);
            double total = 0;
            while (!vf_terminated(&env)) {
                int a = -1;
                CHECK_EQ(vf_view_act(&view, completions, width, 1, work, bytes, &a), VF_OK);
                uint8_t mask[VF_ACTIONS_MAX];
                vf_legal_actions(&env, mask);
                CHECK_FIRST(a >= 0 && a < vf_num_actions(kind) && mask[a]);
                total += vf_step(&env, a, obs).reward;
                vf_view_record(&view, a, obs);
            }
            CHECK(total <= bound);
        }
        free(work);
    }
}

/* The actions of a whole episode of the agent, as a string. */
static void agent_episode(int kind, uint64_t seed, uint64_t agent_seed, void *work, size_t bytes,
                          char *out) {
    vf_env env;
    int32_t obs[VF_OBS_MAX];
    vf_view view;
    vf_reset(&env, kind, seed, obs);
    vf_view_start(&view, kind, obs);
    int n = 0;
    while (!vf_terminated(&env)) {
        int a = 0;
        vf_view_act(&view, 3, 2, agent_seed, work, bytes, &a);
        vf_step(&env, a, obs);
        vf_view_record(&view, a, obs);
        out[n++] = (char)('a' + a);
    }
    out[n] = '\0';
}

TEST(the_agent_is_the_same_for_the_same_seed_whatever_its_work_memory_held) {
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        const int kind = kinds[k];
        const size_t bytes = vf_view_act_work_size(kind, 3, 2);
        uint8_t *work = malloc(bytes);
        char first[VF_PLAN_MAX + 1], again[VF_PLAN_MAX + 1];
        memset(work, 0, bytes);
        agent_episode(kind, 800, 5, work, bytes, first);
        /* the same memory, now holding the last episode's completions, and then garbage */
        agent_episode(kind, 800, 5, work, bytes, again);
        CHECK(strcmp(first, again) == 0);
        memset(work, 0xA5, bytes);
        agent_episode(kind, 800, 5, work, bytes, again);
        CHECK(strcmp(first, again) == 0);
        free(work);
    }
}

/* The reward a plan earns when played from a state (illegal actions are waits). */
static double plan_earns(const vf_env *state, const vf_plan *plan) {
    vf_env env = *state;
    double total = 0;
    for (int i = 0; i < plan->length && !vf_terminated(&env); i++)
        total += vf_step(&env, plan->actions[i], NULL).reward;
    return total;
}

TEST(the_decision_plays_the_first_action_of_the_plan_that_earns_most_across_the_states) {
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        const int kind = kinds[k], width = 4, n = 3;
        const size_t bytes = vf_plan_work_size(kind, width);
        void *work = malloc(bytes);
        /* three completions of one view, after a few steps */
        static episode ep;
        vf_rng rng = vf_rng_seeded(9);
        play(&ep, kind, 901, 6, &rng);
        vf_env states[3];
        void *sampler = malloc(vf_view_complete_work_size(kind));
        for (int j = 0; j < n; j++)
            vf_view_complete(&ep.view, (uint64_t)j, sampler, vf_view_complete_work_size(kind), NULL,
                             &states[j]);
        free(sampler);
        /* by hand: each state's plan, its mean over the states, the first best plan */
        double best = -1, by_action[VF_ACTIONS_MAX];
        int expected = -1;
        for (int a = 0; a < VF_ACTIONS_MAX; a++) by_action[a] = -1;
        for (int j = 0; j < n; j++) {
            vf_plan plan;
            vf_plan_beam(&states[j], width, work, bytes, &plan);
            if (plan.length == 0) continue;
            double mean = 0;
            for (int i = 0; i < n; i++) mean += plan_earns(&states[i], &plan) / n;
            if (mean > by_action[plan.actions[0]] + 1e-9) by_action[plan.actions[0]] = mean;
            if (mean > best + 1e-9) {
                best = mean;
                expected = plan.actions[0];
            }
        }
        double values[VF_ACTIONS_MAX];
        int a = -1;
        CHECK_EQ(vf_view_choose(states, n, width, work, bytes, &a, values), VF_OK);
        CHECK_EQ(a, expected);
        for (int i = 0; i < vf_num_actions(kind); i++) CHECK(fabs(values[i] - by_action[i]) < 1e-9);
        /* the whole farm in view: one state, its beam's first action */
        vf_plan plan;
        vf_plan_beam(&ep.truth[ep.view.steps], width, work, bytes, &plan);
        CHECK_EQ(vf_view_choose(&ep.truth[ep.view.steps], 1, width, work, bytes, &a, values),
                 VF_OK);
        CHECK_EQ(a, plan.actions[0]);
        CHECK(fabs(values[a] - plan.best_return) < 1e-9);

        CHECK_EQ(vf_view_choose(states, 0, width, work, bytes, &a, NULL), VF_ERR_ARGUMENT);
        CHECK_EQ(vf_view_choose(states, 1, width, work, bytes - 1, &a, NULL), VF_ERR_ARGUMENT);
        CHECK_EQ(vf_view_choose(states, 1, 0, work, bytes, &a, NULL), VF_ERR_ARGUMENT);
        CHECK_EQ(vf_view_choose(NULL, 1, width, work, bytes, &a, NULL), VF_ERR_ARGUMENT);
        vf_reset(&states[1], 1 - kind, 900, NULL);
        CHECK_EQ(vf_view_choose(states, 2, width, work, bytes, &a, NULL), VF_ERR_ARGUMENT);
        vf_reset(&states[1], kind, 900, NULL);
        while (!vf_terminated(&states[1])) vf_step(&states[1], 0, NULL);
        CHECK_EQ(vf_view_choose(states, 2, width, work, bytes, &a, NULL), VF_ERR_ARGUMENT);
        free(work);
    }
}

TEST(a_view_refuses_bad_input_and_keeps_what_it_had) {
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        const int kind = kinds[k], n = vf_obs_size(kind);
        vf_env env;
        int32_t obs[VF_OBS_MAX], bad[VF_OBS_MAX];
        vf_view view, before;
        vf_reset(&env, kind, 42, obs);
        CHECK_EQ(vf_view_start(&view, kind, obs), VF_OK);
        before = view;
        memcpy(bad, obs, sizeof obs);
        bad[0] = 99; /* a tile code no farm has */
        CHECK_EQ(vf_view_start(&view, kind, bad), VF_ERR_ARGUMENT);
        CHECK_EQ(vf_view_start(&view, VF_KIND_COUNT, obs), VF_ERR_ARGUMENT);
        CHECK_EQ(vf_view_start(NULL, kind, obs), VF_ERR_ARGUMENT);
        CHECK(memcmp(&view, &before, sizeof view) == 0);
        vf_step(&env, 0, obs);
        CHECK_EQ(vf_view_record(&view, vf_num_actions(kind), obs), VF_ERR_ARGUMENT);
        CHECK_EQ(vf_view_record(&view, -1, obs), VF_ERR_ARGUMENT);
        CHECK_EQ(vf_view_record(&view, 0, view.obs[0]), VF_ERR_ARGUMENT); /* steps left repeat */
        CHECK(memcmp(&view, &before, sizeof view) == 0);
        CHECK_EQ(vf_view_record(&view, 0, obs), VF_OK);
        /* too little work memory, or a view that is not started */
        const size_t bytes = vf_view_complete_work_size(kind);
        void *work = malloc(bytes);
        vf_env start;
        CHECK_EQ(vf_view_complete(&view, 1, work, bytes - 1, &start, NULL), VF_ERR_ARGUMENT);
        vf_view broken = view;
        broken.kind = -1;
        CHECK_EQ(vf_view_complete(&broken, 1, work, bytes, &start, NULL), VF_ERR_ARGUMENT);
        CHECK_EQ(vf_view_act_work_size(kind, 0, 1), 0);
        CHECK_EQ(vf_view_act_work_size(kind, 1, 0), 0);
        CHECK_EQ(vf_view_complete_work_size(VF_KIND_COUNT), 0);
        /* a view no episode shows: the first observation altered where the generator allows
         * nothing else (the valley's relationships are multiples of 10; the backwards agent
         * starts facing north) */
        broken = view;
        broken.obs[0][kind == VF_VALLEY ? VF_VO_RELATIONSHIPS : VF_BO_FACING] =
            5 * (kind == VF_VALLEY) + 1;
        CHECK_EQ(vf_view_complete(&broken, 1, work, bytes, &start, NULL), VF_ERR_INVALID);
        (void)n;
        free(work);
    }
}

int main(void) {
    RUN(completions_agree_with_every_observation_and_legal_mask_the_agent_saw);
    RUN(completions_are_farms_the_generator_could_make);
    RUN(completions_follow_the_generators_distribution_given_the_view);
    RUN(the_agent_plays_legal_actions_and_never_earns_more_than_the_farms_bound);
    RUN(the_agent_is_the_same_for_the_same_seed_whatever_its_work_memory_held);
    RUN(the_decision_plays_the_first_action_of_the_plan_that_earns_most_across_the_states);
    RUN(a_view_refuses_bad_input_and_keeps_what_it_had);
    return check_summary();
}
