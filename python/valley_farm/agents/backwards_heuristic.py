"""A sensible BackwardsValleyFarm-v0 player from the observation alone: a faithful port of
wasm/agents/backwardsHeuristic.js (the tests check its returns equal the JS agent's).

It remembers the map it has seen and follows the inverted rules: crops ripen when left
alone (walk onto fields); an animal pays when it becomes Thriving in view (feed it, then
stay in view while it grows back); a villager pays when insulted up to Friendly. Between
tasks it walks to the nearest unfinished field, pen or house, else explores, else waits.
"""
from __future__ import annotations

from typing import Any, Dict, Optional, Set

from .._specs import spec_for
from ..spaces import unflatten
from .grid import STEPS, distances, key

SPEC = spec_for("BackwardsValleyFarm-v0")
A = {name: i for i, name in enumerate(SPEC.actions)}
HORIZON = SPEC.horizon
GROUND, FIELD, PEN, HOUSE = (SPEC.codes[n] for n in ("GROUND", "FIELD", "PEN", "HOUSE"))


def _status_of(code: int, name: str) -> int:
    return next(t for t in SPEC.tiles if t["code"] == code)["status"].index(name)


THRIVING = _status_of(PEN, "Thriving")
FRIENDLY = _status_of(HOUSE, "Friendly")


class BackwardsHeuristic:
    name = "heuristic"

    def __init__(self) -> None:
        self.map: Optional[Dict[int, tuple]] = None
        self.reset()

    def reset(self) -> None:
        self.map = {}  # key(x, y) -> (code, status) last seen
        self.done: Set[int] = set()  # pens and houses whose bonus this agent has earned
        self.watching: Optional[Dict[str, int]] = None  # an animal growing back in view
        self.befriending: Set[int] = set()

    def see(self, obs: Dict[str, Any]) -> None:
        for i in range(25):
            x = obs["x"] + (i % 5) - 2
            y = obs["y"] + i // 5 - 2
            self.map[key(x, y)] = (obs["terrain"][i], obs["status"][i])

    def chore(self, obs: Dict[str, Any], step: int) -> Optional[Dict[str, Any]]:
        """A pen or house next to the agent that still pays; None if none."""
        for d in range(4):
            x = obs["x"] + STEPS[d][0]
            y = obs["y"] + STEPS[d][1]
            k = key(x, y)
            c = self.map.get(k)
            if c is None or k in self.done:
                continue
            if c[0] == HOUSE:
                return {"d": d, "k": k, "cell": c}
            if c[0] == PEN and not self.watching and HORIZON - step >= 4:
                return {"d": d, "k": k, "cell": c, "x": x, "y": y}
        return None

    def act(self, observation: Any, info: Any = None) -> int:
        obs = observation if isinstance(observation, dict) else unflatten(SPEC, observation)
        if self.map is None or obs["stepsLeft"] == HORIZON:
            self.reset()
        self.see(obs)
        step = HORIZON - obs["stepsLeft"]

        if self.watching:
            w = self.watching
            pen = self.map[w["at"]]
            if pen[1] == THRIVING or step > w["until"]:
                self.done.add(w["at"])
                self.watching = None
            elif abs(w["x"] - obs["x"]) <= 1 and abs(w["y"] - obs["y"]) <= 1:
                a = self.next_to(obs, step)
                return A["wait"] if a is None else a  # stay in view: only chores right here

        c = self.chore(obs, step)
        if c:
            if obs["facing"] != c["d"]:
                return c["d"]  # turn to face it (a pen or house blocks the move)
            if c["cell"][0] == PEN:
                self.watching = {"at": c["k"], "x": c["x"], "y": c["y"], "until": step + 3}
                return A["feed"]
            if c["cell"][1] < FRIENDLY:
                if c["cell"][1] == FRIENDLY - 1:
                    self.done.add(c["k"])  # this insult makes it Friendly: paid
                return A["insult"]
            self.befriending.add(c["k"])
            return A["compliment"]

        # walk: the nearest unfinished field, pen or house, else the nearest unexplored edge
        m = self.map

        def walkable(x: int, y: int) -> bool:
            got = m.get(key(x, y))
            return got is not None and (got[0] == GROUND or got[0] == FIELD)

        best = None
        for cl in distances(obs["x"], obs["y"], walkable).values():
            if cl.dist == 0:
                continue
            here = m[key(cl.x, cl.y)]
            worth = 1.0 if here[0] == FIELD else 0.0
            for dx, dy in STEPS:
                k = key(cl.x + dx, cl.y + dy)
                nb = m.get(k)
                if nb is None:
                    worth = max(worth, 0.3)
                elif (nb[0] == HOUSE or nb[0] == PEN) and k not in self.done:
                    worth = max(worth, 1.5)
            if worth == 0 or cl.dist > obs["stepsLeft"]:
                continue
            score = worth / cl.dist
            if best is None or score > best[0]:
                best = (score, cl.first)
        return best[1] if best else A["wait"]

    def next_to(self, obs: Dict[str, Any], step: int) -> Optional[int]:
        """While watching: a house chore next to the agent, never a move away."""
        c = self.chore(obs, step)
        if not c or c["cell"][0] != HOUSE:
            return None
        if obs["facing"] != c["d"]:
            return c["d"]
        if c["cell"][1] < FRIENDLY:
            if c["cell"][1] == FRIENDLY - 1:
                self.done.add(c["k"])
            return A["insult"]
        return A["compliment"]
