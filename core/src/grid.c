/* grid.c — what both farms' grids need: directions and the reachability check. */
#include "internal.h"

const int8_t vfg_dx[4] = {0, 0, 1, -1}; /* north, south, east, west */
const int8_t vfg_dy[4] = {-1, 1, 0, 0};
const int8_t vfg_move_dx[16] = {0, 0, 1, -1};
const int8_t vfg_move_dy[16] = {-1, 1, 0, 0};

/* The runs of `open` (a row's open cells) that hold a cell of `seed` (seed within open):
 * how far 4-neighbour moves along the row get from the seed cells. Eastward (towards
 * higher bits) the run fills with one addition: adding a seed's bit to the run carries
 * through every open cell above it, and the cells the carry flips are those cells. Westward
 * a short loop does the rest, one cell per pass. (A seed cell that is not open, the start
 * of a fill, is kept but starts no run.) */
static uint32_t fill_row(uint32_t seed, uint32_t open) {
    uint32_t grow = seed | (((open + (seed & open)) ^ open) & open);
    for (;;) {
        uint32_t next = grow | ((grow >> 1) & open);
        if (next == grow) return grow;
        grow = next;
    }
}

/* Flood fill on row bitmasks. Each row's reached cells are whole runs of its open cells
 * (fill_row); a row that grows marks its two neighbours to be looked at again, and the
 * fill ends when no row is marked. So the work follows the changes, instead of sweeping
 * every row until a sweep finds nothing new. Maps are small (<= 16 x 16) and reset
 * redraws layouts until they pass this check, so it must be cheap. */
vfg_mask vfg_reachable(const vfg_mask *walkable, int w, int h, int sx, int sy) {
    /* row y is at index y + 1: rows -1 and h are closed guards, so no bounds checks */
    uint32_t open[VFG_MAX_H + 2] = {0}, reach[VFG_MAX_H + 2] = {0};
    uint32_t full = (1u << w) - 1u;
    for (int y = 0; y < h; y++) open[y + 1] = walkable->rows[y] & full;
    uint32_t start = 1u << sx; /* reached even if not walkable: its open row-neighbours too */
    reach[sy + 1] = fill_row(start | (((start << 1) | (start >> 1)) & open[sy + 1]), open[sy + 1]);
    uint32_t marked = 1u << (sy + 1); /* rows whose neighbours may gain cells */
    while (marked != 0) {
        int i = __builtin_ctz(marked);
        marked &= marked - 1;
        uint32_t up = reach[i] & open[i - 1] & ~reach[i - 1];
        uint32_t down = reach[i] & open[i + 1] & ~reach[i + 1];
        if (up != 0) {
            reach[i - 1] = fill_row(reach[i - 1] | up, open[i - 1]);
            marked |= 1u << (i - 1);
        }
        if (down != 0) {
            reach[i + 1] = fill_row(reach[i + 1] | down, open[i + 1]);
            marked |= 1u << (i + 1);
        }
    }
    vfg_mask reached;
    for (int y = 0; y < VFG_MAX_H; y++) reached.rows[y] = (uint16_t)(y < h ? reach[y + 1] : 0);
    return reached;
}
