/* planner.c — the best play the engine can find from a full state: a beam search over
 * whole states, a proof of optimality (branch and bound), and an upper bound on what any
 * play could earn (valley_farm.h, "Planning"). What is the same for every farm lives here;
 * each farm's own search pieces (its beam, the maps its bound measures, the proof's state
 * key and children) are its row in the table at the end, from its planner file
 * (valley_plan.c, backwards_plan.c; shared types in planner.h).
 *
 * The searches use only what the public API gives every caller (copy a vf_env, vf_step,
 * vf_legal_actions, vf_total_reward): depth by depth the beam expands every legal action of
 * every state in it, drops states reached twice (equal states are equal bytes), and keeps
 * the `width` children with the most reward so far. It sees the full state, not an agent's
 * view, so its returns are a ceiling for agents rather than something they can copy.
 *
 * No allocation: the caller hands over the work memory (vf_plan_work_size,
 * vf_plan_prove_work_size), so a planner runs anywhere the engine does, a Web Worker
 * included.
 */
#include "planner.h"

/* A kind with no row in the table has no planner: every call refuses it. */
static const vfp_planner *planner_of(int kind);

/* Work memory: two beams of `width` nodes, the next beam's keys, and a hash set of the
 * children seen at the current depth (open addressing, at least twice their number). */
static size_t set_slots(int kind, int width) {
    size_t need = 2 * (size_t)width * (size_t)vf_num_actions(kind), slots = 64;
    while (slots < need) slots *= 2;
    return slots;
}

size_t vfp_actions_work_size(int kind, int width) {
    return 2 * (size_t)width * sizeof(vfp_node) + (size_t)width * sizeof(uint64_t) +
           set_slots(kind, width) * sizeof(uint64_t);
}

/* The beam over single actions, depth by depth (planner.h): BackwardsValleyFarm-v0's. */
void vfp_beam_over_actions(const vf_env *start, int width, void *work, vf_plan *out) {
    const int kind = start->kind, na = vf_num_actions(kind);
    vfp_node *beam = work, *next = beam + width;
    uint64_t *keys = (uint64_t *)(next + width), *set = keys + width;
    const size_t slots = set_slots(kind, width), bytes = planner_of(kind)->state_bytes;
    const double base = vf_total_reward(start);

    memset(&beam[0], 0, sizeof beam[0]);
    beam[0].env = *start;
    int size = 1;
    vfp_node best = beam[0];
    for (int depth = 0; depth < VF_PLAN_MAX && size > 0; depth++) {
        memset(set, 0, slots * sizeof *set);
        int count = 0;
        for (int i = 0; i < size; i++) {
            const vfp_node *parent = &beam[i];
            if (vf_terminated(&parent->env)) continue;
            uint8_t mask[VF_ACTIONS_MAX];
            vf_legal_actions(&parent->env, mask);
            for (int a = 0; a < na; a++) {
                if (!mask[a]) continue; /* an illegal action is a wait, and wait is legal */
                vfp_node child;
                child.env = parent->env;
                vf_step(&child.env, a, NULL);
                child.ret = vf_total_reward(&child.env) - base;
                child.rank = child.ret; /* this beam's farms pay each reward as it happens */
                memcpy(child.actions, parent->actions, (size_t)depth);
                child.actions[depth] = (uint8_t)a;
                uint64_t key = vfp_state_key(&child.env, bytes);
                if (!vfp_set_add(set, slots, key)) continue;
                if (child.ret > best.ret) {
                    best = child;
                    out->length = depth + 1;
                }
                if (count < width) {
                    next[count] = child;
                    keys[count] = key;
                    vfp_sift_up(next, keys, count++);
                } else if (vfp_worse(&next[0], keys[0], &child, key)) {
                    next[0] = child;
                    keys[0] = key;
                    vfp_sift_down(next, keys, count, 0);
                }
            }
        }
        vfp_node *t = beam;
        beam = next;
        next = t;
        size = count;
    }
    out->best_return = best.ret;
    memcpy(out->actions, best.actions, (size_t)out->length);
}

/* See planner.h. */
void vfp_spread(uint8_t *d, int w, int h, const uint8_t *tiles, int pitch, uint32_t walkable) {
    int queue[VFP_CELLS_MAX], head = 0, tail = 0;
    for (int c = 0; c < w * h; c++)
        if (d[c] == 0) queue[tail++] = c;
    while (head < tail) {
        const int c = queue[head++], x = c % w, y = c / w;
        for (int k = 0; k < 4; k++) {
            const int nx = x + vfg_dx[k], ny = y + vfg_dy[k], n = ny * w + nx;
            if (!vf_tile_in(walkable, tiles[ny * pitch + nx]) || d[n] != VFP_FAR) continue;
            d[n] = (uint8_t)(d[c] + 1);
            queue[tail++] = n;
        }
    }
}

