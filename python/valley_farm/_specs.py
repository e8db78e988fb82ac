"""What the package knows about each farm: all of it from the engine's own description,
``vf_spec_json`` (core/src/spec.c), read once at import. Nothing here is typed by hand:
ids, actions, tiles, the observation's fields and bounds, the rules' constants, the reasons
an action is illegal, the codes of step events and the header's limits all come from there.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Dict, List, Tuple

from . import _engine

ENGINE: Dict[str, Any] = json.loads(_engine.spec_json())


def _data(name: str) -> Any:
    return json.loads(resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8"))


@dataclass(frozen=True)
class FarmSpec:
    """One farm: everything a program needs before it plays one (vf_spec_json's "farms" entry)."""

    id: str
    kind: int
    num_actions: int
    obs_size: int
    actions: Tuple[str, ...]
    rules: Dict[str, Any]
    snapshot_size: int
    plan_width: int  # the beam width the published best-known data use
    width: int
    height: int
    horizon: int
    tiles: Tuple[Dict[str, Any], ...]
    codes: Dict[str, int]  # tile name -> code
    fields: Tuple[Dict[str, Any], ...]  # the flat observation: name, group, offset, length, shape, low, high, ...
    extra: Dict[str, Any] = field(default_factory=dict)  # the farm's name lists: species, moods, facings


def _spec(farm: Dict[str, Any]) -> FarmSpec:
    known = {"id", "kind", "width", "height", "horizon", "obsSize", "snapshotSize", "planWidth", "actions", "tiles", "fields", "rules"}
    return FarmSpec(
        id=farm["id"],
        kind=farm["kind"],
        num_actions=len(farm["actions"]),
        obs_size=farm["obsSize"],
        actions=tuple(farm["actions"]),
        rules=farm["rules"],
        snapshot_size=farm["snapshotSize"],
        plan_width=farm["planWidth"],
        width=farm["width"],
        height=farm["height"],
        horizon=farm["horizon"],
        tiles=tuple(farm["tiles"]),
        codes={t["name"]: t["code"] for t in farm["tiles"]},
        fields=tuple(farm["fields"]),
        extra={k: v for k, v in farm.items() if k not in known},
    )


SPECS: Dict[str, FarmSpec] = {f["id"]: _spec(f) for f in ENGINE["farms"]}
ENV_IDS: Tuple[str, ...] = tuple(SPECS)
# why an action is illegal, index = the engine's vf_why: {code, text}
WHYS: List[Dict[str, str]] = ENGINE["whys"]
EVENT_CODES: List[Any] = ENGINE["events"]
LIMITS: Dict[str, int] = ENGINE["limits"]
BATCH_MAX: int = LIMITS["batchMax"]
PLAN_WIDTH_MAX: int = LIMITS["planWidthMax"]
PROVE_STATES_MAX: int = LIMITS["proveStatesMax"]
SNAPSHOT_MAX: int = LIMITS["snapshotMax"]


def spec_for(env_id: Any) -> FarmSpec:
    """The spec of an env id; ValueError naming the ids for anything else."""
    if isinstance(env_id, str) and env_id in SPECS:
        return SPECS[env_id]
    shown = repr(env_id)[:60]
    raise ValueError(f"valley_farm: unknown env id {shown}; the env ids are {', '.join(map(repr, ENV_IDS))}")


def reference_data() -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """The committed reference data (copied from wasm/data at build time): best-known, baselines."""
    return _data("best-known.json"), _data("baselines.json")
