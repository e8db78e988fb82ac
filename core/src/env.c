/* env.c — the public API: one env of any kind, its snapshot frame, and batches.
 * Everything here dispatches on env->kind to the farm's own file (valley.c, backwards.c)
 * through one list, the `farms` table (the hot calls through a switch beside it), and a kind
 * that is in neither is refused, never run as another farm. */
#include <string.h>

#include "internal.h"

#define FRAME_HEAD 8 /* magic 4, version 1, kind 1, payload length 2 */
#define FRAME_TAIL 4 /* FNV-1a 32 checksum */

/* Each farm's calls and sizes, in one table: everything a new farm plugs in besides its
 * step, end test and masks, which the vector env calls for every env on every step and so
 * are dispatched by the switches below (an indirect call would cost them). */
typedef struct farm {
    const char *name;
    int num_actions, obs_size, save_bytes;
    int units_per_reward; /* rewards are counted in exact integer units of 1 / this */
    const char *const *action_names;
    void (*reset)(vf_env *env, uint64_t seed);
    void (*observe)(const vf_env *env, int32_t *obs);
    void (*render)(const vf_env *env, vft_text *t);
    void (*json)(const vf_env *env, vft_text *t);
    void (*rules_json)(vft_text *t);
    const vf_farm_spec *spec; /* what vf_spec_json says of it */
    void (*save)(const vf_env *env, vfs_writer *w);
    bool (*load)(vf_env *env, vfs_reader *r);
    void (*rederive)(vf_env *env); /* NULL: the farm derives nothing */
    int (*explain)(const vf_env *before, const vf_env *after, int action, bool legal, vf_event *ev);
    void (*event_text)(const vf_env *env, const vf_event *e, vft_text *t);
    vf_why (*why_illegal)(const vf_env *env, int action); /* an action in range, running */
    int (*step_count)(const vf_env *env);
    int32_t (*reward_units)(const vf_env *env); /* the episode's reward so far */
} farm;

static const farm farms[] = {
    [VF_VALLEY] =
        {
            .name = "ValleyFarm-v0",
            .num_actions = VF_VALLEY_ACTIONS,
            .obs_size = VF_VALLEY_OBS_SIZE,
            .save_bytes = VFV_SAVE_BYTES,
            .units_per_reward = VFV_UNITS_PER_REWARD,
            .action_names = vfv_action_names,
            .reset = vfv_reset,
            .observe = vfv_observe,
            .render = vfv_render,
            .json = vfv_json,
            .rules_json = vfv_rules_json,
            .spec = &vfv_spec,
            .save = vfv_save,
            .load = vfv_load,
            .explain = vfv_explain,
            .event_text = vfv_event_text,
            .why_illegal = vfv_why_illegal,
            .step_count = vfv_step_count,
            .reward_units = vfv_reward_units,
        },
    [VF_BACKWARDS] =
        {
            .name = "BackwardsValleyFarm-v0",
            .num_actions = VF_BW_ACTIONS,
            .obs_size = VF_BW_OBS_SIZE,
            .save_bytes = VFB_SAVE_BYTES,
            .units_per_reward = 1,
            .action_names = vfb_action_names,
            .reset = vfb_reset,
            .observe = vfb_observe,
            .render = vfb_render,
            .json = vfb_json,
            .rules_json = vfb_rules_json,
            .spec = &vfb_spec,
            .save = vfb_save,
            .load = vfb_load,
            .rederive = vfb_rederive,
            .explain = vfb_explain,
            .event_text = vfb_event_text,
            .why_illegal = vfb_why_illegal,
            .step_count = vfb_step_count,
            .reward_units = vfb_reward_units,
        },
};
_Static_assert(sizeof farms / sizeof farms[0] == VF_KIND_COUNT, "every vf_kind has its farm here");

static bool kind_ok(int kind) {
    return kind >= 0 && kind < VF_KIND_COUNT;
}

/* ---- the hot calls, by kind -------------------------------------------------------------
 * A switch rather than the table's pointers: where the kind is a constant (the batch loops
 * below) each compiles to a direct call. Each switch names every vf_kind, so a kind added
 * without its case does not compile (-Wswitch, an error in this build), and a kind that is no
 * farm (an env never reset) falls out of it: over, never stepped, no action legal. */

