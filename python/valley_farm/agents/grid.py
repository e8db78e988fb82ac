"""Path-finding both heuristics share (a port of wasm/agents/grid.js): breadth-first search
over the cells an agent remembers. Moves are the action ids 0 north, 1 south, 2 east, 3 west."""
from __future__ import annotations

from typing import Callable, Dict, List, Tuple

STEPS: List[Tuple[int, int]] = [(0, -1), (0, 1), (1, 0), (-1, 0)]


def key(x: int, y: int) -> int:
    """A cell as one number (cells are relative to where an agent started, so may be negative)."""
    return (x + 4096) * 8192 + (y + 4096)


class Cell:
    __slots__ = ("x", "y", "dist", "first")

    def __init__(self, x: int, y: int, dist: int, first: int):
        self.x, self.y, self.dist, self.first = x, y, dist, first


def distances(x: int, y: int, walkable: Callable[[int, int], bool], limit: int = 400) -> Dict[int, Cell]:
    """Breadth-first distances from (x, y): key(x, y) -> Cell, in the order cells are reached."""
    out: Dict[int, Cell] = {key(x, y): Cell(x, y, 0, -1)}
    frontier = [out[key(x, y)]]
    while frontier and len(out) < limit:
        nxt = []
        for c in frontier:
            for d in range(4):
                nx = c.x + STEPS[d][0]
                ny = c.y + STEPS[d][1]
                k = key(nx, ny)
                if k in out or not walkable(nx, ny):
                    continue
                cell = Cell(nx, ny, c.dist + 1, d if c.first < 0 else c.first)
                out[k] = cell
                nxt.append(cell)
        frontier = nxt
    return out
