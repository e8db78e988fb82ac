/*
 * engine.c — valley_farm._engine, the CPython binding of the C engine (core/include/valley_farm.h).
 *
 * Thin on purpose (PufferLib's Ocean bindings are the model): two types over the engine's own
 * calls, and one function that tells Python what the engine knows about each farm.
 *
 *   Env     one vf_env; reset / step are methods of this type, so a step from Python is one
 *           C call (no Python frame in between): the single-env hot path.
 *   VecEnv  a block of n vf_env stepped with vf_batch_step_io; every output is a NumPy array
 *           allocated once, whose memory the engine writes in place (no copy per step). The
 *           GIL is released while the engine steps; with threads > 1, worker threads step
 *           slices of the batch. Either autoreset mode (the engine's vf_autoreset).
 *
 * Argument checks (action types and ranges, seeds, snapshot bytes) live here, before the
 * engine is touched, so a refused call changes nothing. No call can crash the interpreter:
 *  - an object never initialised (made with __new__, or by a subclass whose __init__ skipped
 *    ours) refuses every method and attribute, and an Env or VecEnv is initialised once;
 *  - converting an argument can run Python code (__index__, __array__), which may close or
 *    reset the env: every method checks the env's state after its arguments are converted;
 *  - a forked child starts its own stepping threads (it has none of its parent's);
 *  - a plan takes at most VF_PLAN_MEMORY_MAX of work memory, as in the JS package.
 * The Python layer (valley_farm/) adds spaces, Gymnasium's conventions and the evaluation
 * protocol.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "valley_farm.h"

int vfpy_add_agents(PyObject *m); /* agents.c */

/* ---- seeds ------------------------------------------------------------------------------ */

/* Fresh seeds (a reset without one) lie in [2^32, 2^53 - 2^40], as the JS package draws them
 * (wasm/index.js FRESH_SEED_MIN / MAX; python/tests check the two agree): above every
 * named validation and test seed, and low enough that an autoreset's seed + i + k n stays
 * below 2^53 for the first 2^40 episodes. The bounds arrive from Python (valley_farm/splits.py)
 * at import, through set_fresh_seed_range, so they are written once on this side. */
typedef struct {
    uint64_t min, span; /* fresh seeds are min + (draw mod (span + 1)) */
} fresh_range;

typedef struct {
    fresh_range fresh;
    PyObject *k_step, *k_seed, *k_legal, *k_mask, *k_reason, *k_events, *k_code, *k_text;
    PyObject *k_reward, *k_x, *k_y, *k_subject, *k_count, *k_count2, *k_before, *k_after;
} module_state;

static module_state *state_of_module(PyObject *m) {
    return (module_state *)PyModule_GetState(m);
}

static uint64_t draw_fresh(uint64_t *rng, const fresh_range *r) {
    vf_rng g = {*rng};
    uint64_t x = vf_rng_next(&g) >> 11; /* 53 bits */
    *rng = g.state;
    return r->min + x % (r->span + 1); /* span < 2^64 - 1: set_fresh_seed_range */
}

static const char SEED_RULE[] = "a seed is None or an int from 0 to 2**64 - 1";

/* A seed from a Python int (not a bool, not a float); -1 with an exception set otherwise. */
static int seed_from(PyObject *o, uint64_t *out, const char *where) {
    if (PyBool_Check(o) || PyArray_IsScalar(o, Bool) || !PyIndex_Check(o) || PyFloat_Check(o)) {
        PyErr_Format(PyExc_TypeError, "valley_farm: %s: seed %.60R is not an int; %s", where, o,
                     SEED_RULE);
        return -1;
    }
    PyObject *i = PyNumber_Index(o);
    if (!i) return -1;
    int negative = PyObject_RichCompareBool(i, Py_False, Py_LT); /* i < 0 */
    unsigned long long v = negative ? 0 : PyLong_AsUnsignedLongLong(i);
    Py_DECREF(i);
    if (negative || (v == (unsigned long long)-1 && PyErr_Occurred())) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "valley_farm: %s: seed %.60R is out of range; %s", where, o,
                     SEED_RULE);
        return -1;
    }
    *out = (uint64_t)v;
    return 0;
}

/* args.h says what it takes and gives (agents.c reads its ints with it too). */
int vfpy_int_arg(PyObject *o, long long lo, long long hi, const char *what, long long *out) {
    if (PyBool_Check(o) || PyArray_IsScalar(o, Bool) || PyFloat_Check(o) || !PyIndex_Check(o)) {
        PyErr_Format(PyExc_TypeError,
                     "valley_farm: %s %.60R is not an int; it is an int from %lld to %lld", what, o,
                     lo, hi);
        return -1;
    }
    PyObject *i = PyNumber_Index(o);
    if (!i) return -1;
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(i, &overflow);
    Py_DECREF(i);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow || v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError,
                     "valley_farm: %s %.60R is out of range; it is an int from %lld to %lld", what,
                     o, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

static const char NOT_INITIALISED[] =
    "valley_farm: this %s was never initialised (made with __new__, or by a subclass whose "
    "__init__ did not call %s.__init__); make one with valley_farm.%s";

/* ---- the single env ----------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD vf_env env;
    int kind, num_actions, obs_size;
    int events;     /* make(..., events=True): every step's info lists its events */
    int open;       /* 0 once closed */
    int started;    /* a reset (or restore) happened */
    int terminated; /* the episode in progress has ended */
    int steps;      /* steps of the episode in progress */
    uint64_t rng;   /* draws fresh seeds; reset(seed=s) reseeds it from s */
    module_state *ms;
    PyObject *module;
} EnvObject;

/* Every method and attribute starts here or at env_check_open: 0 for an initialised env
 * (env_init sets ms, and nothing clears it), else -1 with a ValueError. */
static int env_check_init(EnvObject *self) {
    if (self->ms) return 0;
    PyErr_Format(PyExc_ValueError, NOT_INITIALISED, "Env", "Env", "make(env_id)");
    return -1;
}

static int env_check_open(EnvObject *self) {
    if (env_check_init(self)) return -1;
    if (self->open) return 0;
    PyErr_Format(PyExc_ValueError,
                 "valley_farm: this %s env is closed; make a new one with valley_farm.make('%s')",
                 vf_kind_name(self->kind), vf_kind_name(self->kind));
    return -1;
}

static int env_check_started(EnvObject *self, const char *method) {
    if (env_check_open(self)) return -1;
    if (self->started) return 0;
    PyErr_Format(PyExc_ValueError, "valley_farm: %s() before the first episode: call reset() first",
                 method);
    return -1;
}

static int env_init(EnvObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"kind", "events", "rng_seed", NULL};
    PyObject *kind_obj, *rng_obj = NULL;
    int events = 0;
    long long kind;
    uint64_t rng_seed = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|pO", kwlist, &kind_obj, &events, &rng_obj) ||
        vfpy_int_arg(kind_obj, 0, VF_KIND_COUNT - 1, "env kind", &kind) ||
        (rng_obj && seed_from(rng_obj, &rng_seed, "Env")))
        return -1;
    if (self->ms) { /* a second __init__ could change the kind, and so the arrays' sizes */
        PyErr_SetString(PyExc_TypeError, "valley_farm: an Env is initialised once");
        return -1;
    }
    PyObject *m = PyType_GetModule(Py_TYPE(self));
    if (!m) { /* a Python subclass: the module is its base's */
        PyErr_Clear();
        PyTypeObject *t = Py_TYPE(self);
        while (t && !PyType_GetModule(t)) {
            PyErr_Clear();
            t = t->tp_base;
        }
        if (!t) return -1;
        m = PyType_GetModule(t);
    }
    self->module = m;
    self->ms = state_of_module(m);
    self->kind = (int)kind;
    self->num_actions = vf_num_actions(self->kind);
    self->obs_size = vf_obs_size(self->kind);
    self->events = events;
    self->open = 1;
    self->started = self->terminated = 0;
    self->steps = 0;
    self->rng = rng_seed;
    return 0;
}

