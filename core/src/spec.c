/* spec.c — vf_spec_json: the engine's description of itself, for bindings.
 *
 * Every fact here is read from where the engine keeps it (each farm's vf_farm_spec, the
 * public calls, the header's constants), so that the JavaScript and Python bindings never
 * type one: the JS spec (wasm/engine_spec.js) is generated from this text, and tests hold
 * both to the engine. */
#include <stddef.h>

#include "internal.h"

/* A JSON string: the engine's texts are UTF-8 with no control characters, so only quotes
 * and backslashes need escaping. */
static void string(vft_text *t, const char *s) {
    vft_char(t, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') vft_char(t, '\\');
        vft_char(t, *s);
    }
    vft_char(t, '"');
}

/* `"key":["a","b",...]` */
static void names(vft_text *t, const char *key, const char *const *list, int n) {
    vft_key(t, key, false);
    vft_char(t, '[');
    for (int i = 0; i < n; i++) {
        if (i) vft_char(t, ',');
        string(t, list[i]);
    }
    vft_char(t, ']');
}

static void key_int(vft_text *t, const char *key, int64_t v) {
    vft_key(t, key, false);
    vft_int(t, v);
}

/* The roles' names, as valley_farm.h lists them. */
static const char *const role_names[VF_ROLE_END] = {
    [VF_ROLE_TILES] = "tiles",
    [VF_ROLE_STATUS] = "status",
    [VF_ROLE_CATEGORY] = "category",
    [VF_ROLE_AMOUNT] = "count",
    [VF_ROLE_X] = "x",
    [VF_ROLE_Y] = "y",
    [VF_ROLE_STEPS_LEFT] = "stepsLeft",
};

static void field_json(vft_text *t, const vf_field_spec *f) {
    vft_key(t, "name", true);
    string(t, f->name);
    vft_key(t, "group", false);
    if (f->group)
        string(t, f->group);
    else
        vft_str(t, "null");
    key_int(t, "offset", f->offset);
    key_int(t, "length", f->length);
    vft_key(t, "shape", false);
    vft_char(t, '[');
    if (f->length > 1) vft_int(t, f->length);
    vft_char(t, ']');
    key_int(t, "low", f->low);
    key_int(t, "high", f->high);
    vft_key(t, "role", false);
    string(t, role_names[f->role]);
    vft_key(t, "categorical", false);
    vft_bool(t, vf_role_categorical(f->role));
}

static void tile_json(vft_text *t, const vf_farm_spec *s, int code) {
    const vf_tile_spec *tile = &s->tiles[code];
    vft_key(t, "code", true);
    vft_int(t, code);
    vft_key(t, "name", false);
    string(t, tile->name);
    vft_key(t, "walkable", false);
    vft_bool(t, vf_tile_in(s->walkable, code));
    vft_key(t, "background", false);
    vft_bool(t, tile->background);
    if (tile->status) names(t, "status", tile->status, tile->status_count);
}

/* What a policy sees of the farm (features.c): the sizes of its features and its landmarks. */
static void features_json(vft_text *t, int kind, const vf_farm_spec *s) {
    vft_char(t, '{');
    vft_key(t, "observation", true);
    vft_int(t, vf_features_size(kind, false));
    key_int(t, "memory", vf_features_size(kind, true) - vf_features_size(kind, false));
    key_int(t, "nonzero", vf_features_nonzero(kind, false));
    vft_key(t, "landmarks", false);
    vft_char(t, '[');
    bool status_field = false;
    for (int i = 0; i < s->field_count; i++) status_field |= s->fields[i].role == VF_ROLE_STATUS;
    vff_landmarks(s, status_field, NULL, t);
    vft_str(t, "]}");
}

