/* planner.c — the best play the engine can find from a full state: a beam search over
 * whole states, a proof of optimality for the valley (branch and bound), and an upper bound
 * on what any play could earn (valley_farm.h, "Planning").
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
#include <string.h>

#include "internal.h"

/* Each farm's planner is a row of the table at the end of this file (`planners`): the beam,
 * the maps its bound measures, the bound, the proof's state key and children. A kind with no
 * row has no planner: every call refuses it. */
typedef struct planner planner;
static const planner *planner_of(int kind);

typedef struct node {
    vf_env env;
    double ret;  /* reward since the start */
    double rank; /* ret plus what the state holds but has not cashed: the beam keeps the best */
    uint8_t actions[VF_PLAN_MAX];
} node;

/* A 64-bit hash of the state's own bytes (not the episode seed, equal within a search).
 * Word at a time: the planner hashes every child, and FNV over bytes would cost more than
 * the step. The structs have no uninitialised padding: reset and restore write every byte. */
static size_t state_bytes(int kind);
static uint64_t state_key(const vf_env *e) {
    size_t n = state_bytes(e->kind);
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

/* The valley's trip search keeps a bucket per step count (trips.c below): each bucket
 * holds `width` nodes, their keys and a set of every key offered to it. */
#define BUCKETS (VF_VALLEY_HORIZON + 1)

static size_t bucket_slots(int width) {
    size_t slots = 64;
    while (slots < 8 * (size_t)width) slots *= 2;
    return slots;
}

static size_t trips_work_size(int width) {
    return BUCKETS * ((size_t)width * (sizeof(node) + sizeof(uint64_t)) +
                      bucket_slots(width) * sizeof(uint64_t));
}

static size_t actions_work_size(int kind, int width) {
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

/* The beam over single actions (BackwardsValleyFarm-v0): depth by depth. */
static void beam_over_actions(const vf_env *start, int width, void *work, vf_plan *out) {
    const int kind = start->kind, na = vf_num_actions(kind);
    node *beam = work, *next = beam + width;
    uint64_t *keys = (uint64_t *)(next + width), *set = keys + width;
    const size_t slots = set_slots(kind, width);
    const double base = vf_total_reward(start);

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
                child.rank = child.ret; /* backwards pays each reward as it happens */
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
}

/* ---- ValleyFarm-v0: a beam over trips ---------------------------------------------------
 *
 * Most of a valley episode is walking, and the map never changes (only the soil's stage),
 * so single-action search spends its beam on half-walked paths. The valley search expands
 * trips instead: walk a shortest path to a place where an action pays and take it there
 * (plant, water or harvest on a field; feed, or collect, now or after the next product, at
 * an animal; gift next to a villager; sell at the market), or wait one step. A trip of d
 * moves lands d + 1 (or more, when it waits for a product) steps later, so the beam keeps
 * one bucket per step count and ranks a state only against states of the same age; buckets
 * are expanded in age order. Every step is still vf_step, so plans are plain action lists. */

/* Targets: each field, each animal, the market, and each tile from which a villager can
 * take a gift (its own and the walkable ones next to it). */
enum {
    T_CROP = 0,
    T_ANIMAL = T_CROP + VF_VALLEY_CROPS,
    T_MARKET = T_ANIMAL + VF_VALLEY_ANIMALS,
    T_GIFT = T_MARKET + 1,
    TARGETS = T_GIFT + 5 * VF_VALLEY_VILLAGERS
};

#define CELLS (VF_VALLEY_W * VF_VALLEY_H)
#define FAR   255

/* dist[t][cell]: moves from the cell to target t, FAR where unreachable. */
typedef struct trip_map {
    int gift_spots; /* targets T_GIFT .. T_GIFT + gift_spots - 1 are in use */
    uint8_t dist[TARGETS][CELLS];
    int to_market_from[TARGETS]; /* moves from a field's or animal's tile to the market */
} trip_map;

/* Breadth-first over the walkable tiles of a w x h map from the cells already 0 in d (the
 * rest FAR): d becomes the moves from each cell to the nearest of them. `tiles` is the map's
 * tile (0, 0) in its padded grid of `pitch` bytes a row, so a neighbour off the map reads
 * the frame, which is not walkable. Both farms' planners measure their walks with it. */
static void spread(uint8_t *d, int w, int h, const uint8_t *tiles, int pitch, uint32_t walkable) {
    int queue[CELLS], head = 0, tail = 0; /* the valley's map is the larger */
    for (int c = 0; c < w * h; c++)
        if (d[c] == 0) queue[tail++] = c;
    while (head < tail) {
        const int c = queue[head++], x = c % w, y = c / w;
        for (int k = 0; k < 4; k++) {
            const int nx = x + vfg_dx[k], ny = y + vfg_dy[k], n = ny * w + nx;
            if (!vf_tile_in(walkable, tiles[ny * pitch + nx]) || d[n] != FAR) continue;
            d[n] = (uint8_t)(d[c] + 1);
            queue[tail++] = n;
        }
    }
}

static bool walkable_tile(int code) {
    return vf_tile_in(VFV_WALKABLE, code);
}

static void valley_spread(const vf_valley *v, uint8_t *d) {
    spread(d, VF_VALLEY_W, VF_VALLEY_H, &v->tiles[VF_BORDER][VF_BORDER], sizeof v->tiles[0],
           VFV_WALKABLE);
}

static void trip_map_init(trip_map *m, const vf_valley *v) {
    memset(m, FAR, sizeof *m);
    for (int i = 0; i < VF_VALLEY_CROPS; i++)
        m->dist[T_CROP + i][v->crops[i].y * VF_VALLEY_W + v->crops[i].x] = 0;
    for (int i = 0; i < VF_VALLEY_ANIMALS; i++)
        m->dist[T_ANIMAL + i][v->animals[i].y * VF_VALLEY_W + v->animals[i].x] = 0;
    m->dist[T_MARKET][v->market.y * VF_VALLEY_W + v->market.x] = 0;
    m->gift_spots = 0;
    for (int i = 0; i < VF_VALLEY_VILLAGERS; i++) {
        for (int k = -1; k < 4; k++) {
            int x = v->villagers[i].x + (k < 0 ? 0 : vfg_dx[k]),
                y = v->villagers[i].y + (k < 0 ? 0 : vfg_dy[k]);
            if (!walkable_tile(vf_valley_tile(v, x, y))) continue;
            int cell = y * VF_VALLEY_W + x, seen = 0;
            for (int j = 0; j < m->gift_spots; j++) seen |= m->dist[T_GIFT + j][cell] == 0;
            if (!seen) m->dist[T_GIFT + m->gift_spots++][cell] = 0;
        }
    }
    for (int t = 0; t < T_GIFT + m->gift_spots; t++) valley_spread(v, m->dist[t]);
    for (int i = 0; i < VF_VALLEY_CROPS; i++)
        m->to_market_from[T_CROP + i] =
            m->dist[T_MARKET][v->crops[i].y * VF_VALLEY_W + v->crops[i].x];
    for (int i = 0; i < VF_VALLEY_ANIMALS; i++)
        m->to_market_from[T_ANIMAL + i] =
            m->dist[T_MARKET][v->animals[i].y * VF_VALLEY_W + v->animals[i].x];
}

/* The shortest trips from the agent, for the ranking (vfv_plan_potential_units). */
static vfv_reach reach(const trip_map *m, const vf_valley *v) {
    vfv_reach r;
    const int here = v->agent.y * VF_VALLEY_W + v->agent.x;
    r.to_market = m->dist[T_MARKET][here];
    r.to_gift = FAR;
    for (int i = 0; i < m->gift_spots; i++)
        if (m->dist[T_GIFT + i][here] < r.to_gift) r.to_gift = m->dist[T_GIFT + i][here];
    for (int i = 0; i < VF_VALLEY_ANIMALS; i++) {
        r.to_animal[i] = m->dist[T_ANIMAL + i][here];
        r.animal_to_market[i] = m->to_market_from[T_ANIMAL + i];
    }
    for (int i = 0; i < VF_VALLEY_CROPS; i++) {
        r.to_crop[i] = m->dist[T_CROP + i][here];
        r.crop_to_market[i] = m->to_market_from[T_CROP + i];
    }
    return r;
}

/* Plays one action on a node, recording it; false once the episode is over. */
static bool play(node *n, int action) {
    if (vf_terminated(&n->env)) return false;
    n->actions[vf_step_count(&n->env)] = (uint8_t)action;
    vf_step(&n->env, action, NULL);
    return true;
}

/* Walks the node to target t along a shortest path (ties: north, south, east, west). */
static bool walk(node *n, const trip_map *m, int t) {
    const uint8_t *d = m->dist[t];
    for (;;) {
        const vf_valley *v = &n->env.u.valley;
        int x = v->agent.x, y = v->agent.y, here = d[y * VF_VALLEY_W + x];
        if (here == 0) return true;
        if (here == FAR) return false;
        int k = 0;
        while (!walkable_tile(vf_valley_tile(v, x + vfg_dx[k], y + vfg_dy[k])) ||
               d[(y + vfg_dy[k]) * VF_VALLEY_W + x + vfg_dx[k]] != here - 1)
            k++;
        if (!play(n, k)) return false;
    }
}

static bool legal(const node *n, int action) {
    uint8_t mask[VF_ACTIONS_MAX];
    vf_legal_actions(&n->env, mask);
    return mask[action] != 0;
}

/* Walks a copy of `from` to target t into *out; false if the episode ends first. */
static bool arrive(const node *from, const trip_map *m, int t, node *out) {
    *out = *from;
    return walk(out, m, t);
}

/* Adds `at` + action as the next child if the action is legal there. */
static int act(const node *at, int action, node *out, int count) {
    if (!legal(at, action)) return count;
    out[count] = *at;
    return play(&out[count], action) ? count + 1 : count;
}

/* The children of a node, its trips, written to out; returns how many. */
#define MAX_TRIPS (VF_VALLEY_CROPS + 3 * VF_VALLEY_ANIMALS + 1 + 5 * VF_VALLEY_VILLAGERS + 1)

static int trips(const node *from, const trip_map *m, node *out) {
    int count = 0;
    node at;
    for (int i = 0; i < VF_VALLEY_CROPS; i++) {
        if (!arrive(from, m, T_CROP + i, &at)) continue;
        /* the field's stage decides which of these is legal: one at most */
        count = act(&at, VF_VA_PLANT, out, count);
        count = act(&at, VF_VA_WATER, out, count);
        count = act(&at, VF_VA_HARVEST, out, count);
    }
    for (int i = 0; i < VF_VALLEY_ANIMALS; i++) {
        if (!arrive(from, m, T_ANIMAL + i, &at)) continue;
        count = act(&at, VF_VA_FEED, out, count);
        count = act(&at, VF_VA_COLLECT, out, count);
        /* or wait there for its next product and collect then (collecting resets the
         * product counter, so collecting as a product appears loses nothing) */
        const vf_valley_animal *a = &at.env.u.valley.animals[i];
        int pending = a->pending;
        bool waiting = a->sated_steps_left > 0;
        while (waiting && a->pending == pending)
            waiting = a->sated_steps_left > 0 && play(&at, VF_VA_WAIT);
        if (waiting) count = act(&at, VF_VA_COLLECT, out, count);
    }
    if (arrive(from, m, T_MARKET, &at)) count = act(&at, VF_VA_SELL, out, count);
    for (int i = 0; i < m->gift_spots; i++)
        if (arrive(from, m, T_GIFT + i, &at)) count = act(&at, VF_VA_GIFT, out, count);
    return act(from, VF_VA_WAIT, out, count);
}

static uint64_t *bucket_keys(void *work, int width, int t) {
    return (uint64_t *)((node *)work + (size_t)BUCKETS * width) + (size_t)t * width;
}

static uint64_t *bucket_set(void *work, int width, int t) {
    return bucket_keys(work, width, BUCKETS) + (size_t)t * bucket_slots(width);
}

/* The set stops recording at half load (a duplicate then costs a beam slot, no more). */
static bool bucket_offer(uint64_t *set, size_t slots, size_t *used, uint64_t key) {
    if (2 * *used >= slots) return true;
    if (!set_add(set, slots, key)) return false;
    ++*used;
    return true;
}

static void beam_over_trips(const vf_env *start, int width, void *work, vf_plan *out) {
    node *nodes = work;
    const size_t slots = bucket_slots(width);
    int size[BUCKETS] = {0};
    size_t used[BUCKETS] = {0};
    memset(bucket_set(work, width, 0), 0, BUCKETS * slots * sizeof(uint64_t));
    trip_map map;
    trip_map_init(&map, &start->u.valley);
    const int base = start->u.valley.reward_units, t0 = start->u.valley.step;
    node *first = &nodes[(size_t)t0 * width];
    memset(first, 0, sizeof *first);
    first->env = *start;
    size[t0] = 1;
    int best_units = 0, best_len = t0;
    const uint8_t *best_actions = first->actions;
    node children[MAX_TRIPS];
    for (int t = t0; t < VF_VALLEY_HORIZON; t++) {
        for (int i = 0; i < size[t]; i++) {
            int n = trips(&nodes[(size_t)t * width + i], &map, children);
            for (int k = 0; k < n; k++) {
                node *c = &children[k];
                const vf_valley *v = &c->env.u.valley;
                int age = v->step;
                uint64_t key = state_key(&c->env);
                if (!bucket_offer(bucket_set(work, width, age), slots, &used[age], key)) continue;
                c->ret = (v->reward_units - base) / (double)VFV_UNITS_PER_REWARD;
                const vfv_reach r = reach(&map, v);
                c->rank = v->reward_units + vfv_plan_potential_units(v, &r);
                node *heap = &nodes[(size_t)age * width];
                uint64_t *keys = bucket_keys(work, width, age);
                if (size[age] < width) {
                    heap[size[age]] = *c;
                    keys[size[age]] = key;
                    sift_up(heap, keys, size[age]++);
                } else if (worse(&heap[0], keys[0], c, key)) {
                    heap[0] = *c;
                    keys[0] = key;
                    sift_down(heap, keys, size[age], 0);
                }
            }
        }
        /* the best of this age is final now: nothing lands in an expanded bucket */
        for (int i = 0; i < size[t]; i++) {
            const node *c = &nodes[(size_t)t * width + i];
            if (c->env.u.valley.reward_units - base > best_units) {
                best_units = c->env.u.valley.reward_units - base;
                best_len = t;
                best_actions = c->actions;
            }
        }
    }
    for (int i = 0; i < size[VF_VALLEY_HORIZON]; i++) {
        const node *c = &nodes[(size_t)VF_VALLEY_HORIZON * width + i];
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

/* ---- BackwardsValleyFarm-v0: the map the bound measures --------------------------------
 *
 * Walkable tiles (ground and fields; a harvested field is ground) never change, so the
 * shortest walks are measured once per search: to each target (a crop's field, the walkable
 * neighbours of a house or a pen), to the tiles that see each animal, and between targets. */

#define BW_CELLS (VF_BW_W * VF_BW_H)
_Static_assert(BW_CELLS <= CELLS, "spread's queue holds either map");

typedef struct bw_map {
    uint8_t dist[VFB_TARGETS][BW_CELLS];   /* moves from a cell to the target, FAR: never */
    uint8_t view[VF_BW_ANIMALS][BW_CELLS]; /* moves from a cell to one that sees the animal */
    uint8_t between[VFB_TARGETS][VFB_TARGETS];
} bw_map;

static bool bw_walkable(const vf_backwards *b, int x, int y) {
    return vf_tile_in(VFB_WALKABLE, vf_bw_tile(b, x, y)); /* the frame is out of bounds */
}

static void bw_spread(const vf_backwards *b, uint8_t *d) {
    spread(d, VF_BW_W, VF_BW_H, &b->tiles[VF_BORDER][VF_BORDER], sizeof b->tiles[0], VFB_WALKABLE);
}

/* Marks the walkable neighbours of (x, y) in d. */
static void bw_next_to(const vf_backwards *b, int x, int y, uint8_t *d) {
    for (int k = 0; k < 4; k++)
        if (bw_walkable(b, x + vfg_dx[k], y + vfg_dy[k]))
            d[(y + vfg_dy[k]) * VF_BW_W + x + vfg_dx[k]] = 0;
}

static void bw_map_init(bw_map *m, const vf_backwards *b) {
    memset(m, FAR, sizeof *m);
    for (int i = 0; i < VF_BW_CROPS; i++) m->dist[i][b->crops[i].y * VF_BW_W + b->crops[i].x] = 0;
    for (int i = 0; i < VF_BW_VILLAGERS; i++)
        bw_next_to(b, b->villagers[i].x, b->villagers[i].y, m->dist[VFB_T_VILLAGER + i]);
    for (int i = 0; i < VF_BW_ANIMALS; i++) {
        const vf_bw_entity *a = &b->animals[i];
        bw_next_to(b, a->x, a->y, m->dist[VFB_T_ANIMAL + i]);
        for (int y = 0; y < VF_BW_H; y++)
            for (int x = 0; x < VF_BW_W; x++)
                if (x - a->x <= VFB_VIEW_R && a->x - x <= VFB_VIEW_R && y - a->y <= VFB_VIEW_R &&
                    a->y - y <= VFB_VIEW_R && bw_walkable(b, x, y))
                    m->view[i][y * VF_BW_W + x] = 0;
        bw_spread(b, m->view[i]);
    }
    for (int t = 0; t < VFB_TARGETS; t++) bw_spread(b, m->dist[t]);
    for (int t = 0; t < VFB_TARGETS; t++)     /* from target t: its nearest tile's walk */
        for (int u = 0; u < VFB_TARGETS; u++) /* to target u */
            for (int c = 0; c < BW_CELLS; c++)
                if (m->dist[t][c] == 0 && m->dist[u][c] < m->between[t][u])
                    m->between[t][u] = m->dist[u][c];
}

/* trees: NULL, or a memo of VFB_TREES entries a cell for the bound's spanning trees */
#define VFB_TREES     ((size_t)1 << VFB_TARGETS)
#define BW_TREE_BYTES (BW_CELLS * VFB_TREES * sizeof(uint16_t))

static vfb_reach bw_reach(const bw_map *m, const vf_backwards *b, uint16_t *trees) {
    vfb_reach r;
    const int here = b->agent.y * VF_BW_W + b->agent.x;
    for (int t = 0; t < VFB_TARGETS; t++) r.to[t] = m->dist[t][here];
    for (int i = 0; i < VF_BW_ANIMALS; i++) r.to_view[i] = m->view[i][here];
    r.between = m->between;
    r.trees = trees ? trees + (size_t)here * VFB_TREES : NULL;
    return r;
}

/* ---- proving a plan optimal -------------------------------------------------------------
 *
 * Depth first from the start, best-ranked child first, from the best plan known so far: a
 * state is skipped when its reward plus the bound from there cannot beat that plan, or when
 * it was searched already with as much reward. The table that remembers searched states keys
 * each by everything that decides its future, packed exactly (no hash), and keeps the most
 * reward it was searched with.
 *
 * What a state's children are:
 *  - ValleyFarm-v0: its trips (trips() above). They lose nothing: a move changes only where
 *    the agent stands, a wait (or an illegal action) only the clock, and every other action
 *    is taken on a target tile (a field, an animal, the market, a tile a gift can be given
 *    from). So any play is a run of stretches, each some moves and waits ending in one action
 *    on a target; doing a stretch's waits first (wait trips) and then a shortest walk there
 *    (the trip) reaches the same state at the same step, since the map never changes and the
 *    animals tick on the clock alone.
 *  - BackwardsValleyFarm-v0: every legal action but water, fertilize and clean. Clean does
 *    exactly what feed does; water and fertilize only set a crop back, and a crop that has
 *    not been set back is at every later step at least as ripe, so a play that waits instead
 *    harvests each crop no later (harvesting is automatic and each crop pays once).
 */

/* The reward so far in the kind's whole units: 0.05 (valley) or one Farm Value point. */
static int32_t units_of(const vf_env *e) {
    return vf_reward_units(e);
}

static double units_to_return(int kind, int32_t units) {
    return units / (double)vf_units_per_reward(kind);
}

/* What a farm's bound measures on the map once per search (and per vf_plan_bound call). */
typedef struct proof_maps {
    trip_map trips;  /* valley */
    bw_map bw;       /* backwards */
    uint16_t *trees; /* backwards: BW_CELLS x VFB_TREES spanning-tree lengths, in work memory,
                        or NULL */
} proof_maps;

typedef struct proof_key {
    uint64_t a, b;
} proof_key;

struct planner {
    size_t state_bytes;  /* the farm's state in vf_env's union: what state_key hashes */
    size_t tree_bytes;   /* the proof's spanning-tree memo */
    bool ranks_by_bound; /* a proof child's rank is its reward plus its bound */
    size_t (*work_size)(int width);
    void (*beam)(const vf_env *start, int width, void *work, vf_plan *out);
    void (*maps)(proof_maps *m, const vf_env *start);
    int32_t (*bound_units)(const vf_env *e, const proof_maps *m, int beat);
    proof_key (*exact_key)(const vf_env *e);
    int (*children)(const node *n, const proof_maps *m, int32_t best_units, node *out);
};

static void valley_maps(proof_maps *m, const vf_env *start) {
    trip_map_init(&m->trips, &start->u.valley);
}

static void backwards_maps(proof_maps *m, const vf_env *start) {
    bw_map_init(&m->bw, &start->u.backwards);
}

/* An upper bound on the units still to come; at or below `beat` it may be any such value. */
static int32_t valley_bound_units(const vf_env *e, const proof_maps *m, int beat) {
    (void)beat;
    const vfv_reach r = reach(&m->trips, &e->u.valley);
    return vfv_plan_bound_units(&e->u.valley, &r);
}

static int32_t backwards_bound_units(const vf_env *e, const proof_maps *m, int beat) {
    const vfb_reach r = bw_reach(&m->bw, &e->u.backwards, m->trees);
    return vfb_plan_bound(&e->u.backwards, &r, beat);
}

static int32_t bound_units(const vf_env *e, const proof_maps *m, int beat);

double vf_plan_bound(const vf_env *start) {
    if (!planner_of(start->kind)) return 0; /* no farm: nothing to earn */
    proof_maps maps;
    maps.trees = NULL;
    planner_of(start->kind)->maps(&maps, start);
    return units_to_return(start->kind, bound_units(start, &maps, -1));
}

typedef struct proof_slot {
    uint64_t a, b; /* the state's key; a == 0 marks an empty slot (keys have bit 63 set) */
    int32_t units; /* the most reward the state was searched with */
} proof_slot;

/* The valley: where the agent stands, the step, the inventory but the coins (which nothing
 * spends), the fields' stages, the relationships and the animals: 92 bits. The backwards
 * farm: where the agent stands and faces, the step, and each crop's stage, villager's mood
 * and animal's health with whether it has paid: 58 bits. The meters are the reward, kept
 * beside the key (they never reach their cap of 100: the bonuses add up to 67 at most). */
static proof_key valley_key(const vf_env *e) {
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
    return (proof_key){a, b};
}

static proof_key backwards_key(const vf_env *e) {
    uint64_t a = (uint64_t)1 << 63, b = 0;
    const vf_backwards *w = &e->u.backwards;
    a |= (uint64_t)w->agent.x | (uint64_t)w->agent.y << 4 | (uint64_t)w->facing << 8 |
         (uint64_t)w->step << 10;
    const vf_bw_entity *all[3] = {w->crops, w->villagers, w->animals};
    const int count[3] = {VF_BW_CROPS, VF_BW_VILLAGERS, VF_BW_ANIMALS};
    int shift = 16;
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < count[k]; i++, shift += 3) {
            const vf_bw_entity *x = &all[k][i];
            a |= (uint64_t)(vf_bw_status(w, x->x, x->y) | x->done << 2) << shift;
        }
    return (proof_key){a, b};
}

/* The field widths above hold every value a state restore accepts. */
_Static_assert(VF_VALLEY_W <= 16 && VF_VALLEY_H <= 16 && VF_VALLEY_HORIZON < 64 && VF_BW_W <= 16 &&
                   VF_BW_H <= 16 && VF_BW_HORIZON < 64 &&
                   16 + 3 * (VF_BW_CROPS + VF_BW_VILLAGERS + VF_BW_ANIMALS) <= 63,
               "positions, steps and entities fit their bits");

static size_t proof_slots(int states) {
    size_t slots = 64;
    while (slots < 2 * (size_t)states) slots *= 2;
    return slots;
}

/* Levels of the depth-first stack (every child is at least a step later), and the most
 * children a state has: a valley state's trips outnumber a backwards state's actions. */
#define PROOF_LEVELS   (VF_VALLEY_HORIZON + 1)
#define PROOF_CHILDREN MAX_TRIPS
_Static_assert(VF_BW_HORIZON <= VF_VALLEY_HORIZON && VF_BW_ACTIONS <= MAX_TRIPS,
               "the stack fits both kinds");

/* Work memory: the table, the stack, and (backwards) the spanning-tree memo. */
static size_t tree_bytes(int kind);

size_t vf_plan_prove_work_size(int kind, int states) {
    if (!planner_of(kind) || states < 1 || states > VF_PROVE_STATES_MAX) return 0;
    return proof_slots(states) * sizeof(proof_slot) +
           (size_t)PROOF_LEVELS * PROOF_CHILDREN * sizeof(node) + tree_bytes(kind);
}

typedef enum { SEARCH, SEEN, FULL } proof_visit;

/* Records a state about to be searched with `units` of reward. */
static proof_visit proof_record(proof_slot *table, size_t slots, int *used, int most, proof_key k,
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

/* The children of a node into out, and their order best-ranked first: the valley's by reward plus potential
 * (vfv_plan_potential_units); the backwards farm's by reward plus bound, each checked as it is
 * made (a child that cannot beat best_units is left out; rank then stays a valid bound). */
static int valley_children(const node *n, const proof_maps *m, int32_t best_units, node *out) {
    (void)best_units;
    const int count = trips(n, &m->trips, out);
    for (int i = 0; i < count; i++) {
        const vf_valley *v = &out[i].env.u.valley;
        const vfv_reach r = reach(&m->trips, v);
        out[i].rank = v->reward_units + vfv_plan_potential_units(v, &r);
    }
    return count;
}

static int backwards_children(const node *n, const proof_maps *m, int32_t best_units, node *out) {
    int count = 0;
    uint8_t mask[VF_ACTIONS_MAX];
    vf_legal_actions(&n->env, mask);
    for (int a = 0; a < VF_BW_ACTIONS; a++) {
        if (!mask[a] || a == VF_BA_WATER || a == VF_BA_FERTILIZE || a == VF_BA_CLEAN) continue;
        node *c = &out[count];
        *c = *n;
        play(c, a);
        const int32_t units = units_of(&c->env);
        c->rank = units + backwards_bound_units(&c->env, m, best_units - units);
        count += vf_terminated(&c->env) ? units > best_units : c->rank > best_units;
    }
    return count;
}

static int proof_children(const node *n, const proof_maps *m, int32_t best_units, node *out,
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
static bool prove_search(const vf_env *start, int states, void *work, node *best) {
    const size_t slots = proof_slots(states);
    proof_slot *table = work;
    node *stack = (node *)(table + slots);
    memset(table, 0, slots * sizeof *table);
    proof_maps maps;
    maps.trees = (uint16_t *)(stack + (size_t)PROOF_LEVELS * PROOF_CHILDREN);
    memset(maps.trees, 0xFF, tree_bytes(start->kind)); /* VFB_NO_TREE */
    const planner *p = planner_of(start->kind);
    p->maps(&maps, start);
    int count[PROOF_LEVELS], next[PROOF_LEVELS], used = 0;
    uint8_t order[PROOF_LEVELS][PROOF_CHILDREN];
    int32_t best_units = units_of(&best->env);
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
        const node *n = &stack[(size_t)level * PROOF_CHILDREN + order[level][next[level]++]];
        const int32_t units = units_of(&n->env);
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
        node *children = &stack[(size_t)(level + 1) * PROOF_CHILDREN];
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
    node best;
    memset(&best, 0, sizeof best);
    best.env = *start;
    for (int i = 0; i < plan->length; i++) {
        if (plan->actions[i] >= na) return VF_ERR_ARGUMENT;
        play(&best, plan->actions[i]);
    }
    /* in whole units, as the planners count (a difference of two doubles may round apart) */
    if (units_to_return(start->kind, units_of(&best.env) - units_of(start)) != plan->best_return)
        return VF_ERR_ARGUMENT;
    const bool proven = prove_search(start, states, work, &best);
    plan->length = vf_step_count(&best.env) - t0;
    memcpy(plan->actions, best.actions + t0, (size_t)plan->length);
    plan->best_return = units_to_return(start->kind, units_of(&best.env) - units_of(start));
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

static size_t backwards_work_size(int width) {
    return actions_work_size(VF_BACKWARDS, width);
}

static const planner planners[] = {
    [VF_VALLEY] =
        {
            .state_bytes = sizeof(vf_valley),
            .work_size = trips_work_size,
            .beam = beam_over_trips,
            .maps = valley_maps,
            .bound_units = valley_bound_units,
            .exact_key = valley_key,
            .children = valley_children,
        },
    [VF_BACKWARDS] =
        {
            .state_bytes = sizeof(vf_backwards),
            .tree_bytes = BW_TREE_BYTES,
            .ranks_by_bound = true,
            .work_size = backwards_work_size,
            .beam = beam_over_actions,
            .maps = backwards_maps,
            .bound_units = backwards_bound_units,
            .exact_key = backwards_key,
            .children = backwards_children,
        },
};
_Static_assert(sizeof planners / sizeof planners[0] == VF_KIND_COUNT,
               "every vf_kind has its planner here");

static const planner *planner_of(int kind) {
    return kind >= 0 && kind < VF_KIND_COUNT ? &planners[kind] : NULL;
}

static size_t state_bytes(int kind) {
    return planner_of(kind)->state_bytes;
}

static size_t tree_bytes(int kind) {
    return planner_of(kind)->tree_bytes;
}

static int32_t bound_units(const vf_env *e, const proof_maps *m, int beat) {
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
