/* backwards_bound.c — what the backwards planner (planner.c) knows of the rules: an upper
 * bound on the Farm Value play from a state can still add (vf_plan_bound), from the walks
 * the planner measures (vfb_reach). */
#include "backwards_rules.h"

/* The length of a minimum spanning tree over the agent and the targets in `set` (Prim's, on
 * at most VFB_TARGETS + 1 points). Any walk from the agent through all those targets is a
 * spanning tree of them whose edges are at least the shortest distances, so no walk is
 * shorter. */
static int spanning_tree(const vfb_reach *r, unsigned set) {
    if (r->trees && r->trees[set] != VFB_NO_TREE) return r->trees[set];
    int ids[VFB_TARGETS], key[VFB_TARGETS], n = 0, total = 0;
    bool in[VFB_TARGETS] = {0};
    for (int i = 0; i < VFB_TARGETS; i++)
        if (set >> i & 1) {
            key[n] = r->to[i];
            ids[n++] = i;
        }
    for (int k = 0; k < n; k++) {
        int next = -1;
        for (int i = 0; i < n; i++)
            if (!in[i] && (next < 0 || key[i] < key[next])) next = i;
        in[next] = true;
        total += key[next];
        for (int i = 0; i < n; i++)
            if (!in[i] && r->between[ids[next]][ids[i]] < key[i])
                key[i] = r->between[ids[next]][ids[i]];
    }
    if (r->trees) r->trees[set] = (uint16_t)total; /* at most 14 walks of 255 */
    return total;
}

/*
 * The Farm Value still to come is at most the bonuses not yet paid, counting each only if it
 * can still be earned on its own in the steps left (moves along `reach`, turns not counted):
 *  - a crop of stage s ripens after 3 - s ticks and pays when the agent stands on it then or
 *    later: max(walk, 3 - s) steps;
 *  - an animal below Thriving pays when it arrives there (after 2 - health ticks) in view,
 *    if the agent can be in view by then; otherwise it must be cared for from next to its
 *    pen and then grows back in two ticks: walk + 3 steps;
 *  - a villager pays on becoming Friendly: 2 - mood insults from next to the house (one
 *    Friendly already: a compliment, then an insult).
 * And together: the agent must walk to every target it earns from (a spanning tree over them
 * is no longer than that walk) and spend one step on each insult, compliment and care. When
 * that does not fit in the steps left, at least one bonus is lost: the bound is the best of
 * losing one (where the rest fits) or the two smallest. An animal that could pay in view
 * within its 2 - health ticks is counted free of all this (it may need no step at all).
 */
int vfb_plan_bound(const vf_backwards *b, const vfb_reach *r, int beat) {
    const int left = VF_BW_HORIZON - b->step;
    int value[VFB_TARGETS] = {0}, steps[VFB_TARGETS] = {0}; /* steps: besides walking */
    unsigned set = 0;
    int total = 0;
    for (int i = 0; i < VF_BW_CROPS; i++) {
        const vf_bw_entity *c = &b->crops[i];
        const int ripe_in = HARVEST_READY - STATUS(b, c->x, c->y);
        if (c->done || (r->to[i] > ripe_in ? r->to[i] : ripe_in) > left) continue;
        value[i] = c->value;
        set |= 1u << i;
    }
    for (int i = 0; i < VF_BW_VILLAGERS; i++) {
        const vf_bw_entity *v = &b->villagers[i];
        const int mood = STATUS(b, v->x, v->y), t = VFB_T_VILLAGER + i;
        const int words = mood == FRIENDLY ? 2 : FRIENDLY - mood; /* insults, compliment */
        if (v->done || r->to[t] + words > left) continue;
        value[t] = v->value;
        steps[t] = words;
        set |= 1u << t;
    }
    int free_value = 0; /* animals that may pay without a step of their own */
    for (int i = 0; i < VF_BW_ANIMALS; i++) {
        const vf_bw_entity *a = &b->animals[i];
        const int health = STATUS(b, a->x, a->y), t = VFB_T_ANIMAL + i;
        if (a->done) continue;
        const int thriving_in = THRIVING - health;
        if (health < THRIVING && r->to_view[i] <= thriving_in && thriving_in <= left) {
            free_value += a->value;
        } else if (r->to[t] + 1 + THRIVING <= left) { /* care, then growth from Weak */
            value[t] = a->value;
            steps[t] = 1;
            set |= 1u << t;
        }
    }
    for (int i = 0; i < VFB_TARGETS; i++) total += value[i];
    if (total + free_value <= beat) return total + free_value;
    int acting = 0; /* steps that are not moves */
    for (int i = 0; i < VFB_TARGETS; i++) acting += steps[i];
    if (spanning_tree(r, set) + acting <= left) return total + free_value;
    /* something in `set` is lost: the smallest one or two, or one whose loss lets the rest
     * fit, tried from the smallest up (the first that fits is the best such loss) */
    int order[VFB_TARGETS], n = 0;
    for (int i = 0; i < VFB_TARGETS; i++) {
        if (!(set >> i & 1)) continue;
        int j = n++;
        for (; j > 0 && value[order[j - 1]] > value[i]; j--) order[j] = order[j - 1];
        order[j] = i;
    }
    int best = total - value[order[0]] - (n > 1 ? value[order[1]] : 0);
    if (total - value[order[0]] + free_value <= beat) return total - value[order[0]] + free_value;
    for (int k = 0; k < n && total - value[order[k]] > best; k++) {
        const int i = order[k];
        if (spanning_tree(r, set & ~(1u << i)) + acting - steps[i] <= left) best = total - value[i];
    }
    return best + free_value;
}
