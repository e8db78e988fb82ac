/* valley_plan.c — ValleyFarm-v0's planner (a row of planner.c's table): a beam over trips,
 * the maps its bound (valley_bound.c) measures, and the proof's exact key and children.
 *
 * Most of a valley episode is walking, and the map never changes (only the soil's stage),
 * so single-action search spends its beam on half-walked paths. The valley search expands
 * trips instead: walk a shortest path to a place where an action pays and take it there
 * (plant, water or harvest on a field; feed, or collect, now or after the next product, at
 * an animal; gift next to a villager; sell at the market), or wait one step. A trip of d
 * moves lands d + 1 (or more, when it waits for a product) steps later, so the beam keeps
 * one bucket per step count and ranks a state only against states of the same age; buckets
 * are expanded in age order. Every step is still vf_step, so plans are plain action lists. */
#include "planner.h"

_Static_assert(VFV_CELLS <= VFP_CELLS_MAX, "vfp_spread's queue holds the map");
_Static_assert(VF_VALLEY_HORIZON + 1 <= VFP_LEVELS && VFV_MAX_TRIPS <= VFP_CHILDREN,
               "the proof's stack holds a valley search");

/* Work memory: a bucket per step count (beam_over_trips below), each holding `width`
 * nodes, their keys and a set of every key offered to it. */
#define BUCKETS (VF_VALLEY_HORIZON + 1)

static size_t bucket_slots(int width) {
    size_t slots = 64;
    while (slots < 8 * (size_t)width) slots *= 2;
    return slots;
}

static size_t trips_work_size(int width) {
    return BUCKETS * ((size_t)width * (sizeof(vfp_node) + sizeof(uint64_t)) +
                      bucket_slots(width) * sizeof(uint64_t));
}

static bool walkable_tile(int code) {
    return vf_tile_in(VFV_WALKABLE, code);
}

static void valley_spread(const vf_valley *v, uint8_t *d) {
    vfp_spread(d, VF_VALLEY_W, VF_VALLEY_H, &v->tiles[VF_BORDER][VF_BORDER], sizeof v->tiles[0],
               VFV_WALKABLE);
}

static void trip_map_init(vfv_trip_map *m, const vf_valley *v) {
    memset(m, VFP_FAR, sizeof *m);
    for (int i = 0; i < VF_VALLEY_CROPS; i++)
        m->dist[VFV_T_CROP + i][v->crops[i].y * VF_VALLEY_W + v->crops[i].x] = 0;
    for (int i = 0; i < VF_VALLEY_ANIMALS; i++)
        m->dist[VFV_T_ANIMAL + i][v->animals[i].y * VF_VALLEY_W + v->animals[i].x] = 0;
    m->dist[VFV_T_MARKET][v->market.y * VF_VALLEY_W + v->market.x] = 0;
    m->gift_spots = 0;
    for (int i = 0; i < VF_VALLEY_VILLAGERS; i++) {
        for (int k = -1; k < 4; k++) {
            int x = v->villagers[i].x + (k < 0 ? 0 : vfg_dx[k]),
                y = v->villagers[i].y + (k < 0 ? 0 : vfg_dy[k]);
            if (!walkable_tile(vf_valley_tile(v, x, y))) continue;
            int cell = y * VF_VALLEY_W + x, seen = 0;
            for (int j = 0; j < m->gift_spots; j++) seen |= m->dist[VFV_T_GIFT + j][cell] == 0;
            if (!seen) m->dist[VFV_T_GIFT + m->gift_spots++][cell] = 0;
        }
    }
    for (int t = 0; t < VFV_T_GIFT + m->gift_spots; t++) valley_spread(v, m->dist[t]);
    for (int i = 0; i < VF_VALLEY_CROPS; i++)
        m->to_market_from[VFV_T_CROP + i] =
            m->dist[VFV_T_MARKET][v->crops[i].y * VF_VALLEY_W + v->crops[i].x];
    for (int i = 0; i < VF_VALLEY_ANIMALS; i++)
        m->to_market_from[VFV_T_ANIMAL + i] =
            m->dist[VFV_T_MARKET][v->animals[i].y * VF_VALLEY_W + v->animals[i].x];
}

