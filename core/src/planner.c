/* planner.c — the best play the engine can find from a full state: a beam search over
 * whole states, and an upper bound on what any play could earn (valley_farm.h, "Planning").
 *
 * The search uses only what the public API gives every caller (copy a vf_env, vf_step,
 * vf_legal_actions, vf_total_reward): depth by depth it expands every legal action of every
 * state in the beam, drops states reached twice (equal states are equal bytes), and keeps
 * the `width` children with the most reward so far. It sees the full state, not an agent's
 * view, so its returns are a ceiling for agents rather than something they can copy.
 *
 * No allocation: the caller hands over the work memory (vf_plan_work_size), so a planner
 * runs anywhere the engine does, a Web Worker included.
 */
#include <string.h>

#include "internal.h"

typedef struct node {
    vf_env env;
    double ret;  /* reward since the start */
    double rank; /* ret plus what the state holds but has not cashed: the beam keeps the best */
    uint8_t actions[VF_PLAN_MAX];
} node;

/* The reward a state holds but has not yet earned, as the beam ranks it (valley: unsold
 * goods and products to come; backwards: nothing, its rewards are paid as they happen). */
static double potential(const vf_env *e) {
    return e->kind == VF_VALLEY ? vfv_plan_potential_units(&e->u.valley) / 20.0 : 0.0;
}

/* A 64-bit hash of the state's own bytes (not the episode seed, equal within a search).
 * Word at a time: the planner hashes every child, and FNV over bytes would cost more than
 * the step. The structs have no uninitialised padding: reset and restore write every byte. */
static uint64_t state_key(const vf_env *e) {
    size_t n = e->kind == VF_VALLEY ? sizeof e->u.valley : sizeof e->u.backwards;
    const uint8_t *p = (const uint8_t *)&e->u;
    uint64_t h = 0x9E3779B97F4A7C15ull ^ (uint64_t)n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0xBF58476D1CE4E5B9ull;
        h ^= h >> 29;
    }
    for (; i < n; i++) h = (h ^ p[i]) * 0x94D049BB133111EBull;
    return h ^ (h >> 31);
}

/* Work memory: two beams of `width` nodes, the next beam's keys, and a hash set of the
 * children seen at the current depth (open addressing, at least twice their number). */
static size_t set_slots(int kind, int width) {
    size_t need = 2 * (size_t)width * (size_t)vf_num_actions(kind), slots = 64;
    while (slots < need) slots *= 2;
    return slots;
}

size_t vf_plan_work_size(int kind, int width) {
    if (vf_num_actions(kind) == 0 || width < 1 || width > VF_PLAN_WIDTH_MAX) return 0;
    return 2 * (size_t)width * sizeof(node) + (size_t)width * sizeof(uint64_t) +
           set_slots(kind, width) * sizeof(uint64_t);
}

/* Inserts key; false when it was there already. Key 0 stands for an empty slot, so a
 * state whose key is 0 is stored as 1 (a collision at worst drops one state). */
static bool set_add(uint64_t *set, size_t slots, uint64_t key) {
    if (key == 0) key = 1;
    for (size_t i = key & (slots - 1);; i = (i + 1) & (slots - 1)) {
        if (set[i] == key) return false;
        if (set[i] == 0) {
            set[i] = key;
            return true;
        }
    }
}

/* The beam as a min-heap on (rank, key): its root is the child a better one replaces. */
static bool worse(const node *a, uint64_t ka, const node *b, uint64_t kb) {
    return a->rank < b->rank || (a->rank == b->rank && ka < kb);
}

static void swap(node *heap, uint64_t *keys, int i, int j) {
    node t = heap[i];
    heap[i] = heap[j];
    heap[j] = t;
    uint64_t k = keys[i];
    keys[i] = keys[j];
    keys[j] = k;
}

static void sift_down(node *heap, uint64_t *keys, int n, int i) {
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && worse(&heap[l], keys[l], &heap[m], keys[m])) m = l;
        if (r < n && worse(&heap[r], keys[r], &heap[m], keys[m])) m = r;
        if (m == i) return;
        swap(heap, keys, i, m);
        i = m;
    }
}

static void sift_up(node *heap, uint64_t *keys, int i) {
    while (i > 0) {
        int p = (i - 1) / 2;
        if (!worse(&heap[i], keys[i], &heap[p], keys[p])) return;
        swap(heap, keys, i, p);
        i = p;
    }
}

double vf_plan_bound(const vf_env *start) {
    if (start->kind == VF_VALLEY) return vfv_reward_bound_units(&start->u.valley) / 20.0;
    /* every bonus is paid once: what is not paid yet is the most there is to gain (the
     * meters' clamp at VF_BW_METER_MAX only ever lowers it) */
    const vf_backwards *b = &start->u.backwards;
    int left = 0;
    for (int i = 0; i < VF_BW_CROPS; i++) left += b->crops[i].done ? 0 : b->crops[i].value;
    for (int i = 0; i < VF_BW_ANIMALS; i++) left += b->animals[i].done ? 0 : b->animals[i].value;
    for (int i = 0; i < VF_BW_VILLAGERS; i++)
        left += b->villagers[i].done ? 0 : b->villagers[i].value;
    return left;
}

vf_error vf_plan_beam(const vf_env *start, int width, void *work, size_t work_size, vf_plan *out) {
    if (start == NULL || out == NULL || work == NULL) return VF_ERR_ARGUMENT;
    const int kind = start->kind, na = vf_num_actions(kind);
    if (na == 0 || width < 1 || width > VF_PLAN_WIDTH_MAX ||
        work_size < vf_plan_work_size(kind, width))
        return VF_ERR_ARGUMENT;
    node *beam = work, *next = beam + width;
    uint64_t *keys = (uint64_t *)(next + width), *set = keys + width;
    const size_t slots = set_slots(kind, width);
    const double base = vf_total_reward(start);

    memset(out, 0, sizeof *out);
    out->upper_bound = vf_plan_bound(start);
    memset(&beam[0], 0, sizeof beam[0]);
    beam[0].env = *start;
    int size = 1;
    node best = beam[0];
    for (int depth = 0; depth < VF_PLAN_MAX && size > 0; depth++) {
        memset(set, 0, slots * sizeof *set);
        int count = 0;
        for (int i = 0; i < size; i++) {
            const node *parent = &beam[i];
            if (vf_terminated(&parent->env)) continue;
            uint8_t mask[VF_ACTIONS_MAX];
            vf_legal_actions(&parent->env, mask);
            for (int a = 0; a < na; a++) {
                if (!mask[a]) continue; /* an illegal action is a wait, and wait is legal */
                node child;
                child.env = parent->env;
                vf_step(&child.env, a, NULL);
                child.ret = vf_total_reward(&child.env) - base;
                child.rank = child.ret + potential(&child.env);
                memcpy(child.actions, parent->actions, (size_t)depth);
                child.actions[depth] = (uint8_t)a;
                uint64_t key = state_key(&child.env);
                if (!set_add(set, slots, key)) continue;
                if (child.ret > best.ret) {
                    best = child;
                    out->length = depth + 1;
                }
                if (count < width) {
                    next[count] = child;
                    keys[count] = key;
                    sift_up(next, keys, count++);
                } else if (worse(&next[0], keys[0], &child, key)) {
                    next[0] = child;
                    keys[0] = key;
                    sift_down(next, keys, count, 0);
                }
            }
        }
        node *t = beam;
        beam = next;
        next = t;
        size = count;
    }
    out->best_return = best.ret;
    memcpy(out->actions, best.actions, (size_t)out->length);
    return VF_OK;
}