static PyObject *new_obs(EnvObject *self) {
    npy_intp dims[1] = {self->obs_size};
    PyObject *a = PyArray_SimpleNew(1, dims, NPY_INT32);
    if (a) vf_observe(&self->env, (int32_t *)PyArray_DATA((PyArrayObject *)a));
    return a;
}

/* Masks are int8, 1 where legal: what Gymnasium's Discrete.sample(mask=...) and PettingZoo's
 * action_mask take. */
static PyObject *new_mask(EnvObject *self) {
    npy_intp dims[1] = {self->num_actions};
    PyObject *a = PyArray_SimpleNew(1, dims, NPY_INT8);
    if (a) vf_legal_actions(&self->env, (uint8_t *)PyArray_DATA((PyArrayObject *)a));
    return a;
}

/* info: {"step", "seed", "action_mask"} plus, after a step, "action_was_legal". */
static PyObject *base_info(EnvObject *self) {
    module_state *s = self->ms;
    PyObject *info = PyDict_New(), *v;
    if (!info) return NULL;
    if (!(v = PyLong_FromLong(self->steps)) || PyDict_SetItem(info, s->k_step, v)) goto fail;
    Py_DECREF(v);
    if (!(v = PyLong_FromUnsignedLongLong(self->env.seed)) || PyDict_SetItem(info, s->k_seed, v))
        goto fail;
    Py_DECREF(v);
    if (!(v = new_mask(self)) || PyDict_SetItem(info, s->k_mask, v)) goto fail;
    Py_DECREF(v);
    return info;
fail:
    Py_XDECREF(v);
    Py_DECREF(info);
    return NULL;
}

static PyObject *env_reset(EnvObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"seed", "options", NULL};
    PyObject *seed_obj = Py_None, *options = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O$O", kwlist, &seed_obj, &options)) return NULL;
    if (env_check_open(self)) return NULL;
    if (options != Py_None && (!PyDict_Check(options) || PyDict_Size(options) != 0)) {
        PyErr_Format(PyDict_Check(options) ? PyExc_ValueError : PyExc_TypeError,
                     "valley_farm: reset: options must be None or an empty dict (these envs take "
                     "no reset options), got %.60R",
                     options);
        return NULL;
    }
    uint64_t seed;
    if (seed_obj == Py_None) {
        seed = draw_fresh(&self->rng, &self->ms->fresh);
    } else {
        if (seed_from(seed_obj, &seed, "reset") || env_check_open(self)) return NULL;
        /* Gymnasium: reset(seed=s) seeds the env's randomness too, so later resets without
         * a seed are reproducible */
        vf_rng g = vf_rng_seeded(seed ^ 0x5851F42D4C957F2Dull);
        self->rng = vf_rng_next(&g);
    }
    vf_reset(&self->env, self->kind, seed, NULL);
    self->started = 1;
    self->terminated = 0;
    self->steps = 0;
    PyObject *obs = new_obs(self);
    if (!obs) return NULL;
    PyObject *info = base_info(self);
    if (!info) {
        Py_DECREF(obs);
        return NULL;
    }
    PyObject *r = PyTuple_Pack(2, obs, info);
    Py_DECREF(obs);
    Py_DECREF(info);
    return r;
}

/* The action as an int in range, or -1 with an exception set. Accepts a Python int, a NumPy
 * integer scalar or a 0-d integer array; refuses bools, floats and anything with a shape. */
static int action_from(EnvObject *self, PyObject *a) {
    if (PyLong_CheckExact(a)) {
        int overflow;
        long v = PyLong_AsLongAndOverflow(a, &overflow);
        if (!overflow && v >= 0 && v < self->num_actions) return (int)v; /* the hot path */
    }
    const char *bad_type = NULL;
    if (PyBool_Check(a) || PyArray_IsScalar(a, Bool))
        bad_type = "a bool";
    else if (PyArray_Check(a)) {
        PyArrayObject *arr = (PyArrayObject *)a;
        if (PyArray_NDIM(arr) != 0)
            bad_type = "an array with a shape (a single env takes one action)";
        else if (!PyArray_ISINTEGER(arr))
            bad_type = "an array that is not of an integer dtype";
    } else if (!PyIndex_Check(a))
        bad_type = "not an int";
    if (bad_type) {
        PyErr_Format(PyExc_TypeError,
                     "valley_farm: action %.60R is %s; an action is an int from 0 to %d", a,
                     bad_type, self->num_actions - 1);
        return -1;
    }
    PyObject *i = PyNumber_Index(a);
    if (!i) return -1;
    int overflow;
    long v = PyLong_AsLongAndOverflow(i, &overflow);
    Py_DECREF(i);
    if (overflow || v < 0 || v >= self->num_actions) {
        PyErr_Format(PyExc_ValueError,
                     "valley_farm: action %.60R is out of range; an action is an int from 0 to %d "
                     "(env.action_space.names lists them)",
                     a, self->num_actions - 1);
        return -1;
    }
    return (int)v;
}

static PyObject *events_list(EnvObject *self, const vf_event *ev, int n);

static PyObject *env_step(EnvObject *self, PyObject *action) {
    if (env_check_started(self, "step")) return NULL;
    /* then the action, whose __index__ may close, reset or step this env: so the checks
     * again after it */
    int a = action_from(self, action);
    if (a < 0 || env_check_started(self, "step")) return NULL;
    if (self->terminated) {
        PyErr_Format(PyExc_ValueError,
                     "valley_farm: the episode is over (terminated after %d steps): call reset() "
                     "to start a new one",
                     self->steps);
        return NULL;
    }
    npy_intp dims[1] = {self->obs_size};
    PyObject *obs = PyArray_SimpleNew(1, dims, NPY_INT32);
    if (!obs) return NULL;
    int32_t *o = (int32_t *)PyArray_DATA((PyArrayObject *)obs);
    vf_step_result r;
    vf_event ev[VF_EVENTS_MAX];
    int nev = 0;
    int why = vf_why_illegal(&self->env, a); /* the rule that blocks it, before the step */
    if (self->events)
        nev = vf_step_explained(&self->env, a, o, &r, ev, VF_EVENTS_MAX);
    else
        r = vf_step(&self->env, a, o);
    self->steps++;
    self->terminated = r.terminated;
    module_state *s = self->ms;
    PyObject *info = base_info(self);
    if (!info) goto fail;
    if (PyDict_SetItem(info, s->k_legal, r.action_was_legal ? Py_True : Py_False)) goto fail;
    if (!r.action_was_legal) {
        PyObject *reason =
            Py_BuildValue("{OsOs}", s->k_code, vf_why_code(why), s->k_text, vf_why_text(why));
        if (!reason || PyDict_SetItem(info, s->k_reason, reason)) {
            Py_XDECREF(reason);
            goto fail;
        }
        Py_DECREF(reason);
    }
    if (self->events) {
        PyObject *list = events_list(self, ev, nev);
        if (!list || PyDict_SetItem(info, s->k_events, list)) {
            Py_XDECREF(list);
            goto fail;
        }
        Py_DECREF(list);
    }
    PyObject *rew = PyFloat_FromDouble(r.reward);
    if (!rew) goto fail;
    PyObject *t = PyTuple_New(5);
    if (!t) {
        Py_DECREF(rew);
        goto fail;
    }
    PyTuple_SET_ITEM(t, 0, obs);
    PyTuple_SET_ITEM(t, 1, rew);
    PyTuple_SET_ITEM(t, 2, Py_NewRef(r.terminated ? Py_True : Py_False));
    PyTuple_SET_ITEM(t, 3, Py_NewRef(Py_False));
    PyTuple_SET_ITEM(t, 4, info);
    return t;
fail:
    Py_DECREF(obs);
    Py_XDECREF(info);
    return NULL;
}