/* The shortest trips from the agent, for the ranking (vfv_plan_potential_units). */
static vfv_reach reach(const vfv_trip_map *m, const vf_valley *v) {
    vfv_reach r;
    const int here = v->agent.y * VF_VALLEY_W + v->agent.x;
    r.to_market = m->dist[VFV_T_MARKET][here];
    r.to_gift = VFP_FAR;
    for (int i = 0; i < m->gift_spots; i++)
        if (m->dist[VFV_T_GIFT + i][here] < r.to_gift) r.to_gift = m->dist[VFV_T_GIFT + i][here];
    for (int i = 0; i < VF_VALLEY_ANIMALS; i++) {
        r.to_animal[i] = m->dist[VFV_T_ANIMAL + i][here];
        r.animal_to_market[i] = m->to_market_from[VFV_T_ANIMAL + i];
    }
    for (int i = 0; i < VF_VALLEY_CROPS; i++) {
        r.to_crop[i] = m->dist[VFV_T_CROP + i][here];
        r.crop_to_market[i] = m->to_market_from[VFV_T_CROP + i];
    }
    return r;
}

/* Walks the node to target t along a shortest path (ties: north, south, east, west). */
static bool walk(vfp_node *n, const vfv_trip_map *m, int t) {
    const uint8_t *d = m->dist[t];
    for (;;) {
        const vf_valley *v = &n->env.u.valley;
        int x = v->agent.x, y = v->agent.y, here = d[y * VF_VALLEY_W + x];
        if (here == 0) return true;
        if (here == VFP_FAR) return false;
        int k = 0;
        while (!walkable_tile(vf_valley_tile(v, x + vfg_dx[k], y + vfg_dy[k])) ||
               d[(y + vfg_dy[k]) * VF_VALLEY_W + x + vfg_dx[k]] != here - 1)
            k++;
        if (!vfp_play(n, k)) return false;
    }
}

static bool legal(const vfp_node *n, int action) {
    uint8_t mask[VF_ACTIONS_MAX];
    vf_legal_actions(&n->env, mask);
    return mask[action] != 0;
}

/* Walks a copy of `from` to target t into *out; false if the episode ends first. */
static bool arrive(const vfp_node *from, const vfv_trip_map *m, int t, vfp_node *out) {
    *out = *from;
    return walk(out, m, t);
}

/* Adds `at` + action as the next child if the action is legal there. */
static int act(const vfp_node *at, int action, vfp_node *out, int count) {
    if (!legal(at, action)) return count;
    out[count] = *at;
    return vfp_play(&out[count], action) ? count + 1 : count;
}

/* The children of a node, its trips, written to out (at most VFV_MAX_TRIPS); returns how
 * many. */
static int trips(const vfp_node *from, const vfv_trip_map *m, vfp_node *out) {
    int count = 0;
    vfp_node at;
    for (int i = 0; i < VF_VALLEY_CROPS; i++) {
        if (!arrive(from, m, VFV_T_CROP + i, &at)) continue;
        /* the field's stage decides which of these is legal: one at most */
        count = act(&at, VF_VA_PLANT, out, count);
        count = act(&at, VF_VA_WATER, out, count);
        count = act(&at, VF_VA_HARVEST, out, count);
    }
    for (int i = 0; i < VF_VALLEY_ANIMALS; i++) {
        if (!arrive(from, m, VFV_T_ANIMAL + i, &at)) continue;
        count = act(&at, VF_VA_FEED, out, count);
        count = act(&at, VF_VA_COLLECT, out, count);
        /* or wait there for its next product and collect then (collecting resets the
         * product counter, so collecting as a product appears loses nothing) */
        const vf_valley_animal *a = &at.env.u.valley.animals[i];
        int pending = a->pending;
        bool waiting = a->sated_steps_left > 0;
        while (waiting && a->pending == pending)
            waiting = a->sated_steps_left > 0 && vfp_play(&at, VF_VA_WAIT);
        if (waiting) count = act(&at, VF_VA_COLLECT, out, count);
    }
    if (arrive(from, m, VFV_T_MARKET, &at)) count = act(&at, VF_VA_SELL, out, count);
    for (int i = 0; i < m->gift_spots; i++)
        if (arrive(from, m, VFV_T_GIFT + i, &at)) count = act(&at, VF_VA_GIFT, out, count);
    return act(from, VF_VA_WAIT, out, count);
}

