/* snapshot.c — the byte format both farms' snapshots share: a little-endian writer and
 * reader, and the hashes. The frame itself (magic, version, kind, length, checksum) is
 * described in valley_farm.h and written by env.c; each farm writes only its payload. */
#include "internal.h"

void vfs_put_u8(vfs_writer *w, uint32_t v) {
    if (w->p >= w->end) {
        w->overflow = true;
        return;
    }
    *w->p++ = (uint8_t)v;
}

void vfs_put_u16(vfs_writer *w, uint32_t v) {
    vfs_put_u8(w, v & 0xFF);
    vfs_put_u8(w, (v >> 8) & 0xFF);
}

void vfs_put_u32(vfs_writer *w, uint32_t v) {
    vfs_put_u16(w, v & 0xFFFF);
    vfs_put_u16(w, v >> 16);
}

void vfs_put_u64(vfs_writer *w, uint64_t v) {
    vfs_put_u32(w, (uint32_t)v);
    vfs_put_u32(w, (uint32_t)(v >> 32));
}

void vfs_put_bytes(vfs_writer *w, const uint8_t *src, size_t n) {
    for (size_t i = 0; i < n; i++) vfs_put_u8(w, src[i]);
}

uint32_t vfs_get_u8(vfs_reader *r) {
    if (r->p >= r->end) {
        r->bad = true;
        return 0;
    }
    return *r->p++;
}

uint32_t vfs_get_u16(vfs_reader *r) {
    uint32_t lo = vfs_get_u8(r);
    return lo | (vfs_get_u8(r) << 8);
}

uint32_t vfs_get_u32(vfs_reader *r) {
    uint32_t lo = vfs_get_u16(r);
    return lo | (vfs_get_u16(r) << 16);
}

uint64_t vfs_get_u64(vfs_reader *r) {
    uint64_t lo = vfs_get_u32(r);
    return lo | ((uint64_t)vfs_get_u32(r) << 32);
}

void vfs_get_bytes(vfs_reader *r, uint8_t *dst, size_t n) {
    for (size_t i = 0; i < n; i++) dst[i] = (uint8_t)vfs_get_u8(r);
}

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
