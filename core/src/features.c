/* features.c — what a policy sees: the features of an observation and of a memory of the
 * episode (valley_farm.h, "What a policy sees", says what each feature is).
 *
 * Everything is derived from the farm's description (its vf_farm_spec: the fields' bounds
 * and roles, the tiles), so a new farm has features without an edit here. The memory keeps
 * the cells it has seen in a grid centred on where the episode started, VF_MEMORY_SPAN each
 * way for the largest farm; a farm's own grid is 2 * span + 1 wide, span = (its larger side
 * - 1) + half the explored squares, so that no view and no explored square ever leaves it
 * while the agent is on the farm (vf_features refuses a walk that would leave it).
 *
 * The numbers are those the JS learners computed before they moved here (wasm/learn/memory.js
 * and encode.js, now calls of this file); tests/js/features.test.js holds them equal, bit for
 * bit, on 300 episodes of each farm. */
#include "internal.h"

enum {
    BLOCK = 4,      /* the explored squares are BLOCK x BLOCK cells */
    BLOCKS = 7,     /* BLOCKS x BLOCKS of them around the agent */
    PER_KIND = 5,   /* features of each landmark kind */
    STATUS_MAX = 8, /* status values a tile may have, at most (VF_LANDMARK_TABLE) */
    TILES_MAX = 16, /* tile codes, at most (as vf_tile_in's sets) */
};
_Static_assert(TILES_MAX *STATUS_MAX * 2 == VF_LANDMARK_TABLE, "the landmark table's size");
_Static_assert(VF_VALLEY_HORIZON <= 255 && VF_BW_HORIZON <= 255, "seen_at holds a step");
_Static_assert(VF_MEMORY_CELLS <= 65536, "mark holds a cell index");

/* A farm's layout of features, read from its spec. */
typedef struct layout {
    const vf_farm_spec *spec;
    int far;        /* the farthest the agent gets from its start, east or south */
    int span, grid; /* the memory's grid: span cells each way, grid = 2 * span + 1 wide */
    const vf_field_spec *tiles, *status, *x, *y;
    int statuses;    /* 1 + the largest status value any tile names */
    int observation; /* features of the observation */
    int landmarks;   /* landmark kinds */
} layout;

static const vf_field_spec *field_of(const vf_farm_spec *s, vf_role role) {
    for (int i = 0; i < s->field_count; i++)
        if (s->fields[i].role == role) return &s->fields[i];
    return NULL;
}

static int width_of(const vf_field_spec *f) {
    return vf_role_categorical(f->role) ? f->high - f->low + 1 : 1;
}

static bool layout_of(int kind, layout *l) {
    const vf_farm_spec *s = vf_farm_spec_of(kind);
    if (!s) return false;
    l->spec = s;
    l->far = (s->width > s->height ? s->width : s->height) - 1;
    l->span = l->far + BLOCKS * BLOCK / 2;
    l->grid = 2 * l->span + 1;
    l->tiles = field_of(s, VF_ROLE_TILES);
    l->status = field_of(s, VF_ROLE_STATUS);
    l->x = field_of(s, VF_ROLE_X);
    l->y = field_of(s, VF_ROLE_Y);
    l->statuses = 1;
    for (int c = 0; c < s->tile_count; c++)
        if (s->tiles[c].status && s->tiles[c].status_count > l->statuses)
            l->statuses = s->tiles[c].status_count;
    l->observation = 0;
    for (int i = 0; i < s->field_count; i++)
        l->observation += s->fields[i].length * width_of(&s->fields[i]);
    l->landmarks = vff_landmarks(s, l->status != NULL, NULL, NULL);
    return true;
}

/* Whether the memory can follow this farm (tests/c/test_features.c checks every farm does):
 * its grid, its landmark table and its steps fit vf_memory. */
static bool memory_fits(const layout *l) {
    return l->tiles && l->span <= VF_MEMORY_SPAN && l->spec->tile_count <= TILES_MAX &&
           l->tiles->high < l->spec->tile_count && l->statuses <= STATUS_MAX &&
           (!l->status || l->status->high < l->statuses) && l->spec->view % 2 == 1 &&
           l->spec->horizon <= 255 && l->landmarks <= 127;
}

