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
