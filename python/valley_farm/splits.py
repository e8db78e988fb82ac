"""The named seed ranges of the evaluation protocol, as the engine states them (vf_spec_json's
"protocol", which the JS package reads too):

    test        the numbers to report (seeds 1,000,000 ... 1,000,999)
    validation  for choosing settings while training (2,000,000 ... 2,000,199)
    train       every other seed

Fresh seeds (a reset without one) lie in [FRESH_SEED_MIN, FRESH_SEED_MAX], far above both
held-out ranges, so training with default seeds never meets a validation or test seed.
"""
from __future__ import annotations

from typing import Dict, List, NamedTuple

from ._specs import ENGINE


class Split(NamedTuple):
    first: int
    count: int

    @property
    def last(self) -> int:
        return self.first + self.count - 1


SPLITS: Dict[str, Split] = {name: Split(s["first"], s["count"]) for name, s in ENGINE["protocol"]["splits"].items()}
FRESH_SEED_MIN: int = ENGINE["protocol"]["freshSeeds"]["min"]
FRESH_SEED_MAX: int = ENGINE["protocol"]["freshSeeds"]["max"]
# the random agent's score on a seed: the mean of this many plays, the k-th by an agent seeded k
RANDOM_RUNS: int = ENGINE["protocol"]["randomRuns"]


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
