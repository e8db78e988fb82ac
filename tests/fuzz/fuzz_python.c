/*
 * fuzz_python.c — a libFuzzer harness over the Python binding (python/src/engine.c, the
 * module valley_farm._engine), through its C entry points, in a CPython interpreter embedded
 * in the fuzzer.
 *
 * Why this way: the binding's work, and its risk, is turning Python objects into engine
 * calls, so the harness calls its types' methods as Python does (PyObject_Call), with
 * arguments of every kind made from the input: ints in and out of range and past 64 bits,
 * floats (NaN included), bools, None, bytes, strings, NumPy scalars and arrays of every dtype
 * and shape, the objects themselves, and hostile objects whose __index__ or __array__ closes,
 * resets, steps or re-initialises an env while the binding converts them. Objects never
 * initialised get every call too. engine.c and core/src are compiled with ASan + UBSan
 * (CPython and NumPy are the system's, not instrumented; PYTHONMALLOC=malloc puts every
 * Python object where ASan sees it). A finding is a crash, a sanitizer report, a hang, or an
 * exception other than ValueError or TypeError.
 *
 * The input is a little program, as in fuzz_engine.c: each op byte picks a call, the bytes
 * after it its arguments (the built-in agents and the features, agents.c, have an op of their
 * own, and run once more after the ops). tests/fuzz/run.mjs builds and runs it (npm test, npm
 * run fuzz).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "valley_farm.h"

#include "reader.h"

PyMODINIT_FUNC PyInit__engine(void); /* python/src/engine.c */

static PyObject *engine;  /* the module */
static PyObject *helpers; /* the Python side of the harness (HELPERS below) */

/* What only Python can make: classes whose conversion hooks run a callback, and callbacks
 * that call a method of an env, swallowing the errors that method may raise. */
static const char HELPERS[] =
    "import numpy as np, warnings\n"
    "warnings.simplefilter('ignore')\n"
    "def quiet(f, *args):\n"
    "    def run():\n"
    "        try: f(*args)\n"
    "        except (ValueError, TypeError): pass\n"
    "    return run\n"
    "class Index:\n"
    "    def __init__(self, value, then): self.value, self.then = value, then\n"
    "    def __index__(self): self.then(); return self.value\n"
    "class Actions:\n"
    "    def __init__(self, array, then): self.array, self.then = array, then\n"
    "    def __array__(self, dtype=None): self.then(); return self.array\n"
    "class Scalar(np.ndarray):\n"
    "    def __new__(cls, value, then):\n"
    "        a = np.asarray(value).view(cls); a.then = then; return a\n"
    "    def __array_finalize__(self, obj): self.then = getattr(obj, 'then', None)\n"
    "    def __index__(self):\n"
    "        if self.then: self.then()\n"
    "        return int(np.asarray(self))\n"
    "DTYPES = [np.int32, np.int64, np.uint8, np.int8, np.uint64, np.float64, np.bool_, np.int16,\n"
    "          np.float32, np.uint32, object]\n"
    "def array(data, dtype, shape):\n"
    "    dtype, n = DTYPES[dtype % len(DTYPES)], int(np.prod(shape))\n"
    "    if dtype is object:\n"
    "        a = np.array([int(b) for b in data] or [0], dtype=object)\n"
    "    else:\n"
    "        size = np.dtype(dtype).itemsize\n"
    "        a = np.frombuffer(data[: len(data) // size * size], dtype=dtype).copy()\n"
    "        a = a if len(a) else np.zeros(1, dtype)\n"
    "    return np.resize(a, n).reshape(shape)\n"
    "def actions(data, n, mod, form):\n"
    "    a = array(data, 0, (n,)) % mod\n"
    "    return (a, a.astype(np.int64), a.astype(np.uint8), a.tolist(), a.astype(np.uint64),\n"
    "            a.astype(np.int8) - 1, a[::-1], a.astype(np.float32))[form % 8]\n"
    "import _engine\n"
    "class SubEnv(_engine.Env): pass\n"
    "class SubVecEnv(_engine.VecEnv): pass\n"
    "def action(obj, k, n):\n"
    "    if obj is None: return lambda: None\n"
    "    k %= 7\n"
    "    if k == 0: return quiet(obj.close)\n"
    "    if k == 1: return quiet(obj.reset if hasattr(obj, 'reset') else obj.reset_all, 1)\n"
    "    if k == 2: return quiet(obj.step, 0 if hasattr(obj, 'reset') else np.zeros(n, np.int32))\n"
    "    if k == 3: return quiet(type(obj).__init__, obj, 1, 2)\n"
    "    if k == 4: return quiet(obj.snapshot if hasattr(obj, 'snapshot') else obj.state_hash, "
    "*(() if hasattr(obj, 'snapshot') else (0,)))\n"
    "    if k == 5: return quiet(obj._plan, 2, 0) if hasattr(obj, '_plan') else "
    "quiet(obj.reset_one, 0, 3)\n"
    "    return lambda: None\n";

