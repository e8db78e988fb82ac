/* backwards_view.c — BackwardsValleyFarm-v0's completion sampler (a row of view.c's table,
 * view.h): start states drawn from the layout generator's distribution (backwards.c, above
 * draw_layout) given what an agent has seen.
 *
 * What a view shows, and what it leaves hidden:
 *  - Where the agent is and faces.
 *  - The tile of every cell it has had in view. Only a harvest changes a tile (FIELD to
 *    GROUND, under the agent, which saw the field before it stepped there): so a cell's first
 *    sight is its tile at the start.
 *  - The statuses of the cells in view. An entity's status moves only by its own growth or by
 *    the agent's verb on the tile in front (in view), never by another entity's: so what an
 *    entity showed depends on its own start status alone, and the start statuses each entity
 *    allows are found by replaying the view with each.
 *  - Farm Value, whose gain at a step is the sum of the bonuses paid then. Who pays is seen (a
 *    harvest under the agent, a villager insulted in front, an animal reaching Thriving in
 *    view), but for an animal that comes into view already Thriving: it arrived (and paid) on
 *    that step or before, depending on its start health. Values and bonuses show only through
 *    those sums.
 *  - Never: cells never in view, the statuses of entities never in view, the value of an entity
 *    that has not paid.
 *
 * The generator as probabilities: the crop zone uniform over its 49 corners; the pen zone over
 * the N_p corners that do not overlap it; the village zone over the N_v that overlap neither;
 * each zone's entities a uniform subset of its cells; n fences, n uniform over 6 .. 12, on a
 * uniform set of the 86 cells left; the layout redrawn until it passes its check (vfb_layout_
 * check); the agent uniform over the n_start reachable ground cells; every status and value
 * uniform, each on its own. Given a view, the sampler draws
 *  1. the zones, from every triple that holds the seen entities, each weighed by 1 / N_p x
 *     1 / N_v x the number of ways its unseen cells can hold the entities not seen (every
 *     triple listed: exact);
 *  2. each zone's unseen entities uniform over its unseen cells;
 *  3. the fences: n weighed by C(U, n - s) / C(86, n) (s fences seen, U unseen cells that hold no
 *     entity, the same number in every layout the view allows), then uniform over those cells;
 *  4. and accepts the layout if it passes the generator's check with the agent's start among
 *     its reachable ground cells, then with probability n_min / n_start, which gives the
 *     agent's 1 / n_start (n_min: the ground cells seen joined to the start by seen walkable
 *     cells, which every such layout reaches);
 *  5. then the statuses: each entity's uniform over those it allows, but the animals' together,
 *     each combination weighed by the chance that uniform values give the Farm Value gains seen
 *     (which animal paid when, with the harvests and villagers, decides the sums); then each
 *     step's payers' values uniform over the ways that sum to its gain, and every other value
 *     uniform.
 * So completions are drawn exactly from the generator's distribution given the view.
 */
#include "backwards_rules.h"
#include "view.h"

enum { NOT_SEEN = 0xFF };
enum { ENTITIES = VF_BW_CROPS + VF_BW_ANIMALS + VF_BW_VILLAGERS };
enum { CORNERS = (W - 2) * (H - 2) }; /* the most corners a zone has (a 3 x 3 zone's 64) */
enum { FENCE_COUNTS = VF_BW_FENCES_MAX - VF_BW_FENCES_MIN + 1 };
/* The cells fences are drawn on: all but the entities' */
enum { FENCE_CELLS = W * H - ENTITIES };
/* The most combinations of the animals' start healths (3 each) */
enum { ANIMAL_CONFIGS = 27 };
_Static_assert(VF_BW_ANIMALS == 3, "ANIMAL_CONFIGS is 3 healths to the power of the animals");