/* The landmark kinds of a farm, in feature order: each tile that is not background; for a
 * tile with statuses (on a farm whose observation shows them), a kind per status value and
 * per whether it differs from the status the cell first showed. Writes the table
 * (code, status, changed) -> kind into landmark_of (VF_LANDMARK_TABLE entries, -1 where none)
 * and each kind's name, as a JSON list, into names, where not NULL; returns their number. */
int vff_landmarks(const vf_farm_spec *s, bool status_field, int8_t *landmark_of, vft_text *names) {
    int statuses = 1;
    for (int c = 0; c < s->tile_count; c++)
        if (s->tiles[c].status && s->tiles[c].status_count > statuses)
            statuses = s->tiles[c].status_count;
    if (landmark_of) memset(landmark_of, -1, VF_LANDMARK_TABLE);
    int kinds = 0;
    for (int code = 0; code < s->tile_count; code++) {
        const vf_tile_spec *tile = &s->tiles[code];
        if (tile->background) continue;
        bool apart = status_field && tile->status;
        for (int u = 0; u < statuses; u++) {
            for (int changed = 0; changed < 2; changed++) {
                if (apart && u >= tile->status_count) continue;
                if (apart || (u == 0 && changed == 0)) {
                    if (names) {
                        vft_str(names, kinds ? ",\"" : "\"");
                        vft_str(names, tile->name);
                        if (apart) {
                            vft_char(names, ' ');
                            vft_str(names, tile->status[u]);
                            if (changed) vft_str(names, " (changed)");
                        }
                        vft_char(names, '"');
                    }
                    kinds++;
                }
                if (landmark_of && (code * statuses + u) * 2 + changed < VF_LANDMARK_TABLE)
                    landmark_of[(code * statuses + u) * 2 + changed] = (int8_t)(kinds - 1);
            }
        }
    }
    return kinds;
}

static int memory_size(const layout *l) {
    return l->landmarks * PER_KIND + BLOCKS * BLOCKS;
}

int vf_features_size(int kind, bool memory) {
    layout l;
    if (!layout_of(kind, &l)) return 0;
    if (memory && !memory_fits(&l)) return 0;
    return l.observation + (memory ? memory_size(&l) : 0);
}

int vf_features_nonzero(int kind, bool memory) {
    layout l;
    if (!layout_of(kind, &l)) return 0;
    if (memory && !memory_fits(&l)) return 0;
    return vf_obs_size(kind) + (memory ? memory_size(&l) : 0);
}

/* ---- the observation ------------------------------------------------------------------ */

bool vf_obs_in_bounds(int kind, const int32_t *obs) {
    const vf_farm_spec *s = vf_farm_spec_of(kind);
    if (!s || !obs) return false;
    for (int i = 0; i < s->field_count; i++) {
        const vf_field_spec *f = &s->fields[i];
        for (int j = 0; j < f->length; j++)
            if (obs[f->offset + j] < f->low || obs[f->offset + j] > f->high) return false;
    }
    return true;
}

/* The observation's pairs, from index 0; returns their number. */
static int observation_features(const layout *l, const int32_t *obs, int32_t *index, float *value) {
    int k = 0, start = 0;
    for (int i = 0; i < l->spec->field_count; i++) {
        const vf_field_spec *f = &l->spec->fields[i];
        const int32_t *v = obs + f->offset;
        if (vf_role_categorical(f->role)) {
            int width = f->high - f->low + 1;
            for (int j = 0; j < f->length; j++, start += width) {
                index[k] = start + v[j] - f->low;
                value[k++] = 1.0f;
            }
        } else {
            for (int j = 0; j < f->length; j++, start++) {
                if (f->high <= f->low || v[j] == f->low) continue;
                index[k] = start;
                value[k++] = (float)((double)(v[j] - f->low) / (double)(f->high - f->low));
            }
        }
    }
    return k;
}

