/* grid.c — what both farms' grids need: the direction tables (the flood fill is inline, in
 * internal.h). */
#include "internal.h"

const int8_t vfg_dx[16] = {0, 0, 1, -1}; /* north, south, east, west; the rest 0 */
const int8_t vfg_dy[16] = {-1, 1, 0, 0};