typedef struct bw_prep {
    uint8_t first[H][W]; /* the first sight of each cell: its start tile; NOT_SEEN */
    vfg_mask seen;
    int seen_of[KINDS]; /* entities seen, by kind */
    int fences_seen;
    int unseen_free;                     /* U: unseen cells that hold no entity */
    int reached_min;                     /* n_min */
    vf_point agent;                      /* the start */
    double fences_cum[FENCE_COUNTS];     /* P(n fences <= VF_BW_FENCES_MIN + i), unnormalised */
    double weight[KINDS][CORNERS];       /* the ways a zone at each corner holds its entities */
    double pairs_cum[CORNERS * CORNERS]; /* cumulative weight of (crop zone, pen zone) */
} bw_prep;

/* ---- zones ---------------------------------------------------------------------------- */

static int corners_x(int k) {
    return W - kinds[k].zone_w + 1;
}
static int corners(int k) {
    return corners_x(k) * (H - kinds[k].zone_h + 1);
}

/* Whether zone k at corner c and zone j at corner d overlap (as place_zone's clash). */
static bool overlap(int k, int c, int j, int d) {
    const int kx = c % corners_x(k), ky = c / corners_x(k);
    const int jx = d % corners_x(j), jy = d / corners_x(j);
    return kx < jx + kinds[j].zone_w && jx < kx + kinds[k].zone_w && ky < jy + kinds[j].zone_h &&
           jy < ky + kinds[k].zone_h;
}

static double choose(int n, int k) {
    if (k < 0 || k > n) return 0;
    double c = 1;
    for (int i = 1; i <= k; i++) c = c * (n - k + i) / i;
    return c;
}

/* The ways zone k at corner c can hold its entities given what was seen: 0 unless every seen
 * entity of its kind is inside and no seen entity of another kind is. */
static double zone_weight(const bw_prep *p, int k, int c) {
    const int zx = c % corners_x(k), zy = c / corners_x(k);
    int mine = 0, unseen = 0;
    for (int y = zy; y < zy + kinds[k].zone_h; y++)
        for (int x = zx; x < zx + kinds[k].zone_w; x++) {
            const int t = p->first[y][x];
            if (t == NOT_SEEN)
                unseen++;
            else if (t == kinds[k].tile)
                mine++;
            else if (t == VF_BT_FIELD || t == VF_BT_PEN || t == VF_BT_HOUSE)
                return 0;
        }
    if (mine != p->seen_of[k]) return 0;
    return choose(unseen, kinds[k].count - mine);
}

/* The village zones that overlap neither (c, d): their number (the prior's N_v) and the sum
 * of their weights. */
static double villages(const bw_prep *p, int c, int d, int *n) {
    double sum = 0;
    *n = 0;
    for (int v = 0; v < corners(VILLAGERS); v++) {
        if (overlap(VILLAGERS, v, CROPS, c) || overlap(VILLAGERS, v, ANIMALS, d)) continue;
        ++*n;
        sum += p->weight[VILLAGERS][v];
    }
    return sum;
}

/* ---- prepare ---------------------------------------------------------------------------- */