static void farm_json(vft_text *t, int kind) {
    const vf_farm_spec *s = vf_farm_spec_of(kind);
    vft_key(t, "id", true);
    string(t, vf_kind_name(kind));
    key_int(t, "kind", kind);
    vft_key(t, "slug", false);
    string(t, s->slug);
    key_int(t, "width", s->width);
    key_int(t, "height", s->height);
    key_int(t, "horizon", s->horizon);
    key_int(t, "viewSize", s->view);
    key_int(t, "obsSize", vf_obs_size(kind));
    key_int(t, "snapshotSize", (int64_t)vf_snapshot_size(kind));
    key_int(t, "planWidth", vf_plan_width(kind));
    vft_key(t, "actions", false);
    vft_char(t, '[');
    for (int a = 0; a < vf_num_actions(kind); a++) {
        if (a) vft_char(t, ',');
        string(t, vf_action_name(kind, a));
    }
    vft_char(t, ']');
    vft_key(t, "tiles", false);
    vft_char(t, '[');
    for (int c = 0; c < s->tile_count; c++) {
        vft_str(t, c ? ",{" : "{");
        tile_json(t, s, c);
        vft_char(t, '}');
    }
    vft_char(t, ']');
    vft_key(t, "fields", false);
    vft_char(t, '[');
    for (int i = 0; i < s->field_count; i++) {
        vft_str(t, i ? ",{" : "{");
        field_json(t, &s->fields[i]);
        vft_char(t, '}');
    }
    vft_char(t, ']');
    for (int i = 0; i < s->list_count; i++)
        names(t, s->lists[i].key, s->lists[i].names, s->lists[i].count);
    vft_key(t, "agents", false);
    vft_char(t, '[');
    for (int a = 0, n = 0; a < VF_AGENT_KINDS; a++) {
        if (!vf_agent_exists(kind, a)) continue;
        if (n++) vft_char(t, ',');
        string(t, vf_agent_name(a));
    }
    vft_char(t, ']');
    vft_key(t, "features", false);
    features_json(t, kind, s);
    vft_key(t, "rules", false);
    char rules[VF_TEXT_MAX];
    vf_rules_json(kind, rules, sizeof rules);
    vft_str(t, rules);
}

static void protocol_json(vft_text *t) {
    vft_str(t, "{\"splits\":{\"test\":{\"first\":");
    vft_int(t, VF_TEST_FIRST);
    key_int(t, "count", VF_TEST_COUNT);
    vft_str(t, "},\"validation\":{\"first\":");
    vft_int(t, VF_VALIDATION_FIRST);
    key_int(t, "count", VF_VALIDATION_COUNT);
    vft_str(t, "}},\"freshSeeds\":{\"min\":");
    vft_int(t, (int64_t)VF_FRESH_SEED_MIN);
    key_int(t, "max", (int64_t)VF_FRESH_SEED_MAX);
    vft_char(t, '}');
    key_int(t, "randomRuns", VF_RANDOM_RUNS);
    vft_char(t, '}');
}

static void limits_json(vft_text *t) {
    static const struct {
        const char *key;
        int64_t value;
    } limits[] = {
        {"obsMax", VF_OBS_MAX},
        {"actionsMax", VF_ACTIONS_MAX},
        {"textMax", VF_TEXT_MAX},
        {"specMax", VF_SPEC_MAX},
        {"snapshotMax", VF_SNAPSHOT_MAX},
        {"snapshotVersion", VF_SNAPSHOT_VERSION},
        {"batchMax", VF_BATCH_MAX},
        {"eventsMax", VF_EVENTS_MAX},
        {"planMax", VF_PLAN_MAX},
        {"planWidthMax", VF_PLAN_WIDTH_MAX},
        {"proveStatesMax", VF_PROVE_STATES_MAX},
        {"planMemoryMax", VF_PLAN_MEMORY_MAX},
        {"proveStates", VF_PROVE_STATES},
    };
    vft_char(t, '{');
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        vft_key(t, limits[i].key, i == 0);
        vft_int(t, limits[i].value);
    }
    vft_char(t, '}');
}

/* The structs a binding places or reads in memory. They hold no pointers (vf_env, vf_memory,
 * vf_agent) or only integers and doubles (vf_event, vf_plan), so these are the same in every
 * build. (vf_batch_io and vf_feature_rows hold pointers, so their sizes are a build's own: the
 * WebAssembly glue gives them, wasm/exports.c.) */