/* ---- proving a plan optimal -------------------------------------------------------------
 *
 * Depth first from the start, best-ranked child first, from the best plan known so far: a
 * state is skipped when its reward plus the bound from there cannot beat that plan, or when
 * it was searched already with as much reward. The table that remembers searched states keys
 * each by everything that decides its future, packed exactly (no hash), and keeps the most
 * reward it was searched with. What a state's children are, and what ranks them, is each
 * farm's (its row's children; each farm's planner file says why they lose nothing).
 */

static double units_to_return(int kind, int32_t units) {
    return units / (double)vf_units_per_reward(kind);
}

static int32_t bound_units(const vf_env *e, const vfp_maps *m, int beat);

double vf_plan_bound(const vf_env *start) {
    if (!planner_of(start->kind)) return 0; /* no farm: nothing to earn */
    vfp_maps maps;
    maps.trees = NULL;
    planner_of(start->kind)->maps(&maps, start);
    return units_to_return(start->kind, bound_units(start, &maps, -1));
}

typedef struct proof_slot {
    uint64_t a, b; /* the state's key; a == 0 marks an empty slot (keys have bit 63 set) */
    int32_t units; /* the most reward the state was searched with */
} proof_slot;

static size_t proof_slots(int states) {
    size_t slots = 64;
    while (slots < 2 * (size_t)states) slots *= 2;
    return slots;
}

/* Work memory: the table, the stack, and the spanning-tree memo (a row's tree_bytes, 0 for most). */
static size_t tree_bytes(int kind);

size_t vf_plan_prove_work_size(int kind, int states) {
    if (!planner_of(kind) || states < 1 || states > VF_PROVE_STATES_MAX) return 0;
    return proof_slots(states) * sizeof(proof_slot) +
           (size_t)VFP_LEVELS * VFP_CHILDREN * sizeof(vfp_node) + tree_bytes(kind);
}

typedef enum { SEARCH, SEEN, FULL } proof_visit;

/* Records a state about to be searched with `units` of reward. */
static proof_visit proof_record(proof_slot *table, size_t slots, int *used, int most, vfp_key k,
                                int32_t units) {
    uint64_t h = k.a * 0x9E3779B97F4A7C15ull ^ k.b * 0xBF58476D1CE4E5B9ull;
    h ^= h >> 31;
    for (size_t i = h & (slots - 1);; i = (i + 1) & (slots - 1)) {
        proof_slot *s = &table[i];
        if (s->a == 0) {
            if (*used >= most) return FULL;
            *s = (proof_slot){k.a, k.b, units};
            ++*used;
            return SEARCH;
        }
        if (s->a == k.a && s->b == k.b) {
            if (units <= s->units) return SEEN;
            s->units = units;
            return SEARCH;
        }
    }
}

static int proof_children(const vfp_node *n, const vfp_maps *m, int32_t best_units, vfp_node *out,
                          uint8_t *order) {
    const int count = planner_of(n->env.kind)->children(n, m, best_units, out);
    for (int i = 0; i < count; i++) { /* insertion sort of indices: nodes are large */
        int j = i;
        for (; j > 0 && out[order[j - 1]].rank < out[i].rank; j--) order[j] = order[j - 1];
        order[j] = (uint8_t)i;
    }
    return count;
}

