// memory.js — what a policy can remember of the farm it has seen this episode, as features
// (PPO's `memory` setting). Each observation shows only the 5 x 5 square around the agent,
// and a layout is new every episode, so a policy that sees one view at a time forgets where
// the villagers, the market or the fields were the moment they leave it, and walks loops
// looking for them. The hand-written heuristics keep a map; this gives a policy one, in a
// form a small network can use:
//  - landmarks: for each kind of tile worth walking to (every tile the spec does not mark
//    as background, off the map or bare ground; a tile with a status is a kind for each status, and for whether that
//    status differs from the one it had when first seen: a villager made Friendly has paid,
//    one that was Friendly from the start has not), the nearest cell of that kind it has
//    seen: whether there is one, its offset east and south, its distance, and how many steps
//    ago it was last in view (a status seen then may have changed since);
//  - explored: around the agent, BLOCKS x BLOCKS squares of BLOCK x BLOCK cells, the share of
//    each that it has seen (where it has not looked yet).
// Cells are kept relative to where the episode started: an observation with x and y fields
// gives the position; one without (ValleyFarm-v0) is followed by dead reckoning, since a
// move walks exactly when the tile it walks into is walkable, which the view shows. Derived
// from the env's spec (tiles, the fields' roles, action names); no farm is named here.
import { envSpecs } from '../specs.js';
import { STEPS } from '../agents/grid.js';

const BLOCK = 4;
const BLOCKS = 7; // explored covers 28 x 28 cells around the agent
// the move actions by name, in the order of grid.js's STEPS and of the `walkable` flags below
const DIRECTIONS = ['north', 'south', 'east', 'west'];