static PyObject *events_list(EnvObject *self, const vf_event *ev, int n) {
    module_state *s = self->ms;
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int k = 0; k < n; k++) {
        char text[VF_TEXT_MAX];
        vf_event_text(&self->env, &ev[k], text, sizeof text);
        PyObject *d =
            Py_BuildValue("{OsOsOdOiOiOiOiOiOdOd}", s->k_code, vf_event_code(ev[k].kind), s->k_text,
                          text, s->k_reward, ev[k].reward, s->k_x, ev[k].x, s->k_y, ev[k].y,
                          s->k_subject, ev[k].subject, s->k_count, ev[k].count, s->k_count2,
                          ev[k].count2, s->k_before, ev[k].before, s->k_after, ev[k].after);
        if (!d) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, k, d);
    }
    return list;
}

static PyObject *env_action_mask(EnvObject *self, PyObject *Py_UNUSED(ignored)) {
    if (env_check_started(self, "action_mask")) return NULL;
    return new_mask(self);
}

static PyObject *env_illegal_reasons(EnvObject *self, PyObject *Py_UNUSED(ignored)) {
    if (env_check_started(self, "illegal_reasons")) return NULL;
    PyObject *list = PyList_New(self->num_actions);
    if (!list) return NULL;
    for (int a = 0; a < self->num_actions; a++) {
        int why = vf_why_illegal(&self->env, a);
        PyObject *v = why == VF_WHY_LEGAL
                          ? Py_NewRef(Py_None)
                          : Py_BuildValue("{OsOs}", self->ms->k_code, vf_why_code(why),
                                          self->ms->k_text, vf_why_text(why));
        if (!v) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, a, v);
    }
    return list;
}

typedef size_t (*text_fn)(const vf_env *, char *, size_t);

static PyObject *env_text(EnvObject *self, const char *method, text_fn fn) {
    if (env_check_started(self, method)) return NULL;
    char buf[VF_TEXT_MAX];
    size_t n = fn(&self->env, buf, sizeof buf);
    if (n >= sizeof buf) {
        PyErr_SetString(PyExc_RuntimeError, "valley_farm: engine text longer than VF_TEXT_MAX");
        return NULL;
    }
    return PyUnicode_FromStringAndSize(buf, (Py_ssize_t)n);
}

static PyObject *env_render(EnvObject *self, PyObject *Py_UNUSED(ignored)) {
    return env_text(self, "render", vf_render);
}

static PyObject *env_state_json(EnvObject *self, PyObject *Py_UNUSED(ignored)) {
    return env_text(self, "state", vf_state_json);
}

static PyObject *env_snapshot(EnvObject *self, PyObject *Py_UNUSED(ignored)) {
    if (env_check_started(self, "snapshot")) return NULL;
    uint8_t buf[VF_SNAPSHOT_MAX];
    size_t n = vf_snapshot(&self->env, buf, sizeof buf);
    return PyBytes_FromStringAndSize((const char *)buf, (Py_ssize_t)n);
}

static PyObject *env_restore(EnvObject *self, PyObject *data) {
    if (env_check_open(self)) return NULL;
    Py_buffer view;
    const char *expected = "restore takes the bytes that snapshot() returned on an env of the "
                           "same id";
    if (PyObject_GetBuffer(data, &view, PyBUF_SIMPLE)) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "valley_farm: %s, got %.60s", expected,
                     Py_TYPE(data)->tp_name);
        return NULL;
    }
    if (env_check_open(self)) { /* exporting the buffer may have run Python code */
        PyBuffer_Release(&view);
        return NULL;
    }
    vf_error e = view.len > VF_SNAPSHOT_MAX
                     ? VF_ERR_SIZE
                     : vf_restore(&self->env, self->kind, view.buf, (size_t)view.len);
    PyBuffer_Release(&view);
    if (e != VF_OK) {
        PyErr_Format(PyExc_ValueError, "valley_farm: cannot restore: %s; %s", vf_error_message(e),
                     expected);
        return NULL;
    }
    self->started = 1;
    self->steps = vf_step_count(&self->env);
    self->terminated = vf_terminated(&self->env);
    Py_RETURN_NONE;
}

static PyObject *env_state_hash(EnvObject *self, PyObject *Py_UNUSED(ignored)) {
    if (env_check_started(self, "state_hash")) return NULL;
    return PyLong_FromUnsignedLongLong(vf_state_hash(&self->env));
}

/* plan(width, prove_states): (actions, best_return, upper_bound), the env unchanged. */
static PyObject *env_plan(EnvObject *self, PyObject *args) {
    PyObject *width_obj, *states_obj;
    long long width, states;
    if (!PyArg_ParseTuple(args, "OO", &width_obj, &states_obj)) return NULL;
    if (env_check_started(self, "plan") ||
        vfpy_int_arg(width_obj, 1, VF_PLAN_WIDTH_MAX, "plan: width", &width) ||
        vfpy_int_arg(states_obj, 0, VF_PROVE_STATES_MAX, "plan: states to prove (0: none)",
                     &states) ||
        env_check_started(self, "plan"))
        return NULL;
    size_t beam = vf_plan_work_size(self->kind, (int)width);
    size_t proof = states > 0 ? vf_plan_prove_work_size(self->kind, (int)states) : 0;
    size_t bytes = beam > proof ? beam : proof;
    if (bytes > VF_PLAN_MEMORY_MAX) { /* the JS package's limit, and its words */
        char asked[40];
        if (proof > beam)
            snprintf(asked, sizeof asked, "prove %lld", states);
        else
            snprintf(asked, sizeof asked, "width %lld", width);
        PyErr_Format(PyExc_ValueError,
                     "valley_farm: plan: %s needs %zu MB of engine memory, more than the %d MB a "
                     "plan may take; use a smaller width or fewer states to prove",
                     asked, (bytes + (1u << 20) - 1) >> 20, VF_PLAN_MEMORY_MAX >> 20);
        return NULL;
    }
    void *work = malloc(bytes);
    if (!work) return PyErr_NoMemory();
    vf_plan plan;
    vf_error e;
    vf_env start = self->env;
    Py_BEGIN_ALLOW_THREADS;
    e = vf_plan_beam(&start, (int)width, work, bytes, &plan);
    /* the proof reuses the beam's memory: it starts from the plan, not from the beam */
    if (e == VF_OK && states > 0) e = vf_plan_prove(&start, (int)states, work, bytes, &plan);
    Py_END_ALLOW_THREADS;
    free(work);
    if (e != VF_OK) {
        PyErr_Format(PyExc_RuntimeError, "valley_farm: plan failed: %s", vf_error_message(e));
        return NULL;
    }
    PyObject *acts = PyList_New(plan.length);
    if (!acts) return NULL;
    for (int i = 0; i < plan.length; i++)
        PyList_SET_ITEM(acts, i, PyLong_FromLong(plan.actions[i]));
    return Py_BuildValue("(Ndd)", acts, plan.best_return, plan.upper_bound);
}

static PyObject *env_close(EnvObject *self, PyObject *Py_UNUSED(ignored)) {
    if (env_check_init(self)) return NULL;
    self->open = 0; /* closing twice is harmless, as Gymnasium asks */
    Py_RETURN_NONE;
}