VF_ALWAYS_INLINE bool farm_over(const vf_env *env, int kind) {
    switch ((vf_kind)kind) {
    case VF_VALLEY: return vfv_over(&env->u.valley);
    case VF_BACKWARDS: return vfb_over(&env->u.backwards);
    case VF_KIND_COUNT: break;
    }
    return true;
}

VF_ALWAYS_INLINE vf_outcome farm_step(vf_env *env, int kind, int action, int32_t *obs) {
    switch ((vf_kind)kind) {
    case VF_VALLEY: return vfv_step(&env->u.valley, action, obs);
    case VF_BACKWARDS: return vfb_step(&env->u.backwards, action, obs);
    case VF_KIND_COUNT: break;
    }
    return VF_OUT_TERMINATED;
}

VF_ALWAYS_INLINE void farm_masks(const vf_env *env, int kind, uint8_t *mask) {
    switch ((vf_kind)kind) {
    case VF_VALLEY: vfv_legal_actions(&env->u.valley, mask); return;
    case VF_BACKWARDS: vfb_legal_actions(&env->u.backwards, mask); return;
    case VF_KIND_COUNT: break;
    }
}

const vf_farm_spec *vf_farm_spec_of(int kind) {
    if (!kind_ok(kind)) return NULL;
    return farms[kind].spec;
}

int vf_units_per_reward(int kind) {
    return kind_ok(kind) ? farms[kind].units_per_reward : 1;
}

int32_t vf_reward_units(const vf_env *env) {
    return kind_ok(env->kind) ? farms[env->kind].reward_units(env) : 0;
}

const char *vf_kind_name(int kind) {
    return kind_ok(kind) ? farms[kind].name : NULL;
}

int vf_kind_from_name(const char *name) {
    if (!name) return -1;
    for (int k = 0; k < VF_KIND_COUNT; k++)
        if (strcmp(name, farms[k].name) == 0) return k;
    return -1;
}

int vf_num_actions(int kind) {
    return kind_ok(kind) ? farms[kind].num_actions : 0;
}

int vf_obs_size(int kind) {
    return kind_ok(kind) ? farms[kind].obs_size : 0;
}

const char *vf_action_name(int kind, int action) {
    if (action < 0 || action >= vf_num_actions(kind)) return NULL;
    return farms[kind].action_names[action];
}

bool vf_reset(vf_env *env, int kind, uint64_t seed, int32_t *obs) {
    if (!kind_ok(kind)) return false;
    env->seed = seed;
    env->kind = kind;
    farms[kind].reset(env, seed);
    if (obs) farms[kind].observe(env, obs);
    return true;
}

void vf_rederive(vf_env *env) {
    if (kind_ok(env->kind) && farms[env->kind].rederive) farms[env->kind].rederive(env);
}

void vf_observe(const vf_env *env, int32_t *obs) {
    if (kind_ok(env->kind)) farms[env->kind].observe(env, obs);
}

/* The hot path: the end and range checks, the rules, the observation. A finished episode
 * (or an env of no farm) reports terminated and nothing else; an action out of range is
 * refused the same way as an illegal one (not legal, no change). */
VF_ALWAYS_INLINE vf_outcome step_env(vf_env *env, int kind, int action, int32_t *obs) {
    if (farm_over(env, kind)) return VF_OUT_TERMINATED; /* true for a kind that is no farm */
    if ((unsigned)action >= (unsigned)farms[kind].num_actions) return 0;
    return farm_step(env, kind, action, obs);
}

/* Rewards are counted in exact integer units (the valley's are 0.05): one division gives the
 * correctly rounded double of the exact value, the same on every platform. */
static double reward_of(int kind, uint64_t units) {
    return kind_ok(kind) ? (double)units / farms[kind].units_per_reward : 0.0;
}

vf_step_result vf_step(vf_env *env, int action, int32_t *obs) {
    vf_outcome o = step_env(env, env->kind, action, obs);
    vf_step_result r = {reward_of(env->kind, vf_outcome_units(o)), o & VF_OUT_TERMINATED,
                        (o & VF_OUT_LEGAL) != 0};
    return r;
}

