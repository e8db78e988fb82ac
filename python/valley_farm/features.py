"""What a policy sees: the engine's features of observations (vf_features, core/src/features.c),
the same bits the JS learners read, so a policy trained in one binding runs in the other.

    f = valley_farm.features("ValleyFarm-v0", memory=True, num_envs=64)
    index, value = f.read(0, obs, action, opening)          # one env: its nonzero features
    index, value, count = f.read_batch(vec_obs, actions, terminated)  # every env in one call

Each observation's categorical elements (tile codes, statuses, the facing) are one-hot, every
other element is scaled to [0, 1] by its bounds; with ``memory``, each env also remembers what
it has seen this episode (the nearest cell of each landmark kind, how much of the squares around
it it has explored), features after the observation's. Pairs come sparse, in ascending index:
row i of read_batch holds ``count[i]`` of them. ``width`` is the number of features (dense),
``nonzero`` the most one row can have. An observation no episode makes (a value outside its
bounds, a walk the earlier ones cannot lead to) raises ValueError and changes nothing.
"""
from __future__ import annotations

from typing import Any, Optional, Tuple

import numpy as np

from . import _engine
from ._specs import spec_for


class Features:
    """The features of ``num_envs`` envs' observations of one farm (see the module's docstring)."""

    def __init__(self, env_id: str, memory: bool = False, num_envs: int = 1):
        spec = spec_for(env_id)
        if not isinstance(memory, bool):
            raise TypeError(f"valley_farm: features' memory is True or False, got {memory!r:.40}")
        self.env_id = env_id
        self.memory = memory
        self._f = _engine.Features(spec.kind, memory, num_envs)
        self.num_envs = num_envs
        self.width: int = self._f.width
        self.nonzero: int = self._f.nonzero
        self.landmarks = tuple(spec.extra["features"]["landmarks"])

    def read(self, i: int, obs: Any, action: int = -1, opening: bool = False) -> Tuple[np.ndarray, np.ndarray]:
        """Env i's features of ``obs``, seen after ``action`` (ignored when ``opening`` an
        episode): (index int32, value float32), its nonzero pairs."""
        return self._f.read(i, obs, action, opening)

    def read_batch(self, obs: Any, actions: Optional[Any], opening: Optional[Any]) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every env's features at once: ``obs`` (num_envs, obs_size), row i seen after
        ``actions[i]`` and opening an episode where ``opening[i]`` (a vector env's
        ``terminations``, after its autoreset). Returns (index, value) of shape (num_envs,
        nonzero) and count (num_envs,)."""
        return self._f.read_batch(obs, actions, opening)

    def dense(self, index: np.ndarray, value: np.ndarray) -> np.ndarray:
        """One row's pairs as its dense float32 features."""
        out = np.zeros(self.width, dtype=np.float32)
        out[index] = value
        return out


def features(env_id: str, memory: bool = False, num_envs: int = 1) -> Features:
    """What a policy sees of ``env_id``'s observations, for ``num_envs`` envs (each with its own
    memory of its episode when ``memory``)."""
    return Features(env_id, memory, num_envs)
