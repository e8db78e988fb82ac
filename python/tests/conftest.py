"""Shared by the tests: where the checkout is, and a way to ask the JS package (node).

The tests run against the INSTALLED package: tests/run.mjs (scripts/python.mjs) installs
./python into a venv and runs pytest from a directory where the source tree is not on the
path; test_installed checks that this is so.
"""
import json
import shutil
import subprocess
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


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: seconds to minutes; left out of the sanitizer pass (scripts/python.mjs)")
