"""The baseline agents (the JS package's wasm/agents, ported): ``create_agent(name, env_id)``.

An agent is ``reset()`` and ``act(observation, info) -> action``: a function of what it
observes (the flat observation, or its fields from ``unflatten``), keeping its own memory.
"""
from __future__ import annotations

from typing import Any, Optional, Union

from .._specs import spec_for
from .backwards_heuristic import BackwardsHeuristic
from .random import RandomAgent
from .valley_heuristic import ValleyHeuristic

BUILT_IN = ("heuristic", "random")

Agent = Union[RandomAgent, ValleyHeuristic, BackwardsHeuristic]


def create_agent(name: str, env_id: str, seed: Optional[int] = None) -> Any:
    """A built-in agent by name ('heuristic' or 'random'; ``seed`` seeds the random one)."""
    spec = spec_for(env_id)
    if name == "random":
        return RandomAgent(env_id, seed)
    if name == "heuristic":
        return ValleyHeuristic() if spec.id == "ValleyFarm-v0" else BackwardsHeuristic()
    raise ValueError(f"valley_farm: no built-in agent {str(name)[:60]!r}; the built-in agents are {', '.join(BUILT_IN)}")


__all__ = ["create_agent", "BUILT_IN", "RandomAgent", "ValleyHeuristic", "BackwardsHeuristic"]
