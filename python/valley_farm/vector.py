"""The vector env: n envs stepped in one call into the engine, Gymnasium 1.x's VectorEnv API.

Observations, rewards, terminations, truncations, masks and the episode statistics are NumPy
arrays allocated once, whose memory the engine writes in place: ``step`` copies nothing, and
every array it returns is a read-only view that the next ``step`` or ``reset`` overwrites
(copy what you keep). The GIL is released while the engine steps; ``threads`` > 1 steps
slices of the batch on worker threads.

Autoreset (``metadata["autoreset_mode"]``, Gymnasium's AutoresetMode; the engine's
vf_autoreset does it, for every binding):

- ``"same_step"`` (the default): an env whose episode ends in a step starts its next episode
  in that step. Its row of ``obs`` is the new episode's first observation; the ended one's
  last is in ``infos["final_obs"]``.
- ``"next_step"`` (Gymnasium's own vector envs, RLlib): the step that ends an episode shows
  its last observation in ``obs``; the next step resets that env instead of stepping it (its
  action is ignored, its reward 0, terminated False) and shows the new episode's first.

``infos`` has Gymnasium's keys, each value an array of num_envs rows beside its ``_key``
mask of the rows where it means something (vector_env.py: "Every `key` of `info` is paired
with a boolean mask `_key` representing whether or not the i-indexed environment has this
`info`"):

    infos["episode"] = {"r", "l", "t", "seed"}, infos["_episode"]
        where an episode ended in this step: its return, length, seconds and seed (the keys of
        gymnasium.wrappers.vector.RecordEpisodeStatistics, which is not needed here, plus seed)
    infos["final_obs"], infos["_final_obs"]      same-step: the ended episode's last observation
    infos["final_info"], infos["_final_info"]    same-step: its last info's keys a vector env
        keeps: {"step", "_step", "seed", "_seed"}
    infos["action_mask"], infos["_action_mask"]  legal masks of ``obs`` (int8), with masks=True

Seeds follow the JS vector env: ``reset(seed=s)`` starts env i with seed s + i, and env i's
k-th episode has seed s + i + k * num_envs; with ``levels`` (a list of seeds), env i's k-th
episode plays levels[(i + k * num_envs) % len(levels)]. Both autoreset modes play the same
seeds.
"""
from __future__ import annotations

import enum
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import _engine
from ._specs import BATCH_MAX, spec_for
from .spaces import MultiDiscrete, action_space, observation_space, flat_bounds, Box
from .splits import FRESH_SEED_MAX, FRESH_SEED_MIN

try:  # pragma: no cover - gymnasium is not installed on the CI machine
    import gymnasium.vector as _gv

    AutoresetMode = _gv.AutoresetMode
    _BASES: Tuple[type, ...] = (_gv.VectorEnv,)
except (ImportError, AttributeError):

    class AutoresetMode(enum.Enum):  # type: ignore[no-redef]
        """Gymnasium 1.1's gymnasium.vector.AutoresetMode, for use without gymnasium."""

        NEXT_STEP = "NextStep"
        SAME_STEP = "SameStep"
        DISABLED = "Disabled"

    _BASES = (object,)

# what make_vec's autoreset_mode accepts, and the engine's vf_autoreset of each
_MODES = {
    "same_step": AutoresetMode.SAME_STEP,
    "next_step": AutoresetMode.NEXT_STEP,
    AutoresetMode.SAME_STEP.value: AutoresetMode.SAME_STEP,
    AutoresetMode.NEXT_STEP.value: AutoresetMode.NEXT_STEP,
}
_ENGINE_MODE = {AutoresetMode.SAME_STEP: 0, AutoresetMode.NEXT_STEP: 1}


def autoreset_mode_of(mode: Any) -> "AutoresetMode":
    """AutoresetMode.SAME_STEP or NEXT_STEP from the member itself or its name; ValueError else."""
    if isinstance(mode, AutoresetMode) and mode in _ENGINE_MODE:
        return mode
    if isinstance(mode, str) and mode in _MODES:
        return _MODES[mode]
    raise ValueError(
        f"valley_farm: autoreset_mode {mode!r:.60} is not supported; it is 'same_step' (the default) or 'next_step' "
        "(or AutoresetMode.SAME_STEP / AutoresetMode.NEXT_STEP)"
    )


