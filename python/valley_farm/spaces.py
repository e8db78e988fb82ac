"""Spaces in Gymnasium's terms: Discrete, MultiDiscrete, Box, Dict.

When ``gymnasium`` is importable these are Gymnasium's own classes, so its checkers and
wrappers accept the envs; without it, the small classes below behave the same for what the
envs use: ``sample`` (with action masks for Discrete and MultiDiscrete), ``contains``, ``seed``, ``dtype``,
``shape``, ``n`` / ``nvec`` / ``low`` / ``high``, ``np_random``.
"""
from __future__ import annotations

from typing import Any, Dict as DictT, Mapping, Optional, Sequence, Tuple

import numpy as np

__all__ = ["Space", "Discrete", "MultiDiscrete", "Box", "Dict", "GYMNASIUM"]

SeedLike = Optional[int]


class Space:
    """The base: a seeded NumPy generator for sample(), a dtype and a shape."""

    def __init__(self, shape: Tuple[int, ...], dtype: Any, seed: SeedLike = None):
        self._shape = tuple(shape)
        self.dtype = np.dtype(dtype) if dtype is not None else None
        self._np_random: Optional[np.random.Generator] = None
        if seed is not None:
            self.seed(seed)

    @property
    def shape(self) -> Tuple[int, ...]:
        return self._shape

    @property
    def np_random(self) -> np.random.Generator:
        if self._np_random is None:
            self.seed()
        assert self._np_random is not None
        return self._np_random

    def seed(self, seed: SeedLike = None) -> Any:
        """Seeds sample(); returns the seed used (drawn when None), as Gymnasium's spaces do."""
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0):
            raise ValueError(f"valley_farm: a space's seed is None or an int >= 0, got {seed!r:.60}")
        if seed is None:
            seed = int(np.random.SeedSequence().entropy % 2**63)
        self._np_random = np.random.default_rng(int(seed))
        return int(seed)

    def __contains__(self, x: Any) -> bool:
        return self.contains(x)

    def contains(self, x: Any) -> bool:  # pragma: no cover - overridden
        raise NotImplementedError

    def sample(self, mask: Any = None) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError


class Discrete(Space):
    """Integers start .. start + n - 1 (an action). ``names`` are the rules' action names."""

    def __init__(self, n: int, seed: SeedLike = None, start: int = 0, names: Sequence[str] = ()):
        if n < 1:
            raise ValueError("valley_farm: Discrete needs n >= 1")
        self.n = np.int64(n)
        self.start = np.int64(start)
        self.names = tuple(names)
        super().__init__((), np.int64, seed)

    def sample(self, mask: Any = None) -> np.int64:
        """A uniform action; with ``mask`` (an int8 array of n, 1 = allowed, as the envs' action
        masks are and Gymnasium's Discrete takes; a bool array too), among the allowed."""
        if mask is None:
            return self.start + self.np_random.integers(self.n)
        allowed = np.flatnonzero(_mask_row(mask, int(self.n), f"a Discrete({int(self.n)}) mask"))
        if len(allowed) == 0:
            return self.start
        return self.start + np.int64(self.np_random.choice(allowed))

    def contains(self, x: Any) -> bool:
        if isinstance(x, (bool, np.bool_)):
            return False
        if isinstance(x, (int, np.integer)):
            v = int(x)
        elif isinstance(x, np.ndarray) and x.shape == () and np.issubdtype(x.dtype, np.integer):
            v = int(x)
        else:
            return False
        return int(self.start) <= v < int(self.start + self.n)

    def __repr__(self) -> str:
        return f"Discrete({int(self.n)})"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, Discrete) and self.n == other.n and self.start == other.start


class MultiDiscrete(Space):
    """A batch of Discrete actions: element i in 0 .. nvec[i] - 1 (a vector env's actions)."""

    def __init__(self, nvec: Any, dtype: Any = np.int64, seed: SeedLike = None):
        self.nvec = np.asarray(nvec, dtype=dtype)
        super().__init__(self.nvec.shape, dtype, seed)

    def sample(self, mask: Any = None) -> np.ndarray:
        """Uniform entries; with ``mask``, entry i among the allowed of mask[i]: a tuple of int8
        (or bool) arrays, one per entry (Gymnasium's form), or a vector env's masks array, one
        row per entry. An entry with nothing allowed is 0, as in Gymnasium."""
        if mask is None:
            return (self.np_random.random(self.nvec.shape) * self.nvec).astype(self.dtype)
        if self.nvec.ndim != 1 or len(mask) != len(self.nvec):
            raise ValueError(f"valley_farm: a MultiDiscrete({len(self.nvec)}) mask has one int8 (or bool) row per entry")
        out = np.zeros(self.nvec.shape, dtype=self.dtype)
        for i, (n, row) in enumerate(zip(self.nvec, mask)):
            allowed = np.flatnonzero(_mask_row(row, int(n), f"mask[{i}]"))
            if len(allowed):
                out[i] = self.np_random.choice(allowed)
        return out

    def contains(self, x: Any) -> bool:
        if isinstance(x, Sequence):
            x = np.array(x)
        return (
            isinstance(x, np.ndarray)
            and x.shape == self.shape
            and np.issubdtype(x.dtype, np.integer)
            and bool(np.all((x >= 0) & (x < self.nvec)))
        )

    def __repr__(self) -> str:
        return f"MultiDiscrete({self.nvec})"