static bool prepare(const vf_view *view, void *prep) {
    bw_prep *p = prep;
    memset(p, 0, sizeof *p);
    memset(p->first, NOT_SEEN, sizeof p->first);
    for (int t = 0; t <= view->steps; t++) {
        const int32_t *obs = view->obs[t];
        const int ax = obs[VF_BO_X], ay = obs[VF_BO_Y];
        if (ax >= W || ay >= H) return false;
        for (int k = 0; k < 25; k++) {
            const int x = ax + k % 5 - 2, y = ay + k / 5 - 2, tile = obs[VF_BO_TERRAIN + k];
            const bool on = x >= 0 && x < W && y >= 0 && y < H;
            if (on != (tile != VF_BT_OUT_OF_BOUNDS)) return false;
            if (on && p->first[y][x] == NOT_SEEN) p->first[y][x] = (uint8_t)tile;
        }
    }
    p->agent = (vf_point){(uint8_t)view->obs[0][VF_BO_X], (uint8_t)view->obs[0][VF_BO_Y]};
    if (view->obs[0][VF_BO_FACING] != VF_NORTH || view->obs[0][VF_BO_FARM_VALUE] != 0 ||
        p->first[p->agent.y][p->agent.x] != VF_BT_GROUND)
        return false; /* not the generator's start */
    int seen_cells = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const int t = p->first[y][x];
            if (t == NOT_SEEN) continue;
            vfg_set(&p->seen, x, y);
            seen_cells++;
            p->fences_seen += t == VF_BT_FENCE;
            for (int k = 0; k < KINDS; k++) p->seen_of[k] += t == kinds[k].tile;
        }
    p->unseen_free = W * H - seen_cells;
    for (int k = 0; k < KINDS; k++) {
        if (p->seen_of[k] > kinds[k].count) return false;
        p->unseen_free -= kinds[k].count - p->seen_of[k];
    }

    /* n_min: seen ground joined to the start by seen walkable cells */
    vfg_mask walk = {{0}}, ground = {{0}};
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const int t = p->first[y][x];
            if (t != NOT_SEEN && vf_tile_in(VFB_WALKABLE, t)) vfg_set(&walk, x, y);
            if (p->first[y][x] == VF_BT_GROUND) vfg_set(&ground, x, y);
        }
    vfg_mask reach = vfg_reachable(&walk, W, H, p->agent.x, p->agent.y);
    for (int y = 0; y < H; y++) reach.rows[y] &= ground.rows[y];
    p->reached_min = vfc_count(&reach);

    /* the number of fences: uniform, then every set of n equally likely, given the seen ones */
    double sum = 0;
    for (int i = 0; i < FENCE_COUNTS; i++) {
        const int n = VF_BW_FENCES_MIN + i;
        sum += choose(p->unseen_free, n - p->fences_seen) / choose(FENCE_CELLS, n);
        p->fences_cum[i] = sum;
    }
    if (!(sum > 0)) return false;

    /* the zones: each pair (crop, pen) with its triples' weights summed */
    for (int k = 0; k < KINDS; k++)
        for (int c = 0; c < corners(k); c++) p->weight[k][c] = zone_weight(p, k, c);
    sum = 0;
    for (int c = 0; c < corners(CROPS); c++) {
        int n_pens = 0;
        for (int d = 0; d < corners(ANIMALS); d++) n_pens += !overlap(ANIMALS, d, CROPS, c);
        for (int d = 0; d < corners(ANIMALS); d++) {
            const double w = p->weight[CROPS][c] * p->weight[ANIMALS][d];
            if (w > 0 && !overlap(ANIMALS, d, CROPS, c)) {
                int n_villages;
                const double v = villages(p, c, d, &n_villages);
                sum += w * v / n_pens / n_villages;
            }
            p->pairs_cum[c * CORNERS + d] = sum;
        }
    }
    return sum > 0;
}

/* ---- the layout ------------------------------------------------------------------------- */

