/* backwards_plan.c — BackwardsValleyFarm-v0's planner (a row of planner.c's table): the
 * beam over single actions (planner.c's), the maps its bound (backwards_bound.c) measures,
 * and the proof's exact key and children.
 *
 * Walkable tiles (ground and fields; a harvested field is ground) never change, so the
 * shortest walks are measured once per search: to each target (a crop's field, the walkable
 * neighbours of a house or a pen), to the tiles that see each animal, and between targets. */
#include "planner.h"

_Static_assert(VFB_CELLS <= VFP_CELLS_MAX, "vfp_spread's queue holds the map");
_Static_assert(VF_BW_HORIZON + 1 <= VFP_LEVELS && VF_BW_ACTIONS <= VFP_CHILDREN,
               "the proof's stack holds a backwards search");

static bool bw_walkable(const vf_backwards *b, int x, int y) {
    return vf_tile_in(VFB_WALKABLE, vf_bw_tile(b, x, y)); /* the frame is out of bounds */
}

static void bw_spread(const vf_backwards *b, uint8_t *d) {
    vfp_spread(d, VF_BW_W, VF_BW_H, &b->tiles[VF_BORDER][VF_BORDER], sizeof b->tiles[0],
               VFB_WALKABLE);
}

/* Marks the walkable neighbours of (x, y) in d. */
static void bw_next_to(const vf_backwards *b, int x, int y, uint8_t *d) {
    for (int k = 0; k < 4; k++)
        if (bw_walkable(b, x + vfg_dx[k], y + vfg_dy[k]))
            d[(y + vfg_dy[k]) * VF_BW_W + x + vfg_dx[k]] = 0;
}

static void bw_map_init(vfb_map *m, const vf_backwards *b) {
    memset(m, VFP_FAR, sizeof *m);
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
            for (int c = 0; c < VFB_CELLS; c++)
                if (m->dist[t][c] == 0 && m->dist[u][c] < m->between[t][u])
                    m->between[t][u] = m->dist[u][c];
}

/* trees: NULL, or a memo of VFB_TREES entries a cell for the bound's spanning trees */
#define VFB_TREES ((size_t)1 << VFB_TARGETS)

static vfb_reach bw_reach(const vfb_map *m, const vf_backwards *b, uint16_t *trees) {
    vfb_reach r;
    const int here = b->agent.y * VF_BW_W + b->agent.x;
    for (int t = 0; t < VFB_TARGETS; t++) r.to[t] = m->dist[t][here];
    for (int i = 0; i < VF_BW_ANIMALS; i++) r.to_view[i] = m->view[i][here];
    r.between = m->between;
    r.trees = trees ? trees + (size_t)here * VFB_TREES : NULL;
    return r;
}

static void backwards_maps(vfp_maps *m, const vf_env *start) {
    bw_map_init(&m->bw, &start->u.backwards);
}

static int32_t backwards_bound_units(const vf_env *e, const vfp_maps *m, int beat) {
    const vfb_reach r = bw_reach(&m->bw, &e->u.backwards, m->trees);
    return vfb_plan_bound(&e->u.backwards, &r, beat);
}

/* The proof's exact key: where the agent stands and faces, the step, and each crop's stage,
 * villager's mood and animal's health with whether it has paid: 58 bits. The meters are the
 * reward, kept beside the key (they never reach their cap of 100: the bonuses add up to 67
 * at most). */
static vfp_key backwards_key(const vf_env *e) {
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
    return (vfp_key){a, b};
}

/* The field widths above hold every value a state restore accepts. */
_Static_assert(VF_BW_W <= 16 && VF_BW_H <= 16 && VF_BW_HORIZON < 64 &&
                   16 + 3 * (VF_BW_CROPS + VF_BW_VILLAGERS + VF_BW_ANIMALS) <= 63,
               "positions, steps and entities fit their bits");

/* The proof's children of a state: every legal action but water, fertilize and clean, each
 * ranked by its reward plus its bound and checked as it is made (a child that cannot beat
 * best_units is left out; rank then stays a valid bound). Clean does exactly what feed does;
 * water and fertilize only set a crop back, and a crop that has not been set back is at every
 * later step at least as ripe, so a play that waits instead harvests each crop no later
 * (harvesting is automatic and each crop pays once). */
static int backwards_children(const vfp_node *n, const vfp_maps *m, int32_t best_units,
                              vfp_node *out) {
    int count = 0;
    uint8_t mask[VF_ACTIONS_MAX];
    vf_legal_actions(&n->env, mask);
    for (int a = 0; a < VF_BW_ACTIONS; a++) {
        if (!mask[a] || a == VF_BA_WATER || a == VF_BA_FERTILIZE || a == VF_BA_CLEAN) continue;
        vfp_node *c = &out[count];
        *c = *n;
        vfp_play(c, a);
        const int32_t units = vf_reward_units(&c->env);
        c->rank = units + backwards_bound_units(&c->env, m, best_units - units);
        count += vf_terminated(&c->env) ? units > best_units : c->rank > best_units;
    }
    return count;
}

static size_t backwards_work_size(int width) {
    return vfp_actions_work_size(VF_BACKWARDS, width);
}

const vfp_planner vfb_planner = {
    .state_bytes = sizeof(vf_backwards),
    .tree_bytes = VFB_CELLS * VFB_TREES * sizeof(uint16_t),
    .ranks_by_bound = true,
    .work_size = backwards_work_size,
    .beam = vfp_beam_over_actions,
    .maps = backwards_maps,
    .bound_units = backwards_bound_units,
    .exact_key = backwards_key,
    .children = backwards_children,
};
