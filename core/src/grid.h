/*
 * grid.h — what both farms' grids need, all inline: the direction tables, row bitmasks,
 * the 5 x 5 view copy and the flood fill. The direction tables are defined here, not in a
 * .c file, so that the compiler sees their values: a neighbour's tile is then a fixed
 * offset, which the legal masks (computed for every env on every vector step) rely on.
 */
#ifndef VF_GRID_H
#define VF_GRID_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#ifndef VF_ALWAYS_INLINE
#define VF_ALWAYS_INLINE static inline __attribute__((always_inline))
#endif

/* Unit steps per direction (VF_NORTH, VF_SOUTH, VF_EAST, VF_WEST). The moves are actions
 * 0..3 in both farms, so these are also the steps by action; every other index (up to 15)
 * steps (0, 0), so a step can apply "the move" without branching on the action. */
static const int8_t vfg_dx[16] = {0, 0, 1, -1}; /* north, south, east, west; the rest 0 */
static const int8_t vfg_dy[16] = {-1, 1, 0, 0};

/* Row bitmasks: bit x of rows[y] is cell (x, y). Maps are at most 15 wide and 16 high. */
#define VFG_MAX_W 15
#define VFG_MAX_H 16
typedef struct vfg_mask {
    uint16_t rows[VFG_MAX_H];
} vfg_mask;

static inline bool vfg_has(const vfg_mask *m, int x, int y) {
    return (m->rows[y] >> x) & 1u;
}
static inline void vfg_set(vfg_mask *m, int x, int y) {
    m->rows[y] |= (uint16_t)(1u << x);
}

/* Copies the 5 x 5 window of a byte grid whose north-west cell is src (rows `pitch` bytes
 * apart) into 25 int32s, north row first: the views both observations are made of.
 *
 * With WebAssembly SIMD and on x86 each row is one load of eight cells, widened, and two
 * stores of four, so
 *  - it reads 3 bytes past each row's fifth cell: they must lie inside the same object;
 *  - it writes 3 int32s past each row: the next row's first three, which it writes next,
 *    and after the last row dst[25..27], which the caller must write after it.
 * That is measurably faster than a fifth cell on its own (npm run bench). Elsewhere, and
 * with VF_PORTABLE, GCC/Clang vector extensions copy four cells and then the fifth;
 * callers keep to the wider contract regardless. (On x86, gcc compiles the vector
 * extension into a cell-by-cell shuffle that made a whole step much slower, hence the
 * intrinsics there.) */
enum { VFG_VIEW5_OVERRUN = 3 }; /* bytes read, and int32s written, past the view */
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
static inline void vfg_view5(int32_t *restrict dst, const uint8_t *restrict src, int pitch) {
    for (int r = 0; r < 5; r++, src += pitch, dst += 5) {
        v128_t cells = wasm_u16x8_load8x8(src);
        wasm_v128_store(dst, wasm_u32x4_extend_low_u16x8(cells));
        wasm_v128_store(dst + 4, wasm_u32x4_extend_high_u16x8(cells));
    }
}
#elif defined(__SSE2__) && !defined(VF_PORTABLE)
#include <emmintrin.h>
static inline void vfg_view5(int32_t *restrict dst, const uint8_t *restrict src, int pitch) {
    const __m128i zero = _mm_setzero_si128();
    for (int r = 0; r < 5; r++, src += pitch, dst += 5) {
        __m128i cells = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)src), zero);
        _mm_storeu_si128((__m128i *)dst, _mm_unpacklo_epi16(cells, zero));
        _mm_storeu_si128((__m128i *)(dst + 4), _mm_unpackhi_epi16(cells, zero));
    }
}
#else
typedef uint8_t vfg_u8x4 __attribute__((vector_size(4)));
typedef int32_t vfg_i32x4 __attribute__((vector_size(16)));
static inline void vfg_view5(int32_t *restrict dst, const uint8_t *restrict src, int pitch) {
    for (int r = 0; r < 5; r++, src += pitch, dst += 5) {
        vfg_u8x4 bytes;
        memcpy(&bytes, src, sizeof bytes);
        vfg_i32x4 wide = __builtin_convertvector(bytes, vfg_i32x4);
        memcpy(dst, &wide, sizeof wide);
        dst[4] = src[4];
    }
}
#endif

/*
 * The cells reachable from (sx, sy) by 4-neighbour moves over `walkable` cells of a
 * w x h grid (the start counts as reached even if not walkable).
 *
 * A bit-parallel flood fill. The grid lives in K 64-bit words, rows interleaved: row y is
 * lane y / K of word y % K, and a lane is w + 1 bits, the last always closed (w <= 15 and
 * h <= 16 leave at least 4 lanes a word, so K <= 4). So
 *  - a row's north and south neighbours are the same lane of the words before and after
 *    it; only the first and last word need a shift by a lane to reach across;
 *  - moving a whole lane one cell east or west is a shift by 1, and the closed column
 *    stops it from spilling into the next row.
 * Each round grows the reached set by one cell in every direction at once, with no branch
 * but the loop's; it ends when a round adds nothing (about 14 rounds on a backwards map).
 * Inline, so that each caller's constant w and h make K and the lane width constants: a
 * 10 x 10 map then takes 2 words, the valley's 15 x 15 map 4.
 */
VF_ALWAYS_INLINE vfg_mask vfg_reachable(const vfg_mask *walkable, int w, int h, int sx, int sy) {
    const int lane = w + 1, lanes = 64 / lane, words = (h + lanes - 1) / lanes;
    const uint64_t row_cells = (1u << w) - 1u;
    uint64_t open[4] = {0}, start[4] = {0}, reached[4] = {0};
    for (int y = 0; y < h; y++)
        open[y % words] |= (walkable->rows[y] & row_cells) << (lane * (y / words));
    start[sy % words] = 1ull << (lane * (sy / words) + sx);
    for (int j = 0; j < words; j++) reached[j] = start[j];
    for (;;) {
        uint64_t next[4], changed = 0;
#pragma GCC unroll 4 /* so that the words stay in registers (gcc -O2 would not unroll) */
        for (int j = 0; j < words; j++) {
            uint64_t r = reached[j];
            uint64_t north = j > 0 ? reached[j - 1] : reached[words - 1] << lane;
            uint64_t south = j < words - 1 ? reached[j + 1] : reached[0] >> lane;
            next[j] = ((r | r << 1 | r >> 1 | north | south) & open[j]) | start[j];
            changed |= next[j] ^ r;
        }
#pragma GCC unroll 4
        for (int j = 0; j < words; j++) reached[j] = next[j];
        if (changed == 0) break;
    }
    vfg_mask out = {{0}};
    for (int y = 0; y < h; y++)
        out.rows[y] = (uint16_t)((reached[y % words] >> (lane * (y / words))) & row_cells);
    return out;
}

#endif /* VF_GRID_H */