static void layouts_json(vft_text *t) {
    vft_char(t, '{');
    vft_key(t, "env", true);
    vft_char(t, '{');
    vft_key(t, "bytes", true);
    vft_int(t, (int64_t)sizeof(vf_env));
    vft_char(t, '}');
    static const struct {
        const char *key;
        size_t at;
    } event[] = {
        {"kind", offsetof(vf_event, kind)},     {"subject", offsetof(vf_event, subject)},
        {"x", offsetof(vf_event, x)},           {"y", offsetof(vf_event, y)},
        {"count", offsetof(vf_event, count)},   {"count2", offsetof(vf_event, count2)},
        {"before", offsetof(vf_event, before)}, {"after", offsetof(vf_event, after)},
        {"reward", offsetof(vf_event, reward)},
    };
    vft_key(t, "event", false);
    vft_char(t, '{');
    vft_key(t, "bytes", true);
    vft_int(t, (int64_t)sizeof(vf_event));
    for (size_t i = 0; i < sizeof event / sizeof event[0]; i++)
        key_int(t, event[i].key, (int64_t)event[i].at);
    vft_char(t, '}');
    vft_key(t, "plan", false);
    vft_char(t, '{');
    vft_key(t, "bytes", true);
    vft_int(t, (int64_t)sizeof(vf_plan));
    key_int(t, "length", (int64_t)offsetof(vf_plan, length));
    key_int(t, "actions", (int64_t)offsetof(vf_plan, actions));
    key_int(t, "bestReturn", (int64_t)offsetof(vf_plan, best_return));
    key_int(t, "upperBound", (int64_t)offsetof(vf_plan, upper_bound));
    vft_char(t, '}');
    /* a binding keeps each env's memory of its episode (vf_features) in engine memory */
    vft_key(t, "memory", false);
    vft_char(t, '{');
    vft_key(t, "bytes", true);
    vft_int(t, (int64_t)sizeof(vf_memory));
    vft_char(t, '}');
    vft_key(t, "agent", false);
    vft_char(t, '{');
    vft_key(t, "bytes", true);
    vft_int(t, (int64_t)sizeof(vf_agent));
    vft_str(t, "}}");
}

size_t vf_spec_json(char *buf, size_t cap) {
    vft_text t = vft_begin(buf, cap);
    vft_char(&t, '{');
    vft_key(&t, "version", true);
    string(&t, VF_VERSION);
    vft_key(&t, "specVersion", false);
    vft_int(&t, VF_SPEC_VERSION);
    vft_key(&t, "farms", false);
    vft_char(&t, '[');
    for (int k = 0; k < VF_KIND_COUNT; k++) {
        vft_str(&t, k ? ",{" : "{");
        farm_json(&t, k);
        vft_char(&t, '}');
    }
    vft_char(&t, ']');
    vft_key(&t, "agents", false);
    vft_char(&t, '[');
    for (int a = 0; a < VF_AGENT_KINDS; a++) {
        if (a) vft_char(&t, ',');
        string(&t, vf_agent_name(a));
    }
    vft_char(&t, ']');
    vft_key(&t, "whys", false);
    vft_char(&t, '[');
    for (int w = 0; w < VF_WHY_COUNT; w++) {
        vft_str(&t, w ? ",{" : "{");
        vft_key(&t, "code", true);
        string(&t, vf_why_code(w));
        vft_key(&t, "text", false);
        string(&t, vf_why_text(w));
        vft_char(&t, '}');
    }
    vft_char(&t, ']');
    vft_key(&t, "events", false);
    vft_str(&t, "[null");
    for (int e = 1; e < VF_EV_COUNT; e++) {
        vft_char(&t, ',');
        string(&t, vf_event_code(e));
    }
    vft_char(&t, ']');
    vft_key(&t, "errors", false);
    vft_char(&t, '[');
    for (int e = 0; e < VF_ERR_COUNT; e++) {
        if (e) vft_char(&t, ',');
        string(&t, vf_error_message(e));
    }
    vft_char(&t, ']');
    vft_key(&t, "limits", false);
    limits_json(&t);
    vft_key(&t, "protocol", false);
    protocol_json(&t);
    vft_key(&t, "layouts", false);
    layouts_json(&t);
    vft_char(&t, '}');
    return vft_end(&t);
}