static PyObject *env_get_closed(EnvObject *self, void *Py_UNUSED(c)) {
    if (env_check_init(self)) return NULL;
    return PyBool_FromLong(!self->open);
}
static PyObject *env_get_kind(EnvObject *self, void *Py_UNUSED(c)) {
    if (env_check_init(self)) return NULL;
    return PyLong_FromLong(self->kind);
}
static PyObject *env_get_seed(EnvObject *self, void *Py_UNUSED(c)) {
    if (env_check_init(self)) return NULL;
    if (!self->started) Py_RETURN_NONE;
    return PyLong_FromUnsignedLongLong(self->env.seed);
}
static PyObject *env_get_steps(EnvObject *self, void *Py_UNUSED(c)) {
    if (env_check_init(self)) return NULL;
    return PyLong_FromLong(self->steps);
}
static PyObject *env_get_terminated(EnvObject *self, void *Py_UNUSED(c)) {
    if (env_check_init(self)) return NULL;
    return PyBool_FromLong(self->terminated);
}
static PyObject *env_get_total_reward(EnvObject *self, void *Py_UNUSED(c)) {
    if (env_check_init(self)) return NULL;
    if (!self->started) return PyFloat_FromDouble(0);
    return PyFloat_FromDouble(vf_total_reward(&self->env));
}

/* A heap type's instances hold a reference to their type (CPython's rule for types made from
 * a spec): the base's dealloc gives it back, also for Python subclasses. */
static void env_dealloc(EnvObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

static PyMethodDef env_methods[] = {
    {"reset", (PyCFunction)(void (*)(void))env_reset, METH_VARARGS | METH_KEYWORDS,
     "reset($self, /, seed=None, *, options=None)\n--\n\nStarts an episode: (observation, info)."},
    {"step", (PyCFunction)env_step, METH_O,
     "step($self, action, /)\n--\n\nPlays one action: (observation, reward, terminated, truncated, "
     "info)."},
    {"action_mask", (PyCFunction)env_action_mask, METH_NOARGS,
     "An int8 array: 1 where the action is legal now."},
    {"illegal_reasons", (PyCFunction)env_illegal_reasons, METH_NOARGS,
     "Per action: None where legal, else {'code', 'text'} naming the rule that blocks it."},
    {"render", (PyCFunction)env_render, METH_NOARGS, "The map as text ('ansi')."},
    {"_state_json", (PyCFunction)env_state_json, METH_NOARGS, NULL},
    {"snapshot", (PyCFunction)env_snapshot, METH_NOARGS, "The complete state as bytes."},
    {"restore", (PyCFunction)env_restore, METH_O,
     "Puts the env back into a snapshot's state; bad bytes raise ValueError and change nothing."},
    {"state_hash", (PyCFunction)env_state_hash, METH_NOARGS,
     "The engine's 64-bit hash of the full state (vf_state_hash)."},
    {"_plan", (PyCFunction)env_plan, METH_VARARGS, NULL},
    {"close", (PyCFunction)env_close, METH_NOARGS, "Closes the env; closing twice is harmless."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef env_getset[] = {
    {"closed", (getter)env_get_closed, NULL, "True once close() was called.", NULL},
    {"_kind", (getter)env_get_kind, NULL, NULL, NULL},
    {"episode_seed", (getter)env_get_seed, NULL, "The seed of the episode in progress.", NULL},
    {"elapsed_steps", (getter)env_get_steps, NULL, "Steps of the episode in progress.", NULL},
    {"terminated", (getter)env_get_terminated, NULL, "The episode in progress has ended.", NULL},
    {"total_reward", (getter)env_get_total_reward, NULL, "The episode's reward so far.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyType_Slot env_slots[] = {
    {Py_tp_doc, "One valley-farm env over the C engine (see valley_farm.make)."},
    {Py_tp_init, env_init},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_dealloc, env_dealloc},
    {Py_tp_methods, env_methods},
    {Py_tp_getset, env_getset},
    {0, NULL}};

static PyType_Spec env_spec = {"valley_farm._engine.Env", sizeof(EnvObject), 0,
                               Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, env_slots};

/* ---- the vector env ----------------------------------------------------------------------- */

struct VecEnvObject;

/* Worker threads that step slices of the batch. The main thread steps slice 0 and waits for
 * the rest; a generation counter under one mutex wakes the workers for each step.
 * After fork() a child has only the thread that forked: the workers, and whatever state their
 * lock and conditions were in, belong to the parent. `pid` tells the child so: it forgets
 * them (never joins them) and starts its own at its first step. */
typedef struct {
    pthread_t *threads;
    int count; /* worker threads (threads - 1) */
    pthread_mutex_t lock;
    pthread_cond_t go, done;
    uint64_t generation;
    int pending; /* workers still stepping this generation */
    int quit;
    pid_t pid; /* the process that started the threads */
    struct VecEnvObject *owner;
} pool;

typedef struct VecEnvObject {
    PyObject_HEAD vf_env *envs;
    int n, kind, num_actions, obs_size;
    int levels;      /* next episodes' seeds come from Python (a fixed level list) */
    double *starts;  /* when each env's episode began (monotonic seconds; -1: begins now) */
    int threads;     /* slices stepped in parallel (1: the calling thread only) */
    int initialised; /* vec_init succeeded (the arrays below exist) */
    int open, started;
    int busy; /* a step is running with the GIL released: no other call may touch the buffers */
    PyArrayObject *obs, *rewards, *terminated, *truncated, *masks, *final_obs, *returns, *lengths,
        *seeds, *times, *next_seeds, *actions;
    vf_batch_io io;
    pool pool;
} VecEnvObject;

static void step_slice(VecEnvObject *v, int slice) {
    int n = v->n, t = v->threads;
    int lo = (int)((int64_t)n * slice / t), hi = (int)((int64_t)n * (slice + 1) / t);
    if (hi <= lo) return;
    const vf_batch_io *io = &v->io;
    vf_batch_io s = {
        io->actions + lo,
        io->next_seeds ? io->next_seeds + lo : NULL,
        io->obs + (size_t)lo * v->obs_size,
        io->rewards + lo,
        io->terminated + lo,
        io->masks ? io->masks + (size_t)lo * v->num_actions : NULL,
        io->final_obs + (size_t)lo * v->obs_size,
        io->episode_returns + lo,
        io->episode_lengths + lo,
        io->episode_seeds + lo,
        NULL, /* no features: the package reads them with valley_farm.features */
        io->autoreset,
        io->seed_stride, /* the whole batch's n: a slice plays the seeds the batch would */
    };
    vf_batch_step_io(v->envs + lo, hi - lo, v->kind, &s);
}

static void *worker_main(void *arg) {
    pool *p = (pool *)arg;
    int index;
    pthread_mutex_lock(&p->lock);
    index = p->pending--; /* each worker takes an index 1..count at start-up */
    pthread_cond_broadcast(&p->done);
    uint64_t seen = p->generation;
    for (;;) {
        while (!p->quit && p->generation == seen) pthread_cond_wait(&p->go, &p->lock);
        if (p->quit) break;
        seen = p->generation;
        pthread_mutex_unlock(&p->lock);
        step_slice(p->owner, index);
        pthread_mutex_lock(&p->lock);
        if (--p->pending == 0) pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

static int pool_start(pool *p, VecEnvObject *owner, int workers) {
    memset(p, 0, sizeof *p);
    p->owner = owner;
    p->pid = getpid();
    if (workers == 0) return 0;
    p->threads = calloc((size_t)workers, sizeof(pthread_t));
    if (!p->threads) return -1;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->done, NULL);
    p->pending = workers;
    for (int i = 0; i < workers; i++) {
        if (pthread_create(&p->threads[i], NULL, worker_main, p)) return -1;
        p->count++;
    }
    pthread_mutex_lock(&p->lock);
    while (p->pending > 0) pthread_cond_wait(&p->done, &p->lock);
    pthread_mutex_unlock(&p->lock);
    return 0;
}

/* The pool's threads were started by another process: this is a forked child. */
static int pool_forked(const pool *p) {
    return p->threads && p->pid != getpid();
}

static void pool_stop(pool *p) {
    if (!p->threads) return;
    if (pool_forked(p)) { /* the parent's threads: not ours to wake or join */
        free(p->threads);
        p->threads = NULL;
        p->count = 0;
        return;
    }
    pthread_mutex_lock(&p->lock);
    p->quit = 1;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; i < p->count; i++) pthread_join(p->threads[i], NULL);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->go);
    pthread_cond_destroy(&p->done);
    free(p->threads);
    p->threads = NULL;
}

static void pool_step(VecEnvObject *v) {
    pool *p = &v->pool;
    if (!p->threads) {
        step_slice(v, 0);
        return;
    }
    pthread_mutex_lock(&p->lock);
    p->pending = p->count;
    p->generation++;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->lock);
    step_slice(v, 0);
    pthread_mutex_lock(&p->lock);
    while (p->pending > 0) pthread_cond_wait(&p->done, &p->lock);
    pthread_mutex_unlock(&p->lock);
}

static double monotonic_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static PyArrayObject *new_array(int nd, npy_intp *dims, int type) {
    PyArrayObject *a = (PyArrayObject *)PyArray_ZEROS(nd, dims, type, 0);
    return a;
}

static int vec_init(VecEnvObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"kind", "num_envs", "masks", "levels", "threads", "autoreset", NULL};
    PyObject *kind_obj, *n_obj, *threads_obj = NULL, *autoreset_obj = NULL;
    int masks = 1, levels = 0;
    long long kind, n, threads = 1, autoreset = VF_AUTORESET_SAME_STEP;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|ppOO", kwlist, &kind_obj, &n_obj, &masks,
                                     &levels, &threads_obj, &autoreset_obj) ||
        vfpy_int_arg(kind_obj, 0, VF_KIND_COUNT - 1, "env kind", &kind) ||
        vfpy_int_arg(n_obj, 1, VF_BATCH_MAX, "num_envs", &n) ||
        (threads_obj && vfpy_int_arg(threads_obj, 1, n < 64 ? n : 64,
                                     "threads (at most num_envs and 64)", &threads)) ||
        (autoreset_obj &&
         vfpy_int_arg(autoreset_obj, VF_AUTORESET_SAME_STEP, VF_AUTORESET_NEXT_STEP,
                      "autoreset (0: same-step, 1: next-step)", &autoreset)))
        return -1;
    if (self->envs) { /* once: the buffers' sizes and the engine's pointers are fixed */
        PyErr_SetString(PyExc_TypeError, "valley_farm: a VecEnv is initialised once");
        return -1;
    }
    self->n = (int)n;
    self->kind = (int)kind;
    self->num_actions = vf_num_actions(self->kind);
    self->obs_size = vf_obs_size(self->kind);
    self->levels = levels;
    self->threads = (int)threads;
    self->envs = calloc((size_t)n, sizeof(vf_env));
    self->starts = calloc((size_t)n, sizeof(double));
    if (!self->envs || !self->starts) {
        PyErr_NoMemory();
        return -1;
    }
    npy_intp row[1] = {n}, obs2[2] = {n, self->obs_size}, mask2[2] = {n, self->num_actions};
    self->obs = new_array(2, obs2, NPY_INT32);
    self->final_obs = new_array(2, obs2, NPY_INT32);
    self->rewards = new_array(1, row, NPY_FLOAT64);
    self->returns = new_array(1, row, NPY_FLOAT64);
    self->terminated = new_array(1, row, NPY_BOOL);
    self->truncated = new_array(1, row, NPY_BOOL);
    self->masks = new_array(2, mask2, NPY_INT8); /* as new_mask's */
    self->lengths = new_array(1, row, NPY_INT32);
    self->seeds = new_array(1, row, NPY_UINT64);
    self->times = new_array(1, row, NPY_FLOAT64);
    self->next_seeds = new_array(1, row, NPY_UINT64);
    self->actions = new_array(1, row, NPY_INT32);
    if (!self->obs || !self->final_obs || !self->rewards || !self->returns || !self->terminated ||
        !self->truncated || !self->masks || !self->lengths || !self->seeds || !self->times ||
        !self->next_seeds || !self->actions)
        return -1;
    /* the views handed out are read-only: the engine overwrites them at the next step */
    PyArrayObject *outs[] = {self->obs,        self->final_obs, self->rewards, self->returns,
                             self->terminated, self->truncated, self->masks,   self->lengths,
                             self->seeds,      self->times};
    for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++)
        PyArray_CLEARFLAGS(outs[i], NPY_ARRAY_WRITEABLE);
    vf_batch_io io = {
        PyArray_DATA(self->actions),
        /* the engine's own schedule (env i's k-th episode: seed + i + k n) unless Python
         * gives the levels */
        levels ? PyArray_DATA(self->next_seeds) : NULL,
        PyArray_DATA(self->obs),
        PyArray_DATA(self->rewards),
        PyArray_DATA(self->terminated),
        masks ? PyArray_DATA(self->masks) : NULL,
        PyArray_DATA(self->final_obs),
        PyArray_DATA(self->returns),
        PyArray_DATA(self->lengths),
        PyArray_DATA(self->seeds),
        NULL,
        (int32_t)autoreset,
        (int32_t)n,
    };
    self->io = io;
    if (pool_start(&self->pool, self, self->threads - 1)) {
        pool_stop(&self->pool);
        PyErr_SetString(PyExc_RuntimeError, "valley_farm: could not start the stepping threads");
        return -1;
    }
    self->open = self->initialised = 1;
    return 0;
}