def _mask_row(mask: Any, n: int, what: str) -> np.ndarray:
    """A mask of n actions: an int8 array of 0/1 (the envs' masks), or a bool array."""
    row = np.asarray(mask)
    if row.shape != (n,) or row.dtype not in (np.int8, np.bool_):
        raise ValueError(f"valley_farm: {what} is an int8 (or bool) array of shape ({n},), got {row.dtype} of shape {row.shape}")
    return row


class Box(Space):
    """Integers (int32 here) in [low, high] elementwise, of a shape."""

    def __init__(self, low: Any, high: Any, shape: Optional[Sequence[int]] = None, dtype: Any = np.int32, seed: SeedLike = None):
        if shape is None:
            shape = np.shape(low)
        self.low = np.broadcast_to(np.asarray(low, dtype=dtype), tuple(shape)).copy()
        self.high = np.broadcast_to(np.asarray(high, dtype=dtype), tuple(shape)).copy()
        super().__init__(tuple(shape), dtype, seed)

    def sample(self, mask: Any = None) -> np.ndarray:
        if mask is not None:
            raise ValueError("valley_farm: Box.sample takes no mask")
        return self.np_random.integers(self.low, self.high, endpoint=True, dtype=self.dtype)

    def contains(self, x: Any) -> bool:
        if not isinstance(x, np.ndarray):
            try:
                x = np.asarray(x, dtype=self.dtype)
            except (ValueError, TypeError):
                return False
        return (
            np.can_cast(x.dtype, self.dtype)
            and x.shape == self.shape
            and bool(np.all(x >= self.low))
            and bool(np.all(x <= self.high))
        )

    def __repr__(self) -> str:
        return f"Box({self.low.min()}, {self.high.max()}, {self.shape}, {self.dtype})"


class Dict(Space):
    """Named sub-spaces, in order (the observation's fields)."""

    def __init__(self, spaces: Mapping[str, Space], seed: SeedLike = None):
        self.spaces: DictT[str, Space] = dict(spaces)
        super().__init__((), None, seed)

    def seed(self, seed: SeedLike = None) -> Any:
        used = super().seed(seed)
        for i, space in enumerate(self.spaces.values()):
            space.seed(used + i)
        return used

    def sample(self, mask: Any = None) -> DictT[str, Any]:
        return {k: s.sample() for k, s in self.spaces.items()}

    def contains(self, x: Any) -> bool:
        return (
            isinstance(x, Mapping)
            and set(x) == set(self.spaces)
            and all(self.spaces[k].contains(x[k]) for k in self.spaces)
        )

    def __getitem__(self, key: str) -> Space:
        return self.spaces[key]

    def __repr__(self) -> str:
        return "Dict(" + ", ".join(f"{k!r}: {v}" for k, v in self.spaces.items()) + ")"


# Gymnasium's classes replace these where it is installed, so its checkers accept the envs.
GYMNASIUM = False
try:  # pragma: no cover - gymnasium is not installed on the CI machine
    import gymnasium.spaces as _gs

    Space, Discrete, MultiDiscrete, Box, Dict = _gs.Space, _gs.Discrete, _gs.MultiDiscrete, _gs.Box, _gs.Dict  # type: ignore[misc]
    GYMNASIUM = True
except ImportError:
    pass


def action_space(spec: Any) -> "Discrete":
    space = Discrete(spec.num_actions)
    # the rules' action names, in the space where a reader of env.action_space finds them
    try:
        space.names = spec.actions  # type: ignore[attr-defined]
    except AttributeError:  # pragma: no cover
        pass
    return space


def flat_bounds(spec: Any) -> Tuple[np.ndarray, np.ndarray]:
    """Per-element low and high of the flat observation, from the engine's fields."""
    low = np.zeros(spec.obs_size, dtype=np.int32)
    high = np.zeros(spec.obs_size, dtype=np.int32)
    for f in spec.fields:
        low[f["offset"] : f["offset"] + f["length"]] = f["low"]
        high[f["offset"] : f["offset"] + f["length"]] = f["high"]
    return low, high


def observation_space(spec: Any) -> "Box":
    """One env's flat observation: Box(obs_size) of int32 with each element's bounds."""
    low, high = flat_bounds(spec)
    return Box(low, high, (spec.obs_size,), np.int32)


def _nest(spec: Any, leaf: Any) -> DictT[str, Any]:
    """The observation's fields by name, each field made by leaf(field), nested by group."""
    out: DictT[str, Any] = {}
    for f in spec.fields:
        where = out if f["group"] is None else out.setdefault(f["group"], {})
        where[f["name"]] = leaf(f)
    return out


def dict_observation_space(spec: Any) -> "Dict":
    """The observation's fields as a Dict space (what unflatten returns), as the JS package shows it."""
    tree = _nest(spec, lambda f: Box(f["low"], f["high"], tuple(f["shape"]), np.int32))
    return Dict({k: Dict(v) if isinstance(v, dict) else v for k, v in tree.items()})


def unflatten(spec: Any, flat: Any) -> DictT[str, Any]:
    """The observation's fields from a flat observation (nested as the JS package's objects)."""
    values = [int(x) for x in flat]

    def leaf(f: DictT[str, Any]) -> Any:
        o = f["offset"]
        return values[o] if f["shape"] == [] else values[o : o + f["length"]]

    return _nest(spec, leaf)
