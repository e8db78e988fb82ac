// views.js — the board's grid of cell descriptors. Each farm's adapter (farms/) turns what
// the engine reports into descriptors: the world (env.state(): everything, hidden values
// included) and the 5 × 5 window of an observation. This module keeps what is shared: the
// agent's eyes (the window now, cells seen earlier in the episode as "last seen", the rest
// unknown). A descriptor is plain data: { kind, ...state, seen }.
//
// kinds, valley:    out ground obstacle soil{stage} barn{species} animal{species, sated,
//                   satedStepsLeft, pending, counter} villager{index, mood, relationship}
//                   market cottage{index}
// kinds, backwards: out ground fence field{stage, value} pen{health, bonus, rewarded}
//                   house{mood, bonus, rewarded}
// plus unknown (never seen). A state field left undefined means "not in the observation".

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
