"""The named seed ranges of the evaluation protocol, as wasm/splits.js defines them.

    test        seeds 1,000,000 ... 1,000,999 (1,000): the numbers to report
    validation  seeds 2,000,000 ... 2,000,199 (200): for choosing settings while training
    train       every other seed

Fresh seeds (a reset without one) lie in [FRESH_SEED_MIN, FRESH_SEED_MAX], far above both
held-out ranges, so training with default seeds never meets a validation or test seed.
python/tests/test_parity_js.py holds these numbers equal to the JS package's.
"""
from __future__ import annotations

from typing import Dict, List, NamedTuple


class Split(NamedTuple):
    first: int
    count: int

    @property
    def last(self) -> int:
        return self.first + self.count - 1


SPLITS: Dict[str, Split] = {"test": Split(1_000_000, 1000), "validation": Split(2_000_000, 200)}
FRESH_SEED_MIN = 2**32
FRESH_SEED_MAX = 2**53 - 2**40


def split_seeds(name: str) -> List[int]:
    """The seeds of a named split ('test' or 'validation'), in order."""
    if not isinstance(name, str) or name not in SPLITS:
        raise ValueError(
            f"valley_farm: unknown split {str(name)[:40]!r}; the splits are {', '.join(SPLITS)} (train is every other seed)"
        )
    s = SPLITS[name]
    return list(range(s.first, s.first + s.count))


def split_of(seed: int) -> str:
    """The split a seed belongs to: 'test', 'validation' or 'train'."""
    for name, s in SPLITS.items():
        if s.first <= seed <= s.last:
            return name
    return "train"
