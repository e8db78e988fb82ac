"""valley_farm — two small farm reinforcement-learning environments over one C engine.

    import valley_farm
    env = valley_farm.make("ValleyFarm-v0")
    obs, info = env.reset(seed=42)
    obs, reward, terminated, truncated, info = env.step(11)

    vec = valley_farm.make_vec("BackwardsValleyFarm-v0", 1024)
    obs, infos = vec.reset(seed=0)          # env i starts with seed 0 + i

The same engine (core/src) as the native and WebAssembly builds: the same seed and actions
give the same observations, rewards and state hashes in C, JavaScript and Python.
"""
from __future__ import annotations

from importlib import metadata as _metadata
from typing import Any

from . import _engine
from ._specs import ENV_IDS, SPECS, FarmSpec, spec_for
from .agents import create_agent
from .env import ENTRY_POINT, FarmEnv, Plan
from .evaluate import evaluate, normalized_score, reference_by_seed
from .features import Features, features
from .onnx_policy import OnnxPolicy, load_onnx, write_onnx_metadata
from .spaces import GYMNASIUM, Box, Dict, Discrete, MultiDiscrete
from .spaces import unflatten as _unflatten
from .splits import FRESH_SEED_MAX, FRESH_SEED_MIN, SPLITS, split_of, split_seeds
from .vector import AutoresetMode, FarmVecEnv

try:  # the installed distribution's version: python/pyproject.toml says it once
    __version__ = _metadata.version("valley-farm")
except _metadata.PackageNotFoundError:  # pragma: no cover - an uninstalled build (setup.py build_ext --inplace)
    __version__ = "unknown"

_engine.set_fresh_seed_range(FRESH_SEED_MIN, FRESH_SEED_MAX)

_MAKE_OPTIONS = ("render_mode", "events")
_VEC_OPTIONS = ("masks", "levels", "threads", "autoreset_mode")


def make(env_id: str, **options: Any) -> FarmEnv:
    """One env. Options: ``render_mode`` ('ansi', the only one) and ``events`` (True: every
    step's info lists what happened in it and what each part of the reward was for)."""
    spec_for(env_id)
    for k in options:
        if k not in _MAKE_OPTIONS:
            raise ValueError(f"valley_farm: make has no option {k!r:.40}; the options are {', '.join(_MAKE_OPTIONS)}")
    return FarmEnv(env_id, **options)


def make_vec(env_id: str, num_envs: int, **options: Any) -> FarmVecEnv:
    """``num_envs`` envs stepped together. Options: ``masks`` (default True: legal masks in
    every infos), ``levels`` (a list of seeds every episode plays one of), ``threads``
    (worker threads stepping slices of the batch, default 1), ``autoreset_mode``
    ("same_step", the default, or "next_step": see valley_farm.vector)."""
    spec_for(env_id)
    for k in options:
        if k not in _VEC_OPTIONS:
            raise ValueError(f"valley_farm: make_vec has no option {k!r:.40}; the options are {', '.join(_VEC_OPTIONS)}")
    return FarmVecEnv(env_id, num_envs, **options)


def unflatten(env_id: str, observation: Any) -> dict:
    """The observation's named fields (as the JS package's observation objects) from a flat one."""
    return _unflatten(spec_for(env_id), observation)


def register() -> None:
    """Registers both ids with Gymnasium (``gymnasium.make('ValleyFarm-v0')``, and
    ``gymnasium.make_vec`` with this package's batched vector env), as importing the package
    does where gymnasium is importable. Needs gymnasium >= 1.0. No max_episode_steps: the farms
    end their episodes at the horizon themselves, so no TimeLimit wrapper is added."""
    try:
        import gymnasium
    except ImportError as err:
        raise ImportError("valley_farm.register() needs gymnasium >= 1.0 (pip install gymnasium)") from err
    for env_id in ENV_IDS:
        if env_id in gymnasium.registry:
            continue
        gymnasium.register(
            id=env_id,
            entry_point=ENTRY_POINT,
            vector_entry_point="valley_farm.vector:FarmVecEnv",
            kwargs={"env_id": env_id},
            max_episode_steps=None,
            disable_env_checker=False,
        )


# Gymnasium 1.x finds third-party envs by importing their module (gymnasium.make(
# "valley_farm:ValleyFarm-v0") imports valley_farm, then looks the id up): so registering here
# is what makes that work. (Its entry-point plugins, the "gymnasium.envs" group, were removed in
# Gymnasium 1.0.)
if GYMNASIUM:
    register()


__all__ = [
    "make", "make_vec", "register", "evaluate", "create_agent", "unflatten", "features", "Features",
    "load_onnx", "OnnxPolicy", "write_onnx_metadata",
    "ENV_IDS", "SPECS", "FarmSpec", "FarmEnv", "FarmVecEnv", "Plan", "AutoresetMode",
    "Box", "Dict", "Discrete", "MultiDiscrete",
    "SPLITS", "split_seeds", "split_of", "FRESH_SEED_MIN", "FRESH_SEED_MAX",
    "normalized_score", "reference_by_seed",
]
