"""python -m valley_farm --version: which package and engine this interpreter has.

    $ python -m valley_farm --version
    valley_farm 0.1.0 (engine 0.1.0, spec 1)

The package's version is its installed metadata's (python/pyproject.toml); the engine's and
its spec's come from the engine itself (vf_spec_json: VF_VERSION, VF_SPEC_VERSION).
"""
import argparse
import sys
from typing import List, Optional

from . import __version__
from ._specs import ENGINE


def version_line() -> str:
    return f"valley_farm {__version__} (engine {ENGINE['version']}, spec {ENGINE['specVersion']})"


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m valley_farm",
        description="valley_farm: two farm reinforcement-learning environments over one C engine. "
        "Use it from Python: import valley_farm (docs/python.md).",
    )
    parser.add_argument("--version", action="version", version=version_line(), help="print the package's, the engine's and the spec's versions")
    parser.parse_args(argv)
    parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
