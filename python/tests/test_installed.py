from pathlib import Path

import valley_farm
from conftest import REPO


def test_the_package_under_test_is_the_installed_one_not_the_source_tree():
    where = Path(valley_farm.__file__).resolve()
    assert REPO / "python" / "valley_farm" not in where.parents and where.parent != REPO / "python" / "valley_farm"
    assert Path(valley_farm._engine.__file__).suffix == ".so"


def test_the_reference_data_was_copied_into_the_package_byte_for_byte():
    data = Path(valley_farm.__file__).parent / "data"
    for name in ("best-known.json", "baselines.json"):
        assert (data / name).read_bytes() == (REPO / "wasm" / "data" / name).read_bytes()


def test_python_m_valley_farm_version_prints_the_package_and_the_engines_versions_from_their_sources():
    import re
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "valley_farm", "--version"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    header = (REPO / "core" / "include" / "valley_farm.h").read_text()
    engine = re.search(r'#define VF_VERSION "([^"]+)"', header).group(1)
    spec = re.search(r"#define VF_SPEC_VERSION (\d+)", header).group(1)
    package = re.search(r'^version = "([^"]+)"', (REPO / "python" / "pyproject.toml").read_text(), re.M).group(1)
    assert out.stdout.strip() == f"valley_farm {package} (engine {engine}, spec {spec})"
    assert valley_farm.__version__ == package
    bad = subprocess.run([sys.executable, "-m", "valley_farm", "--verison"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "unrecognized arguments: --verison" in bad.stderr
