/*
 * agents.c — the engine's built-in agents and the policy's features in the Python binding
 * (valley_farm._engine): the same C the JS package calls (core/src/agents.c, features.c), so
 * both bindings play the same agents and give a policy the same features, bit for bit.
 *
 *   Agent     one vf_agent: act(obs) -> action, reset()
 *   Features  what a policy sees (vf_features) of num_envs envs, each with its memory of its
 *             episode if asked: read(i, obs, action, opening) -> (index, value), and
 *             read_batch(obs, actions, opening) -> (index, value, count) over rows
 *   agent_returns(kind, agent, seeds, runs, first_seed)
 *             each seed's return by a built-in agent, every episode played in C: with runs >
 *             1, the mean of `runs` plays, the k-th by a fresh agent seeded first_seed + k
 *             (the evaluation protocol's random agent: 16 runs seeded 1 ... 16); with runs 1,
 *             one agent seeded first_seed plays the seeds in turn, its draws going on (as the
 *             JS package's builtInReturns)
 *
 * As in engine.c, every argument is checked before the engine is touched (ValueError or
 * TypeError saying what is allowed), and a refused call changes nothing. engine.c's module
 * init calls vfpy_add_agents.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include "args.h"
#include "valley_farm.h"

int vfpy_add_agents(PyObject *m);

/* The most memory the features' memories may take (the engine's limit for one plan's work
 * memory, VF_PLAN_MEMORY_MAX: no call takes gigabytes). */
#define MEMORY_MAX ((size_t)1 << 30)
/* The most plays agent_returns makes in one call (a million episodes: seconds to a minute). */
#define PLAYS_MAX 1000000

/* A seed: an int from 0 to 2**64 - 1. */
static int arg_seed(PyObject *o, const char *what, uint64_t *out) {
    if (PyBool_Check(o) || PyArray_IsScalar(o, Bool) || PyFloat_Check(o) || !PyIndex_Check(o)) {
        PyErr_Format(PyExc_TypeError, "valley_farm: %s %.60R is not an int from 0 to 2**64 - 1",
                     what, o);
        return -1;
    }
    PyObject *i = PyNumber_Index(o);
    if (!i) return -1;
    int negative = PyObject_RichCompareBool(i, Py_False, Py_LT);
    unsigned long long v = negative ? 0 : PyLong_AsUnsignedLongLong(i);
    Py_DECREF(i);
    if (negative || (v == (unsigned long long)-1 && PyErr_Occurred())) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "valley_farm: %s %.60R is out of range: 0 to 2**64 - 1",
                     what, o);
        return -1;
    }
    *out = v;
    return 0;
}

/* An integer array of `shape` (rows x cols, rows 0: 1-D of cols) as int32 in a new
 * C-contiguous array; a value past int32 becomes INT32_MIN, which no field allows. NULL with a
 * TypeError for anything else. */
static PyArrayObject *int32_rows(PyObject *o, npy_intp rows, npy_intp cols, const char *what) {
    PyArrayObject *a = (PyArrayObject *)PyArray_FromAny(o, NULL, 0, 0, 0, NULL);
    if (!a) {
        if (!PyErr_ExceptionMatches(PyExc_ValueError) && !PyErr_ExceptionMatches(PyExc_TypeError))
            return NULL;
        PyErr_Clear();
    }
    int nd = rows ? 2 : 1;
    if (!a || PyArray_NDIM(a) != nd || !PyArray_ISINTEGER(a) || PyArray_DIM(a, nd - 1) != cols ||
        (rows && PyArray_DIM(a, 0) != rows)) {
        Py_XDECREF(a);
        if (rows)
            PyErr_Format(PyExc_TypeError,
                         "valley_farm: %s must be an integer array of shape (%zd, %zd), got %.60R",
                         what, (Py_ssize_t)rows, (Py_ssize_t)cols, o);
        else
            PyErr_Format(PyExc_TypeError,
                         "valley_farm: %s must be %zd ints (a 1-D integer array, as the env "
                         "gives it), got %.60R",
                         what, (Py_ssize_t)cols, o);
        return NULL;
    }
    PyArrayObject *wide = (PyArrayObject *)PyArray_FROM_OTF(
        (PyObject *)a, NPY_INT64, NPY_ARRAY_IN_ARRAY | NPY_ARRAY_FORCECAST);
    Py_DECREF(a);
    if (!wide) return NULL;
    npy_intp dims[2] = {rows ? rows : cols, cols};
    PyArrayObject *out = (PyArrayObject *)PyArray_SimpleNew(nd, dims, NPY_INT32);
    if (out) {
        const int64_t *src = PyArray_DATA(wide);
        int32_t *dst = PyArray_DATA(out);
        for (npy_intp k = 0, n = PyArray_SIZE(out); k < n; k++)
            dst[k] = src[k] < INT32_MIN || src[k] > INT32_MAX ? INT32_MIN : (int32_t)src[k];
    }
    Py_DECREF(wide);
    return out;
}