/* ---- the objects an input plays with ----------------------------------------------------- */

enum { SLOTS = 4 }; /* 0, 1: Env; 2, 3: VecEnv */
static PyObject *slot[SLOTS];

static PyObject *type_of(int i) {
    return PyObject_GetAttrString(engine, i < 2 ? "Env" : "VecEnv");
}

static PyObject *helper(const char *name) {
    return PyDict_GetItemString(helpers, name); /* borrowed */
}

/* The number of envs of slot i's vector env, or 1 (for arrays of actions). */
static long slot_n(int i) {
    if (!slot[i] || i < 2) return 1;
    PyObject *obs = PyObject_GetAttrString(slot[i], "obs");
    long n = 1;
    if (obs) {
        PyObject *len = PyObject_CallMethod(obs, "__len__", NULL);
        if (len) n = PyLong_AsLong(len);
        Py_XDECREF(len);
        Py_DECREF(obs);
    }
    PyErr_Clear();
    return n;
}

/* A callback that calls a method of one of the slots (or does nothing). */
static PyObject *callback(reader *r) {
    int i = u8(r) % SLOTS;
    PyObject *obj = slot[i] ? slot[i] : Py_None;
    return PyObject_CallFunction(helper("action"), "Oil", obj, (int)u8(r), slot_n(i));
}

static PyObject *bytes_from(reader *r, size_t max) {
    size_t n = u8(r) % (max + 1);
    size_t left = (size_t)(r->end - r->p);
    if (n > left) n = left;
    PyObject *b = PyBytes_FromStringAndSize((const char *)r->p, (Py_ssize_t)n);
    r->p += n;
    return b;
}

static PyObject *value(reader *r, int depth);

static PyObject *array_from(reader *r, int dims) {
    long shape0 = u8(r) % 12, shape1 = 1 + u8(r) % 4;
    PyObject *data = bytes_from(r, 64);
    PyObject *shape = dims == 0   ? PyTuple_New(0)
                      : dims == 1 ? Py_BuildValue("(l)", shape0)
                                  : Py_BuildValue("(ll)", shape0, shape1);
    PyObject *a = data && shape
                      ? PyObject_CallFunction(helper("array"), "OiO", data, (int)u8(r), shape)
                      : NULL;
    Py_XDECREF(data);
    Py_XDECREF(shape);
    return a;
}

/* An argument of any kind: what the fuzzer's bytes pick. New reference, or NULL with an
 * error set (the caller treats that as the call's own error). */