class FarmVecEnv(*_BASES):  # type: ignore[misc]
    """A batch of valley-farm envs. Make it with ``valley_farm.make_vec(id, num_envs)``."""

    metadata: Dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        env_id: str,
        num_envs: int,
        masks: bool = True,
        levels: Optional[Sequence[int]] = None,
        threads: int = 1,
        autoreset_mode: Any = "same_step",
    ):
        spec = spec_for(env_id)
        mode = autoreset_mode_of(autoreset_mode)
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or not 1 <= num_envs <= BATCH_MAX:
            raise ValueError(f"valley_farm: num_envs {num_envs!r:.40} is not allowed; it is an int from 1 to {BATCH_MAX}")
        if not isinstance(masks, bool):
            raise TypeError(f"valley_farm: masks must be True or False, got {masks!r:.40}")
        if isinstance(threads, bool) or not isinstance(threads, int):
            raise TypeError(f"valley_farm: threads must be an int, got {threads!r:.40}")
        level_list: Optional[List[int]] = None
        if levels is not None:
            if isinstance(levels, (str, bytes)) or not isinstance(levels, Sequence) or len(levels) == 0:
                raise TypeError("valley_farm: levels must be a non-empty sequence of seeds (ints from 0 to 2**64 - 1)")
            level_list = [_check_seed(s, f"levels[{j}]") for j, s in enumerate(levels)]
        n = int(num_envs)
        self._vec = _engine.VecEnv(spec.kind, n, masks, level_list is not None, threads, _ENGINE_MODE[mode])
        self.metadata = {**FarmVecEnv.metadata, "autoreset_mode": mode}
        self._next_step = mode is AutoresetMode.NEXT_STEP
        self.id = spec.id
        self.farm = spec
        self.num_envs = n
        self._levels = level_list
        self._episode_index = np.zeros(n, dtype=np.int64)
        self._masks_on = masks
        self._rng = np.random.default_rng()
        self._started = False
        self.single_action_space = action_space(spec)
        self.single_observation_space = observation_space(spec)
        self.action_space = MultiDiscrete(np.full(n, spec.num_actions))
        low, high = flat_bounds(spec)
        self.observation_space = Box(np.tile(low, (n, 1)), np.tile(high, (n, 1)), (n, spec.obs_size), np.int32)
        self.render_mode = None
        self.spec = None
        v = self._vec
        self._all = np.ones(n, dtype=bool)
        self._all.flags.writeable = False
        # the views every step hands out (read-only; the engine writes them in place)
        self.observations: np.ndarray = v.obs
        self.rewards: np.ndarray = v.rewards
        self.terminations: np.ndarray = v.terminated
        self.truncations: np.ndarray = v.truncated
        self.masks: Optional[np.ndarray] = v.masks if masks else None
        self.final_observations: np.ndarray = v.final_obs
        self.episode_returns: np.ndarray = v.episode_returns
        self.episode_lengths: np.ndarray = v.episode_lengths
        self.episode_seeds: np.ndarray = v.episode_seeds
        self.episode_times: np.ndarray = v.episode_times

    def reset(self, *, seed: Any = None, options: Optional[Dict[str, Any]] = None) -> Tuple[np.ndarray, Dict[str, Any]]:
        """Starts a new episode in every env: env i with seed + i (seed an int, or drawn when
        None), or with seed[i] (a list of num_envs seeds), or (levels) with its first level."""
        if options not in (None, {}):
            raise ValueError(f"valley_farm: reset: options must be None or an empty dict, got {options!r:.60}")
        v = self._vec
        if self._levels is not None:
            if seed is not None:
                raise ValueError(
                    f"valley_farm: this vector env plays a fixed list of {len(self._levels)} levels (make_vec's levels), so reset() takes no seed"
                )
            self._episode_index[:] = 0
            v.reset_all(self._levels[0])  # starts every env; then each its own level
            for i in range(self.num_envs):
                v.reset_one(i, self._level(i, 0))
            self._queue_levels(range(self.num_envs))
        elif isinstance(seed, (list, tuple)) or (isinstance(seed, np.ndarray) and seed.ndim == 1):
            if len(seed) != self.num_envs:
                raise ValueError(f"valley_farm: reset got {len(seed)} seeds for {self.num_envs} envs")
            seeds = [_check_seed(s, f"seed[{i}]") for i, s in enumerate(seed)]
            v.reset_all(seeds[0])  # starts the schedule; then each env its own seed
            for i, s in enumerate(seeds):
                v.reset_one(i, s)
        else:
            if seed is None:
                seed = int(self._rng.integers(FRESH_SEED_MIN, FRESH_SEED_MAX - self.num_envs, endpoint=True))
            else:
                _check_seed(seed, "seed")
                self._rng = np.random.default_rng(int(seed))
            v.reset_all(seed)
        self._started = True
        infos: Dict[str, Any] = {}
        if self._masks_on:
            infos["action_mask"] = self.masks
            infos["_action_mask"] = self._all
        return self.observations, infos

    def step(self, actions: Any) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        """Steps every env once (actions: num_envs ints, an int32 array is the fast path)."""
        if self._levels is None:
            self._vec.step(actions)
        else:  # the envs whose next level starts in this step: next-step, those that just ended
            reset_now = np.flatnonzero(self.terminations) if self._next_step and self._started else None
            self._vec.step(actions)
            self._advance_levels(np.flatnonzero(self.terminations) if reset_now is None else reset_now)
        term = self.terminations
        infos: Dict[str, Any] = {
            "episode": {"r": self.episode_returns, "l": self.episode_lengths, "t": self.episode_times, "seed": self.episode_seeds},
            "_episode": term,
        }
        if not self._next_step:
            infos["final_obs"] = self.final_observations
            infos["_final_obs"] = term
            infos["final_info"] = {"step": self.episode_lengths, "_step": term, "seed": self.episode_seeds, "_seed": term}
            infos["_final_info"] = term
        if self._masks_on:
            infos["action_mask"] = self.masks
            infos["_action_mask"] = self._all
        return self.observations, self.rewards, term, self.truncations, infos

    def episode_seed(self, i: int) -> int:
        """The seed of env i's episode in progress."""
        return self._vec.episode_seed(i)

    def close(self, **kwargs: Any) -> None:
        """Stops the worker threads; closing twice is harmless; later calls raise ValueError."""
        self._vec.close()

    @property
    def closed(self) -> bool:
        return self._vec.closed

    @property
    def unwrapped(self) -> "FarmVecEnv":
        return self

    def __enter__(self) -> "FarmVecEnv":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        vec = getattr(self, "_vec", None)
        if vec is not None:
            vec.close()

    # ---- levels: env i's k-th episode plays levels[(i + k n) % L] ----

    def _level(self, i: int, k: int) -> int:
        assert self._levels is not None
        return self._levels[(i + k * self.num_envs) % len(self._levels)]

    def _queue_levels(self, envs: Any) -> None:
        nxt = self._vec.next_seeds
        for i in envs:
            nxt[i] = self._level(i, int(self._episode_index[i]) + 1)

    def _advance_levels(self, started: np.ndarray) -> None:
        """The envs in `started` began their next episode: queue the level after it."""
        if len(started):
            self._episode_index[started] += 1
            self._queue_levels(started)


def _check_seed(seed: Any, where: str) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"valley_farm: {where} {seed!r:.40} is not an int; a seed is an int from 0 to 2**64 - 1")
    if not 0 <= int(seed) < 2**64:
        raise ValueError(f"valley_farm: {where} {seed!r:.40} is out of range; a seed is an int from 0 to 2**64 - 1")
    return int(seed)
