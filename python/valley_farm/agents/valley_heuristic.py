"""A sensible ValleyFarm-v0 player that sees only the observation: a faithful port of
wasm/agents/valleyHeuristic.js (the same decisions on the same observations; the tests
check its returns equal the JS agent's on the test seeds).

The observation has no coordinates, so the agent keeps its own map in coordinates relative to
where it started (a move succeeds exactly when the cell it walks into is walkable, which the
view shows), and simulates the animals it fed with the rules' counters, so it knows when
products are waiting. Each step: do the best thing on this tile (gift, collect, feed,
harvest, water, plant, sell), else walk towards the cell with the best value per step of
walking and work.
"""
from __future__ import annotations

from typing import Any, Dict, Optional

from .._specs import spec_for
from ..spaces import unflatten
from .grid import STEPS, key

SPEC = spec_for("ValleyFarm-v0")
A = {name: i for i, name in enumerate(SPEC.actions)}
HORIZON = SPEC.horizon
WALKABLE = {t["code"] for t in SPEC.tiles if t["walkable"]}
C = SPEC.codes
VILLAGER, MARKET, CHICKEN, SHEEP = C["VILLAGER"], C["MARKET"], C["CHICKEN"], C["SHEEP"]
SOIL_EMPTY, SOIL_SEEDED, CROP_GROWING, CROP_MATURE = C["SOIL_EMPTY"], C["SOIL_SEEDED"], C["CROP_GROWING"], C["CROP_MATURE"]
R = SPEC.rules
SATED_TICKS, PRODUCT_TICKS = R["satedTicks"], R["productTicks"]
PRICE_CROP, PRICE_PRODUCT = R["priceCrop"], R["priceProduct"]
GIFT_VALUE = R["giftPoints"] * R["rewardRelationshipPoint"]  # 3.75 a gift
NEIGHBOURS = [7, 17, 13, 11]  # view indices north, south, east, west of the agent (5 x 5 view)

SIZE = 64  # the memory grid: the agent never gets more than 14 cells from its start
OFF = SIZE // 2
WALKS = [0] * 32
for _code in WALKABLE:
    WALKS[_code] = 1


def is_animal(code: int) -> bool:
    return CHICKEN <= code <= SHEEP


def cell(x: int, y: int) -> int:
    return (y + OFF) * SIZE + x + OFF


class _Animal:
    __slots__ = ("sated_left", "counter", "pending", "fed_now")

    def __init__(self, sated_left: int, counter: int, pending: int, fed_now: bool):
        self.sated_left, self.counter, self.pending, self.fed_now = sated_left, counter, pending, fed_now