/* The index of the first entry of cum[0..n) above u (cum non-decreasing, u below cum[n-1]). */
static int pick(const double *cum, int n, double u) {
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (cum[mid] > u)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* Zone k at corner c: the seen entities, and the rest uniform over its unseen cells; then
 * the entities in generator order (row-major in the zone). */
static void fill_zone(vf_backwards *b, const bw_prep *p, int k, int c, vf_rng *rng,
                      vfg_mask *taken) {
    const struct entity_kind *kd = &kinds[k];
    const int zx = c % corners_x(k), zy = c / corners_x(k);
    uint8_t cells[16], unseen = 0;
    bool chosen[16] = {false};
    for (int i = 0; i < kd->zone_w * kd->zone_h; i++) {
        const int t = p->first[zy + i / kd->zone_w][zx + i % kd->zone_w];
        if (t == NOT_SEEN) cells[unseen++] = (uint8_t)i;
        chosen[i] = t == kd->tile;
    }
    for (int n = 0; n < kd->count - p->seen_of[k]; n++) { /* a partial Fisher-Yates */
        const int j = n + (int)vf_rng_below(rng, (uint32_t)(unseen - n));
        const uint8_t swap = cells[n];
        cells[n] = cells[j];
        cells[j] = swap;
        chosen[cells[n]] = true;
    }
    vf_bw_entity *e = k == CROPS ? b->crops : k == ANIMALS ? b->animals : b->villagers;
    for (int i = 0, n = 0; i < kd->zone_w * kd->zone_h; i++) {
        if (!chosen[i]) continue;
        const int x = zx + i % kd->zone_w, y = zy + i / kd->zone_w;
        e[n++] = (vf_bw_entity){(uint8_t)x, (uint8_t)y, 0, 0};
        TILE(b, x, y) = kd->tile;
        vfg_set(taken, x, y);
    }
}

/* Steps 1-4 of the file comment: a layout, accepted or not. */
static bool layout(const bw_prep *p, vf_rng *rng, vf_backwards *b) {
    const int pairs = corners(CROPS) * CORNERS;
    const int pair = pick(p->pairs_cum, pairs, vfc_uniform(rng) * p->pairs_cum[pairs - 1]);
    const int c = pair / CORNERS, d = pair % CORNERS;
    if (!(p->weight[CROPS][c] > 0 && p->weight[ANIMALS][d] > 0)) return false; /* rounding */
    int n_villages, v = -1;
    double left = vfc_uniform(rng) * villages(p, c, d, &n_villages);
    for (int i = 0; i < corners(VILLAGERS) && left >= 0; i++) {
        if (overlap(VILLAGERS, i, CROPS, c) || overlap(VILLAGERS, i, ANIMALS, d) ||
            !(p->weight[VILLAGERS][i] > 0))
            continue;
        v = i;
        left -= p->weight[VILLAGERS][i];
    }
    if (v < 0) return false;

    vfg_mask taken = {{0}};
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) TILE(b, x, y) = VF_BT_GROUND;
    fill_zone(b, p, CROPS, c, rng, &taken);
    fill_zone(b, p, ANIMALS, d, rng, &taken);
    fill_zone(b, p, VILLAGERS, v, rng, &taken);

    const int n = VF_BW_FENCES_MIN + pick(p->fences_cum, FENCE_COUNTS,
                                          vfc_uniform(rng) * p->fences_cum[FENCE_COUNTS - 1]);
    vfg_mask free = {{0}};
    for (int y = 0; y < H; y++) {
        free.rows[y] = (uint16_t)(((1u << W) - 1u) & ~p->seen.rows[y] & ~taken.rows[y]);
        for (int x = 0; x < W; x++)
            if (p->first[y][x] == VF_BT_FENCE) TILE(b, x, y) = VF_BT_FENCE;
    }
    for (int i = p->fences_seen; i < n; i++) {
        int x, y;
        if (!vfc_take(&free, rng, &x, &y)) return false;
        TILE(b, x, y) = VF_BT_FENCE;
    }

    vfg_mask start;
    if (!vfb_layout_check(b, &start) || !vfg_has(&start, p->agent.x, p->agent.y)) return false;
    return vfc_uniform(rng) * vfc_count(&start) < p->reached_min;
}

/* ---- statuses and values ----------------------------------------------------------------- */

static vf_bw_entity *entity(vf_backwards *b, int e) {
    return e < VF_BW_CROPS                   ? &b->crops[e]
           : e < VF_BW_CROPS + VF_BW_ANIMALS ? &b->animals[e - VF_BW_CROPS]
                                             : &b->villagers[e - VF_BW_CROPS - VF_BW_ANIMALS];
}

