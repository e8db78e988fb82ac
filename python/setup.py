"""Builds valley_farm: the C engine (core/src, the same sources as the native and WebAssembly
builds) and its CPython binding (src/engine.c) as one extension, valley_farm._engine.

From a checkout, the engine's sources and the reference data (wasm/data) are copied next to
this file first (into _vendor/ and valley_farm/data/, both ignored by git), so that an sdist
or a wheel built from here carries them: one source for each, never retyped.

    pip install ./python
    python3 -m pip wheel --no-build-isolation --no-deps ./python -w build/wheels
"""
import glob
import os
import shutil

import numpy
from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
VENDOR = os.path.join(HERE, "_vendor")
DATA = os.path.join(HERE, "valley_farm", "data")
# the reference data the evaluation protocol reads, as the JS package ships it
DATA_FILES = ["best-known.json", "baselines.json", "onnx-rules.json"]


def copy_from_checkout():
    """Refreshes the copies when this is a checkout (an sdist has them already)."""
    core = os.path.join(REPO, "core")
    if os.path.isdir(core):
        shutil.rmtree(VENDOR, ignore_errors=True)
        shutil.copytree(os.path.join(core, "src"), os.path.join(VENDOR, "core", "src"))
        shutil.copytree(os.path.join(core, "include"), os.path.join(VENDOR, "core", "include"))
    wasm_data = os.path.join(REPO, "wasm", "data")
    if os.path.isdir(wasm_data):
        os.makedirs(DATA, exist_ok=True)
        for name in DATA_FILES:
            shutil.copyfile(os.path.join(wasm_data, name), os.path.join(DATA, name))
    missing = [p for p in [os.path.join(VENDOR, "core", "src")] + [os.path.join(DATA, n) for n in DATA_FILES]
               if not os.path.exists(p)]
    if missing:
        raise SystemExit(f"valley_farm: missing {missing}: build from a checkout of valley-farm or from its sdist")


copy_from_checkout()

core_sources = sorted(os.path.relpath(p, HERE) for p in glob.glob(os.path.join(VENDOR, "core", "src", "*.c")))
engine = Extension(
    "valley_farm._engine",
    sources=["src/engine.c", "src/agents.c"] + core_sources,
    include_dirs=["_vendor/core/include", "_vendor/core/src", numpy.get_include()],
    # the engine's own build flags (CMakeLists.txt): C11, optimised; warnings are errors in CI
    extra_compile_args=["-std=c11", "-O3", "-Wall", "-Wextra", "-Wno-missing-field-initializers",
                        "-Wno-cast-function-type"],
    extra_link_args=["-pthread"],
)

setup(ext_modules=[engine])