class ValleyHeuristic:
    name = "heuristic"

    def __init__(self) -> None:
        self.map = [-1] * (SIZE * SIZE)
        n = SIZE * SIZE
        self.qx, self.qy, self.qd, self.qf = [0] * n, [0] * n, [0] * n, [0] * n
        self.seen_at = [0] * n
        self.search = 0
        self.reset()

    def reset(self) -> None:
        self.pos = (0, 0)
        self.map = [-1] * (SIZE * SIZE)
        self.villagers_seen = 0
        self.animals: Dict[int, _Animal] = {}
        self.last: Optional[tuple] = None  # (action, key) the previous action and where
        self.goal: Optional[int] = None

    def walkable(self, x: int, y: int) -> bool:
        code = self.map[cell(x, y)]
        return code >= 0 and WALKS[code] == 1

    def spread(self) -> int:
        """Breadth-first from the agent over remembered walkable cells; returns how many."""
        self.search += 1
        qx, qy, qd, qf, seen_at, search = self.qx, self.qy, self.qd, self.qf, self.seen_at, self.search
        qx[0], qy[0] = self.pos
        qd[0], qf[0] = 0, -1
        seen_at[cell(*self.pos)] = search
        n = 1
        i = 0
        while i < n:
            for d in range(4):
                nx = qx[i] + STEPS[d][0]
                ny = qy[i] + STEPS[d][1]
                c = cell(nx, ny)
                if seen_at[c] == search or not self.walkable(nx, ny):
                    continue
                seen_at[c] = search
                qx[n], qy[n], qd[n] = nx, ny, qd[i] + 1
                qf[n] = d if qf[i] < 0 else qf[i]
                n += 1
            i += 1
        return n

    def advance(self) -> None:
        """The previous action's effect on the animals, then their tick (rules: Animals)."""
        if not self.last:
            return
        action, at = self.last
        here = self.animals.get(at)
        if action == A["feed"]:
            self.animals[at] = _Animal(SATED_TICKS, 0, here.pending if here else 0, True)
        if action == A["collect"] and here:
            here.pending, here.counter = 0, 0
        for a in self.animals.values():
            if a.fed_now:
                a.fed_now = False
                continue
            if a.sated_left <= 0:
                continue
            a.counter += 1
            if a.counter == PRODUCT_TICKS:
                a.pending += 1
                a.counter = 0
            a.sated_left -= 1

    def choose(self, obs: Dict[str, Any]) -> int:
        inv = obs["inventory"]
        v = obs["view"]
        here = v[12]
        k = key(*self.pos)
        left = obs["stepsLeft"]
        goods = inv["crops"] + inv["products"]
        m = self.map

        # 1. the best thing to do right here
        if inv["gifts"] > 0 and (here == VILLAGER or any(v[i] == VILLAGER for i in NEIGHBOURS)):
            return A["gift"]
        if is_animal(here):
            a = self.animals.get(k)
            if (a.pending if a else 0) > 0:
                return A["collect"]
            if obs["center"] == 0 and inv["feed"] > 0 and left > 6:
                return A["feed"]
        if here == CROP_MATURE:
            return A["harvest"]
        if (here == SOIL_SEEDED and inv["water"] >= 2) or (here == CROP_GROWING and inv["water"] >= 1):
            return A["water"]
        if here == SOIL_EMPTY and inv["seeds"] > 0 and inv["water"] >= 2 and left > 8:
            return A["plant"]
        if here == MARKET and goods > 0:
            return A["sell"]

        # 2. walk towards the best value per step
        n = self.spread()
        qx, qy, qd, qf = self.qx, self.qy, self.qd, self.qf
        if goods > 0:
            for i in range(n):
                if m[cell(qx[i], qy[i])] != MARKET:
                    continue
                if qd[i] + 2 >= left:
                    return qf[i]
                break

        best: Optional[list] = None  # [score, first, at]

        def consider(i: int, value: float, work: int) -> None:
            nonlocal best
            if qd[i] + work > left:
                return
            at = cell(qx[i], qy[i])
            score = (value / (qd[i] + work)) * (1.5 if at == self.goal else 1)
            if best is None or score > best[0]:
                best = [score, qf[i], at]

        known_villager = self.villagers_seen > 0
        for i in range(1, n):
            x, y = qx[i], qy[i]
            code = m[cell(x, y)]

            def near(c: int) -> bool:
                return m[cell(x, y - 1)] == c or m[cell(x, y + 1)] == c or m[cell(x + 1, y)] == c or m[cell(x - 1, y)] == c

            if inv["gifts"] > 0 and (code == VILLAGER or near(VILLAGER)):
                consider(i, GIFT_VALUE * inv["gifts"], inv["gifts"])
            if is_animal(code):
                a = self.animals.get(key(x, y))
                if a and (a.pending > 0 or (a.sated_left > 0 and PRODUCT_TICKS - a.counter <= qd[i])):
                    consider(i, 1.2 * max(1, a.pending), 1)
                elif (not a or a.sated_left == 0) and inv["feed"] > 0 and left - qd[i] > 12:
                    consider(i, 1.6, 6)
            if code == CROP_MATURE:
                consider(i, 0.6, 1)
            if code == CROP_GROWING and inv["water"] >= 1:
                consider(i, 0.55, 2)
            if code == SOIL_SEEDED and inv["water"] >= 2:
                consider(i, 0.5, 3)
            if code == SOIL_EMPTY and inv["seeds"] > 0 and inv["water"] >= 2 and left - qd[i] > 8:
                consider(i, 0.5, 4)
            if code == MARKET and goods > 0:
                consider(i, 0.11 * (PRICE_CROP * inv["crops"] + PRICE_PRODUCT * inv["products"]), 1)
            frontier = m[cell(x, y - 1)] < 0 or m[cell(x, y + 1)] < 0 or m[cell(x + 1, y)] < 0 or m[cell(x - 1, y)] < 0
            if frontier:
                consider(i, 2 if inv["gifts"] > 0 and not known_villager else 0.4, 2)
        self.goal = best[2] if best else None
        return best[1] if best else A["wait"]

    def act(self, observation: Any, info: Any = None) -> int:
        obs = observation if isinstance(observation, dict) else unflatten(SPEC, observation)
        if obs["stepsLeft"] == HORIZON:
            self.reset()
        self.advance()
        px, py = self.pos
        for i in range(25):
            c = cell(px + (i % 5) - 2, py + i // 5 - 2)
            self.villagers_seen += (obs["view"][i] == VILLAGER) - (self.map[c] == VILLAGER)
            self.map[c] = obs["view"][i]
        k = key(px, py)
        a = self.animals.get(k)
        if is_animal(obs["view"][12]) and obs["center"] == 0 and a is not None and a.sated_left > 0:
            a.sated_left = 0
        action = self.choose(obs)
        self.last = (action, k)
        if action < 4:
            dx, dy = STEPS[action]
            if self.walkable(px + dx, py + dy):
                self.pos = (px + dx, py + dy)
        return action