static PyObject *value(reader *r, int depth) {
    uint8_t tag = u8(r);
    switch (tag % 22) {
    case 20: { /* the edges of every range the binding checks */
        static const char *edges[] = {"0",
                                      "1",
                                      "-1",
                                      "11",
                                      "12",
                                      "65536",
                                      "65537",
                                      "67108864",
                                      "67108865",
                                      "33554432",
                                      "2147483647",
                                      "2147483648",
                                      "4294967296",
                                      "9223372036854775807",
                                      "9223372036854775808",
                                      "18446744073709551615",
                                      "-9223372036854775808",
                                      "8589934592"};
        return PyLong_FromString(edges[u8(r) % (sizeof edges / sizeof edges[0])], NULL, 10);
    }
    case 21: return array_from(r, 0);
    case 0: return PyLong_FromLong((int8_t)u8(r));
    case 1: return PyLong_FromUnsignedLongLong(u64(r));
    case 2: return PyLong_FromLongLong((long long)u64(r));
    case 3: { /* past 64 bits, either sign */
        PyObject *big = PyLong_FromString(
            u8(r) & 1 ? "-1180591620717411303424" : "18446744073709551616", NULL, 10);
        PyObject *add = PyLong_FromLong(u8(r));
        PyObject *sum = big && add ? PyNumber_Add(big, add) : NULL;
        Py_XDECREF(big);
        Py_XDECREF(add);
        return sum;
    }
    case 4: {
        uint64_t bits = u64(r);
        double d;
        memcpy(&d, &bits, sizeof d);
        return PyFloat_FromDouble(d);
    }
    case 5: return PyBool_FromLong(u8(r) & 1);
    case 6: Py_RETURN_NONE;
    case 7: return bytes_from(r, 600);
    case 8: return PyUnicode_FromString(u8(r) & 1 ? "north" : "");
    case 9: { /* a NumPy scalar */
        static const char *types[] = {"int64", "uint64", "int8", "float32", "bool_", "int32"};
        PyObject *np = PyImport_ImportModule("numpy");
        PyObject *t = np ? PyObject_GetAttrString(np, types[u8(r) % 6]) : NULL;
        PyObject *v = t ? PyObject_CallFunction(t, "i", (int)(int8_t)u8(r)) : NULL;
        Py_XDECREF(np);
        Py_XDECREF(t);
        return v;
    }
    case 10: return array_from(r, 1);
    case 11: return array_from(r, 2);
    case 12: {
        int n = u8(r) % 10;
        PyObject *list = PyList_New(n);
        for (int k = 0; list && k < n; k++) {
            PyObject *item = depth < 2 ? value(r, depth + 1) : PyLong_FromLong(u8(r) % 14);
            if (!item) {
                PyErr_Clear();
                item = Py_NewRef(Py_None);
            }
            PyList_SET_ITEM(list, k, item);
        }
        return list;
    }
    case 13: return Py_BuildValue("(ii)", u8(r) % 12, u8(r) % 12);
    case 14: return u8(r) & 1 ? PyDict_New() : Py_BuildValue("{si}", "level", 3);
    case 15: { /* an int whose __index__ first calls back into an env */
        PyObject *then = callback(r);
        PyObject *v =
            then ? PyObject_CallFunction(helper("Index"), "iO", (int)(int8_t)u8(r), then) : NULL;
        Py_XDECREF(then);
        return v;
    }
    case 16: { /* an array whose __array__ first calls back into an env */
        PyObject *then = callback(r);
        PyObject *a = then ? array_from(r, 1) : NULL;
        PyObject *v = a ? PyObject_CallFunction(helper("Actions"), "OO", a, then) : NULL;
        Py_XDECREF(then);
        Py_XDECREF(a);
        return v;
    }
    case 17: { /* a 0-d NumPy array subclass whose __index__ calls back */
        PyObject *then = callback(r);
        PyObject *v =
            then ? PyObject_CallFunction(helper("Scalar"), "iO", (int)(int8_t)u8(r), then) : NULL;
        Py_XDECREF(then);
        return v;
    }
    case 18: { /* one of the objects itself */
        PyObject *o = slot[u8(r) % SLOTS];
        return Py_NewRef(o ? o : Py_None);
    }
    default: return PyLong_FromLong(u8(r) % 14); /* a plausible action, index or small count */
    }
}

/* A value, but a valid int above `fast` (up to `max`) becomes a small one: the planner and the
 * bench helpers take time in proportion, and the fuzzer learns nothing new from a long call.
 * `keep` (0: none) is let through: a value the binding must refuse before any work. */
static PyObject *tamed(reader *r, long long fast, long long max, long long keep) {
    PyObject *v = value(r, 0);
    if (v && PyLong_Check(v) && !PyBool_Check(v)) {
        int overflow;
        long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (!overflow && x > fast && x <= max && x != keep) {
            Py_DECREF(v);
            return PyLong_FromLongLong(1 + x % fast);
        }
    }
    PyErr_Clear();
    return v;
}

/* ---- the calls --------------------------------------------------------------------------- */

/* The error a call left, if any, must be a ValueError or a TypeError. */
static void check_error(const char *what) {
    if (!PyErr_Occurred()) return;
    if (PyErr_ExceptionMatches(PyExc_ValueError) || PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_Clear();
        return;
    }
    fprintf(stderr, "fuzz_python: %s raised an exception other than ValueError or TypeError:\n",
            what);
    PyErr_Print();
    abort();
}

/* obj.name(*args): steals the references in args (an array of count, NULLs allowed: an
 * argument that could not be made is the call's error). */
