/* grid.c — what both farms' grids need: directions and the reachability check. */
#include "internal.h"

const int8_t vfg_dx[4] = {0, 0, 1, -1}; /* north, south, east, west */
const int8_t vfg_dy[4] = {-1, 1, 0, 0};

/* Grows a row's reached bits sideways over the row's open cells until they stop. */
static uint16_t spread(uint16_t grow, uint16_t open) {
    for (;;) {
        uint16_t next = (uint16_t)(grow | (((grow << 1) | (grow >> 1)) & open));
        if (next == grow) return grow;
        grow = next;
    }
}

/* Flood fill on row bitmasks. Each pass sweeps down then up, carrying the reached set
 * into the next row and spreading it sideways, so a path that winds up and down costs one
 * pass per reversal, not one per row. Maps are small (<= 16 x 16) and reset redraws
 * layouts until they pass this check, so it must be cheap: a fill is a few dozen word ops. */
vfg_mask vfg_reachable(const vfg_mask *walkable, int w, int h, int sx, int sy) {
    vfg_mask reached = {{0}};
    uint16_t full = (uint16_t)((1u << w) - 1u);
    uint16_t open[VFG_MAX_H];
    for (int y = 0; y < h; y++) open[y] = walkable->rows[y] & full;
    vfg_set(&reached, sx, sy);
    reached.rows[sy] = spread(reached.rows[sy], open[sy]);
    bool changed = true;
    while (changed) {
        changed = false;
        for (int y = 1; y < h; y++) { /* downward */
            uint16_t add = reached.rows[y - 1] & open[y] & (uint16_t)~reached.rows[y];
            if (add) {
                reached.rows[y] = spread((uint16_t)(reached.rows[y] | add), open[y]);
                changed = true;
            }
        }
        for (int y = h - 2; y >= 0; y--) { /* upward */
            uint16_t add = reached.rows[y + 1] & open[y] & (uint16_t)~reached.rows[y];
            if (add) {
                reached.rows[y] = spread((uint16_t)(reached.rows[y] | add), open[y]);
                changed = true;
            }
        }
    }
    return reached;
}
