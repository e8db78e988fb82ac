/* text.c — bounded text building for vf_render and vf_state_json (no libc formatting:
 * the WebAssembly build carries no printf, and the output must not depend on a locale). */
#include "internal.h"

vft_text vft_begin(char *buf, size_t cap) {
    vft_text t = {buf, cap, 0};
    return t;
}

size_t vft_end(vft_text *t) {
    if (t->cap > 0) t->buf[t->len < t->cap ? t->len : t->cap - 1] = '\0';
    return t->len;
}

void vft_char(vft_text *t, char c) {
    if (t->len + 1 < t->cap) t->buf[t->len] = c;
    t->len++;
}

void vft_str(vft_text *t, const char *s) {
    while (*s) vft_char(t, *s++);
}

void vft_int(vft_text *t, int64_t v) {
    char digits[24];
    int n = 0;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    if (v < 0) vft_char(t, '-');
    do {
        digits[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    while (n) vft_char(t, digits[--n]);
}

void vft_fixed(vft_text *t, int64_t v, int decimals) {
    int64_t scale = 1;
    for (int i = 0; i < decimals; i++) scale *= 10;
    if (v < 0) {
        vft_char(t, '-');
        v = -v;
    }
    vft_int(t, v / scale);
    int64_t frac = v % scale;
    if (frac == 0) return;
    vft_char(t, '.');
    while (frac) {
        scale /= 10;
        vft_char(t, (char)('0' + frac / scale));
        frac %= scale;
    }
}

void vft_key(vft_text *t, const char *name, bool first) {
    if (!first) vft_char(t, ',');
    vft_char(t, '"');
    vft_str(t, name);
    vft_str(t, "\":");
}

void vft_bool(vft_text *t, bool b) {
    vft_str(t, b ? "true" : "false");
}

void vft_json_state_begin(vft_text *t, int width, int height, int step, int x, int y) {
    vft_char(t, '{');
    vft_key(t, "width", true);
    vft_int(t, width);
    vft_key(t, "height", false);
    vft_int(t, height);
    vft_key(t, "step", false);
    vft_int(t, step);
    vft_key(t, "agent", false);
    vft_char(t, '{');
    vft_key(t, "x", true);
    vft_int(t, x);
    vft_key(t, "y", false);
    vft_int(t, y);
}

void vft_json_grid(vft_text *t, const char *key, const uint8_t *cells, int width, int height,
                   int pitch) {
    vft_key(t, key, false);
    vft_char(t, '[');
    for (int y = 0; y < height; y++) {
        vft_str(t, y ? ",[" : "[");
        for (int x = 0; x < width; x++) {
            if (x) vft_char(t, ',');
            vft_int(t, cells[y * pitch + x]);
        }
        vft_char(t, ']');
    }
    vft_char(t, ']');
}

void vft_reward(vft_text *t, double reward) {
    int64_t hundredths = (int64_t)(reward * 100.0 + (reward >= 0 ? 0.5 : -0.5));
    if (hundredths >= 0) vft_char(t, '+');
    vft_fixed(t, hundredths, 2);
}