/* ---- the memory ------------------------------------------------------------------------ */

static void memory_open(const layout *l, vf_memory *m, int kind, const int32_t *obs) {
    const int cells = l->grid * l->grid;
    m->kind = kind;
    memset(m->landmark, -1, (size_t)cells);
    memset(m->seen, 0, (size_t)cells);
    memset(m->seen_down, 0, (size_t)cells);
    memset(m->marked, 0, (size_t)cells);
    m->marks = 0;
    m->t = 0;
    m->x = m->y = 0;
    m->x0 = l->x ? obs[l->x->offset] : 0;
    m->y0 = l->y ? obs[l->y->offset] : 0;
    vff_landmarks(l->spec, l->status != NULL, m->landmark_of, NULL);
}

/* Where the agent is after `action`, relative to the start, into *x, *y; false when the
 * observations make no episode (the agent would leave the grid, or more steps than the
 * horizon). */
static bool memory_position(const layout *l, const vf_memory *m, const int32_t *obs, int action,
                            int *x, int *y) {
    if (m->t >= l->spec->horizon) return false;
    if (l->x && l->y) {
        *x = obs[l->x->offset] - m->x0;
        *y = obs[l->y->offset] - m->y0;
    } else {
        *x = m->x;
        *y = m->y;
        /* the moves are actions 0..3 of every farm (valley_farm.h: VF_NORTH .. VF_WEST) */
        if (action >= 0 && action < 4 && m->walkable[action]) {
            *x += vfg_dx[action];
            *y += vfg_dy[action];
        }
    }
    return *x >= -l->far && *x <= l->far && *y >= -l->far && *y <= l->far;
}

/* The memory sees the observation, the agent at (x, y). */
static void memory_see(const layout *l, vf_memory *m, const int32_t *obs, int x, int y) {
    const int G = l->grid, view = l->spec->view, reach = (view - 1) / 2;
    const int32_t *tiles = obs + l->tiles->offset;
    const int32_t *status = l->status ? obs + l->status->offset : NULL;
    m->x = x;
    m->y = y;
    const int corner = (y - reach + l->span) * G + x - reach + l->span; /* the view's first cell */
    for (int v = 0; v < view * view; v++) {
        const int c = corner + (v / view) * G + v % view;
        const int code = tiles[v];
        const int now = status ? status[v] : 0;
        if (!m->seen[c]) {
            m->first[c] = (int8_t)now;
            for (int k = 0, up = c; k < BLOCK && up >= 0; k++, up -= G) m->seen_down[up]++;
        }
        const int kind =
            m->landmark_of[(code * l->statuses + now) * 2 + (now == m->first[c] ? 0 : 1)];
        if (kind >= 0 && !m->marked[c]) {
            m->mark[m->marks++] = (uint16_t)c;
            m->marked[c] = 1;
        }
        m->landmark[c] = (int8_t)kind;
        m->seen[c] = 1;
        m->seen_at[c] = (uint8_t)m->t;
    }
    const int at = reach * view + reach; /* the agent's cell in the view */
    const uint32_t walkable = l->spec->walkable;
    m->walkable[VF_NORTH] = vf_tile_in(walkable, tiles[at - view]);
    m->walkable[VF_SOUTH] = vf_tile_in(walkable, tiles[at + view]);
    m->walkable[VF_EAST] = vf_tile_in(walkable, tiles[at + 1]);
    m->walkable[VF_WEST] = vf_tile_in(walkable, tiles[at - 1]);
}

static float clamp1(double v) {
    return (float)(v < -1 ? -1 : v > 1 ? 1 : v);
}