void vf_legal_actions(const vf_env *env, uint8_t *mask) {
    farm_masks(env, env->kind, mask);
}

vf_why vf_why_illegal(const vf_env *env, int action) {
    if ((unsigned)action >= (unsigned)vf_num_actions(env->kind)) return VF_WHY_NOT_AN_ACTION;
    if (vf_terminated(env)) return VF_WHY_EPISODE_OVER;
    return farms[env->kind].why_illegal(env, action);
}

static const struct {
    const char *code, *text;
} whys[VF_WHY_COUNT] = {
    [VF_WHY_LEGAL] = {"legal", "nothing blocks it"},
    [VF_WHY_NOT_AN_ACTION] = {"not-an-action", "that is not one of this farm's actions"},
    [VF_WHY_EPISODE_OVER] = {"episode-over", "the episode is over: start a new one"},
    [VF_WHY_BLOCKED] = {"blocked", "the way is blocked (an obstacle, a building or the edge)"},
    [VF_WHY_NOT_ON_EMPTY_SOIL] = {"not-on-empty-soil", "you are not standing on empty soil"},
    [VF_WHY_NO_SEEDS] = {"no-seeds", "you have no seeds left"},
    [VF_WHY_NOT_ON_YOUNG_CROP] = {"not-on-young-crop",
                                  "you are not standing on a seedling or a growing crop"},
    [VF_WHY_NO_WATER] = {"no-water", "you have no water left"},
    [VF_WHY_NOT_ON_MATURE_CROP] = {"not-on-mature-crop", "you are not standing on a mature crop"},
    [VF_WHY_NOT_ON_ANIMAL] = {"not-on-animal", "you are not standing on an animal"},
    [VF_WHY_ANIMAL_SATED] = {"animal-sated", "this animal was fed and is not hungry yet"},
    [VF_WHY_NO_FEED] = {"no-feed", "you have no feed left"},
    [VF_WHY_NO_PRODUCTS] = {"no-products", "this animal has no products waiting"},
    [VF_WHY_NO_GIFTS] = {"no-gifts", "you have no gifts left"},
    [VF_WHY_NO_VILLAGER_NEAR] = {"no-villager-near", "no villager is on or next to your tile"},
    [VF_WHY_VILLAGERS_AT_MAX] = {"villagers-at-max",
                                 "every villager in reach is at relationship 100 already"},
    [VF_WHY_NOT_ON_MARKET] = {"not-on-market", "you are not standing on the market"},
    [VF_WHY_NOTHING_TO_SELL] = {"nothing-to-sell", "you have no crops or products to sell"},
    [VF_WHY_NO_FIELD_IN_FRONT] = {"no-field-in-front", "the tile in front is not a field"},
    [VF_WHY_NO_PEN_IN_FRONT] = {"no-pen-in-front", "the tile in front is not a pen"},
    [VF_WHY_NO_HOUSE_IN_FRONT] = {"no-house-in-front", "the tile in front is not a house"},
    [VF_WHY_VILLAGER_HOSTILE] = {"villager-hostile",
                                 "this villager is Hostile already: a compliment can't lower it"},
    [VF_WHY_VILLAGER_FRIENDLY] = {"villager-friendly",
                                  "this villager is Friendly already: an insult can't raise it"},
};

const char *vf_why_code(int why) {
    return (unsigned)why < VF_WHY_COUNT ? whys[why].code : NULL;
}

const char *vf_why_text(int why) {
    return (unsigned)why < VF_WHY_COUNT ? whys[why].text : NULL;
}

/* ---- events ---------------------------------------------------------------------------- */

int vf_step_explained(vf_env *env, int action, int32_t *obs, vf_step_result *result,
                      vf_event *events, int max) {
    const vf_env before = *env; /* an env holds no pointers: a copy is the whole state */
    vf_step_result r = vf_step(env, action, obs);
    if (result) *result = r;
    if (vf_step_count(env) == vf_step_count(&before)) return 0; /* no step was played */
    if (!kind_ok(env->kind)) return 0;
    vf_event ev[VF_EVENTS_MAX];
    int n = farms[env->kind].explain(&before, env, action, r.action_was_legal, ev);
    for (int i = 0; i < n && i < max; i++) events[i] = ev[i];
    return n;
}