/* Searches from start; true when every state was searched (the best is then optimal). */
static bool prove_search(const vf_env *start, int states, void *work, vfp_node *best) {
    const size_t slots = proof_slots(states);
    proof_slot *table = work;
    vfp_node *stack = (vfp_node *)(table + slots);
    memset(table, 0, slots * sizeof *table);
    vfp_maps maps;
    maps.trees = (uint16_t *)(stack + (size_t)VFP_LEVELS * VFP_CHILDREN);
    memset(maps.trees, 0xFF, tree_bytes(start->kind)); /* VFB_NO_TREE: nothing memoised */
    const vfp_planner *p = planner_of(start->kind);
    p->maps(&maps, start);
    int count[VFP_LEVELS], next[VFP_LEVELS], used = 0;
    uint8_t order[VFP_LEVELS][VFP_CHILDREN];
    int32_t best_units = vf_reward_units(&best->env);
    memset(&stack[0], 0, sizeof stack[0]);
    stack[0].env = *start;
    count[0] = 1;
    next[0] = 0;
    order[0][0] = 0;
    for (int level = 0; level >= 0;) {
        if (next[level] == count[level]) {
            level--;
            continue;
        }
        const vfp_node *n = &stack[(size_t)level * VFP_CHILDREN + order[level][next[level]++]];
        const int32_t units = vf_reward_units(&n->env);
        if (units > best_units) {
            *best = *n;
            best_units = units;
        }
        if (vf_terminated(&n->env)) continue;
        /* a child whose farm ranks it by its bound has it already (proof_children) */
        const int32_t bound = p->ranks_by_bound && level > 0
                                  ? (int32_t)n->rank - units
                                  : bound_units(&n->env, &maps, best_units - units);
        if (units + bound <= best_units) continue;
        const proof_visit seen =
            proof_record(table, slots, &used, states, p->exact_key(&n->env), units);
        if (seen == FULL) return false;
        if (seen == SEEN) continue;
        vfp_node *children = &stack[(size_t)(level + 1) * VFP_CHILDREN];
        count[level + 1] = proof_children(n, &maps, best_units, children, order[level + 1]);
        next[level + 1] = 0;
        level++;
    }
    return true;
}

vf_error vf_plan_prove(const vf_env *start, int states, void *work, size_t work_size,
                       vf_plan *plan) {
    if (start == NULL || plan == NULL || work == NULL ||
        vf_plan_prove_work_size(start->kind, states) == 0 ||
        work_size < vf_plan_prove_work_size(start->kind, states))
        return VF_ERR_ARGUMENT;
    const int t0 = vf_step_count(start), na = vf_num_actions(start->kind);
    const int horizon = vf_farm_spec_of(start->kind)->horizon;
    if (plan->length < 0 || plan->length > horizon - t0) return VF_ERR_ARGUMENT;
    /* the plan to beat must earn what it says: replayed, not trusted */
    vfp_node best;
    memset(&best, 0, sizeof best);
    best.env = *start;
    for (int i = 0; i < plan->length; i++) {
        if (plan->actions[i] >= na) return VF_ERR_ARGUMENT;
        vfp_play(&best, plan->actions[i]);
    }
    /* in whole units, as the planners count (a difference of two doubles may round apart) */
    if (units_to_return(start->kind, vf_reward_units(&best.env) - vf_reward_units(start)) !=
        plan->best_return)
        return VF_ERR_ARGUMENT;
    const bool proven = prove_search(start, states, work, &best);
    plan->length = vf_step_count(&best.env) - t0;
    memcpy(plan->actions, best.actions + t0, (size_t)plan->length);
    plan->best_return =
        units_to_return(start->kind, vf_reward_units(&best.env) - vf_reward_units(start));
    plan->upper_bound = proven ? plan->best_return : vf_plan_bound(start);
    return VF_OK;
}

vf_error vf_plan_beam(const vf_env *start, int width, void *work, size_t work_size, vf_plan *out) {
    if (start == NULL || out == NULL || work == NULL) return VF_ERR_ARGUMENT;
    const int kind = start->kind;
    if (vf_plan_work_size(kind, width) == 0 || work_size < vf_plan_work_size(kind, width))
        return VF_ERR_ARGUMENT;
    memset(out, 0, sizeof *out);
    out->upper_bound = vf_plan_bound(start);
    planner_of(kind)->beam(start, width, work, out);
    return VF_OK;
}

/* ---- the farms' planners ------------------------------------------------------------------ */

static const vfp_planner *const planners[] = {
    [VF_VALLEY] = &vfv_planner,
    [VF_BACKWARDS] = &vfb_planner,
};
_Static_assert(sizeof planners / sizeof planners[0] == VF_KIND_COUNT,
               "every vf_kind has its planner here");

static const vfp_planner *planner_of(int kind) {
    return kind >= 0 && kind < VF_KIND_COUNT ? planners[kind] : NULL;
}

static size_t tree_bytes(int kind) {
    return planner_of(kind)->tree_bytes;
}

static int32_t bound_units(const vf_env *e, const vfp_maps *m, int beat) {
    return planner_of(e->kind)->bound_units(e, m, beat);
}

/* The width lives with the farm's description (it is part of the published spec), not in
 * the table above: reading it must not link the planner into a module that has none. */
int vf_plan_width(int kind) {
    const vf_farm_spec *f = vf_farm_spec_of(kind);
    return f ? f->plan_width : 0;
}

size_t vf_plan_work_size(int kind, int width) {
    if (!planner_of(kind) || width < 1 || width > VF_PLAN_WIDTH_MAX) return 0;
    return planner_of(kind)->work_size(width);
}