static int arg_kind(PyObject *o, int *kind) {
    long long k;
    if (vfpy_int_arg(o, 0, VF_KIND_COUNT - 1, "env kind", &k)) return -1;
    *kind = (int)k;
    return 0;
}

static const char NOT_INITIALISED[] =
    "valley_farm: this %s was never initialised (made with __new__, or by a subclass whose "
    "__init__ did not call its own); make one with valley_farm.%s";

/* ---- Agent -------------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD vf_agent agent;
    int ready;
} AgentObject;

static int agent_init(AgentObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"kind", "agent", "seed", NULL};
    PyObject *kind_obj, *agent_obj, *seed_obj;
    int kind;
    long long agent;
    uint64_t seed;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOO", kwlist, &kind_obj, &agent_obj, &seed_obj) ||
        arg_kind(kind_obj, &kind) ||
        vfpy_int_arg(agent_obj, 0, VF_AGENT_KINDS - 1, "agent", &agent) ||
        arg_seed(seed_obj, "agent seed", &seed))
        return -1;
    if (!vf_agent_exists(kind, (int)agent)) {
        PyErr_Format(PyExc_ValueError, "valley_farm: no %s agent plays %s",
                     vf_agent_name((int)agent), vf_kind_name(kind));
        return -1;
    }
    vf_agent_init(&self->agent, kind, (int)agent, seed);
    self->ready = 1;
    return 0;
}

static int agent_ready(AgentObject *self) {
    if (self->ready) return 0;
    PyErr_Format(PyExc_ValueError, NOT_INITIALISED, "Agent", "agents.create_agent(name, env_id)");
    return -1;
}

static PyObject *agent_act(AgentObject *self, PyObject *obs) {
    if (agent_ready(self)) return NULL;
    PyArrayObject *row =
        int32_rows(obs, 0, vf_obs_size(self->agent.kind), "an agent's observation");
    if (!row) return NULL;
    int a = vf_agent_act(&self->agent, PyArray_DATA(row));
    Py_DECREF(row);
    if (a < 0)
        return PyErr_Format(PyExc_ValueError,
                            "valley_farm: the %s agent was shown an observation no %s episode "
                            "makes (a value outside its field's bounds)",
                            vf_agent_name(self->agent.agent), vf_kind_name(self->agent.kind));
    return PyLong_FromLong(a);
}

static PyObject *agent_reset(AgentObject *self, PyObject *Py_UNUSED(ignored)) {
    if (agent_ready(self)) return NULL;
    vf_agent_reset(&self->agent);
    Py_RETURN_NONE;
}

static PyMethodDef agent_methods[] = {
    {"act", (PyCFunction)agent_act, METH_O, "The action for a flat observation."},
    {"reset", (PyCFunction)agent_reset, METH_NOARGS, "A new episode."},
    {NULL, NULL, 0, NULL}};

static PyType_Slot agent_slots[] = {
    {Py_tp_doc, "A built-in agent of the engine (see valley_farm.create_agent)."},
    {Py_tp_init, agent_init},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_methods, agent_methods},
    {0, NULL}};

static PyType_Spec agent_spec = {"valley_farm._engine.Agent", sizeof(AgentObject), 0,
                                 Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, agent_slots};

/* ---- agent_returns ------------------------------------------------------------------------ */

