/* grid.c — what both farms' grids need: directions and the reachability check. */
#include "internal.h"

const int8_t vfg_dx[16] = {0, 0, 1, -1}; /* north, south, east, west; the rest 0 */
const int8_t vfg_dy[16] = {-1, 1, 0, 0};

/* Flood fill, bit-parallel. The 16 x 16 grid of row masks is four 64-bit words, rows
 * interleaved: row y is the 16-bit lane y / 4 of word y % 4. So a row's north and south
 * neighbours are the same lane of the words before and after it, and only the rows at a
 * word boundary (y % 4 == 0 or 3) need a shift by a lane. Each round grows the reached set
 * by one cell in every direction at once; it ends when a round adds nothing. No branch
 * but the loop's: a fill is a few dozen rounds of a few dozen word operations. */
enum { WORDS = VFG_MAX_H / 4 };
#define COL0 0x0001000100010001ull  /* column 0 of every lane */
#define COL15 0x8000800080008000ull /* column 15 */

vfg_mask vfg_reachable(const vfg_mask *walkable, int w, int h, int sx, int sy) {
    uint64_t open[WORDS] = {0}, start[WORDS] = {0};
    uint64_t full = (1u << w) - 1u;
    for (int y = 0; y < h; y++)
        open[y % 4] |= (uint64_t)(walkable->rows[y] & full) << (16 * (y / 4));
    start[sy % 4] = 1ull << (16 * (sy / 4) + sx);
    uint64_t r0 = start[0], r1 = start[1], r2 = start[2], r3 = start[3];
    for (;;) {
        /* every cell next to a reached one, row by row: west and east in the lane, north
         * and south from the neighbouring words (rows 4j - 1 and 4j + 4 across a lane) */
#define SIDE(x) (((x) << 1 & ~COL0) | ((x) >> 1 & ~COL15))
        uint64_t n0 = (r0 | SIDE(r0) | r3 << 16 | r1) & open[0];
        uint64_t n1 = (r1 | SIDE(r1) | r0 | r2) & open[1];
        uint64_t n2 = (r2 | SIDE(r2) | r1 | r3) & open[2];
        uint64_t n3 = (r3 | SIDE(r3) | r2 | r0 >> 16) & open[3];
#undef SIDE
        n0 |= start[0], n1 |= start[1], n2 |= start[2], n3 |= start[3];
        uint64_t changed = (n0 ^ r0) | (n1 ^ r1) | (n2 ^ r2) | (n3 ^ r3);
        r0 = n0, r1 = n1, r2 = n2, r3 = n3;
        if (changed == 0) break;
    }
    const uint64_t reach[WORDS] = {r0, r1, r2, r3};
    vfg_mask reached;
    for (int y = 0; y < VFG_MAX_H; y++)
        reached.rows[y] = (uint16_t)(reach[y % 4] >> (16 * (y / 4)));
    return reached;
}