static int vec_check_init(VecEnvObject *self) {
    if (self->initialised) return 0;
    PyErr_Format(PyExc_ValueError, NOT_INITIALISED, "VecEnv", "VecEnv", "make_vec(env_id, n)");
    return -1;
}

static int vec_check_open(VecEnvObject *self) {
    if (vec_check_init(self)) return -1;
    if (self->busy && self->pool.pid != getpid()) {
        PyErr_SetString(PyExc_ValueError,
                        "valley_farm: this vector env was stepping in another thread when this "
                        "process forked, so its state here is half stepped; make a new one");
        return -1;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_ValueError,
                        "valley_farm: this vector env is stepping in another thread; a vector env "
                        "takes one call at a time (make one per thread)");
        return -1;
    }
    if (self->open) return 0;
    PyErr_Format(PyExc_ValueError,
                 "valley_farm: this %s vector env is closed; make a new one with "
                 "valley_farm.make_vec('%s', n)",
                 vf_kind_name(self->kind), vf_kind_name(self->kind));
    return -1;
}

/* Writes the mask rows of envs lo..hi (when masks are on). */
static void vec_fill_masks(VecEnvObject *self, int lo, int count) {
    if (self->io.masks)
        vf_batch_legal_actions(self->envs + lo, count,
                               self->io.masks + (size_t)lo * self->num_actions);
}

/* reset_all(seed): env i starts with seed + i; its next episodes follow seed + i + k n. */
static PyObject *vec_reset_all(VecEnvObject *self, PyObject *arg) {
    if (vec_check_open(self)) return NULL;
    uint64_t seed;
    if (seed_from(arg, &seed, "reset") || vec_check_open(self)) return NULL;
    vf_batch_reset(self->envs, self->n, self->kind, seed, self->io.obs);
    vec_fill_masks(self, 0, self->n);
    memset(PyArray_DATA(self->terminated), 0, (size_t)self->n);
    double now = monotonic_seconds();
    for (int i = 0; i < self->n; i++) self->starts[i] = now;
    self->started = 1;
    Py_RETURN_NONE;
}