/* The memory's pairs, their indices from `start`; returns their number. */
static int memory_features(const layout *l, const vf_memory *m, int start, int32_t *index,
                           float *value) {
    const int G = l->grid, far = l->far, horizon = l->spec->horizon;
    const int ax = m->x + l->span, ay = m->y + l->span;
    int nearest[127], nearest_d[127];
    for (int k = 0; k < l->landmarks; k++) nearest[k] = -1;
    for (int j = 0; j < m->marks; j++) {
        const int c = m->mark[j];
        const int kind = m->landmark[c];
        if (kind < 0) continue;
        const int dx = c % G - ax, dy = c / G - ay;
        const int d = (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy);
        if (nearest[kind] < 0 || d < nearest_d[kind]) {
            nearest[kind] = c;
            nearest_d[kind] = d;
        }
    }
    int n = 0, o = start;
    for (int k = 0; k < l->landmarks; k++, o += PER_KIND) {
        if (nearest[k] < 0) continue;
        const int c = nearest[k];
        const float f[PER_KIND] = {
            1.0f,
            clamp1((double)(c % G - ax) / far),
            clamp1((double)(c / G - ay) / far),
            clamp1((double)nearest_d[k] / (2 * far)),
            clamp1((double)(m->t - m->seen_at[c]) / horizon),
        };
        for (int j = 0; j < PER_KIND; j++) {
            if (f[j] == 0) continue;
            index[n] = o + j;
            value[n++] = f[j];
        }
    }
    const int from = (ay - BLOCKS * BLOCK / 2) * G + ax - BLOCKS * BLOCK / 2;
    for (int by = 0; by < BLOCKS; by++) {
        for (int bx = 0; bx < BLOCKS; bx++, o++) {
            const int c = from + by * BLOCK * G + bx * BLOCK;
            const int seen =
                m->seen_down[c] + m->seen_down[c + 1] + m->seen_down[c + 2] + m->seen_down[c + 3];
            if (seen == 0) continue;
            index[n] = o;
            value[n++] = (float)seen / (BLOCK * BLOCK);
        }
    }
    return n;
}

int vf_features(int kind, const int32_t *obs, int action, bool opening, vf_memory *mem,
                int32_t *index, float *value) {
    layout l;
    if (!index || !value || !layout_of(kind, &l) || !vf_obs_in_bounds(kind, obs)) return -1;
    int n = observation_features(&l, obs, index, value);
    if (!mem) return n;
    if (!memory_fits(&l)) return -1;
    int x = 0, y = 0;
    if (opening) {
        memory_open(&l, mem, kind, obs);
    } else {
        if (mem->kind != kind || !memory_position(&l, mem, obs, action, &x, &y)) return -1;
        mem->t++;
    }
    memory_see(&l, mem, obs, x, y);
    return n + memory_features(&l, mem, l.observation, index + n, value + n);
}

/* Row i of a batch (the vector env's step calls it for each env). */
int vf_features_row(int kind, const int32_t *obs, int action, bool opening,
                    const vf_feature_rows *rows, int i) {
    size_t at = (size_t)i * (size_t)rows->stride;
    int n = vf_features(kind, obs, action, opening, rows->memories ? &rows->memories[i] : NULL,
                        rows->index + at, rows->value + at);
    if (rows->count) rows->count[i] = n;
    return n;
}

bool vf_feature_rows_ok(int kind, const vf_feature_rows *rows) {
    return rows && rows->index && rows->value &&
           rows->stride >= vf_features_nonzero(kind, rows->memories != NULL) &&
           vf_features_nonzero(kind, rows->memories != NULL) > 0;
}

vf_error vf_batch_features(int kind, int n, const int32_t *obs, const int32_t *actions,
                           const uint8_t *opening, const vf_feature_rows *rows) {
    if (n < 1 || n > VF_BATCH_MAX || !obs || !vf_feature_rows_ok(kind, rows))
        return VF_ERR_ARGUMENT;
    if (!actions)
        for (int i = 0; i < n; i++)
            if (!opening || !opening[i]) return VF_ERR_ARGUMENT;
    const size_t size = (size_t)vf_obs_size(kind);
    vf_error result = VF_OK;
    for (int i = 0; i < n; i++) {
        bool open = opening && opening[i];
        if (vf_features_row(kind, obs + (size_t)i * size, open ? -1 : actions[i], open, rows, i) <
            0)
            result = VF_ERR_INVALID;
    }
    return result;
}
