/* valley_view.c — ValleyFarm-v0's completion sampler (a row of view.c's table, view.h): start
 * states drawn from the layout generator's distribution (valley.c, above draw_layout) given
 * what an agent has seen.
 *
 * What a view shows, and what it leaves hidden:
 *  - The tile of every cell it has had in view. Only the agent changes a tile, only the one it
 *    stands on, and it saw that one before it stepped there: so a cell's first sight is its
 *    tile at the start.
 *  - Not where the agent is. Its moves give its path from its start (a move walks when the
 *    tile it heads for, which the view shows, is walkable), and cells the view shows out of
 *    bounds rule starts out; every other start is possible.
 *  - The villagers' relationships, exactly: they start at multiples of 10, which the rounding
 *    to 5 shows as they are, and every gift is the agent's. Which villager (in generator order)
 *    lives where shows only through gifts and moods: a completion shuffles the order, and
 *    view.c's replay keeps only orders that show what the agent saw.
 *  - Nothing else: inventory, fields and animals (fed only where the agent stands) follow from
 *    the start and the actions, so the replay gives them.
 *
 * The generator as probabilities: 3 barns, then 3 cottages, each with its dweller south of it,
 * each uniform over the pairs of cells still free (N_i of them for pair i: the only draw whose
 * number of choices depends on the layout), the species a uniform shuffle; then 4 fields, the
 * market, 20 obstacles and the agent, each uniform over the free cells (always as many); all
 * redrawn until every target can be reached. A layout L therefore has probability
 * proportional to reachable(L) x prod_i 1 / N_i(L).
 *
 * The proposal, for a view: a start uniform over those the view allows; the seen cells as seen,
 * with the other half of each pair a seen building or dweller implies; the generator order of
 * the animals, and of the villagers, a shuffle of the seen pairs and the unseen ones; each
 * unseen pair, in generator order, uniform over the pairs of free unseen cells (M_j of them),
 * its species from a shuffle of those not seen; then the unseen fields, market and obstacles
 * uniform over the free unseen cells (as many for every start the view allows, since the
 * cells it shows out of bounds are the same cells of the view). L then has proposal
 * probability proportional to prod_j 1 / M_j, and an attempt is accepted with probability
 *     prod_i (N_0 - 3 i) / N_i  x  prod_j M_j / M_max,
 * each factor at most 1 (a pair takes at most 3 pairs of cells from those after it; no start
 * the view allows leaves more than M_max pairs of unseen cells), then only if every target can
 * be reached (the generator's own check, vfv_reaches), then (view.c) only if it replays to the
 * view. So completions are drawn exactly from the generator's distribution given the view.
 */
#include "valley_rules.h"
#include "view.h"

/* Cells are kept relative to the start: the agent's walk stays on the map, within W - 1 of
 * its start, and it sees 2 cells further. */
enum { REACH = W - 1 + 2, REL = 2 * REACH + 1 };
enum { NOT_SEEN = 0xFF, ANIMAL_UNSEEN = 0xFE }; /* frame tiles beside the tile codes */
enum { PAIRS = VF_VALLEY_ANIMALS + VF_VALLEY_VILLAGERS };
/* The generator's pairs of cells (draw_ground_pair): a building on rows 0 .. H - 2 and its
 * dweller south of it. */
enum { PAIR_SPOTS = W * (H - 1) };

typedef struct seen_cell {
    int8_t dx, dy; /* from the start */
    uint8_t tile;  /* its first sight */
} seen_cell;

typedef struct valley_prep {
    vf_env start_template; /* a reset: what every start shares (inventory, clock, animals) */
    uint8_t relationship2[VF_VALLEY_VILLAGERS];
    int spots_max; /* M_max: the most pairs of unseen cells any allowed start leaves */
    int starts;    /* the starts the view allows */
    vf_point start[W * H];
    int cells; /* the cells seen (out of bounds ones too) */
    seen_cell cell[REL * REL];
} valley_prep;

/* A start's map as far as the view fixes it. */
typedef struct frame {
    uint8_t tile[H][W]; /* a seen tile, a half of a pair the view implies, or NOT_SEEN */
    vfg_mask open;      /* the NOT_SEEN cells: where what was not seen goes */
    int animals, villagers, soils, market, obstacles;
    vf_point animal[VF_VALLEY_ANIMALS]; /* seen pairs, by their dweller's cell */
    vf_point villager[VF_VALLEY_VILLAGERS];
    vf_point soil[VF_VALLEY_CROPS];
    vf_point market_at;
    uint8_t species_seen; /* a bit per species seen */
} frame;

