"""The baseline: a uniformly random action every step, seeded with mulberry32 exactly as the JS
package's random agent (wasm/agents/random.js, wasm/rng.js), so the same seed plays the same
actions in both."""
from __future__ import annotations

import os
from typing import Any, Callable, Optional

from .._specs import spec_for


def seeded_random(seed: int) -> Callable[[], float]:
    """mulberry32: numbers in [0, 1), the same sequence as rng.js's seededRandom(seed)."""
    a = seed & 0xFFFFFFFF

    def imul(x: int, y: int) -> int:
        return (x * y) & 0xFFFFFFFF

    def rand() -> float:
        nonlocal a
        a = (a + 0x6D2B79F5) & 0xFFFFFFFF
        t = a
        t = imul(t ^ (t >> 15), t | 1)
        t ^= (t + imul(t ^ (t >> 7), t | 61)) & 0xFFFFFFFF
        return ((t ^ (t >> 14)) & 0xFFFFFFFF) / 4294967296

    return rand


class RandomAgent:
    name = "random"

    def __init__(self, env_id: str, seed: Optional[int] = None):
        self.n = spec_for(env_id).num_actions
        if seed is None:
            seed = int.from_bytes(os.urandom(4), "little")
        self._rand = seeded_random(seed)

    def reset(self) -> None:
        pass

    def act(self, observation: Any, info: Any = None) -> int:
        return int(self._rand() * self.n)