static void call(PyObject *obj, const char *name, PyObject **args, int count) {
    PyObject *tuple = PyTuple_New(count);
    int ok = tuple != NULL;
    for (int k = 0; k < count; k++) {
        if (!args[k]) ok = 0;
        if (tuple)
            PyTuple_SET_ITEM(tuple, k, args[k] ? args[k] : Py_NewRef(Py_None));
        else
            Py_XDECREF(args[k]);
    }
    if (ok && obj) {
        PyObject *f = PyObject_GetAttrString(obj, name);
        PyObject *res = f ? PyObject_Call(f, tuple, NULL) : NULL;
        Py_XDECREF(f);
        Py_XDECREF(res);
    }
    Py_XDECREF(tuple);
    check_error(name);
}

static void set_slot(int i, PyObject *obj) {
    PyObject *old = slot[i];
    slot[i] = obj;
    Py_XDECREF(old); /* after: its dealloc may run a callback that reads the slots */
}

static void new_object(reader *r, int i) {
    uint8_t how = u8(r);
    PyObject *type = how & 8 ? Py_NewRef(helper(i < 2 ? "SubEnv" : "SubVecEnv")) : type_of(i);
    PyObject *obj = NULL;
    if (how % 8 == 0) { /* never initialised */
        obj = PyObject_CallMethod(type, "__new__", "O", type);
    } else if (how % 8 < 4) { /* well formed: the paths past the checks */
        int kind = u8(r) & 1, n = 1 + u8(r) % 9, threads = 1 + u8(r) % 3, flags = u8(r);
        obj = i < 2 ? PyObject_CallFunction(type, "iiK", kind, flags & 1, u64(r))
                    : PyObject_CallFunction(type, "iiiiii", kind, n, flags & 1, flags >> 1 & 1,
                                            threads <= n ? threads : 1, flags >> 2 & 1);
    } else if (i < 2) {
        obj = PyObject_CallFunction(type, "NNN", value(r, 0), value(r, 0), value(r, 0));
    } else { /* kind, n, masks, levels, threads, autoreset */
        obj = PyObject_CallFunction(type, "NNNNNN", value(r, 0), tamed(r, 64, 1 << 16, 0),
                                    value(r, 0), value(r, 0), value(r, 0), value(r, 0));
    }
    Py_DECREF(type);
    check_error("a constructor");
    if (obj) set_slot(i, obj);
}

static void env_call(reader *r, PyObject *env) {
    switch (u8(r) % 12) {
    case 0: {
        PyObject *args[] = {value(r, 0)};
        call(env, "reset", args, 1);
        break;
    }
    case 1: { /* reset(seed, options=...) */
        PyObject *f = PyObject_GetAttrString(env, "reset");
        PyObject *seed = value(r, 0), *options = value(r, 0);
        PyObject *kw =
            f && seed && options ? Py_BuildValue("{sOsO}", "seed", seed, "options", options) : NULL;
        PyObject *empty = PyTuple_New(0);
        PyObject *res = kw && empty ? PyObject_Call(f, empty, kw) : NULL;
        Py_XDECREF(res);
        Py_XDECREF(empty);
        Py_XDECREF(kw);
        Py_XDECREF(seed);
        Py_XDECREF(options);
        Py_XDECREF(f);
        check_error("reset");
        break;
    }
    case 2:
    case 3: {
        int steps = 1 + u8(r) % 60;
        PyObject *a = value(r, 0);
        for (int t = 0; t < steps && a; t++) {
            PyObject *args[] = {Py_NewRef(a)};
            call(env, "step", args, 1);
        }
        Py_XDECREF(a);
        break;
    }
    case 4: { /* restore: a snapshot of the other env kind, one with a byte changed, or anything */
        PyObject *other = slot[1 - (u8(r) & 1)];
        PyObject *snap = other ? PyObject_CallMethod(other, "snapshot", NULL) : NULL;
        PyErr_Clear();
        PyObject *arg;
        if (snap && u8(r) & 1) {
            Py_ssize_t n = PyBytes_GET_SIZE(snap);
            arg = PyByteArray_FromObject(snap);
            if (arg && n > 0) PyByteArray_AS_STRING(arg)[u8(r) % n] ^= (char)(1 << (u8(r) % 8));
        } else if (snap) {
            arg = Py_NewRef(snap);
        } else {
            arg = value(r, 0);
        }
        Py_XDECREF(snap);
        PyObject *args[] = {arg};
        call(env, "restore", args, 1);
        break;
    }
    case 5: { /* the planner: widths and tables that fit a fuzzer's time, and the largest
                 table, which the memory limit refuses before any work */
        PyObject *args[] = {tamed(r, 16, VF_PLAN_WIDTH_MAX, 0),
                            u8(r) % 8 ? tamed(r, 300, VF_PROVE_STATES_MAX, VF_PROVE_STATES_MAX)
                                      : PyLong_FromLong(VF_PROVE_STATES_MAX)};
        call(env, "_plan", args, 2);
        break;
    }
    case 6: {
        static const char *reads[] = {"action_mask", "illegal_reasons", "render", "_state_json",
                                      "snapshot",    "state_hash",      "close"};
        call(env, reads[u8(r) % 7], NULL, 0);
        break;
    }
    default: {
        static const char *attrs[] = {"closed",        "_kind",      "episode_seed",
                                      "elapsed_steps", "terminated", "total_reward"};
        PyObject *v = PyObject_GetAttrString(env, attrs[u8(r) % 6]);
        Py_XDECREF(v);
        check_error("an attribute");
    }
    }
}

