// grid.js — the path-finding both heuristics share: a breadth-first search over the cells
// an agent remembers. Cells are keyed "x,y"; moves are the action ids 0 north, 1 south,
// 2 east, 3 west.
export const STEPS = [
  [0, -1],
  [0, 1],
  [1, 0],
  [-1, 0],
];
export const key = (x, y) => `${x},${y}`;

/**
 * Searches from (x, y) through cells where walkable(x, y) holds. Returns the nearest cell
 * (by steps) for which goal(x, y) holds as { x, y, dist, first } (first: the move to make),
 * or null. The start cell counts (dist 0, first -1).
 */
export function nearest(x, y, walkable, goal, limit = 400) {
  const seen = new Set([key(x, y)]);
  let frontier = [{ x, y, dist: 0, first: -1 }];
  while (frontier.length && seen.size < limit) {
    const next = [];
    for (const c of frontier) {
      if (goal(c.x, c.y)) return c;
      for (let d = 0; d < 4; d++) {
        const nx = c.x + STEPS[d][0];
        const ny = c.y + STEPS[d][1];
        const k = key(nx, ny);
        if (seen.has(k) || !walkable(nx, ny)) continue;
        seen.add(k);
        next.push({ x: nx, y: ny, dist: c.dist + 1, first: c.first < 0 ? d : c.first });
      }
    }
    frontier = next;
  }
  return null;
}

/** Breadth-first distances from (x, y): Map "x,y" -> { x, y, dist, first }. */
export function distances(x, y, walkable, limit = 400) {
  const out = new Map([[key(x, y), { x, y, dist: 0, first: -1 }]]);
  let frontier = [out.get(key(x, y))];
  while (frontier.length && out.size < limit) {
    const next = [];
    for (const c of frontier) {
      for (let d = 0; d < 4; d++) {
        const nx = c.x + STEPS[d][0];
        const ny = c.y + STEPS[d][1];
        const k = key(nx, ny);
        if (out.has(k) || !walkable(nx, ny)) continue;
        const cell = { x: nx, y: ny, dist: c.dist + 1, first: c.first < 0 ? d : c.first };
        out.set(k, cell);
        next.push(cell);
      }
    }
    frontier = next;
  }
  return out;
}
