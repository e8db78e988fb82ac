"""The built-in agents: the engine's own (core/src/agents.c), the same agents the JS package and
the page play: ``create_agent(name, env_id, seed=None)``.

An agent is ``reset()`` and ``act(observation, info=None) -> action``: a function of the flat
observation alone (as the env gives it), keeping its own memory. The agents (a farm's list:
``SPECS[env_id].extra["agents"]``):

- ``"random"``: a uniformly random action each step, from a generator seeded with ``seed``
  (its low 32 bits; a random seed without one): the JS package's ``createAgent('random', id,
  { seed })`` draws the same actions;
- ``"heuristic"``: a sensible player of the farm's rules that keeps its own map.
"""
from __future__ import annotations

import os
from typing import Any, Optional

from .. import _engine
from .._specs import ENGINE, spec_for

BUILT_IN = ("heuristic", "random")


def agent_kind(name: Any, env_id: str) -> int:
    """The engine's index of a built-in agent (its vf_agent_kind); ValueError for an agent that
    is not one, or that the farm does not have."""
    spec = spec_for(env_id)
    if not isinstance(name, str) or name not in ENGINE["agents"]:
        raise ValueError(f"valley_farm: no built-in agent {str(name)[:60]!r}; the built-in agents are {', '.join(BUILT_IN)}")
    if name not in spec.extra["agents"]:
        raise ValueError(f"valley_farm: no {name} agent plays {spec.id} yet; it has {', '.join(spec.extra['agents'])}")
    return ENGINE["agents"].index(name)


class BuiltInAgent:
    """One of the engine's agents (see the module's docstring)."""

    def __init__(self, name: str, env_id: str, seed: Optional[int] = None):
        kind = agent_kind(name, env_id)
        if seed is None:
            seed = int.from_bytes(os.urandom(4), "little")
        self.name = name
        self.env_id = env_id
        self._agent = _engine.Agent(spec_for(env_id).kind, kind, seed)

    def reset(self) -> None:
        """A new episode (the agent also notices one at an observation with every step left)."""
        self._agent.reset()

    def act(self, observation: Any, info: Any = None) -> int:
        """The action for a flat observation (the env's); ValueError for one no episode makes."""
        return self._agent.act(observation)


def create_agent(name: str, env_id: str, seed: Optional[int] = None) -> BuiltInAgent:
    """A built-in agent by name ('heuristic' or 'random'; ``seed`` seeds the random one)."""
    return BuiltInAgent(name, env_id, seed)


__all__ = ["create_agent", "agent_kind", "BUILT_IN", "BuiltInAgent"]