static PyObject *agent_returns(PyObject *Py_UNUSED(m), PyObject *args) {
    PyObject *kind_obj, *agent_obj, *seeds_obj, *runs_obj, *first_obj;
    int kind;
    long long agent, runs;
    uint64_t first;
    if (!PyArg_ParseTuple(args, "OOOOO", &kind_obj, &agent_obj, &seeds_obj, &runs_obj,
                          &first_obj) ||
        arg_kind(kind_obj, &kind) ||
        vfpy_int_arg(agent_obj, 0, VF_AGENT_KINDS - 1, "agent", &agent) ||
        vfpy_int_arg(runs_obj, 1, 1024, "runs", &runs) || arg_seed(first_obj, "first seed", &first))
        return NULL;
    if (!vf_agent_exists(kind, (int)agent))
        return PyErr_Format(PyExc_ValueError, "valley_farm: no %s agent plays %s",
                            vf_agent_name((int)agent), vf_kind_name(kind));
    PyObject *list = PySequence_Fast(seeds_obj, "valley_farm: seeds must be a list of ints");
    if (!list) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) return NULL;
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "valley_farm: seeds must be a list of ints");
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(list);
    if (n < 1 || (long long)n * runs > PLAYS_MAX) {
        Py_DECREF(list);
        return PyErr_Format(PyExc_ValueError,
                            "valley_farm: agent_returns plays 1 to %d episodes a call (seeds x "
                            "runs), got %zd seeds x %lld runs",
                            PLAYS_MAX, n, runs);
    }
    uint64_t *seeds = PyMem_Malloc(sizeof(uint64_t) * (size_t)n);
    double *returns = PyMem_Malloc(sizeof(double) * (size_t)n);
    vf_agent *a = PyMem_Malloc(sizeof(vf_agent));
    int ok = seeds && returns && a;
    if (!ok) PyErr_NoMemory();
    for (Py_ssize_t i = 0; ok && i < n; i++)
        ok = arg_seed(PySequence_Fast_GET_ITEM(list, i), "a seed", &seeds[i]) == 0;
    Py_DECREF(list);
    PyObject *out = NULL;
    if (ok) {
        Py_BEGIN_ALLOW_THREADS vf_agent_init(a, kind, (int)agent, first);
        for (Py_ssize_t i = 0; i < n; i++) {
            double sum = 0;
            for (long long k = 0; k < runs; k++) {
                if (runs > 1) vf_agent_init(a, kind, (int)agent, first + (uint64_t)k); /* fresh */
                sum += vf_agent_play(a, seeds[i]);
            }
            returns[i] = sum / (double)runs;
        }
        Py_END_ALLOW_THREADS out = PyList_New(n);
        for (Py_ssize_t i = 0; out && i < n; i++) {
            PyObject *r = PyFloat_FromDouble(returns[i]);
            if (!r)
                Py_CLEAR(out);
            else
                PyList_SET_ITEM(out, i, r);
        }
    }
    PyMem_Free(seeds);
    PyMem_Free(returns);
    PyMem_Free(a);
    return out;
}

/* ---- Features ----------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD int kind, memory, ready;
    Py_ssize_t n;
    int width, nonzero, obs_size;
    vf_memory *memories; /* n of them, or NULL */
} FeaturesObject;

static int features_init(FeaturesObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"kind", "memory", "num_envs", NULL};
    PyObject *kind_obj, *n_obj;
    int kind, memory;
    long long n;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OpO", kwlist, &kind_obj, &memory, &n_obj) ||
        arg_kind(kind_obj, &kind) || vfpy_int_arg(n_obj, 1, VF_BATCH_MAX, "num_envs", &n))
        return -1;
    if (self->ready) {
        PyErr_SetString(PyExc_TypeError, "valley_farm: a Features is initialised once");
        return -1;
    }
    if (memory && (size_t)n * sizeof(vf_memory) > MEMORY_MAX) {
        PyErr_Format(PyExc_ValueError,
                     "valley_farm: the memories of %lld envs take %zu MB, more than the %zu MB "
                     "one object may; use fewer envs (at most %zu with memory)",
                     n, (size_t)n * sizeof(vf_memory) >> 20, MEMORY_MAX >> 20,
                     MEMORY_MAX / sizeof(vf_memory));
        return -1;
    }
    self->memories = memory ? PyMem_Calloc((size_t)n, sizeof(vf_memory)) : NULL;
    if (memory && !self->memories) {
        PyErr_NoMemory();
        return -1;
    }
    self->kind = kind;
    self->memory = memory;
    self->n = (Py_ssize_t)n;
    self->width = vf_features_size(kind, memory);
    self->nonzero = vf_features_nonzero(kind, memory);
    self->obs_size = vf_obs_size(kind);
    self->ready = 1;
    return 0;
}

