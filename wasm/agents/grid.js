// grid.js — the path-finding both heuristics share: a breadth-first search over the cells
// an agent remembers. Cells are keyed by key(x, y); moves are the action ids 0 north, 1 south,
// 2 east, 3 west.
export const STEPS = [
  [0, -1],
  [0, 1],
  [1, 0],
  [-1, 0],
];
// A cell as one number (cells are relative to where an agent started, so they may be
// negative): Map lookups on numbers are several times faster than on "x,y" strings.
export const key = (x, y) => (x + 4096) * 8192 + (y + 4096);

/** Breadth-first distances from (x, y): Map key(x, y) -> { x, y, dist, first }. */
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