static uint64_t *bucket_keys(void *work, int width, int t) {
    return (uint64_t *)((vfp_node *)work + (size_t)BUCKETS * width) + (size_t)t * width;
}

static uint64_t *bucket_set(void *work, int width, int t) {
    return bucket_keys(work, width, BUCKETS) + (size_t)t * bucket_slots(width);
}

/* The set stops recording at half load (a duplicate then costs a beam slot, no more). */
static bool bucket_offer(uint64_t *set, size_t slots, size_t *used, uint64_t key) {
    if (2 * *used >= slots) return true;
    if (!vfp_set_add(set, slots, key)) return false;
    ++*used;
    return true;
}

static void beam_over_trips(const vf_env *start, int width, void *work, vf_plan *out) {
    vfp_node *nodes = work;
    const size_t slots = bucket_slots(width);
    int size[BUCKETS] = {0};
    size_t used[BUCKETS] = {0};
    memset(bucket_set(work, width, 0), 0, BUCKETS * slots * sizeof(uint64_t));
    vfv_trip_map map;
    trip_map_init(&map, &start->u.valley);
    const int base = start->u.valley.reward_units, t0 = start->u.valley.step;
    vfp_node *first = &nodes[(size_t)t0 * width];
    memset(first, 0, sizeof *first);
    first->env = *start;
    size[t0] = 1;
    int best_units = 0, best_len = t0;
    const uint8_t *best_actions = first->actions;
    vfp_node children[VFV_MAX_TRIPS];
    for (int t = t0; t < VF_VALLEY_HORIZON; t++) {
        for (int i = 0; i < size[t]; i++) {
            int n = trips(&nodes[(size_t)t * width + i], &map, children);
            for (int k = 0; k < n; k++) {
                vfp_node *c = &children[k];
                const vf_valley *v = &c->env.u.valley;
                int age = v->step;
                uint64_t key = vfp_state_key(&c->env, sizeof(vf_valley));
                if (!bucket_offer(bucket_set(work, width, age), slots, &used[age], key)) continue;
                c->ret = (v->reward_units - base) / (double)VFV_UNITS_PER_REWARD;
                const vfv_reach r = reach(&map, v);
                c->rank = v->reward_units + vfv_plan_potential_units(v, &r);
                vfp_node *heap = &nodes[(size_t)age * width];
                uint64_t *keys = bucket_keys(work, width, age);
                if (size[age] < width) {
                    heap[size[age]] = *c;
                    keys[size[age]] = key;
                    vfp_sift_up(heap, keys, size[age]++);
                } else if (vfp_worse(&heap[0], keys[0], c, key)) {
                    heap[0] = *c;
                    keys[0] = key;
                    vfp_sift_down(heap, keys, size[age], 0);
                }
            }
        }
        /* the best of this age is final now: nothing lands in an expanded bucket */
        for (int i = 0; i < size[t]; i++) {
            const vfp_node *c = &nodes[(size_t)t * width + i];
            if (c->env.u.valley.reward_units - base > best_units) {
                best_units = c->env.u.valley.reward_units - base;
                best_len = t;
                best_actions = c->actions;
            }
        }
    }
    for (int i = 0; i < size[VF_VALLEY_HORIZON]; i++) {
        const vfp_node *c = &nodes[(size_t)VF_VALLEY_HORIZON * width + i];
        if (c->env.u.valley.reward_units - base > best_units) {
            best_units = c->env.u.valley.reward_units - base;
            best_len = VF_VALLEY_HORIZON;
            best_actions = c->actions;
        }
    }
    out->best_return = best_units / (double)VFV_UNITS_PER_REWARD;
    out->length = best_len - t0;
    memcpy(out->actions, best_actions + t0, (size_t)out->length);
}

