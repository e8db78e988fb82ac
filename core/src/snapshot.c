/* snapshot.c — the hashes both farms' snapshots use (the little-endian writer and reader
 * are inline in internal.h). The frame itself (magic, version, kind, length, checksum) is
 * described in valley_farm.h and written by env.c; each farm writes only its payload. */
#include "internal.h"

uint32_t vfs_fnv1a32(const uint8_t *p, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 16777619u;
    return h;
}

uint64_t vfs_fnv1a64(const uint8_t *p, size_t n) {
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}