static int kind_of(int e) {
    return e < VF_BW_CROPS ? CROPS : e < VF_BW_CROPS + VF_BW_ANIMALS ? ANIMALS : VILLAGERS;
}

static void set_status(vf_env *env, int e, int status) {
    vf_backwards *b = &env->u.backwards;
    const vf_bw_entity *x = entity(b, e);
    STATUS(b, x->x, x->y) = (uint8_t)status;
}

/* Replays the view from start; *shown gets a bit per entity whose cell showed, whenever in
 * view, the tile and status the view saw there, and paid[t] the entities that paid at step t. */
static void replay(const vf_view *view, const vf_env *start, uint32_t *shown, uint32_t *paid) {
    vf_env env = *start;
    vf_rederive(&env);
    const vf_backwards *b = &env.u.backwards;
    uint32_t ok = (1u << ENTITIES) - 1, done = 0;
    for (int t = 0;; t++) {
        const int32_t *obs = view->obs[t];
        for (int e = 0; e < ENTITIES; e++) {
            const vf_bw_entity *x = entity(&env.u.backwards, e);
            const int dx = x->x - obs[VF_BO_X] + 2, dy = x->y - obs[VF_BO_Y] + 2;
            if (dx < 0 || dx > 4 || dy < 0 || dy > 4) continue;
            const int k = dy * 5 + dx;
            if (TILE(b, x->x, x->y) != obs[VF_BO_TERRAIN + k] ||
                STATUS(b, x->x, x->y) != obs[VF_BO_STATUS + k])
                ok &= ~(1u << e);
        }
        if (t == view->steps) break;
        vf_step(&env, view->actions[t], NULL);
        uint32_t now = 0;
        for (int e = 0; e < ENTITIES; e++) now |= (uint32_t)entity(&env.u.backwards, e)->done << e;
        paid[t] = now & ~done;
        done = now;
    }
    *shown = ok;
}

/* The value assignments of the entities in `group` that sum to `gain`, in odometer order:
 * returns how many there are, and writes the pick-th into the entities when pick >= 0. */
static int ways(vf_backwards *b, uint32_t group, int gain, int pick) {
    int member[ENTITIES], n = 0, value[ENTITIES], count = 0;
    for (int e = 0; e < ENTITIES; e++)
        if (group >> e & 1) {
            member[n] = e;
            value[n++] = kinds[kind_of(e)].value_min;
        }
    for (;;) {
        int sum = 0;
        for (int i = 0; i < n; i++) sum += value[i];
        if (sum == gain && count++ == pick) {
            for (int i = 0; i < n; i++) entity(b, member[i])->value = (uint8_t)value[i];
            return count;
        }
        int i = 0; /* the next assignment */
        while (i < n && value[i] == kinds[kind_of(member[i])].value_max) {
            value[i] = kinds[kind_of(member[i])].value_min;
            i++;
        }
        if (i == n) return count;
        value[i]++;
    }
}

/* The chance that uniform values give the view's Farm Value gains, for the payers of paid[]. */
static double gains_chance(const vf_view *view, const uint32_t *paid) {
    double chance = 1;
    vf_env scratch;
    for (int t = 0; t < view->steps && chance > 0; t++) {
        const int gain = view->obs[t + 1][VF_BO_FARM_VALUE] - view->obs[t][VF_BO_FARM_VALUE];
        chance *= ways(&scratch.u.backwards, paid[t], gain, -1);
        for (int e = 0; e < ENTITIES; e++)
            if (paid[t] >> e & 1)
                chance /= kinds[kind_of(e)].value_max - kinds[kind_of(e)].value_min + 1;
    }
    return chance;
}

static int uniform_in(vf_rng *rng, int lo, int hi) {
    return lo + (int)vf_rng_below(rng, (uint32_t)(hi - lo + 1));
}

/* The k-th (from 0) status set in a mask of allowed statuses. */
static int nth_bit(unsigned mask, int k) {
    while (k-- > 0) mask &= mask - 1;
    return __builtin_ctz(mask);
}