static void valley_maps(vfp_maps *m, const vf_env *start) {
    trip_map_init(&m->trips, &start->u.valley);
}

/* An upper bound on the units still to come; at or below `beat` it may be any such value. */
static int32_t valley_bound_units(const vf_env *e, const vfp_maps *m, int beat) {
    (void)beat;
    const vfv_reach r = reach(&m->trips, &e->u.valley);
    return vfv_plan_bound_units(&e->u.valley, &r);
}

/* The proof's exact key: where the agent stands, the step, the inventory but the coins
 * (which nothing spends), the fields' stages, the relationships and the animals: 92 bits. */
static vfp_key valley_key(const vf_env *e) {
    uint64_t a = (uint64_t)1 << 63, b = 0;
    const vf_valley *v = &e->u.valley;
    const int32_t *inv = v->inventory;
    a |= (uint64_t)v->agent.x | (uint64_t)v->agent.y << 4 | (uint64_t)v->step << 8 |
         (uint64_t)inv[VF_SEEDS] << 14 | (uint64_t)inv[VF_WATER] << 17 |
         (uint64_t)inv[VF_CROPS] << 20 | (uint64_t)inv[VF_FEED] << 23 |
         (uint64_t)inv[VF_PRODUCTS] << 25 | (uint64_t)inv[VF_GIFTS] << 29;
    for (int i = 0; i < VF_VALLEY_CROPS; i++) /* stages 0..3 */
        a |= (uint64_t)(vf_valley_tile(v, v->crops[i].x, v->crops[i].y) - VF_VT_SOIL_EMPTY)
             << (31 + 2 * i);
    for (int i = 0; i < VF_VALLEY_VILLAGERS; i++)
        a |= (uint64_t)v->villagers[i].relationship2 << (39 + 8 * i);
    for (int i = 0; i < VF_VALLEY_ANIMALS; i++) {
        const vf_valley_animal *an = &v->animals[i];
        b |= (uint64_t)(an->sated_steps_left | an->counter << 4 | an->pending << 7) << (11 * i);
    }
    return (vfp_key){a, b};
}

/* The field widths above hold every value a state restore accepts. */
_Static_assert(VF_VALLEY_W <= 16 && VF_VALLEY_H <= 16 && VF_VALLEY_HORIZON < 64,
               "positions and steps fit their bits");

/* The proof's children of a state: its trips, ranked by reward plus potential
 * (vfv_plan_potential_units). They lose nothing: a move changes only where the agent stands,
 * a wait (or an illegal action) only the clock, and every other action is taken on a target
 * tile (a field, an animal, the market, a tile a gift can be given from). So any play is a
 * run of stretches, each some moves and waits ending in one action on a target; doing a
 * stretch's waits first (wait trips) and then a shortest walk there (the trip) reaches the
 * same state at the same step, since the map never changes and the animals tick on the clock
 * alone. */
static int valley_children(const vfp_node *n, const vfp_maps *m, int32_t best_units,
                           vfp_node *out) {
    (void)best_units;
    const int count = trips(n, &m->trips, out);
    for (int i = 0; i < count; i++) {
        const vf_valley *v = &out[i].env.u.valley;
        const vfv_reach r = reach(&m->trips, v);
        out[i].rank = v->reward_units + vfv_plan_potential_units(v, &r);
    }
    return count;
}

const vfp_planner vfv_planner = {
    .state_bytes = sizeof(vf_valley),
    .work_size = trips_work_size,
    .beam = beam_over_trips,
    .maps = valley_maps,
    .bound_units = valley_bound_units,
    .exact_key = valley_key,
    .children = valley_children,
};