static const char *const event_codes[VF_EV_COUNT] = {
    [VF_EV_PLANTED] = "planted",
    [VF_EV_WATERED] = "watered",
    [VF_EV_HARVESTED] = "harvested",
    [VF_EV_FED] = "fed",
    [VF_EV_COLLECTED] = "collected",
    [VF_EV_GIFT] = "gift",
    [VF_EV_SOLD] = "sold",
    [VF_EV_PRODUCT] = "product",
    [VF_EV_HUNGRY] = "hungry",
    [VF_EV_CROP_CARED] = "crop-cared",
    [VF_EV_ANIMAL_CARED] = "animal-cared",
    [VF_EV_MOOD] = "mood",
    [VF_EV_CROP_READY] = "crop-ready",
    [VF_EV_CROP_HARVESTED] = "crop-harvested",
    [VF_EV_ANIMAL_PAID] = "animal-paid",
    [VF_EV_ANIMAL_UNSEEN] = "animal-unseen",
    [VF_EV_ANIMAL_THRIVING] = "animal-thriving",
    [VF_EV_VILLAGER_PAID] = "villager-paid",
};

const char *vf_event_code(int kind) {
    return kind > 0 && kind < VF_EV_COUNT ? event_codes[kind] : NULL;
}

size_t vf_event_text(const vf_env *env, const vf_event *event, char *buf, size_t cap) {
    vft_text t = vft_begin(buf, cap);
    if (kind_ok(env->kind)) farms[env->kind].event_text(env, event, &t);
    return vft_end(&t);
}

int vf_step_count(const vf_env *env) {
    return kind_ok(env->kind) ? farms[env->kind].step_count(env) : 0;
}

bool vf_terminated(const vf_env *env) {
    return farm_over(env, env->kind);
}

double vf_total_reward(const vf_env *env) {
    return reward_of(env->kind, (uint64_t)vf_reward_units(env));
}

size_t vf_render(const vf_env *env, char *buf, size_t cap) {
    vft_text t = vft_begin(buf, cap);
    if (kind_ok(env->kind)) farms[env->kind].render(env, &t);
    return vft_end(&t);
}

size_t vf_state_json(const vf_env *env, char *buf, size_t cap) {
    vft_text t = vft_begin(buf, cap);
    if (kind_ok(env->kind)) farms[env->kind].json(env, &t);
    return vft_end(&t);
}

size_t vf_rules_json(int kind, char *buf, size_t cap) {
    vft_text t = vft_begin(buf, cap);
    if (kind_ok(kind)) farms[kind].rules_json(&t);
    return vft_end(&t);
}

/* ---- snapshots -------------------------------------------------------------------- */

static const uint8_t magic[4] = {'V', 'F', 'S', 'N'};

static size_t write_snapshot(const vf_env *env, uint8_t *buf, size_t cap) {
    vfs_writer w = {buf, buf + cap, false};
    vfs_put_bytes(&w, magic, 4);
    vfs_put_u8(&w, VF_SNAPSHOT_VERSION);
    vfs_put_u8(&w, (uint32_t)env->kind);
    vfs_put_u16(&w, 0); /* payload length, patched below */
    vfs_put_u64(&w, env->seed);
    farms[env->kind].save(env, &w);
    if (w.overflow || (size_t)(w.end - w.p) < FRAME_TAIL) return 0;
    size_t payload = (size_t)(w.p - buf) - FRAME_HEAD;
    buf[6] = (uint8_t)(payload & 0xFF);
    buf[7] = (uint8_t)(payload >> 8);
    vfs_put_u32(&w, vfs_fnv1a32(buf, (size_t)(w.p - buf)));
    return (size_t)(w.p - buf);
}

/* The frame around a payload of the seed and the farm's fields. */
static size_t snapshot_bytes(int kind) {
    return FRAME_HEAD + 8 + (size_t)farms[kind].save_bytes + FRAME_TAIL;
}

size_t vf_snapshot_size(int kind) {
    return kind_ok(kind) ? snapshot_bytes(kind) : 0;
}

size_t vf_snapshot(const vf_env *env, uint8_t *buf, size_t cap) {
    /* the length is known in advance, so a short buffer is refused before anything is
     * written and a long enough one is written in place */
    if (!kind_ok(env->kind) || cap < snapshot_bytes(env->kind)) return 0;
    return write_snapshot(env, buf, cap);
}