/* reset_one(i, seed): env i alone starts an episode of this seed. */
static PyObject *vec_reset_one(VecEnvObject *self, PyObject *args) {
    PyObject *index_obj, *seed_obj;
    long long i;
    uint64_t seed;
    if (!PyArg_ParseTuple(args, "OO", &index_obj, &seed_obj)) return NULL;
    if (vec_check_open(self) || vfpy_int_arg(index_obj, 0, self->n - 1, "env index", &i) ||
        seed_from(seed_obj, &seed, "reset") || vec_check_open(self))
        return NULL;
    vf_reset(&self->envs[i], self->kind, seed, self->io.obs + (size_t)i * self->obs_size);
    vec_fill_masks(self, (int)i, 1);
    ((uint8_t *)PyArray_DATA(self->terminated))[i] = 0; /* its episode is not over */
    self->starts[i] = monotonic_seconds();
    Py_RETURN_NONE;
}

static const char *ACTIONS_RULE =
    "actions must be a NumPy array (or list) of num_envs ints from 0 to";

/* step(actions): one batch step; the outputs are in the arrays. */
/* Gymnasium's episode time, infos["episode"]["t"]: the seconds from the moment the call that
 * began the episode returned (as gymnasium.wrappers.vector.RecordEpisodeStatistics counts it)
 * to the moment the call that ended it returns, written in the rows that ended. Next-step
 * autoreset begins an episode in the call after the one that ended its predecessor: those
 * rows (terminated by the last call) are marked to begin now. */
static void vec_time_before(VecEnvObject *v) {
    const uint8_t *term = PyArray_DATA(v->terminated);
    if (v->io.autoreset != VF_AUTORESET_NEXT_STEP || !memchr(term, 1, (size_t)v->n)) return;
    for (int i = 0; i < v->n; i++)
        if (term[i]) v->starts[i] = -1;
}

static void vec_time_after(VecEnvObject *v) {
    const uint8_t *term = PyArray_DATA(v->terminated);
    double now = monotonic_seconds(), *times = PyArray_DATA(v->times);
    int next_step = v->io.autoreset == VF_AUTORESET_NEXT_STEP;
    for (int i = 0; next_step && i < v->n; i++)
        if (v->starts[i] < 0) v->starts[i] = now;
    if (!memchr(term, 1, (size_t)v->n)) return;
    for (int i = 0; i < v->n; i++) {
        if (!term[i]) continue;
        times[i] = now - v->starts[i];
        if (!next_step) v->starts[i] = now; /* same-step: the next episode began in this call */
    }
}

static int vec_check_started(VecEnvObject *self) {
    if (self->started) return 0;
    PyErr_SetString(PyExc_ValueError,
                    "valley_farm: step() before the first episodes: call reset() first");
    return -1;
}

/* In a forked child, the parent's stepping threads are replaced by the child's own. */
static int vec_own_threads(VecEnvObject *self) {
    if (!pool_forked(&self->pool)) return 0;
    int workers = self->pool.count;
    pool_stop(&self->pool);
    if (pool_start(&self->pool, self, workers) == 0) return 0;
    pool_stop(&self->pool);
    self->open = 0;
    PyErr_SetString(PyExc_RuntimeError,
                    "valley_farm: could not start this vector env's stepping threads in this "
                    "forked process; make a new one with threads=1");
    return -1;
}

static PyObject *vec_step(VecEnvObject *self, PyObject *actions) {
    if (vec_check_open(self) || vec_check_started(self)) return NULL;
    int n = self->n, max = self->num_actions;
    const int32_t *src = NULL;
    PyArrayObject *arr = NULL;
    if (PyArray_Check(actions) && PyArray_TYPE((PyArrayObject *)actions) == NPY_INT32 &&
        PyArray_ISCARRAY_RO((PyArrayObject *)actions) &&
        PyArray_NDIM((PyArrayObject *)actions) == 1 &&
        PyArray_DIM((PyArrayObject *)actions, 0) == n) {
        src = (const int32_t *)PyArray_DATA((PyArrayObject *)actions); /* the fast path */
    } else {
        arr = (PyArrayObject *)PyArray_FROM_O(actions);
        if (!arr) return NULL;
        if (PyArray_NDIM(arr) != 1 || PyArray_DIM(arr, 0) != n) {
            PyObject *shape = PyObject_GetAttrString((PyObject *)arr, "shape");
            if (shape)
                PyErr_Format(PyExc_ValueError,
                             "valley_farm: got actions of shape %R for %d envs; %s %d", shape, n,
                             ACTIONS_RULE, max - 1);
            Py_XDECREF(shape);
            Py_DECREF(arr);
            return NULL;
        }
        if (!PyArray_ISINTEGER(arr)) {
            PyErr_Format(PyExc_TypeError,
                         "valley_farm: got actions of dtype %R; %s %d (an integer dtype)",
                         (PyObject *)PyArray_DESCR(arr), ACTIONS_RULE, max - 1);
            Py_DECREF(arr);
            return NULL;
        }
        PyArrayObject *wide = (PyArrayObject *)PyArray_FROM_OTF(
            (PyObject *)arr, NPY_INT64, NPY_ARRAY_IN_ARRAY | NPY_ARRAY_FORCECAST);
        int unsigned_big = PyArray_ISUNSIGNED(arr);
        Py_DECREF(arr);
        if (!wide) return NULL;
        const int64_t *w = (const int64_t *)PyArray_DATA(wide);
        int32_t *dst = (int32_t *)PyArray_DATA(self->actions);
        for (int i = 0; i < n; i++) {
            if (w[i] < 0 || w[i] >= max) {
                PyErr_Format(PyExc_ValueError, "valley_farm: actions[%d] is %s%lld; %s %d", i,
                             unsigned_big && w[i] < 0 ? "above 2**63: " : "", (long long)w[i],
                             ACTIONS_RULE, max - 1);
                Py_DECREF(wide);
                return NULL;
            }
            dst[i] = (int32_t)w[i];
        }
        Py_DECREF(wide);
        src = dst;
    }
    if (src != PyArray_DATA(self->actions)) {
        for (int i = 0; i < n; i++) {
            if ((uint32_t)src[i] >= (uint32_t)max) {
                PyErr_Format(PyExc_ValueError, "valley_farm: actions[%d] is %d; %s %d", i, src[i],
                             ACTIONS_RULE, max - 1);
                return NULL;
            }
        }
        self->io.actions = src;
    } else {
        self->io.actions = PyArray_DATA(self->actions);
    }
    /* converting the actions (__array__, __index__) may have closed this env or reset it;
     * then a forked child starts its own threads */
    if (vec_check_open(self) || vec_check_started(self) || vec_own_threads(self)) {
        self->io.actions = PyArray_DATA(self->actions);
        return NULL;
    }
    self->busy = 1;
    Py_BEGIN_ALLOW_THREADS;
    vec_time_before(self);
    pool_step(self);
    vec_time_after(self);
    Py_END_ALLOW_THREADS;
    self->busy = 0;
    self->io.actions = PyArray_DATA(self->actions);
    Py_RETURN_NONE;
}

/* The env that `arg` (an index) names in an open vector env, or NULL with the error set. */
static const vf_env *vec_env_at(VecEnvObject *self, PyObject *arg) {
    long long i;
    if (vec_check_open(self) || vfpy_int_arg(arg, 0, self->n - 1, "env index", &i) ||
        vec_check_open(self))
        return NULL;
    return &self->envs[i];
}

static PyObject *vec_episode_seed(VecEnvObject *self, PyObject *arg) {
    const vf_env *env = vec_env_at(self, arg);
    return env ? PyLong_FromUnsignedLongLong(env->seed) : NULL;
}

/* The env's hash, for tests that compare a vector env's episodes with single envs. */
static PyObject *vec_state_hash(VecEnvObject *self, PyObject *arg) {
    const vf_env *env = vec_env_at(self, arg);
    if (!env) return NULL;
    return PyLong_FromUnsignedLongLong(vf_state_hash(env));
}

static PyObject *vec_close(VecEnvObject *self, PyObject *Py_UNUSED(ignored)) {
    if (vec_check_init(self)) return NULL;
    if (self->open) {
        if (vec_check_open(self)) return NULL; /* not while another thread steps it */
        pool_stop(&self->pool);
        self->open = 0;
    }
    Py_RETURN_NONE;
}

