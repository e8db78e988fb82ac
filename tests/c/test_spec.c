/*
 * test_spec.c — vf_spec_json, the engine's description of itself that every binding reads:
 * it must be valid JSON, and say what the engine's calls and its play say.
 */
#include <stdlib.h>

#include "check.h"
#include "valley_farm.h"

static char spec[VF_SPEC_MAX];

/* ---- a strict JSON checker (RFC 8259's grammar; enough to reject what a parser would) ---- */

static const char *ws(const char *p) {
    while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t') p++;
    return p;
}

static const char *json_value(const char *p, int depth);

static const char *json_string(const char *p) {
    if (*p++ != '"') return NULL;
    for (;;) {
        unsigned char c = (unsigned char)*p++;
        if (c == '"') return p;
        if (c < 0x20) return NULL; /* the end of the text, or a raw control character */
        if (c == '\\') {
            char e = *p++;
            if (e == 'u') {
                for (int i = 0; i < 4; i++)
                    if (!strchr("0123456789abcdefABCDEF", *p++) || p[-1] == 0) return NULL;
            } else if (!e || !strchr("\"\\/bfnrt", e)) {
                return NULL;
            }
        }
    }
}

static const char *json_number(const char *p) {
    if (*p == '-') p++;
    if (*p == '0')
        p++;
    else if (*p >= '1' && *p <= '9')
        while (*p >= '0' && *p <= '9') p++;
    else
        return NULL;
    if (*p == '.') {
        if (!(*++p >= '0' && *p <= '9')) return NULL;
        while (*p >= '0' && *p <= '9') p++;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-') p++;
        if (!(*p >= '0' && *p <= '9')) return NULL;
        while (*p >= '0' && *p <= '9') p++;
    }
    return p;
}

/* `{...}` or `[...]`: members separated by commas, keys before colons in objects. */
static const char *json_container(const char *p, int depth, char close) {
    p = ws(p + 1);
    if (*p == close) return p + 1;
    for (;;) {
        if (close == '}') {
            p = json_string(p);
            if (!p) return NULL;
            p = ws(p);
            if (*p++ != ':') return NULL;
        }
        p = json_value(ws(p), depth + 1);
        if (!p) return NULL;
        p = ws(p);
        if (*p == close) return p + 1;
        if (*p++ != ',') return NULL;
        p = ws(p);
    }
}

static const char *json_value(const char *p, int depth) {
    if (depth > 32) return NULL;
    switch (*p) {
    case '{': return json_container(p, depth, '}');
    case '[': return json_container(p, depth, ']');
    case '"': return json_string(p);
    case 't': return strncmp(p, "true", 4) == 0 ? p + 4 : NULL;
    case 'f': return strncmp(p, "false", 5) == 0 ? p + 5 : NULL;
    case 'n': return strncmp(p, "null", 4) == 0 ? p + 4 : NULL;
    default: return json_number(p);
    }
}

static bool valid_json(const char *text) {
    const char *end = json_value(ws(text), 0);
    return end && *ws(end) == '\0';
}

/* ---- reading the spec ------------------------------------------------------------------- */

/* The text of farm `kind`'s object: from its "id" to the next farm's (or the list's end). */
static const char *farm_at(int kind) {
    const char *p = spec;
    for (int k = 0; k <= kind; k++) {
        p = strstr(p + 1, "{\"id\":");
        if (!p) return NULL;
    }
    return p;
}

/* The integer after `"key":` at or after p, or INT32_MIN when missing. */
static long int_after(const char *p, const char *key) {
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":", key);
    const char *at = strstr(p, pattern);
    return at ? strtol(at + strlen(pattern), NULL, 10) : INT32_MIN;
}

typedef struct field {
    int offset, length, low, high;
} field;

/* The farm's observation fields as the JSON gives them; returns their number. */
static int fields_of(int kind, field *out, int max) {
    const char *p = strstr(farm_at(kind), "\"fields\":[");
    const char *end = strstr(p, "}]"); /* the list's last object; a shape is "[]" or "[25]" */
    int n = 0;
    for (const char *f = strstr(p, "{\"name\":"); f && f < end && n < max;
         f = strstr(f + 1, "{\"name\":")) {
        out[n++] = (field){(int)int_after(f, "offset"), (int)int_after(f, "length"),
                           (int)int_after(f, "low"), (int)int_after(f, "high")};
    }
    return n;
}

/* ---- tests -------------------------------------------------------------------------------- */

TEST(the_spec_is_valid_json_within_VF_SPEC_MAX_and_reports_its_full_length) {
    size_t n = vf_spec_json(spec, sizeof spec);
    CHECK(n > 0 && n < sizeof spec);
    CHECK_EQ(strlen(spec), n);
    CHECK(valid_json(spec));
    char small[16];
    CHECK_EQ(vf_spec_json(small, sizeof small), n); /* cut, but the length is the full one */
    CHECK_EQ(strlen(small), sizeof small - 1);
    CHECK_EQ(vf_spec_json(NULL, 0), n);
    /* the checker rejects what a JSON parser would */
    CHECK(!valid_json("{\"a\":1,}"));
    CHECK(!valid_json("{\"a\":\"x\"y\"}"));
    CHECK(!valid_json("[1 2]"));
}