vf_error vf_restore(vf_env *env, int kind, const uint8_t *buf, size_t len) {
    if (!kind_ok(kind)) return VF_ERR_KIND;
    if (buf == NULL || len < FRAME_HEAD + FRAME_TAIL) return VF_ERR_SIZE;
    if (memcmp(buf, magic, 4) != 0) return VF_ERR_MAGIC;
    if (buf[4] != VF_SNAPSHOT_VERSION) return VF_ERR_VERSION;
    if (buf[5] != kind) return VF_ERR_KIND;
    size_t payload = (size_t)buf[6] | ((size_t)buf[7] << 8);
    if (FRAME_HEAD + payload + FRAME_TAIL != len || len != vf_snapshot_size(kind))
        return VF_ERR_SIZE;
    vfs_reader tail = {buf + len - FRAME_TAIL, buf + len, false};
    if (vfs_get_u32(&tail) != vfs_fnv1a32(buf, len - FRAME_TAIL)) return VF_ERR_CHECKSUM;

    /* decode into a scratch env and copy only if every field is valid */
    vf_env loaded;
    memset(&loaded, 0, sizeof loaded);
    loaded.kind = kind;
    vfs_reader r = {buf + FRAME_HEAD, buf + len - FRAME_TAIL, false};
    loaded.seed = vfs_get_u64(&r);
    bool ok = farms[kind].load(&loaded, &r);
    if (!ok || r.bad || r.p != r.end) return VF_ERR_INVALID;
    *env = loaded;
    return VF_OK;
}

const char *vf_error_message(int error) {
    switch (error) {
    case VF_OK: return "no error";
    case VF_ERR_SIZE: return "the snapshot has the wrong length (truncated or padded)";
    case VF_ERR_MAGIC: return "not a valley-farm snapshot (it does not start with \"VFSN\")";
    case VF_ERR_VERSION: return "the snapshot was written by another snapshot format version";
    case VF_ERR_KIND: return "the snapshot is of the other environment";
    case VF_ERR_CHECKSUM: return "the snapshot is corrupted (its checksum does not match)";
    case VF_ERR_INVALID: return "the snapshot describes a state the rules cannot reach";
    case VF_ERR_ARGUMENT:
        return "a bad argument to a batch call (kind, size, NULL pointer or an env of another "
               "kind)";
    default: return "unknown error";
    }
}

uint64_t vf_state_hash(const vf_env *env) {
    uint8_t buf[VF_SNAPSHOT_MAX];
    size_t n = vf_snapshot(env, buf, sizeof buf);
    return vfs_fnv1a64(buf, n);
}

/* ---- batches ---------------------------------------------------------------------- */

/* The checks every batch call makes before touching anything (see valley_farm.h): a size
 * whose byte count could overflow never reaches a loop. `need_kind` also checks that every
 * env is already of that kind, so all rows share one stride. */
static bool batch_ok(const vf_env *envs, int n, int kind, bool need_kind) {
    if (envs == NULL || n < 1 || n > VF_BATCH_MAX || !kind_ok(kind)) return false;
    if (need_kind)
        for (int i = 0; i < n; i++)
            if (envs[i].kind != kind) return false;
    return true;
}

/* The kind of a batch whose envs all share it, or -1 (bad size, NULL, mixed kinds). */
static int batch_kind(const vf_env *envs, int n) {
    if (envs == NULL || n < 1 || n > VF_BATCH_MAX) return -1;
    int kind = envs[0].kind;
    return batch_ok(envs, n, kind, true) ? kind : -1;
}

vf_error vf_batch_reset(vf_env *envs, int n, int kind, uint64_t seed, int32_t *obs) {
    if (!batch_ok(envs, n, kind, false)) return VF_ERR_ARGUMENT;
    size_t size = (size_t)vf_obs_size(kind);
    for (int i = 0; i < n; i++)
        vf_reset(&envs[i], kind, seed + (uint64_t)i, obs ? obs + (size_t)i * size : NULL);
    return VF_OK;
}