static void vec_call(reader *r, PyObject *vec, long n) {
    switch (u8(r) % 10) {
    case 0: {
        PyObject *args[] = {value(r, 0)};
        call(vec, "reset_all", args, 1);
        break;
    }
    case 1: {
        PyObject *args[] = {value(r, 0), value(r, 0)};
        call(vec, "reset_one", args, 2);
        break;
    }
    case 2:
    case 3:
    case 4: { /* steps: n actions from the input, mostly in range, as an int32 array (the fast
                 path), another dtype, a reversed view or a list; or anything */
        int steps = 1 + u8(r) % 60, form = u8(r);
        PyObject *a;
        if (form % 3) {
            PyObject *data = bytes_from(r, 255);
            int mod = 1 + u8(r) % 16;
            a = data ? PyObject_CallFunction(helper("actions"), "Olii", data, n, mod, form / 3)
                     : NULL;
            Py_XDECREF(data);
        } else {
            a = value(r, 0);
        }
        for (int t = 0; t < steps && a; t++) {
            PyObject *args[] = {Py_NewRef(a)};
            call(vec, "step", args, 1);
        }
        Py_XDECREF(a);
        if (!a) check_error("the actions");
        break;
    }
    case 5: {
        PyObject *args[] = {value(r, 0)};
        call(vec, u8(r) & 1 ? "episode_seed" : "state_hash", args, 1);
        break;
    }
    case 6: call(vec, "close", NULL, 0); break;
    case 7: { /* the level seeds the Python layer writes */
        PyObject *next = PyObject_GetAttrString(vec, "next_seeds");
        if (next) {
            Py_buffer view;
            if (PyObject_GetBuffer(next, &view, PyBUF_WRITABLE) == 0) {
                for (Py_ssize_t k = 0; k < view.len; k++) ((uint8_t *)view.buf)[k] = u8(r);
                PyBuffer_Release(&view);
            }
            Py_DECREF(next);
        }
        check_error("next_seeds");
        break;
    }
    default: {
        static const char *attrs[] = {
            "obs",           "final_obs",     "rewards",    "episode_returns",
            "terminated",    "truncated",     "masks",      "episode_lengths",
            "episode_seeds", "episode_times", "next_seeds", "closed"};
        PyObject *v = PyObject_GetAttrString(vec, attrs[u8(r) % 12]);
        Py_XDECREF(v);
        check_error("an attribute");
    }
    }
}

static void agents_calls(reader *r);

static void module_call(reader *r) {
    uint8_t which = u8(r);
    if (which >= 0xF0) { /* the built-in agents and the features (agents.c) */
        agents_calls(r);
        return;
    }
    switch (which % 4) {
    case 0: call(engine, "spec_json", NULL, 0); break;
    case 1: {
        PyObject *args[] = {value(r, 0), value(r, 0)};
        call(engine, "set_fresh_seed_range", args, 2);
        break;
    }
    case 2: {
        PyObject *args[] = {value(r, 0), tamed(r, 64, 1 << 16, 0), tamed(r, 200, 1ll << 34, 0),
                            value(r, 0)};
        call(engine, "batch_run_random", args, 4);
        break;
    }
    default: {
        PyObject *args[] = {value(r, 0), u8(r) & 1 ? array_from(r, 2) : value(r, 0),
                            tamed(r, 200, 1ll << 34, 0), value(r, 0)};
        call(engine, "native_vec_steps", args, 4);
    }
    }
}