static void vec_dealloc(VecEnvObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    if (self->open) pool_stop(&self->pool);
    free(self->envs);
    free(self->starts);
    Py_XDECREF(self->obs);
    Py_XDECREF(self->final_obs);
    Py_XDECREF(self->rewards);
    Py_XDECREF(self->returns);
    Py_XDECREF(self->terminated);
    Py_XDECREF(self->truncated);
    Py_XDECREF(self->masks);
    Py_XDECREF(self->lengths);
    Py_XDECREF(self->seeds);
    Py_XDECREF(self->times);
    Py_XDECREF(self->next_seeds);
    Py_XDECREF(self->actions);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

#define VEC_ARRAY_GETTER(name)                                                                     \
    static PyObject *vec_get_##name(VecEnvObject *self, void *Py_UNUSED(c)) {                      \
        return vec_check_init(self) ? NULL : Py_NewRef((PyObject *)self->name);                    \
    }
VEC_ARRAY_GETTER(obs)
VEC_ARRAY_GETTER(final_obs)
VEC_ARRAY_GETTER(rewards)
VEC_ARRAY_GETTER(returns)
VEC_ARRAY_GETTER(terminated)
VEC_ARRAY_GETTER(truncated)
VEC_ARRAY_GETTER(masks)
VEC_ARRAY_GETTER(lengths)
VEC_ARRAY_GETTER(seeds)
VEC_ARRAY_GETTER(times)
VEC_ARRAY_GETTER(next_seeds)

static PyObject *vec_get_closed(VecEnvObject *self, void *Py_UNUSED(c)) {
    if (vec_check_init(self)) return NULL;
    return PyBool_FromLong(!self->open);
}

static PyMethodDef vec_methods[] = {{"reset_all", (PyCFunction)vec_reset_all, METH_O, NULL},
                                    {"reset_one", (PyCFunction)vec_reset_one, METH_VARARGS, NULL},
                                    {"step", (PyCFunction)vec_step, METH_O, NULL},
                                    {"episode_seed", (PyCFunction)vec_episode_seed, METH_O, NULL},
                                    {"state_hash", (PyCFunction)vec_state_hash, METH_O, NULL},
                                    {"close", (PyCFunction)vec_close, METH_NOARGS, NULL},
                                    {NULL, NULL, 0, NULL}};

static PyGetSetDef vec_getset[] = {{"obs", (getter)vec_get_obs, NULL, NULL, NULL},
                                   {"final_obs", (getter)vec_get_final_obs, NULL, NULL, NULL},
                                   {"rewards", (getter)vec_get_rewards, NULL, NULL, NULL},
                                   {"episode_returns", (getter)vec_get_returns, NULL, NULL, NULL},
                                   {"terminated", (getter)vec_get_terminated, NULL, NULL, NULL},
                                   {"truncated", (getter)vec_get_truncated, NULL, NULL, NULL},
                                   {"masks", (getter)vec_get_masks, NULL, NULL, NULL},
                                   {"episode_lengths", (getter)vec_get_lengths, NULL, NULL, NULL},
                                   {"episode_seeds", (getter)vec_get_seeds, NULL, NULL, NULL},
                                   {"episode_times", (getter)vec_get_times, NULL, NULL, NULL},
                                   {"next_seeds", (getter)vec_get_next_seeds, NULL, NULL, NULL},
                                   {"closed", (getter)vec_get_closed, NULL, NULL, NULL},
                                   {NULL, NULL, NULL, NULL, NULL}};

static PyType_Slot vec_slots[] = {
    {Py_tp_doc, "A batch of valley-farm envs (see valley_farm.make_vec)."},
    {Py_tp_init, vec_init},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_dealloc, vec_dealloc},
    {Py_tp_methods, vec_methods},
    {Py_tp_getset, vec_getset},
    {0, NULL}};

static PyType_Spec vec_spec = {"valley_farm._engine.VecEnv", sizeof(VecEnvObject), 0,
                               Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, vec_slots};

/* ---- what the engine knows -------------------------------------------------------------- */

/* spec_json(): vf_spec_json, everything the engine says about itself and each farm (ids,
 * actions, tiles, observation fields and bounds, rules, reasons, events, limits), read once
 * at import by valley_farm/_specs.py: Python types no fact of a farm. */
static PyObject *spec_json(PyObject *Py_UNUSED(m), PyObject *Py_UNUSED(ignored)) {
    char *buf = malloc(VF_SPEC_MAX);
    if (!buf) return PyErr_NoMemory();
    size_t n = vf_spec_json(buf, VF_SPEC_MAX);
    PyObject *r = n < VF_SPEC_MAX ? PyUnicode_FromStringAndSize(buf, (Py_ssize_t)n) : NULL;
    if (n >= VF_SPEC_MAX)
        PyErr_SetString(PyExc_RuntimeError, "valley_farm: vf_spec_json longer than VF_SPEC_MAX");
    free(buf);
    return r;
}

static PyObject *set_fresh_seed_range(PyObject *m, PyObject *args) {
    PyObject *lo_obj, *hi_obj;
    uint64_t lo, hi;
    if (!PyArg_ParseTuple(args, "OO", &lo_obj, &hi_obj) ||
        seed_from(lo_obj, &lo, "set_fresh_seed_range") ||
        seed_from(hi_obj, &hi, "set_fresh_seed_range"))
        return NULL;
    if (hi < lo || hi - lo == UINT64_MAX) { /* the span + 1 draw_fresh divides by must be > 0 */
        PyErr_SetString(PyExc_ValueError,
                        "valley_farm: set_fresh_seed_range(low, high): low <= high, and not every "
                        "64-bit seed");
        return NULL;
    }
    state_of_module(m)->fresh.min = lo;
    state_of_module(m)->fresh.span = hi - lo;
    Py_RETURN_NONE;
}

/* The most env steps one call of the bench helpers below may take (minutes at the engine's
 * speed): a call cannot hold its thread for ever. */
#define BENCH_ENV_STEPS_MAX (1ll << 33)

/* The kind and the rounds of n envs a bench helper takes, each checked (n * rounds at most
 * BENCH_ENV_STEPS_MAX); 0 or -1 with a ValueError or TypeError. */
static int bench_args(PyObject *kind_obj, PyObject *rounds_obj, const char *what, int *kind,
                      long long *rounds) {
    long long k;
    if (vfpy_int_arg(kind_obj, 0, VF_KIND_COUNT - 1, what, &k) ||
        vfpy_int_arg(rounds_obj, 0, BENCH_ENV_STEPS_MAX, what, rounds))
        return -1;
    *kind = (int)k;
    return 0;
}

static int bench_work(long long n, long long rounds, const char *what) {
    if (rounds <= BENCH_ENV_STEPS_MAX / n) return 0;
    PyErr_Format(PyExc_ValueError,
                 "valley_farm: %s: %lld rounds of %lld envs is more than 2**33 env steps", what,
                 rounds, n);
    return -1;
}

/* batch_run_random(kind, n, steps, seed): the native bench's loop (vf_batch_run_random), for
 * the Python bench to compare with in the same process. Returns (seconds, reward sum). */
