/* args.h — reading the Python binding's arguments (engine.c defines, agents.c shares). */
#ifndef VALLEY_FARM_PY_ARGS_H
#define VALLEY_FARM_PY_ARGS_H

#include <Python.h>

/* An int argument from lo to hi: a Python int or NumPy integer (not a bool, not a float); 0,
 * or -1 with a TypeError or ValueError naming `what` and its range. Its __index__ may run
 * Python code, so callers check their object's state after this call, not before. */
int vfpy_int_arg(PyObject *o, long long lo, long long hi, const char *what, long long *out);

#endif
