/* valley_agent.c — the ValleyFarm-v0 heuristic: a sensible player that sees only the
 * observation. The observation has no coordinates, so the agent keeps its own map in
 * coordinates relative to where it started (a move succeeds exactly when the cell it walks
 * into is walkable, which the view shows), and follows the animals it fed with the rules'
 * counters, so it knows when products are waiting.
 *
 * Each step: do the best thing on this tile (gift, collect, feed, harvest, water, plant,
 * sell), else walk towards the cell with the best value per step of walking and work:
 * villagers while it holds gifts (+3.75 a gift), animals to feed and collect, crops, the
 * market when it carries goods (and, near the end, the market first), unexplored edges.
 *
 * It plays exactly as the JS package's heuristic did before it moved here (its returns on
 * the evaluation seeds are wasm/data/baselines.json's; tests/c/test_agents.c holds them). */
#include "valley_rules.h"

#define SIDE VFA_VALLEY_SIDE
#define OFF  (SIDE / 2)
#define REACH                                                                                      \
    (OFF -                                                                                         \
     4) /* the farthest it may be from its start: its map holds its views and their neighbours */
#define CELL(x, y) (((y) + OFF) * SIDE + (x) + OFF)

/* view indices north, south, east, west of the agent, and the steps of the moves */
static const int neighbours[4] = {7, 17, 13, 11};
static const int step_x[4] = {0, 0, 1, -1}, step_y[4] = {-1, 1, 0, 0};

static bool is_animal(int code) {
    return code >= VF_VT_CHICKEN && code <= VF_VT_SHEEP;
}

static bool walkable(const vfa_valley *a, int x, int y) {
    int code = a->map[CELL(x, y)];
    return code >= 0 && vf_tile_in(VFV_WALKABLE, code);
}

static vfa_valley_animal *animal_at(vfa_valley *a, int at) {
    for (int i = 0; i < a->animals; i++)
        if (a->animal[i].at == at) return &a->animal[i];
    return NULL;
}

void vfa_valley_reset(vfa_valley *a) {
    a->x = a->y = 0;
    memset(a->map, -1, sizeof a->map);
    a->villagers = 0;
    a->animals = 0;
    a->last_action = -1;
    a->last_at = -1;
    a->goal = -1;
}

/* The breadth-first search from the agent over remembered walkable cells, in the order cells
 * are reached: x, y, moves, first move. */
typedef struct spread {
    int8_t x[SIDE * SIDE], y[SIDE * SIDE];
    int16_t d[SIDE * SIDE];
    int8_t first[SIDE * SIDE];
    uint8_t seen[SIDE * SIDE];
    int n;
} spread;

static void search(const vfa_valley *a, spread *q) {
    memset(q->seen, 0, sizeof q->seen);
    q->x[0] = (int8_t)a->x;
    q->y[0] = (int8_t)a->y;
    q->d[0] = 0;
    q->first[0] = -1;
    q->seen[CELL(a->x, a->y)] = 1;
    q->n = 1;
    for (int i = 0; i < q->n; i++) {
        for (int dir = 0; dir < 4; dir++) {
            int nx = q->x[i] + step_x[dir], ny = q->y[i] + step_y[dir];
            int c = CELL(nx, ny);
            if (q->seen[c] || !walkable(a, nx, ny)) continue;
            q->seen[c] = 1;
            q->x[q->n] = (int8_t)nx;
            q->y[q->n] = (int8_t)ny;
            q->d[q->n] = (int16_t)(q->d[i] + 1);
            q->first[q->n] = (int8_t)(q->first[i] < 0 ? dir : q->first[i]);
            q->n++;
        }
    }
}

/* The previous action's effect on the animals, then their tick (rules: Animals). */
static void advance(vfa_valley *a) {
    if (a->last_action < 0) return;
    vfa_valley_animal *here = animal_at(a, a->last_at);
    if (a->last_action == VF_VA_FEED) {
        int pending = here ? here->pending : 0;
        if (!here && a->animals < (int)(sizeof a->animal / sizeof a->animal[0]))
            here = &a->animal[a->animals++];
        if (here)
            *here = (vfa_valley_animal){(int16_t)a->last_at, SATED_TICKS, 0, (uint8_t)pending, 1};
    } else if (a->last_action == VF_VA_COLLECT && here) {
        here->pending = 0;
        here->counter = 0;
    }
    for (int i = 0; i < a->animals; i++) {
        vfa_valley_animal *m = &a->animal[i];
        if (m->fed_now) {
            m->fed_now = 0;
            continue;
        }
        if (m->sated_left == 0) continue;
        if (++m->counter == PRODUCT_TICKS) {
            m->pending++;
            m->counter = 0;
        }
        m->sated_left--;
    }
}

typedef struct best {
    double score;
    int first, at; /* at -1: none yet */
} best;

static void consider(const vfa_valley *a, const spread *q, int i, double value, int work, int left,
                     best *b) {
    if (q->d[i] + work > left) return;
    int at = CELL(q->x[i], q->y[i]);
    double score = (value / (q->d[i] + work)) * (at == a->goal ? 1.5 : 1);
    if (b->at < 0 || score > b->score) *b = (best){score, q->first[i], at};
}