vf_error vf_batch_legal_actions(const vf_env *envs, int n, uint8_t *masks) {
    if (masks == NULL || batch_kind(envs, n) < 0) return VF_ERR_ARGUMENT;
    size_t a = (size_t)vf_num_actions(envs[0].kind);
    for (int i = 0; i < n; i++) vf_legal_actions(&envs[i], masks + (size_t)i * a);
    return VF_OK;
}

/* One env of a batch: step, and reset at once if the episode ended (the seed rule is in
 * valley_farm.h). Returns the step's outcome. */
static inline vf_outcome batch_step_one(vf_env *e, int action, int32_t *obs, int n) {
    vf_outcome o = step_env(e, e->kind, action, obs);
    if (o & VF_OUT_TERMINATED) vf_reset(e, e->kind, e->seed + (uint64_t)n, obs);
    return o;
}

/* The vector env's step, its arguments checked by the caller. The common case (no episode
 * ends) is the step and, if asked, the mask; the bookkeeping runs only in the rows whose
 * episode ended. */
static void step_io(vf_env *envs, int n, int kind, const vf_batch_io *io);

vf_error vf_batch_step(vf_env *envs, int n, const int32_t *actions, int32_t *obs, double *rewards,
                       uint8_t *terminated) {
    if (actions == NULL || batch_kind(envs, n) < 0) return VF_ERR_ARGUMENT;
    vf_batch_io io = {.actions = actions, .obs = obs, .rewards = rewards, .terminated = terminated};
    step_io(envs, n, envs[0].kind, &io);
    return VF_OK;
}

vf_error vf_batch_step_io(vf_env *envs, int n, int kind, const vf_batch_io *io) {
    if (io == NULL || io->actions == NULL || !batch_ok(envs, n, kind, true)) return VF_ERR_ARGUMENT;
    if (io->features && (io->obs == NULL || !vf_feature_rows_ok(kind, io->features)))
        return VF_ERR_ARGUMENT;
    if ((io->autoreset != VF_AUTORESET_SAME_STEP && io->autoreset != VF_AUTORESET_NEXT_STEP) ||
        io->seed_stride < 0)
        return VF_ERR_ARGUMENT;
    step_io(envs, n, kind, io);
    return VF_OK;
}

/* One kind's loop: `kind` is a constant at each call below, so the step and the mask are
 * direct calls with no dispatch per env. */
VF_ALWAYS_INLINE void step_io_kind(vf_env *envs, int n, const vf_batch_io *io, const int kind) {
    const size_t size = (size_t)farms[kind].obs_size;
    const size_t na = (size_t)farms[kind].num_actions;
    /* The pointers in locals: the byte stores below (masks, terminated) may alias anything,
     * so read through io they would be loaded again for every env. */
    const int32_t *const actions = io->actions;
    int32_t *const obs = io->obs;
    double *const rewards = io->rewards;
    uint8_t *const terminated = io->terminated, *const masks = io->masks;
    const vf_feature_rows *const features = io->features;
    const bool next_step = io->autoreset == VF_AUTORESET_NEXT_STEP;
    const uint64_t stride = io->seed_stride > 0 ? (uint64_t)io->seed_stride : (uint64_t)n;
    for (int i = 0; i < n; i++) {
        vf_env *e = &envs[i];
        const int a = actions[i];
        /* the step writes its observation straight into the output row (or the final row,
         * when the caller keeps final observations, since the reset then overwrites it) */
        int32_t *row = obs ? obs + (size_t)i * size : NULL;
        uint8_t *mask = masks ? masks + (size_t)i * na : NULL;
        /* next-step autoreset: an episode over at the start of a call ended in an earlier one
         * (a reset never leaves one over), so this call starts the next in its place */
        if (next_step && farm_over(e, kind)) {
            vf_reset(e, kind, io->next_seeds ? io->next_seeds[i] : e->seed + stride, row);
            if (rewards) rewards[i] = 0;
            if (terminated) terminated[i] = 0;
            if (mask) farm_masks(e, kind, mask);
            if (features) vf_features_row(kind, row, a, true, features, i);
            continue;
        }
        if ((unsigned)a >=
            na) { /* not an action: no step, as in vf_step; the outputs show the env as it is */
            if (row) vf_observe(e, row);
            if (rewards) rewards[i] = 0;
            if (terminated) terminated[i] = 0;
            if (mask) vf_legal_actions(e, mask);
            if (features) vf_features_row(kind, row, a, false, features, i);
            continue;
        }
        vf_outcome o = step_env(e, kind, a, row);
        bool ended = (o & VF_OUT_TERMINATED) != 0;
        if (ended) {
            if (io->final_obs) {
                if (row)
                    memcpy(io->final_obs + (size_t)i * size, row, size * sizeof(int32_t));
                else
                    vf_observe(e, io->final_obs + (size_t)i * size);
            }
            if (io->episode_returns) io->episode_returns[i] = vf_total_reward(e);
            if (io->episode_lengths) io->episode_lengths[i] = vf_step_count(e);
            if (io->episode_seeds) io->episode_seeds[i] = e->seed;
            if (!next_step)
                vf_reset(e, kind, io->next_seeds ? io->next_seeds[i] : e->seed + stride, row);
        }
        if (rewards) rewards[i] = reward_of(kind, vf_outcome_units(o));
        if (terminated) terminated[i] = ended;
        if (mask) farm_masks(e, kind, mask);
        /* the row opens an episode where the same step started the next one; with next-step
         * autoreset it is the ended episode's last */
        if (features) vf_features_row(kind, row, a, ended && !next_step, features, i);
    }
}

