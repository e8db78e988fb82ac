"""The single env: Gymnasium 1.x's Env API over one engine env.

``step`` is the C method of ``_engine.Env`` itself (this class adds no Python frame around
it), so a step from Python costs one C call; so is ``reset``, but where gymnasium is
installed, which wraps it to seed ``np_random`` as Gymnasium asks:

    reset(seed=None, options=None) -> (obs, info)
    step(action) -> (obs, reward, terminated, truncated, info)

``obs`` is a fresh int32 array of ``obs_size`` (the flat layout; ``unflatten`` gives its
fields). ``info``: ``step``, ``seed``, ``action_mask`` (int8, 1 = legal: what Gymnasium's
``Discrete.sample(mask=...)`` and PettingZoo's ``action_mask`` take) and, after a
step, ``action_was_legal``; ``illegal_reason`` ({code, text}) after an illegal step; and
``events`` (what the step did, what each part of the reward was for) with ``events=True``.
An illegal action is played as a wait, as the rules say; an action that is not one (a
float, a bool, out of range) raises and changes nothing. ``truncated`` is always False:
both farms end on their own clock (``terminated``), so ``spec.max_episode_steps`` is None:
Gymnasium's max_episode_steps is where a TimeLimit wrapper truncates, and none is needed (the
horizon is ``env.farm.horizon``; docs/python.md says why).
"""
from __future__ import annotations

import json
import os
from typing import Any, Dict, List, NamedTuple, Optional, Tuple, Union

from . import _engine
from ._specs import PLAN_WIDTH_MAX, PROVE_STATES_MAX, FarmSpec, spec_for
from .spaces import action_space, dict_observation_space, observation_space

try:  # pragma: no cover - gymnasium is not installed on the CI machine
    import gymnasium

    _BASES: Tuple[type, ...] = (_engine.Env, gymnasium.Env)
except ImportError:
    gymnasium = None
    _BASES = (_engine.Env,)

# vf_plan_prove's table when plan(prove=True) gives no size: enough for most seeds (index.js)
PROVE_STATES_DEFAULT = 1_000_000


class _EnvSpec(NamedTuple):
    """What made an env: the fields of Gymnasium's EnvSpec that describe these envs, for use
    without gymnasium (with it, its own EnvSpec class)."""

    id: str
    entry_point: str
    kwargs: Dict[str, Any]
    reward_threshold: Optional[float] = None
    nondeterministic: bool = False  # the same seed and actions give the same episode
    max_episode_steps: Optional[int] = None  # no TimeLimit: the farms end on their own clock
    order_enforce: bool = True
    disable_env_checker: bool = False


ENTRY_POINT = "valley_farm.env:FarmEnv"
EnvSpec: Any = gymnasium.envs.registration.EnvSpec if gymnasium is not None else _EnvSpec


class Plan(NamedTuple):
    """The planner's answer: playing ``actions`` from the state earns ``best_return``; no play
    earns more than ``upper_bound`` (equal, and ``proven``: the plan is optimal)."""

    actions: List[int]
    best_return: float
    upper_bound: float
    proven: bool


class FarmEnv(*_BASES):  # type: ignore[misc]
    """One valley-farm env. Make it with ``valley_farm.make(id, **options)``."""

    metadata: Dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, env_id: str, render_mode: Optional[str] = "ansi", events: bool = False):
        spec = spec_for(env_id)
        if render_mode not in (None, "ansi"):
            raise ValueError(
                f"valley_farm: render_mode {render_mode!r:.40} is not supported; the only render mode is 'ansi' (render() returns the map as text)"
            )
        if not isinstance(events, bool):
            raise TypeError(f"valley_farm: events must be True or False, got {events!r:.40}")
        _engine.Env.__init__(self, spec.kind, events, int.from_bytes(os.urandom(8), "little"))
        self.id = spec.id
        self.farm: FarmSpec = spec
        self.render_mode = render_mode
        self.action_space = action_space(spec)
        self.observation_space = observation_space(spec)
        self.dict_observation_space = dict_observation_space(spec)
        # what register() gives gymnasium, so that gymnasium.make(env.spec) makes this env again
        self.spec = EnvSpec(id=spec.id, entry_point=ENTRY_POINT, kwargs={"env_id": spec.id, "render_mode": render_mode, "events": events})

    # reset, step, action_mask, illegal_reasons, render, snapshot, restore, state_hash and
    # close are _engine.Env's methods (python/src/engine.c); with gymnasium, reset is wrapped
    # below.

    if gymnasium is not None:

        def reset(self, *, seed: Any = None, options: Optional[Dict[str, Any]] = None) -> Tuple[Any, Dict[str, Any]]:
            """The engine's reset, then Gymnasium's seeding contract: a seeded reset also seeds
            ``np_random`` (gymnasium.Env.reset's job, which its env checker asks for). The
            engine checks the seed first, so a bad one raises its ValueError and changes nothing."""
            out = _engine.Env.reset(self, seed=seed, options=options)
            if seed is not None:
                gymnasium.Env.reset(self, seed=seed)
            return out

    @property
    def unwrapped(self) -> "FarmEnv":
        return self

    def state(self) -> Dict[str, Any]:
        """The full hidden state as plain data (the JS API's state(), from vf_state_json)."""
        return json.loads(self._state_json())

    def plan(self, width: Optional[int] = None, prove: Union[bool, int] = False) -> Plan:
        """The best play the engine's planner finds from this state (vf_plan_beam), with its
        upper bound; ``prove`` (True, or a number of states) then searches every play by branch
        and bound (vf_plan_prove). The default width is the one the best-known data use."""
        if width is None:
            width = self.farm.plan_width
        if isinstance(width, bool) or not isinstance(width, int) or not 1 <= width <= PLAN_WIDTH_MAX:
            raise ValueError(f"valley_farm: plan: width {width!r:.40} is not allowed; it is an int from 1 to {PLAN_WIDTH_MAX}")
        if prove is True:
            states = PROVE_STATES_DEFAULT
        elif prove is False:
            states = 0
        elif isinstance(prove, int) and 1 <= prove <= PROVE_STATES_MAX:
            states = prove
        else:
            raise ValueError(
                f"valley_farm: plan: prove {prove!r:.40} is not allowed; it is True, False or a number of states from 1 to {PROVE_STATES_MAX}"
            )
        actions, best, bound = self._plan(width, states)
        return Plan(actions, best, bound, best >= bound)

    def __enter__(self) -> "FarmEnv":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<FarmEnv {self.id}{' closed' if self.closed else ''}>"
