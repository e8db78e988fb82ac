"""Shared by the tests: where the checkout is, and a way to ask the JS package (node).

The tests run against the INSTALLED package: tests/run.mjs (scripts/python.mjs) installs
./python into a venv and runs pytest from a directory where the source tree is not on the
path; test_installed checks that this is so.
"""
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def node_json(script: str):
    """Runs an ES module script with node in the checkout and returns what it prints as JSON."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is needed to compare with the JS package (it is, for npm test)")
    wasm = REPO / "wasm" / "valley_farm.wasm"
    if not wasm.exists():
        pytest.fail(f"{wasm} is missing: build it first (node wasm/build.mjs, as npm test does)")
    out = subprocess.run(
        [node, "--input-type=module", "-e", script], cwd=REPO, capture_output=True, text=True, timeout=600
    )
    if out.returncode != 0:
        pytest.fail(f"node failed: {out.stderr[-2000:]}")
    return json.loads(out.stdout)


def run_isolated(code: str, timeout: float = 120, memory_limit: int = 0) -> str:
    """Runs Python code in a fresh interpreter and returns what it prints; the test fails,
    rather than pytest dying, when the code crashes (a signal), hangs (`timeout` seconds) or
    exits non-zero. `memory_limit` (bytes of address space, RLIMIT_AS) makes an allocation
    beyond it fail; it is left off under AddressSanitizer, which reserves terabytes up front."""
    code = textwrap.dedent(code)
    if memory_limit and "asan" not in os.environ.get("LD_PRELOAD", ""):
        code = f"import resource\nresource.setrlimit(resource.RLIMIT_AS, ({memory_limit}, {memory_limit}))\n" + code
    try:
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the code did not finish within {timeout} s (a deadlock or an endless call)", pytrace=False)
    if out.returncode < 0:
        pytest.fail(f"the interpreter was killed by signal {-out.returncode}:\n{out.stderr[-3000:]}", pytrace=False)
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: seconds to minutes; left out of the sanitizer pass (scripts/python.mjs)")