static void features_dealloc(FeaturesObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    PyMem_Free(self->memories);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

static int features_ready(FeaturesObject *self) {
    if (self->ready) return 0;
    PyErr_Format(PyExc_ValueError, NOT_INITIALISED, "Features", "features(env_id)");
    return -1;
}

static PyObject *refused(FeaturesObject *self, Py_ssize_t row) {
    return PyErr_Format(PyExc_ValueError,
                        "valley_farm: features: row %zd is not an observation of %s that "
                        "follows its episode (a value outside its field's bounds, or, with "
                        "memory, a step the earlier observations cannot lead to: open each "
                        "episode with its first observation)",
                        row, vf_kind_name(self->kind));
}

/* read(i, obs, action, opening) -> (index int32[k], value float32[k]) */
static PyObject *features_read(FeaturesObject *self, PyObject *args) {
    PyObject *i_obj, *obs_obj, *action_obj, *opening_obj;
    long long i, action;
    if (features_ready(self) ||
        !PyArg_ParseTuple(args, "OOOO", &i_obj, &obs_obj, &action_obj, &opening_obj) ||
        vfpy_int_arg(i_obj, 0, self->n - 1, "env index", &i) ||
        vfpy_int_arg(action_obj, -1, VF_ACTIONS_MAX - 1, "action", &action))
        return NULL;
    int opening = PyObject_IsTrue(opening_obj);
    if (opening < 0) return NULL;
    PyArrayObject *row = int32_rows(obs_obj, 0, self->obs_size, "features' observation");
    if (!row) return NULL;
    npy_intp most[1] = {self->nonzero};
    PyArrayObject *index = (PyArrayObject *)PyArray_SimpleNew(1, most, NPY_INT32);
    PyArrayObject *value = (PyArrayObject *)PyArray_SimpleNew(1, most, NPY_FLOAT32);
    PyObject *out = NULL;
    if (index && value) {
        vf_memory *m = self->memories ? &self->memories[i] : NULL;
        int k = vf_features(self->kind, PyArray_DATA(row), (int)action, opening, m,
                            PyArray_DATA(index), PyArray_DATA(value));
        if (k < 0)
            refused(self, 0);
        else {
            npy_intp got[1] = {k};
            PyArray_Dims shape = {got, 1};
            PyObject *a = PyArray_Resize(index, &shape, 0, NPY_CORDER);
            PyObject *b = a ? PyArray_Resize(value, &shape, 0, NPY_CORDER) : NULL;
            Py_XDECREF(a);
            Py_XDECREF(b);
            if (a && b) out = PyTuple_Pack(2, (PyObject *)index, (PyObject *)value);
        }
    }
    Py_XDECREF(index);
    Py_XDECREF(value);
    Py_DECREF(row);
    return out;
}

/* read_batch(obs (n, obs_size), actions (n,) or None, opening (n,) or None)
 *   -> (index int32[n, nonzero], value float32[n, nonzero], count int32[n]) */
static PyObject *features_read_batch(FeaturesObject *self, PyObject *args) {
    PyObject *obs_obj, *actions_obj, *opening_obj;
    if (features_ready(self) ||
        !PyArg_ParseTuple(args, "OOO", &obs_obj, &actions_obj, &opening_obj))
        return NULL;
    PyArrayObject *obs = int32_rows(obs_obj, self->n, self->obs_size, "features' observations");
    PyArrayObject *actions = NULL, *opening = NULL;
    if (obs && actions_obj != Py_None)
        actions = (PyArrayObject *)int32_rows(actions_obj, 0, self->n, "features' actions");
    if (obs && (actions || actions_obj == Py_None) && opening_obj != Py_None) {
        opening = (PyArrayObject *)PyArray_FROM_OTF(opening_obj, NPY_BOOL, NPY_ARRAY_IN_ARRAY);
        if (opening && (PyArray_NDIM(opening) != 1 || PyArray_DIM(opening, 0) != self->n)) {
            Py_CLEAR(opening);
            PyErr_Format(PyExc_TypeError, "valley_farm: features' opening flags must be %zd bools",
                         self->n);
        } else if (!opening && !PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "valley_farm: features' opening flags must be %zd bools",
                         self->n);
        }
    }
    PyObject *out = NULL;
    if (obs && (actions || actions_obj == Py_None) && (opening || opening_obj == Py_None)) {
        const uint8_t *open = opening ? PyArray_DATA(opening) : NULL;
        int all_open = 1;
        for (Py_ssize_t i = 0; i < self->n; i++) all_open &= open && open[i];
        if (!actions && !all_open) {
            PyErr_SetString(PyExc_TypeError,
                            "valley_farm: features' actions may be None only where every row "
                            "opens an episode");
        } else {
            npy_intp dims[2] = {self->n, self->nonzero};
            PyArrayObject *index = (PyArrayObject *)PyArray_SimpleNew(2, dims, NPY_INT32);
            PyArrayObject *value = (PyArrayObject *)PyArray_SimpleNew(2, dims, NPY_FLOAT32);
            PyArrayObject *count = (PyArrayObject *)PyArray_SimpleNew(1, dims, NPY_INT32);
            if (index && value && count) {
                vf_feature_rows rows = {self->memories, PyArray_DATA(index), PyArray_DATA(value),
                                        PyArray_DATA(count), self->nonzero};
                vf_error e;
                Py_BEGIN_ALLOW_THREADS e =
                    vf_batch_features(self->kind, (int)self->n, PyArray_DATA(obs),
                                      actions ? PyArray_DATA(actions) : NULL, open, &rows);
                Py_END_ALLOW_THREADS if (e == VF_OK) out =
                    PyTuple_Pack(3, (PyObject *)index, (PyObject *)value, (PyObject *)count);
                else {
                    const int32_t *c = PyArray_DATA(count);
                    Py_ssize_t bad = 0;
                    while (bad < self->n && c[bad] >= 0) bad++;
                    refused(self, bad);
                }
            }
            Py_XDECREF(index);
            Py_XDECREF(value);
            Py_XDECREF(count);
        }
    }
    Py_XDECREF(obs);
    Py_XDECREF(actions);
    Py_XDECREF(opening);
    return out;
}