/* kind was checked by the caller */
static void step_io(vf_env *envs, int n, int kind, const vf_batch_io *io) {
    switch ((vf_kind)kind) {
    case VF_VALLEY: step_io_kind(envs, n, io, VF_VALLEY); return;
    case VF_BACKWARDS: step_io_kind(envs, n, io, VF_BACKWARDS); return;
    case VF_KIND_COUNT: break;
    }
}

/* vf_batch_run_random's rounds on a batch of one kind whose episodes are all running (each
 * is reset the moment it ends, so no step ever meets a finished one). `kind` is a constant
 * at each call, so each call compiles to a loop with no dispatch and no end check. */
VF_ALWAYS_INLINE void run_random_kind(vf_env *envs, int n, int64_t steps, vf_action_source *src,
                                      int32_t *obs, const int kind, uint64_t *units) {
    const int size = farms[kind].obs_size;
    const uint32_t actions = (uint32_t)farms[kind].num_actions;
    for (int64_t s = 0; s < steps; s++) {
        for (int i = 0; i < n; i++) {
            vf_env *e = &envs[i];
            int32_t *o = obs ? obs + (size_t)i * size : NULL;
            int a = vf_action_next(src, actions);
            vf_outcome out = farm_step(e, kind, a, o);
            if (out & VF_OUT_TERMINATED) vf_reset(e, kind, e->seed + (uint64_t)n, o);
            *units += vf_outcome_units(out);
        }
    }
}

double vf_batch_run_random(vf_env *envs, int n, int64_t steps, uint64_t action_seed, int32_t *obs) {
    if (steps < 0 || batch_kind(envs, n) < 0) return -1;
    vf_action_source src = vf_action_source_seeded(action_seed);
    uint64_t units = 0;            /* the exact sum, in the kind's reward unit */
    const int kind = envs[0].kind; /* one kind: batch_kind checked every env */
    bool running = true;
    for (int i = 0; i < n; i++) running &= !vf_terminated(&envs[i]);
    if (running) {
        switch ((vf_kind)kind) {
        case VF_VALLEY: run_random_kind(envs, n, steps, &src, obs, VF_VALLEY, &units); break;
        case VF_BACKWARDS: run_random_kind(envs, n, steps, &src, obs, VF_BACKWARDS, &units); break;
        case VF_KIND_COUNT: break;
        }
    } else { /* an episode already over: each env through the checked step */
        const size_t size = (size_t)vf_obs_size(kind);
        for (int64_t s = 0; s < steps; s++) {
            for (int i = 0; i < n; i++) {
                vf_env *e = &envs[i];
                int a = vf_action_next(&src, (uint32_t)vf_num_actions(kind));
                vf_outcome o = batch_step_one(e, a, obs ? obs + (size_t)i * size : NULL, n);
                units += vf_outcome_units(o);
            }
        }
    }
    return reward_of(kind, units);
}