static bool is_animal(int tile) {
    return tile >= VF_VT_CHICKEN && tile <= VF_VT_SHEEP;
}

/* Sets the other half of a seen pair: `want` where the view left it unseen, else checks it. */
static bool pair_half(frame *f, int x, int y, int want) {
    if (y < 0 || y >= H) return false;
    uint8_t *t = &f->tile[y][x];
    if (*t == NOT_SEEN) {
        *t = (uint8_t)want;
        f->open.rows[y] &= (uint16_t) ~(1u << x);
        return true;
    }
    return want == ANIMAL_UNSEEN ? is_animal(*t) : *t == want;
}

/* The frame of the start (ox, oy); false when the view rules that start out. */
static bool frame_at(const valley_prep *p, int ox, int oy, frame *f) {
    memset(f, 0, sizeof *f);
    memset(f->tile, NOT_SEEN, sizeof f->tile);
    for (int y = 0; y < H; y++) f->open.rows[y] = (uint16_t)((1u << W) - 1u);
    for (int i = 0; i < p->cells; i++) {
        const int x = ox + p->cell[i].dx, y = oy + p->cell[i].dy, tile = p->cell[i].tile;
        const bool on = x >= 0 && x < W && y >= 0 && y < H;
        if (on != (tile != VF_VT_OUT_OF_BOUNDS)) return false;
        if (!on) continue;
        f->tile[y][x] = (uint8_t)tile;
        f->open.rows[y] &= (uint16_t) ~(1u << x);
    }
    for (int i = 0; i < p->cells; i++) {
        const int x = ox + p->cell[i].dx, y = oy + p->cell[i].dy, tile = p->cell[i].tile;
        bool ok = true;
        if (tile == VF_VT_BARN) ok = pair_half(f, x, y + 1, ANIMAL_UNSEEN);
        if (is_animal(tile)) ok = pair_half(f, x, y - 1, VF_VT_BARN);
        if (tile == VF_VT_COTTAGE) ok = pair_half(f, x, y + 1, VF_VT_VILLAGER);
        if (tile == VF_VT_VILLAGER) ok = pair_half(f, x, y - 1, VF_VT_COTTAGE);
        if (!ok) return false;
    }
    if (f->tile[oy][ox] != VF_VT_GROUND) return false; /* the agent starts on ground */
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const int tile = f->tile[y][x];
            const vf_point at = {(uint8_t)x, (uint8_t)y};
            if (is_animal(tile) || tile == ANIMAL_UNSEEN) {
                if (f->animals == VF_VALLEY_ANIMALS) return false;
                f->animal[f->animals++] = at;
                if (tile == ANIMAL_UNSEEN) continue;
                const unsigned bit = 1u << (tile - VF_VT_CHICKEN);
                if (f->species_seen & bit) return false; /* one animal of each species */
                f->species_seen |= (uint8_t)bit;
            } else if (tile == VF_VT_VILLAGER) {
                if (f->villagers == VF_VALLEY_VILLAGERS) return false;
                f->villager[f->villagers++] = at;
            } else if (tile == VF_VT_SOIL_EMPTY) {
                if (f->soils == VF_VALLEY_CROPS) return false;
                f->soil[f->soils++] = at;
            } else if (tile == VF_VT_MARKET) {
                if (f->market++) return false;
                f->market_at = at;
            } else if (tile == VF_VT_OBSTACLE) {
                if (++f->obstacles > VF_VALLEY_OBSTACLES) return false;
            } else if (tile > VF_VT_SOIL_EMPTY && tile <= VF_VT_CROP_MATURE) {
                return false; /* a field is first seen empty: only the agent plants */
            }
        }
    return true;
}

/* The cells where a pair can go: a building on cell (x, y) of m and its dweller on (x, y + 1),
 * also of m. */
static vfg_mask pair_spots(const vfg_mask *m) {
    vfg_mask s = {{0}};
    for (int y = 0; y + 1 < H; y++) s.rows[y] = m->rows[y] & m->rows[y + 1];
    return s;
}