/* The built-in agents and the features (python/src/agents.c): well-formed calls on a live
 * episode, then the same calls with made-up values. An op of module_call (its byte 0xF0 and
 * above), and once after every input's ops with what is left of it (zeros once it runs out). */
static PyObject *make(const char *type, const char *format, ...) {
    PyObject *t = PyObject_GetAttrString(engine, type);
    va_list args;
    va_start(args, format);
    PyObject *built = t ? Py_VaBuildValue(format, args) : NULL;
    va_end(args);
    PyObject *obj = built ? PyObject_CallObject(t, built) : NULL;
    Py_XDECREF(built);
    Py_XDECREF(t);
    check_error(type);
    return obj;
}

static void agents_calls(reader *r) {
    int kind = u8(r) & 1, agent = u8(r) & 1, memory = u8(r) & 1, n = 1 + u8(r) % 4;
    PyObject *env = make("Env", "(i)", kind);
    PyObject *reset = env ? PyObject_CallMethod(env, "reset", "K", u64(r)) : NULL;
    check_error("reset");
    PyObject *obs = reset ? Py_NewRef(PyTuple_GET_ITEM(reset, 0)) : NULL;
    PyObject *a = make("Agent", "(iiK)", kind, agent, u64(r));
    PyObject *f = make("Features", "(iii)", kind, memory, n);
    for (int t = 0; obs && a && f && t < 1 + u8(r) % 50; t++) {
        PyObject *act = PyObject_CallMethod(a, "act", "O", obs);
        check_error("act");
        long action = act ? PyLong_AsLong(act) : 0;
        Py_XDECREF(act);
        PyObject *pairs =
            PyObject_CallMethod(f, "read", "iOii", t % n, obs, t ? (int)action : -1, t == 0);
        Py_XDECREF(pairs);
        check_error("read");
        PyObject *step = PyObject_CallMethod(env, "step", "l", action);
        check_error("step");
        Py_CLEAR(obs);
        if (step && PyTuple_Check(step) && !PyObject_IsTrue(PyTuple_GET_ITEM(step, 2)))
            obs = Py_NewRef(PyTuple_GET_ITEM(step, 0));
        Py_XDECREF(step);
    }
    PyObject *vec = make("VecEnv", "(iiiii)", kind, n, 1, 0, 1);
    PyObject *done = vec ? PyObject_CallMethod(vec, "reset_all", "K", u64(r)) : NULL;
    Py_XDECREF(done);
    check_error("reset_all");
    PyObject *rows = vec ? PyObject_GetAttrString(vec, "obs") : NULL;
    PyObject *floats = rows ? PyObject_CallMethod(helper("np"), "ones", "i", n) : NULL;
    PyObject *ones = floats ? PyObject_CallMethod(floats, "astype", "s", "bool") : NULL;
    Py_XDECREF(floats);
    check_error("np.ones");
    PyObject *batch =
        f && rows && ones ? PyObject_CallMethod(f, "read_batch", "OOO", rows, Py_None, ones) : NULL;
    Py_XDECREF(batch);
    check_error("read_batch");
    PyObject *played = PyObject_CallMethod(engine, "agent_returns", "ii[KK]iK", kind, agent, u64(r),
                                           u64(r), 1 + u8(r) % 3, u64(r));
    Py_XDECREF(played);
    check_error("agent_returns");
    if (a && obs) { /* an observation no episode makes */
        PyObject *thousand = PyLong_FromLong(1000);
        PyObject *big = thousand ? PyNumber_Multiply(obs, thousand) : NULL;
        Py_XDECREF(thousand);
        PyObject *refused = big ? PyObject_CallMethod(a, "act", "O", big) : NULL;
        Py_XDECREF(refused);
        Py_XDECREF(big);
        check_error("act");
    }
    PyObject *agent_type = PyObject_GetAttrString(engine, "Agent");
    PyObject *bare =
        agent_type ? PyObject_CallMethod(agent_type, "__new__", "O", agent_type) : NULL;
    PyObject *none = bare ? PyObject_CallMethod(bare, "reset", NULL) : NULL; /* never initialised */
    Py_XDECREF(none);
    Py_XDECREF(bare);
    Py_XDECREF(agent_type);
    check_error("an uninitialised Agent");
    /* the same calls with made-up values */
    PyObject *mine[] = {a, f, env};
    for (int k = 0; k < 3; k++) {
        PyObject *args[] = {value(r, 0)};
        if (mine[k] && k == 0)
            call(a, u8(r) & 1 ? "act" : "reset", args, u8(r) & 1);
        else
            Py_XDECREF(args[0]);
    }
    if (f) {
        PyObject *read[] = {value(r, 0), value(r, 0), value(r, 0), value(r, 0)};
        call(f, "read", read, 4);
        PyObject *rb[] = {u8(r) & 1 && rows ? Py_NewRef(rows) : value(r, 0), value(r, 0),
                          value(r, 0)};
        call(f, "read_batch", rb, 3);
    }
    PyObject *made[] = {value(r, 0), value(r, 0), value(r, 0)};
    PyObject *t = PyObject_GetAttrString(engine, u8(r) & 1 ? "Agent" : "Features");
    PyObject *tuple = PyTuple_Pack(3, made[0] ? made[0] : Py_None, made[1] ? made[1] : Py_None,
                                   made[2] ? made[2] : Py_None);
    PyObject *obj = t && tuple ? PyObject_CallObject(t, tuple) : NULL;
    check_error("a constructor");
    Py_XDECREF(obj);
    Py_XDECREF(tuple);
    Py_XDECREF(t);
    for (int k = 0; k < 3; k++) Py_XDECREF(made[k]);
    PyObject *ret[] = {value(r, 0), value(r, 0),
                       u8(r) & 1 ? Py_BuildValue("[KK]", u64(r), u64(r)) : value(r, 0),
                       tamed(r, 4, 2048, 0), value(r, 0)};
    call(engine, "agent_returns", ret, 5);
    Py_XDECREF(ones);
    Py_XDECREF(rows);
    Py_XDECREF(vec);
    Py_XDECREF(f);
    Py_XDECREF(a);
    Py_XDECREF(obs);
    Py_XDECREF(reset);
    Py_XDECREF(env);
    check_error("the agents' calls");
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    PyPreConfig pre;
    PyPreConfig_InitPythonConfig(&pre);
    pre.allocator = PYMEM_ALLOCATOR_MALLOC; /* every object from malloc, where ASan sees it */
    if (PyStatus_Exception(Py_PreInitialize(&pre))) abort();
    if (PyImport_AppendInittab("_engine", PyInit__engine) < 0) abort();
    PyConfig config;
    PyConfig_InitPythonConfig(&config);
    config.install_signal_handlers = 0; /* the fuzzer's, not Python's */
    config.parse_argv = 0;
    PyStatus status = Py_InitializeFromConfig(&config);
    PyConfig_Clear(&config);
    if (PyStatus_Exception(status)) abort();
    engine = PyImport_ImportModule("_engine");
    PyObject *main = PyImport_AddModule("__main__");
    helpers = main ? PyModule_GetDict(main) : NULL;
    PyObject *done = helpers ? PyRun_String(HELPERS, Py_file_input, helpers, helpers) : NULL;
    if (!engine || !done) {
        PyErr_Print();
        abort();
    }
    Py_DECREF(done);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r = {data, data + size};
    /* every input starts from the same module state: the fresh seeds' range as at import */
    PyObject *range = PyObject_CallMethod(engine, "set_fresh_seed_range", "KK", 1ull << 32,
                                          (1ull << 53) - (1ull << 40));
    Py_XDECREF(range);
    check_error("set_fresh_seed_range");
    for (int ops = 0; r.p < r.end && ops < 64; ops++) {
        uint8_t op = u8(&r);
        int i = op % SLOTS;
        switch ((op / SLOTS) % 4) {
        case 0: new_object(&r, i); break;
        case 1:
        case 2:
            if (!slot[i]) break;
            if (i < 2)
                env_call(&r, slot[i]);
            else
                vec_call(&r, slot[i], slot_n(i));
            break;
        default: module_call(&r);
        }
    }
    agents_calls(&r);
    for (int i = 0; i < SLOTS; i++) set_slot(i, NULL);
    check_error("a dealloc");
    return 0;
}
