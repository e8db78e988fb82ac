/*
 * fuzz_planner.c — a libFuzzer harness for the planner (core/src/planner.c): beam search and
 * proof from states the input makes, played or crafted.
 *
 * The input picks a kind and a seed, then either plays legal actions it chooses (a played
 * state) or changes bytes of the state's snapshot and restores it (a crafted state, one
 * restore accepts though play may never reach it). From that state it plans with a width and
 * proves with a table size it picks, in work memory of exactly the size the engine asks for
 * (malloc'd, so ASan sees a byte written past it), and checks what the header promises:
 *  - one byte too little work memory is refused, for the beam and for the proof;
 *  - a plan replays from the state to its best_return, which is at most its upper_bound,
 *    and upper_bound is vf_plan_bound(start);
 *  - the proof is never worse than the beam plan it is given, replays too, and its
 *    upper_bound is its best_return (it ended: optimal) or vf_plan_bound(start);
 *  - a lying plan (a return it does not earn, a bad action, too long) is refused.
 *
 *   npm run fuzz -- 60          (tests/fuzz/run.mjs builds it with clang and runs it)
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "valley_farm.h"

#include "reader.h"

static void refresh_checksum(uint8_t *snap, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i + 4 < n; i++) h = (h ^ snap[i]) * 16777619u;
    for (int b = 0; b < 4; b++) snap[n - 4 + (size_t)b] = (uint8_t)(h >> (8 * b));
}

/* The reward a plan earns when played from start, or -1 when an action is not legal there
 * (a planner plays only legal actions). */
static double replay(const vf_env *start, const vf_plan *plan) {
    vf_env env = *start;
    uint8_t mask[VF_ACTIONS_MAX];
    double total = 0;
    for (int i = 0; i < plan->length; i++) {
        if (vf_terminated(&env)) return -1;
        vf_legal_actions(&env, mask);
        if (!mask[plan->actions[i]]) return -1;
        total += vf_step(&env, plan->actions[i], NULL).reward;
    }
    return total;
}

static int close_to(double a, double b) {
    return fabs(a - b) <= 1e-9 * (1 + fabs(b));
}

/* The state to plan from: played from a reset, or a snapshot of it with bytes changed. */
static int make_state(reader *r, vf_env *env) {
    int kind = u8(r) & 1;
    REQUIRE(vf_reset(env, kind, u64(r), NULL));
    int steps = u8(r) % 64;
    uint8_t mask[VF_ACTIONS_MAX];
    int na = vf_num_actions(kind);
    for (int i = 0; i < steps && !vf_terminated(env); i++) {
        vf_legal_actions(env, mask);
        int legal[VF_ACTIONS_MAX], n = 0;
        for (int a = 0; a < na; a++)
            if (mask[a]) legal[n++] = a;
        vf_step(env, legal[u8(r) % n], NULL);
    }
    int changes = u8(r) % 4; /* 0: the played state itself */
    if (changes == 0) return 1;
    uint8_t snap[VF_SNAPSHOT_MAX];
    size_t len = vf_snapshot(env, snap, sizeof snap);
    for (int i = 0; i < changes; i++) snap[8 + u8(r) % (len - 12)] = u8(r);
    refresh_checksum(snap, len);
    vf_env crafted;
    if (vf_restore(&crafted, kind, snap, len) != VF_OK) return 0;
    *env = crafted;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r = {data, data + size};
    vf_env start;
    if (!make_state(&r, &start)) return 0;
    const int kind = start.kind;
    /* the valley's beam costs about 30 KB and its step a unit of width: keep runs short */
    int width = 1 + u8(&r) % (kind == VF_VALLEY ? 8 : 64);
    int states = 1 + (int)(u64(&r) % 1024);

    size_t need = vf_plan_work_size(kind, width);
    REQUIRE(need > 0);
    uint8_t *work = malloc(need);
    REQUIRE(work);
    vf_plan beam;
    REQUIRE(vf_plan_beam(&start, width, work, need - 1, &beam) == VF_ERR_ARGUMENT);
    REQUIRE(vf_plan_beam(&start, width, NULL, need, &beam) == VF_ERR_ARGUMENT);
    REQUIRE(vf_plan_beam(&start, width, work, need, &beam) == VF_OK);
    free(work);
    REQUIRE(beam.length >= 0 && beam.length <= VF_PLAN_MAX);
    REQUIRE(close_to(replay(&start, &beam), beam.best_return));
    REQUIRE(beam.best_return <= beam.upper_bound + 1e-9);
    REQUIRE(beam.upper_bound == vf_plan_bound(&start));

    size_t proof_need = vf_plan_prove_work_size(kind, states);
    REQUIRE(proof_need > 0);
    work = malloc(proof_need);
    REQUIRE(work);
    vf_plan proof = beam;
    REQUIRE(vf_plan_prove(&start, states, work, proof_need - 1, &proof) == VF_ERR_ARGUMENT);
    REQUIRE(vf_plan_prove(&start, 0, work, proof_need, &proof) == VF_ERR_ARGUMENT);

    /* lying plans: each is refused and left as given */
    uint8_t lie = u8(&r);
    vf_plan liar = beam;
    if (lie % 3 == 0)
        liar.best_return += 0.5 + (lie >> 2);
    else if (lie % 3 == 1 && liar.length > 0)
        liar.actions[(lie >> 2) % liar.length] = 0xFF;
    else
        liar.length = VF_PLAN_MAX + 1 + (lie >> 2);
    if (memcmp(&liar, &beam, sizeof liar) != 0) {
        vf_plan before = liar;
        REQUIRE(vf_plan_prove(&start, states, work, proof_need, &liar) == VF_ERR_ARGUMENT);
        REQUIRE(memcmp(&liar, &before, sizeof liar) == 0);
    }

    REQUIRE(vf_plan_prove(&start, states, work, proof_need, &proof) == VF_OK);
    free(work);
    REQUIRE(proof.best_return >= beam.best_return);
    REQUIRE(close_to(replay(&start, &proof), proof.best_return));
    REQUIRE(proof.best_return <= proof.upper_bound + 1e-9);
    /* the search ended (optimal: the bound is the return) or the table filled (the bound) */
    REQUIRE(proof.upper_bound == proof.best_return || proof.upper_bound == vf_plan_bound(&start));
    return 0;
}
