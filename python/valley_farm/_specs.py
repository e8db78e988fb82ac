"""What the package knows about each farm, from its two sources.

- The engine (``_engine.engine_info()``): ids, kinds, action names, observation sizes, the
  rules' constants (``vf_rules_json``), snapshot sizes, the planner's widths, the reasons an
  action is illegal and the codes of step events.
- ``data/specs.json``, generated from ``wasm/specs.js`` by ``scripts/python-specs.mjs``
  (never edited by hand; a test holds it equal to that script's output): what the C API does
  not yet report — tile names and walkability, the observation's fields, bounds and flat layout.

Nothing here is typed out by hand.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Dict, List, Tuple

from . import _engine

_INFO = _engine.engine_info()


def _data(name: str) -> Any:
    return json.loads(resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8"))


_SPECS = _data("specs.json")


@dataclass(frozen=True)
class FarmSpec:
    """One farm: everything a program needs before it plays one."""

    id: str
    kind: int
    num_actions: int
    obs_size: int
    actions: Tuple[str, ...]
    rules: Dict[str, Any]  # the engine's vf_rules_json
    snapshot_size: int
    plan_width: int  # the beam width the published best-known data use
    width: int
    height: int
    horizon: int
    tiles: Tuple[Dict[str, Any], ...]
    codes: Dict[str, int]  # tile name -> code
    observation: Dict[str, Any]  # the observation's fields: {shape, min, max} leaves, nested
    layout: Tuple[Dict[str, Any], ...]  # the flat observation: {name, offset, length}
    extra: Dict[str, Any] = field(default_factory=dict)  # species, moods, facings


def _spec(engine: Dict[str, Any]) -> FarmSpec:
    js = _SPECS[engine["id"]]
    extra = {k: js[k] for k in ("species", "moods", "facings") if k in js}
    return FarmSpec(
        id=engine["id"],
        kind=engine["kind"],
        num_actions=engine["num_actions"],
        obs_size=engine["obs_size"],
        actions=tuple(engine["actions"]),
        rules=json.loads(engine["rules_json"]),
        snapshot_size=engine["snapshot_size"],
        plan_width=engine["plan_width"],
        width=js["width"],
        height=js["height"],
        horizon=js["horizon"],
        tiles=tuple(js["tiles"]),
        codes=dict(js["codes"]),
        observation=js["observation"],
        layout=tuple(js["layout"]),
        extra=extra,
    )


SPECS: Dict[str, FarmSpec] = {k["id"]: _spec(k) for k in _INFO["kinds"]}
ENV_IDS: Tuple[str, ...] = tuple(SPECS)
# why an action is illegal, index = the engine's vf_why: (code, sentence)
WHYS: List[Tuple[str, str]] = [tuple(w) for w in _INFO["whys"]]
EVENT_CODES: List[str] = list(_INFO["events"])
BATCH_MAX: int = _INFO["batch_max"]
PLAN_WIDTH_MAX: int = _INFO["plan_width_max"]
PROVE_STATES_MAX: int = _INFO["prove_states_max"]
SNAPSHOT_MAX: int = _INFO["snapshot_max"]


def spec_for(env_id: Any) -> FarmSpec:
    """The spec of an env id; ValueError naming the ids for anything else."""
    if isinstance(env_id, str) and env_id in SPECS:
        return SPECS[env_id]
    shown = repr(env_id)[:60]
    raise ValueError(f"valley_farm: unknown env id {shown}; the env ids are {', '.join(map(repr, ENV_IDS))}")


def reference_data() -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """The committed reference data (copied from wasm/data at build time): best-known, baselines."""
    return _data("best-known.json"), _data("baselines.json")