TEST(the_spec_gives_each_farm_its_id_sizes_and_actions_as_the_engine_calls_do) {
    vf_spec_json(spec, sizeof spec);
    for (int k = 0; k < VF_KIND_COUNT; k++) {
        const char *farm = farm_at(k);
        CHECK(farm != NULL);
        if (!farm) continue;
        char text[512];
        snprintf(text, sizeof text, "{\"id\":\"%s\",\"kind\":%d,", vf_kind_name(k), k);
        CHECK(strncmp(farm, text, strlen(text)) == 0);
        CHECK_EQ(int_after(farm, "obsSize"), vf_obs_size(k));
        CHECK_EQ(int_after(farm, "snapshotSize"), (long)vf_snapshot_size(k));
        CHECK_EQ(int_after(farm, "planWidth"), vf_plan_width(k));
        /* the actions, in id order, spelled as vf_action_name spells them */
        size_t len = (size_t)snprintf(text, sizeof text, "\"actions\":[");
        for (int a = 0; a < vf_num_actions(k); a++)
            len += (size_t)snprintf(text + len, sizeof text - len, "%s\"%s\"", a ? "," : "",
                                    vf_action_name(k, a));
        snprintf(text + len, sizeof text - len, "]");
        CHECK(strstr(farm, text) != NULL);
    }
    CHECK(farm_at(VF_KIND_COUNT) == NULL); /* no farm the engine does not have */
}

TEST(the_spec_fields_cover_the_flat_observation_in_order_with_nothing_left_over) {
    vf_spec_json(spec, sizeof spec);
    for (int k = 0; k < VF_KIND_COUNT; k++) {
        field f[VF_OBS_MAX];
        int n = fields_of(k, f, VF_OBS_MAX);
        CHECK(n > 0);
        int offset = 0;
        for (int i = 0; i < n; i++) {
            CHECK_EQ(f[i].offset, offset);
            CHECK(f[i].length >= 1 && f[i].low <= f[i].high);
            offset += f[i].length;
        }
        CHECK_EQ(offset, vf_obs_size(k));
    }
}

/* Random play on many seeds; every value of every observation must lie in its field's
 * declared [low, high] (the bounds of the observation spaces every binding builds). */
TEST(every_observation_value_seen_in_play_lies_within_its_fields_declared_bounds) {
    vf_spec_json(spec, sizeof spec);
    for (int k = 0; k < VF_KIND_COUNT; k++) {
        field f[VF_OBS_MAX];
        int n = fields_of(k, f, VF_OBS_MAX);
        int low[VF_OBS_MAX], high[VF_OBS_MAX];
        for (int i = 0; i < n; i++)
            for (int j = 0; j < f[i].length && f[i].offset + j < VF_OBS_MAX; j++) {
                low[f[i].offset + j] = f[i].low;
                high[f[i].offset + j] = f[i].high;
            }
        vf_rng rng = vf_rng_seeded(7);
        vf_env env;
        int32_t obs[VF_OBS_MAX];
        uint8_t mask[VF_ACTIONS_MAX];
        long values = 0;
        for (uint64_t seed = 0; seed < 300; seed++) {
            vf_reset(&env, k, seed, obs);
            for (;;) {
                for (int i = 0; i < vf_obs_size(k); i++, values++)
                    CHECK_FIRST(obs[i] >= low[i] && obs[i] <= high[i]);
                if (vf_terminated(&env)) break;
                /* mostly legal actions, so play gets somewhere (crops, coins, Farm Value) */
                vf_legal_actions(&env, mask);
                int a = (int)vf_rng_below(&rng, (uint32_t)vf_num_actions(k));
                for (int tries = 0; !mask[a] && tries < 3; tries++)
                    a = (int)vf_rng_below(&rng, (uint32_t)vf_num_actions(k));
                vf_step(&env, a, obs);
            }
        }
        CHECK(values > 100000);
    }
}

TEST(the_spec_lists_every_illegal_reason_and_event_code_in_their_order) {
    vf_spec_json(spec, sizeof spec);
    char text[256];
    const char *at = strstr(spec, "\"whys\":[");
    CHECK(at != NULL);
    for (int w = 0; at && w < VF_WHY_COUNT; w++) {
        snprintf(text, sizeof text, "{\"code\":\"%s\",", vf_why_code(w));
        const char *next = strstr(at, text);
        CHECK(next != NULL); /* present, after the one before it */
        if (next) at = next;
    }
    at = strstr(spec, "\"events\":[null");
    CHECK(at != NULL);
    for (int e = 1; at && e < VF_EV_COUNT; e++) {
        snprintf(text, sizeof text, ",\"%s\"", vf_event_code(e));
        const char *next = strstr(at, text);
        CHECK(next != NULL);
        if (next) at = next;
    }
    CHECK_EQ(int_after(spec, "obsMax"), VF_OBS_MAX);
    CHECK_EQ(int_after(spec, "batchMax"), VF_BATCH_MAX);
}

int main(void) {
    RUN(the_spec_is_valid_json_within_VF_SPEC_MAX_and_reports_its_full_length);
    RUN(the_spec_gives_each_farm_its_id_sizes_and_actions_as_the_engine_calls_do);
    RUN(the_spec_fields_cover_the_flat_observation_in_order_with_nothing_left_over);
    RUN(every_observation_value_seen_in_play_lies_within_its_fields_declared_bounds);
    RUN(the_spec_lists_every_illegal_reason_and_event_code_in_their_order);
    return check_summary();
}
