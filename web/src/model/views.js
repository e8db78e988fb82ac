// views.js — turns what the engine reports into a grid of cell descriptors for the board.
// Each farm's adapter (farms/) picks its builders here. Two views: the world (env.state():
// everything, hidden values included) and the agent's eyes (only the observation: the
// 5 × 5 window now, cells seen earlier in the episode as "last seen", the rest unknown). A descriptor is plain data: { kind, ...state, seen }.
//
// kinds, valley:    out ground obstacle soil{stage} barn{species} animal{species, sated,
//                   satedStepsLeft, pending, counter} villager{index, mood, relationship}
//                   market cottage{index}
// kinds, backwards: out ground fence field{stage, value} pen{health, bonus, rewarded}
//                   house{mood, bonus, rewarded}
// plus unknown (never seen). A state field left undefined means "not in the observation".
export const SPECIES = ['chicken', 'cow', 'sheep'];
const at = (x, y) => `${x},${y}`;

/** A valley cell from its tile code, with what is known about its entity. */
export function valleyCell(code, extra = {}) {
  switch (code) {
    case 0: return { kind: 'out' };
    case 1: return { kind: 'ground' };
    case 2: return { kind: 'obstacle' };
    case 3: case 4: case 5: case 6: return { kind: 'soil', stage: code - 3 };
    case 7: return { kind: 'barn', species: extra.species };
    case 8: case 9: case 10: return { kind: 'animal', species: SPECIES[code - 8], ...extra };
    case 11: return { kind: 'villager', ...extra };
    case 12: return { kind: 'market' };
    case 13: return { kind: 'cottage', index: extra.index };
    default: return { kind: 'unknown' };
  }
}

/** A backwards-farm cell from its tile code and status value. */
export function backwardsCell(code, status, extra = {}) {
  switch (code) {
    case 0: return { kind: 'out' };
    case 1: return { kind: 'ground' };
    case 2: return { kind: 'fence' };
    case 3: return { kind: 'field', stage: status, ...extra };
    case 4: return { kind: 'pen', health: status, ...extra };
    case 5: return { kind: 'house', mood: status, ...extra };
    default: return { kind: 'unknown' };
  }
}

/** The valley's world view: rows of descriptors from a full state. */
export function valleyWorld(state) {
  const animals = new Map();
  const barns = new Map();
  state.animals.forEach((a, index) => {
    animals.set(at(a.x, a.y), {
      index, sated: a.sated, satedStepsLeft: a.satedStepsLeft, pending: a.pending, counter: a.counter,
    });
    barns.set(at(a.x, a.y - 1), a.species);
  });
  const villagers = new Map();
  const cottages = new Map();
  state.villagers.forEach((v, index) => {
    villagers.set(at(v.x, v.y), { index, mood: v.mood, relationship: v.relationship });
    cottages.set(at(v.x, v.y - 1), index);
  });
  return state.tiles.map((row, y) =>
    row.map((code, x) => {
      const k = at(x, y);
      const extra = code === 7 ? { species: barns.get(k) } : code === 13 ? { index: cottages.get(k) }
        : (animals.get(k) ?? villagers.get(k) ?? {});
      return { ...valleyCell(code, extra), seen: 'now' };
    }),
  );
}

/** The backwards farm's world view: rows of descriptors from a full state. */
export function backwardsWorld(state) {
  const byPos = new Map();
  for (const c of state.crops) if (!c.harvested) byPos.set(at(c.x, c.y), { status: c.stage, extra: { value: c.value } });
  state.animals.forEach((a, index) => byPos.set(at(a.x, a.y), { status: a.health, extra: { index, bonus: a.bonus, rewarded: a.rewarded } }));
  state.villagers.forEach((v, index) => byPos.set(at(v.x, v.y), { status: v.mood, extra: { index, bonus: v.bonus, rewarded: v.rewarded } }));
  return state.tiles.map((row, y) =>
    row.map((code, x) => {
      const e = byPos.get(at(x, y));
      return { ...backwardsCell(code, e?.status ?? 0, e?.extra), seen: 'now' };
    }),
  );
}

/** The 25 descriptors of a valley observation's window (row-major, north row first). */
export function valleyWindow(obs) {
  const out = new Array(25);
  for (let i = 0; i < 25; i++) {
    const code = obs.view[i];
    let extra = {};
    if (i === 12 && code >= 8 && code <= 10) extra = { sated: obs.center === 1 };
    if (i === 12 && code === 11) extra = { mood: obs.center };
    out[i] = valleyCell(code, extra);
  }
  return out;
}

/** The 25 descriptors of a backwards observation's window. */
export function backwardsWindow(obs) {
  const out = new Array(25);
  for (let i = 0; i < 25; i++) out[i] = backwardsCell(obs.terrain[i], obs.status[i]);
  return out;
}

/** An empty memory of what the agent has seen: one slot per map cell. */
export const emptyMemory = (width, height) => ({ width, height, cells: new Array(width * height).fill(null) });

/** Stores the current window, centred on pos, into the memory. */
export function remember(memory, window, pos) {
  for (let i = 0; i < 25; i++) {
    const x = pos.x + (i % 5) - 2;
    const y = pos.y + Math.floor(i / 5) - 2;
    if (x < 0 || y < 0 || x >= memory.width || y >= memory.height) continue;
    memory.cells[y * memory.width + x] = window[i];
  }
}

/** The eyes view: the window now, the memory as last seen, the rest unknown. */
export function eyesCells(memory, pos) {
  const rows = [];
  for (let y = 0; y < memory.height; y++) {
    const row = [];
    for (let x = 0; x < memory.width; x++) {
      const cell = memory.cells[y * memory.width + x];
      const inWindow = Math.abs(x - pos.x) <= 2 && Math.abs(y - pos.y) <= 2;
      row.push(cell ? { ...cell, seen: inWindow ? 'now' : 'past' } : { kind: 'unknown', seen: 'never' });
    }
    rows.push(row);
  }
  return rows;
}