static int choose(vfa_valley *a, const int32_t *obs) {
    const int32_t *inv = obs + VF_VO_INVENTORY, *v = obs + VF_VO_VIEW;
    const int here = v[12], at = CELL(a->x, a->y), left = obs[VF_VO_STEPS_LEFT];
    const int gifts = inv[VF_GIFTS], water = inv[VF_WATER], seeds = inv[VF_SEEDS];
    const int goods = inv[VF_CROPS] + inv[VF_PRODUCTS];
    /* what a gift earns: 7.5 relationship points at 0.5 each */
    const double gift_value = (double)(GIFT_STEP2 * REWARD_GIFT2) / VFV_UNITS_PER_REWARD;

    /* 1. the best thing to do right here */
    if (gifts > 0) {
        bool villager = here == VF_VT_VILLAGER;
        for (int k = 0; k < 4; k++) villager |= v[neighbours[k]] == VF_VT_VILLAGER;
        if (villager) return VF_VA_GIFT;
    }
    if (is_animal(here)) {
        const vfa_valley_animal *m = animal_at(a, at);
        if (m && m->pending > 0) return VF_VA_COLLECT;
        if (obs[VF_VO_CENTER] == 0 && inv[VF_FEED] > 0 && left > 6) return VF_VA_FEED;
    }
    if (here == VF_VT_CROP_MATURE) return VF_VA_HARVEST;
    if ((here == VF_VT_SOIL_SEEDED && water >= 2) || (here == VF_VT_CROP_GROWING && water >= 1))
        return VF_VA_WATER;
    if (here == VF_VT_SOIL_EMPTY && seeds > 0 && water >= 2 && left > 8) return VF_VA_PLANT;
    if (here == VF_VT_MARKET && goods > 0) return VF_VA_SELL;

    /* 2. walk towards the best value per step */
    spread q;
    search(a, &q);
    if (goods > 0) {
        for (int i = 0; i < q.n; i++) {
            if (a->map[CELL(q.x[i], q.y[i])] != VF_VT_MARKET) continue;
            if (q.d[i] + 2 >= left) return q.first[i];
            break;
        }
    }
    best b = {0, 0, -1};
    const bool known_villager = a->villagers > 0;
    for (int i = 1; i < q.n; i++) {
        const int x = q.x[i], y = q.y[i], code = a->map[CELL(x, y)], d = q.d[i];
        const int8_t around[4] = {a->map[CELL(x, y - 1)], a->map[CELL(x, y + 1)],
                                  a->map[CELL(x + 1, y)], a->map[CELL(x - 1, y)]};
        bool near_villager = false, frontier = false;
        for (int k = 0; k < 4; k++) {
            near_villager |= around[k] == VF_VT_VILLAGER;
            frontier |= around[k] < 0;
        }
        if (gifts > 0 && (code == VF_VT_VILLAGER || near_villager))
            consider(a, &q, i, gift_value * gifts, gifts, left, &b);
        if (is_animal(code)) {
            const vfa_valley_animal *m = animal_at(a, CELL(x, y));
            if (m && (m->pending > 0 || (m->sated_left > 0 && PRODUCT_TICKS - m->counter <= d)))
                consider(a, &q, i, 1.2 * (m->pending > 1 ? m->pending : 1), 1, left, &b);
            else if ((!m || m->sated_left == 0) && inv[VF_FEED] > 0 && left - d > 12)
                consider(a, &q, i, 1.6, 6, left, &b);
        }
        if (code == VF_VT_CROP_MATURE) consider(a, &q, i, 0.6, 1, left, &b);
        if (code == VF_VT_CROP_GROWING && water >= 1) consider(a, &q, i, 0.55, 2, left, &b);
        if (code == VF_VT_SOIL_SEEDED && water >= 2) consider(a, &q, i, 0.5, 3, left, &b);
        if (code == VF_VT_SOIL_EMPTY && seeds > 0 && water >= 2 && left - d > 8)
            consider(a, &q, i, 0.5, 4, left, &b);
        if (code == VF_VT_MARKET && goods > 0)
            consider(a, &q, i,
                     0.11 * (PRICE_CROP * inv[VF_CROPS] + PRICE_PRODUCT * inv[VF_PRODUCTS]), 1,
                     left, &b);
        if (frontier) consider(a, &q, i, gifts > 0 && !known_villager ? 2 : 0.4, 2, left, &b);
    }
    a->goal = b.at;
    return b.at >= 0 ? b.first : VF_VA_WAIT;
}

int vfa_valley_act(vfa_valley *a, const int32_t *obs) {
    if (obs[VF_VO_STEPS_LEFT] == VF_VALLEY_HORIZON) vfa_valley_reset(a);
    if (a->x < -REACH || a->x > REACH || a->y < -REACH || a->y > REACH) return -1;
    advance(a);
    const int32_t *view = obs + VF_VO_VIEW;
    for (int i = 0; i < 25; i++) {
        int c = CELL(a->x + i % 5 - 2, a->y + i / 5 - 2);
        a->villagers += (view[i] == VF_VT_VILLAGER) - (a->map[c] == VF_VT_VILLAGER);
        a->map[c] = (int8_t)view[i];
    }
    const int at = CELL(a->x, a->y);
    vfa_valley_animal *m = animal_at(a, at);
    if (is_animal(view[12]) && obs[VF_VO_CENTER] == 0 && m && m->sated_left > 0) m->sated_left = 0;
    const int action = choose(a, obs);
    a->last_action = action;
    a->last_at = at;
    if (action < 4 && walkable(a, a->x + step_x[action], a->y + step_y[action])) {
        a->x += step_x[action];
        a->y += step_y[action];
    }
    return action;
}