static bool prepare(const vf_view *view, void *prep) {
    valley_prep *p = prep;
    uint8_t first[REL][REL];
    memset(first, NOT_SEEN, sizeof first);
    int x = 0, y = 0; /* the agent, from its start */
    for (int t = 0; t <= view->steps; t++) {
        const int32_t *obs = view->obs[t];
        if (t > 0 && view->actions[t - 1] < 4) {
            const int a = view->actions[t - 1];
            const int32_t *before = view->obs[t - 1] + VF_VO_VIEW;
            if (vf_tile_in(VFV_WALKABLE, before[(2 + vfg_dy[a]) * 5 + 2 + vfg_dx[a]])) {
                x += vfg_dx[a];
                y += vfg_dy[a];
            }
        }
        if (x < -(W - 1) || x > W - 1 || y < -(H - 1) || y > H - 1) return false;
        for (int k = 0; k < 25; k++) {
            uint8_t *c = &first[REACH + y + k / 5 - 2][REACH + x + k % 5 - 2];
            if (*c == NOT_SEEN) *c = (uint8_t)obs[VF_VO_VIEW + k];
        }
    }
    p->cells = 0;
    for (int j = 0; j < REL; j++)
        for (int i = 0; i < REL; i++)
            if (first[j][i] != NOT_SEEN)
                p->cell[p->cells++] =
                    (seen_cell){(int8_t)(i - REACH), (int8_t)(j - REACH), first[j][i]};
    for (int i = 0; i < VF_VALLEY_VILLAGERS; i++) {
        /* the generator's relationships are 10 x below(5), which the observation shows exactly */
        const int32_t r = view->obs[0][VF_VO_RELATIONSHIPS + i];
        if (r % 10 != 0 || r > 40) return false;
        p->relationship2[i] = (uint8_t)(2 * r);
    }
    p->starts = 0;
    p->spots_max = 0;
    for (int oy = 0; oy < H; oy++)
        for (int ox = 0; ox < W; ox++) {
            frame f;
            if (!frame_at(p, ox, oy, &f)) continue;
            p->start[p->starts++] = (vf_point){(uint8_t)ox, (uint8_t)oy};
            const vfg_mask spots = pair_spots(&f.open);
            const int m = vfc_count(&spots);
            if (m > p->spots_max) p->spots_max = m;
        }
    vf_reset(&p->start_template, VF_VALLEY, 0, NULL);
    p->start_template.seed = 0; /* a completion has no seed */
    return p->starts > 0;
}