static PyObject *features_get_width(FeaturesObject *self, void *Py_UNUSED(c)) {
    return features_ready(self) ? NULL : PyLong_FromLong(self->width);
}

static PyObject *features_get_nonzero(FeaturesObject *self, void *Py_UNUSED(c)) {
    return features_ready(self) ? NULL : PyLong_FromLong(self->nonzero);
}

static PyMethodDef features_methods[] = {
    {"read", (PyCFunction)features_read, METH_VARARGS, NULL},
    {"read_batch", (PyCFunction)features_read_batch, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef features_getset[] = {
    {"width", (getter)features_get_width, NULL, "The number of features (dense).", NULL},
    {"nonzero", (getter)features_get_nonzero, NULL, "The most nonzero features of one row.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyType_Slot features_slots[] = {
    {Py_tp_doc, "What a policy sees of a farm's observations (see valley_farm.features)."},
    {Py_tp_init, features_init},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_dealloc, features_dealloc},
    {Py_tp_methods, features_methods},
    {Py_tp_getset, features_getset},
    {0, NULL}};

static PyType_Spec features_spec = {"valley_farm._engine.Features", sizeof(FeaturesObject), 0,
                                    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, features_slots};

static PyMethodDef functions[] = {{"agent_returns", agent_returns, METH_VARARGS, NULL},
                                  {NULL, NULL, 0, NULL}};

int vfpy_add_agents(PyObject *m) {
    if (_import_array() < 0) return -1;
    PyObject *agent = PyType_FromModuleAndSpec(m, &agent_spec, NULL);
    if (!agent || PyModule_AddObject(m, "Agent", agent)) return -1;
    PyObject *features = PyType_FromModuleAndSpec(m, &features_spec, NULL);
    if (!features || PyModule_AddObject(m, "Features", features)) return -1;
    return PyModule_AddFunctions(m, functions);
}