static PyObject *batch_run_random(PyObject *Py_UNUSED(m), PyObject *args) {
    PyObject *kind_obj, *n_obj, *steps_obj, *seed_obj;
    int kind;
    long long n, steps;
    uint64_t seed;
    if (!PyArg_ParseTuple(args, "OOOO", &kind_obj, &n_obj, &steps_obj, &seed_obj) ||
        vfpy_int_arg(n_obj, 1, VF_BATCH_MAX, "batch_run_random: n", &n) ||
        bench_args(kind_obj, steps_obj, "batch_run_random: kind and steps", &kind, &steps) ||
        bench_work(n, steps, "batch_run_random") || seed_from(seed_obj, &seed, "batch_run_random"))
        return NULL;
    vf_env *envs = calloc((size_t)n, sizeof(vf_env));
    int32_t *obs = calloc((size_t)n * VF_OBS_MAX, sizeof(int32_t));
    if (!envs || !obs) {
        free(envs);
        free(obs);
        return PyErr_NoMemory();
    }
    vf_batch_reset(envs, (int)n, kind, 1, obs);
    double sum;
    PyObject *clock = PyImport_ImportModule("time");
    PyObject *t0 = clock ? PyObject_CallMethod(clock, "perf_counter", NULL) : NULL;
    Py_BEGIN_ALLOW_THREADS;
    sum = vf_batch_run_random(envs, (int)n, steps, seed, obs);
    Py_END_ALLOW_THREADS;
    PyObject *t1 = clock ? PyObject_CallMethod(clock, "perf_counter", NULL) : NULL;
    free(envs);
    free(obs);
    PyObject *r = NULL;
    if (t0 && t1) r = Py_BuildValue("(dd)", PyFloat_AsDouble(t1) - PyFloat_AsDouble(t0), sum);
    Py_XDECREF(clock);
    Py_XDECREF(t0);
    Py_XDECREF(t1);
    return r;
}

/* native_vec_steps(kind, actions, rounds, masks): what VecEnv.step does, `rounds` times, in
 * one C loop (actions: a C-contiguous int32 array of shape (k, n), row r % k in round r), for
 * the Python bench to compare the binding's per-step cost with. Returns the seconds taken. */
static PyObject *native_vec_steps(PyObject *Py_UNUSED(m), PyObject *args) {
    PyObject *kind_obj, *rounds_obj;
    int kind, masks;
    long long rounds;
    PyArrayObject *acts;
    /* the ints first: their __index__ could resize the array */
    if (!PyArg_ParseTuple(args, "OO!Op", &kind_obj, &PyArray_Type, &acts, &rounds_obj, &masks) ||
        bench_args(kind_obj, rounds_obj, "native_vec_steps: kind and rounds", &kind, &rounds))
        return NULL;
    if (PyArray_NDIM(acts) != 2 || PyArray_TYPE(acts) != NPY_INT32 || !PyArray_ISCARRAY_RO(acts) ||
        PyArray_DIM(acts, 0) < 1 || PyArray_DIM(acts, 1) < 1 ||
        PyArray_DIM(acts, 1) > VF_BATCH_MAX) {
        PyErr_SetString(PyExc_ValueError,
                        "valley_farm: native_vec_steps(kind, actions, rounds, masks): actions is a "
                        "C-contiguous int32 array of k >= 1 rows of n (1 to 65536) actions");
        return NULL;
    }
    if (bench_work(PyArray_DIM(acts, 1), rounds, "native_vec_steps")) return NULL;
    int n = (int)PyArray_DIM(acts, 1), k = (int)PyArray_DIM(acts, 0);
    int obs_size = vf_obs_size(kind), na = vf_num_actions(kind);
    vf_env *envs = calloc((size_t)n, sizeof(vf_env));
    int32_t *obs = calloc((size_t)n * obs_size * 2 + (size_t)n * 2, sizeof(int32_t));
    double *dbl = calloc((size_t)n * 2, sizeof(double));
    uint64_t *seeds = calloc((size_t)n, sizeof(uint64_t));
    uint8_t *bytes = calloc((size_t)n * (na + 1), 1);
    double seconds = 0;
    if (envs && obs && dbl && seeds && bytes) {
        vf_batch_io io = {NULL,
                          NULL,
                          obs,
                          dbl,
                          bytes,
                          masks ? bytes + n : NULL,
                          obs + (size_t)n * obs_size,
                          dbl + n,
                          obs + (size_t)n * obs_size * 2,
                          seeds,
                          NULL,
                          VF_AUTORESET_SAME_STEP,
                          0};
        const int32_t *a = (const int32_t *)PyArray_DATA(acts);
        vf_batch_reset(envs, n, kind, 1, obs);
        PyObject *clock = PyImport_ImportModule("time");
        PyObject *t0 = clock ? PyObject_CallMethod(clock, "perf_counter", NULL) : NULL;
        Py_BEGIN_ALLOW_THREADS;
        for (long long r = 0; r < rounds; r++) {
            io.actions = a + (size_t)(r % k) * n;
            vf_batch_step_io(envs, n, kind, &io);
        }
        Py_END_ALLOW_THREADS;
        PyObject *t1 = clock ? PyObject_CallMethod(clock, "perf_counter", NULL) : NULL;
        if (t0 && t1) seconds = PyFloat_AsDouble(t1) - PyFloat_AsDouble(t0);
        Py_XDECREF(clock);
        Py_XDECREF(t0);
        Py_XDECREF(t1);
    }
    free(envs);
    free(obs);
    free(dbl);
    free(seeds);
    free(bytes);
    if (PyErr_Occurred()) return NULL;
    return PyFloat_FromDouble(seconds);
}

static PyMethodDef module_methods[] = {
    {"native_vec_steps", native_vec_steps, METH_VARARGS, NULL},
    {"spec_json", spec_json, METH_NOARGS, "vf_spec_json: what the engine knows about each farm."},
    {"set_fresh_seed_range", set_fresh_seed_range, METH_VARARGS, NULL},
    {"batch_run_random", batch_run_random, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL}};

static int module_exec(PyObject *m) {
    if (_import_array() < 0) return -1;
    module_state *s = state_of_module(m);
    s->fresh.min = 0;
    s->fresh.span = UINT64_MAX >> 11;
    struct {
        PyObject **slot;
        const char *name;
    } keys[] = {{&s->k_step, "step"},
                {&s->k_seed, "seed"},
                {&s->k_legal, "action_was_legal"},
                {&s->k_mask, "action_mask"},
                {&s->k_reason, "illegal_reason"},
                {&s->k_events, "events"},
                {&s->k_code, "code"},
                {&s->k_text, "text"},
                {&s->k_reward, "reward"},
                {&s->k_x, "x"},
                {&s->k_y, "y"},
                {&s->k_subject, "subject"},
                {&s->k_count, "count"},
                {&s->k_count2, "count2"},
                {&s->k_before, "before"},
                {&s->k_after, "after"}};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!(*keys[i].slot = PyUnicode_InternFromString(keys[i].name))) return -1;
    PyObject *env_type = PyType_FromModuleAndSpec(m, &env_spec, NULL);
    if (!env_type || PyModule_AddObject(m, "Env", env_type)) return -1;
    PyObject *vec_type = PyType_FromModuleAndSpec(m, &vec_spec, NULL);
    if (!vec_type || PyModule_AddObject(m, "VecEnv", vec_type)) return -1;
    return vfpy_add_agents(m); /* agents.c: the built-in agents and the policy's features */
}

static int module_clear(PyObject *m) {
    module_state *s = state_of_module(m);
    PyObject **all[] = {&s->k_step,   &s->k_seed,   &s->k_legal,  &s->k_mask,
                        &s->k_reason, &s->k_events, &s->k_code,   &s->k_text,
                        &s->k_reward, &s->k_x,      &s->k_y,      &s->k_subject,
                        &s->k_count,  &s->k_count2, &s->k_before, &s->k_after};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) Py_CLEAR(*all[i]);
    return 0;
}

static PyModuleDef_Slot module_slots[] = {{Py_mod_exec, module_exec}, {0, NULL}};

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT,
                                        "valley_farm._engine",
                                        "The C engine of valley_farm.",
                                        sizeof(module_state),
                                        module_methods,
                                        module_slots,
                                        NULL,
                                        module_clear,
                                        NULL};

PyMODINIT_FUNC PyInit__engine(void) {
    return PyModuleDef_Init(&module_def);
}