/** The memory of an env: { size, kinds(), create(n) } (create: the state of n envs). */
export function memoryFor(id) {
  const spec = envSpecs[id];
  const VIEW = spec.viewSize; // the view is a VIEW x VIEW square, the agent at its centre
  const REACH = (VIEW - 1) / 2; // cells the view reaches on each side
  const field = (role) => spec.fields.find((f) => f.role === role);
  const tiles = field('tiles'); // the view's tile codes
  const status = field('status');
  const xField = field('x');
  const yField = field('y');
  const walks = new Uint8Array(Math.max(...spec.tiles.map((t) => t.code)) + 1);
  for (const t of spec.tiles) walks[t.code] = t.walkable ? 1 : 0;
  const direction = spec.actions.map((a) => DIRECTIONS.indexOf(a)); // -1: not a move
  // the farthest the agent gets from its start, east or south; offsets are scaled by it
  const FAR = Math.max(spec.width, spec.height) - 1;
  // a grid reaching that far and half the explored squares further on each side of the
  // start holds every cell that a view or an explored square reaches, so no loop needs to
  // check that a cell is on it
  const SPAN = FAR + (BLOCKS * BLOCK) / 2;
  const G = 2 * SPAN + 1; // the kept grid's width

  // the landmark kinds: kindOf[(code * STATUS + status) * 2 + changed] -> kind index, or -1
  const STATUS = 1 + Math.max(0, ...spec.tiles.map((t) => (t.status ? t.status.length - 1 : 0)));
  const kindOf = new Int16Array(walks.length * STATUS * 2).fill(-1);
  const kinds = [];
  for (const t of spec.tiles) {
    if (t.background) continue;
    const apart = status && t.status; // a kind for each of its statuses, first seen or since changed
    for (let u = 0; u < STATUS; u++) {
      for (let changed = 0; changed < 2; changed++) {
        if (apart && u >= t.status.length) continue;
        if (apart) kinds.push(`${t.name} ${t.status[u]}${changed ? ' (changed)' : ''}`);
        else if (u === 0 && changed === 0) kinds.push(t.name);
        kindOf[(t.code * STATUS + u) * 2 + changed] = kinds.length - 1;
      }
    }
  }
  const K = kinds.length;
  const PER_KIND = 5;
  const size = K * PER_KIND + BLOCKS * BLOCKS;
  const horizon = spec.horizon;

  function create(n) {
    const kind = new Int16Array(n * G * G); // the kind last seen in each cell, -1 none
    const seen = new Uint8Array(n * G * G); // 1 where the cell has been in view
    // how many of the BLOCK cells from this one southwards have been in view, kept as cells
    // are first seen, so that an explored square is the sum of BLOCK of these, not BLOCK^2 cells
    const seenDown = new Uint8Array(n * G * G);
    const seenAt = new Int16Array(n * G * G); // the step it was last in view
    const first = new Int8Array(n * G * G); // the status it had when first seen
    const marks = Array.from({ length: n }, () => []); // cells that ever held a landmark
    const marked = new Uint8Array(n * G * G); // 1 for the cells in marks
    const x = new Int32Array(n);
    const y = new Int32Array(n);
    const x0 = new Int32Array(n);
    const y0 = new Int32Array(n);
    const t = new Int32Array(n);
    const walkable = new Uint8Array(n * 4); // the previous view's N, S, E, W neighbours
    const nearest = new Int32Array(K); // per kind: the nearest cell's index in marks, -1 none
    const nearestD = new Int32Array(K);

    return {
      size,
      /**
       * Env i sees row `row` of flat observations after taking `action` (ignored when the
       * observation opens an episode).
       */
      observe(i, flat, row, action, opening) {
        const base = row * spec.obsSize;
        const cells = i * G * G;
        if (opening) {
          kind.fill(-1, cells, cells + G * G);
          seen.fill(0, cells, cells + G * G);
          seenDown.fill(0, cells, cells + G * G);
          marked.fill(0, cells, cells + G * G);
          marks[i].length = 0;
          t[i] = 0;
          x[i] = y[i] = 0;
          if (xField) [x0[i], y0[i]] = [flat[base + xField.offset], flat[base + yField.offset]];
        } else {
          t[i]++;
          if (xField) {
            x[i] = flat[base + xField.offset] - x0[i];
            y[i] = flat[base + yField.offset] - y0[i];
          } else {
            const d = direction[action] ?? -1;
            if (d >= 0 && walkable[i * 4 + d]) {
              x[i] += STEPS[d][0];
              y[i] += STEPS[d][1];
            }
          }
        }
        const corner = cells + (y[i] - REACH + SPAN) * G + x[i] - REACH + SPAN; // the view's first cell
        for (let v = 0; v < VIEW * VIEW; v++) {
          const c = corner + Math.floor(v / VIEW) * G + (v % VIEW);
          const code = flat[base + tiles.offset + v];
          const now = status ? flat[base + status.offset + v] : 0;
          if (!seen[c]) {
            first[c] = now;
            for (let k = 0, up = c; k < BLOCK && up >= cells; k++, up -= G) seenDown[up]++;
          }
          const k = kindOf[(code * STATUS + now) * 2 + (now === first[c] ? 0 : 1)];
          if (k >= 0 && !marked[c]) {
            marks[i].push(c);
            marked[c] = 1;
          }
          kind[c] = k;
          seen[c] = 1;
          seenAt[c] = t[i];
        }
        const at = base + tiles.offset + REACH * VIEW + REACH;
        walkable[i * 4] = walks[flat[at - VIEW]];
        walkable[i * 4 + 1] = walks[flat[at + VIEW]];
        walkable[i * 4 + 2] = walks[flat[at + 1]];
        walkable[i * 4 + 3] = walks[flat[at - 1]];
      },

      /** Writes env i's memory features into out at offset. */
      write(i, out, offset) {
        const cells = i * G * G;
        const ax = x[i] + SPAN;
        const ay = y[i] + SPAN;
        nearest.fill(-1);
        const list = marks[i];
        for (let j = 0; j < list.length; j++) {
          const c = list[j];
          const k = kind[c];
          if (k < 0) continue;
          const local = c - cells;
          const d = Math.abs((local % G) - ax) + Math.abs(Math.floor(local / G) - ay);
          if (nearest[k] < 0 || d < nearestD[k]) {
            nearest[k] = j;
            nearestD[k] = d;
          }
        }
        let o = offset;
        for (let k = 0; k < K; k++, o += PER_KIND) {
          if (nearest[k] < 0) {
            out.fill(0, o, o + PER_KIND);
            continue;
          }
          const local = list[nearest[k]] - cells;
          out[o] = 1;
          out[o + 1] = Math.max(-1, Math.min(1, ((local % G) - ax) / FAR));
          out[o + 2] = Math.max(-1, Math.min(1, (Math.floor(local / G) - ay) / FAR));
          out[o + 3] = Math.min(1, nearestD[k] / (2 * FAR));
          out[o + 4] = Math.min(1, (t[i] - seenAt[cells + local]) / horizon);
        }
        const from = cells + (ay - (BLOCKS * BLOCK) / 2) * G + ax - (BLOCKS * BLOCK) / 2;
        for (let by = 0; by < BLOCKS; by++) {
          for (let bx = 0; bx < BLOCKS; bx++) {
            const c = from + by * BLOCK * G + bx * BLOCK;
            out[o++] = (seenDown[c] + seenDown[c + 1] + seenDown[c + 2] + seenDown[c + 3]) / (BLOCK * BLOCK); // BLOCK is 4
          }
        }
        return out;
      },
    };
  }

  return {
    size,
    /** The landmark kinds, in the order of their features. */
    kinds: () => kinds.slice(),
    create,
  };
}