/* Step 5 of the file comment; false when the view allows no statuses, whatever the layout
 * (the entities it saw are where it saw them in every layout, and the others never show). */
static bool statuses(const vf_view *view, vf_rng *rng, vf_env *env) {
    vf_backwards *b = &env->u.backwards;
    uint32_t shown, paid[VF_PLAN_MAX];
    unsigned allowed[ENTITIES] = {0};
    for (int s = 0; s <= HARVEST_READY; s++) {
        for (int e = 0; e < ENTITIES; e++) {
            const int top = tile_info[kinds[kind_of(e)].tile].status_max;
            set_status(env, e, s < top ? s : top);
        }
        replay(view, env, &shown, paid);
        for (int e = 0; e < ENTITIES; e++)
            if (s <= tile_info[kinds[kind_of(e)].tile].status_max && (shown >> e & 1))
                allowed[e] |= 1u << s;
    }
    for (int e = 0; e < ENTITIES; e++) {
        if (!allowed[e]) return false;
        set_status(env, e, __builtin_ctz(allowed[e]));
    }

    /* the animals' start healths together, weighed by the gains they explain */
    const int a0 = VF_BW_CROPS;
    double cum[ANIMAL_CONFIGS], sum = 0;
    for (int c = 0; c < ANIMAL_CONFIGS; c++) {
        bool ok = true;
        for (int i = 0, h = c; i < VF_BW_ANIMALS; i++, h /= 3) {
            ok &= allowed[a0 + i] >> (h % 3) & 1;
            set_status(env, a0 + i, h % 3);
        }
        if (ok) {
            replay(view, env, &shown, paid);
            sum += gains_chance(view, paid);
        }
        cum[c] = sum;
    }
    if (!(sum > 0)) return false;
    const int config = pick(cum, ANIMAL_CONFIGS, vfc_uniform(rng) * sum);
    for (int i = 0, h = config; i < VF_BW_ANIMALS; i++, h /= 3) set_status(env, a0 + i, h % 3);
    for (int e = 0; e < ENTITIES; e++) {
        if (kind_of(e) == ANIMALS) continue;
        set_status(env, e,
                   nth_bit(allowed[e], (int)vf_rng_below(rng, __builtin_popcount(allowed[e]))));
    }

    /* values: each step's payers uniform over the ways to pay its gain, the rest uniform */
    replay(view, env, &shown, paid);
    uint32_t payers = 0;
    for (int t = 0; t < view->steps; t++) {
        const int gain = view->obs[t + 1][VF_BO_FARM_VALUE] - view->obs[t][VF_BO_FARM_VALUE];
        const int n = ways(b, paid[t], gain, -1);
        if (n == 0) return false;
        ways(b, paid[t], gain, (int)vf_rng_below(rng, (uint32_t)n));
        payers |= paid[t];
    }
    for (int e = 0; e < ENTITIES; e++)
        if (!(payers >> e & 1))
            entity(b, e)->value =
                (uint8_t)uniform_in(rng, kinds[kind_of(e)].value_min, kinds[kind_of(e)].value_max);
    vf_rederive(env);
    return true;
}

static vfc_outcome attempt(const vf_view *view, const void *prep, vf_rng *rng, vf_env *out) {
    const bw_prep *p = prep;
    memset(out, 0, sizeof *out);
    out->kind = VF_BACKWARDS;
    vf_backwards *b = &out->u.backwards;
    if (!layout(p, rng, b)) return VFC_REJECTED;
    b->agent = p->agent;
    b->facing = VF_NORTH;
    return statuses(view, rng, out) ? VFC_ACCEPTED : VFC_NEVER;
}

const vfc_sampler vfb_sampler = {
    .prep_bytes = sizeof(bw_prep),
    .prepare = prepare,
    .attempt = attempt,
};