/* One attempt of the proposal (the file comment): whether it is accepted. */
static bool draw_start(const valley_prep *p, vf_rng *rng, vf_env *out) {
    const vf_point o = p->start[vf_rng_below(rng, (uint32_t)p->starts)];
    frame f;
    frame_at(p, o.x, o.y, &f); /* an allowed start: prepare checked it */

    /* the pairs in generator order (animals, then villagers): seen ones where a shuffle puts
     * them, unseen ones uniform over the pairs of free unseen cells */
    uint8_t order[PAIRS] = {0, 1, 2, 0, 1, 2};
    vfc_shuffle(order, VF_VALLEY_ANIMALS, rng);
    vfc_shuffle(order + VF_VALLEY_ANIMALS, VF_VALLEY_VILLAGERS, rng);
    vf_point dweller[PAIRS];
    bool unseen_species[VF_VALLEY_ANIMALS];
    vfg_mask free = f.open;
    double accept = 1;
    for (int i = 0; i < PAIRS; i++) {
        const bool animal = i < VF_VALLEY_ANIMALS;
        const int k = order[i], seen = animal ? f.animals : f.villagers;
        if (k < seen) {
            dweller[i] = animal ? f.animal[k] : f.villager[k];
            if (animal) unseen_species[i] = f.tile[dweller[i].y][dweller[i].x] == ANIMAL_UNSEEN;
            continue;
        }
        vfg_mask spots = pair_spots(&free);
        const int m = vfc_count(&spots);
        int x, y;
        if (!vfc_take(&spots, rng, &x, &y)) return false;
        accept *= (double)m / p->spots_max;
        free.rows[y] &= (uint16_t) ~(1u << x);
        free.rows[y + 1] &= (uint16_t) ~(1u << x);
        dweller[i] = (vf_point){(uint8_t)x, (uint8_t)(y + 1)};
        if (animal) unseen_species[i] = true;
    }
    /* the generator's own odds of these pairs, in this order */
    vfg_mask ground;
    for (int y = 0; y < VFG_MAX_H; y++) ground.rows[y] = y < H ? (uint16_t)((1u << W) - 1u) : 0;
    for (int i = 0; i < PAIRS; i++) {
        const vfg_mask spots = pair_spots(&ground);
        accept *= (double)(PAIR_SPOTS - 3 * i) / vfc_count(&spots);
        ground.rows[dweller[i].y - 1] &= (uint16_t) ~(1u << dweller[i].x);
        ground.rows[dweller[i].y] &= (uint16_t) ~(1u << dweller[i].x);
    }
    if (vfc_uniform(rng) >= accept) return false;

    *out = p->start_template;
    vf_valley *v = &out->u.valley;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const int tile = f.tile[y][x];
            TILE(v, x, y) =
                tile == NOT_SEEN || tile == ANIMAL_UNSEEN ? VF_VT_GROUND : (uint8_t)tile;
        }
    uint8_t missing[VF_VALLEY_ANIMALS], n_missing = 0;
    for (int s = 0; s < VF_VALLEY_ANIMALS; s++)
        if (!(f.species_seen >> s & 1)) missing[n_missing++] = (uint8_t)s;
    vfc_shuffle(missing, n_missing, rng);
    for (int i = 0, next = 0; i < PAIRS; i++) {
        const int x = dweller[i].x, y = dweller[i].y;
        if (i < VF_VALLEY_ANIMALS) {
            const int species = unseen_species[i] ? missing[next++] : TILE(v, x, y) - VF_VT_CHICKEN;
            TILE(v, x, y - 1) = VF_VT_BARN;
            TILE(v, x, y) = (uint8_t)(VF_VT_CHICKEN + species);
            v->animals[i] = (vf_valley_animal){(uint8_t)x, (uint8_t)y, (uint8_t)species, 0, 0, 0};
        } else {
            const int h = i - VF_VALLEY_ANIMALS;
            TILE(v, x, y - 1) = VF_VT_COTTAGE;
            TILE(v, x, y) = VF_VT_VILLAGER;
            v->villagers[h] = (vf_valley_villager){(uint8_t)x, (uint8_t)y, p->relationship2[h]};
        }
    }

    /* the fields (seen ones where a shuffle of the generator order puts them), the market and
     * the obstacles not seen, uniform over the free unseen cells */
    uint8_t crop_order[VF_VALLEY_CROPS] = {0, 1, 2, 3};
    vfc_shuffle(crop_order, VF_VALLEY_CROPS, rng);
    int x, y;
    for (int i = 0; i < VF_VALLEY_CROPS; i++) {
        if (crop_order[i] < f.soils) {
            v->crops[i] = f.soil[crop_order[i]];
            continue;
        }
        if (!vfc_take(&free, rng, &x, &y)) return false;
        TILE(v, x, y) = VF_VT_SOIL_EMPTY;
        v->crops[i] = (vf_point){(uint8_t)x, (uint8_t)y};
    }
    if (f.market) {
        v->market = f.market_at;
    } else {
        if (!vfc_take(&free, rng, &x, &y)) return false;
        TILE(v, x, y) = VF_VT_MARKET;
        v->market = (vf_point){(uint8_t)x, (uint8_t)y};
    }
    for (int i = f.obstacles; i < VF_VALLEY_OBSTACLES; i++) {
        if (!vfc_take(&free, rng, &x, &y)) return false;
        TILE(v, x, y) = VF_VT_OBSTACLE;
    }
    v->agent = o;

    /* the generator's last check: every target can be reached from the start */
    vfg_mask open = {{0}}, need = {{0}};
    for (int y2 = 0; y2 < H; y2++)
        for (int x2 = 0; x2 < W; x2++) {
            const int tile = TILE(v, x2, y2);
            if (vf_tile_in(VFV_WALKABLE, tile)) vfg_set(&open, x2, y2);
            if (tile != VF_VT_GROUND && vf_tile_in(VFV_WALKABLE, tile)) vfg_set(&need, x2, y2);
        }
    return vfv_reaches(&open, &need, o);
}

static vfc_outcome attempt(const vf_view *view, const void *prep, vf_rng *rng, vf_env *out) {
    (void)view; /* the replay in view.c holds the start to it */
    return draw_start(prep, rng, out) ? VFC_ACCEPTED : VFC_REJECTED;
}

const vfc_sampler vfv_sampler = {
    .prep_bytes = sizeof(valley_prep),
    .prepare = prepare,
    .attempt = attempt,
};
