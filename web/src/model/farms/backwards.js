// backwards.js — everything the page knows about BackwardsValleyFarm-v0 that the engine
// does not tell it (see valley.js for the shape every adapter has).
import { envSpecs } from 'valley-farm';

const SPEC = envSpecs['BackwardsValleyFarm-v0'];
const C = SPEC.codes;
const at = (x, y) => `${x},${y}`;

// the rules' names of a field's, a pen's and a house's status values (the engine's spec)
const statusNames = (tile) => SPEC.tiles.find((t) => t.name === tile).status;
const STAGES = statusNames('FIELD');
const HEALTH = statusNames('PEN');
const MOODS = statusNames('HOUSE');
function bonusText(d) {
  if (d.bonus === undefined) return d.rewarded ? ', bonus paid' : '';
  return `, bonus ${d.bonus}${d.rewarded ? ' (paid)' : ''}`;
}

/** A backwards-farm cell from its tile code and status value. */
export function backwardsCell(code, status, extra = {}) {
  switch (code) {
    case C.OUT_OF_BOUNDS:
      return { kind: 'out' };
    case C.GROUND:
      return { kind: 'ground' };
    case C.FENCE:
      return { kind: 'fence' };
    case C.FIELD:
      return { kind: 'field', stage: status, ...extra };
    case C.PEN:
      return { kind: 'pen', health: status, ...extra };
    case C.HOUSE:
      return { kind: 'house', mood: status, ...extra };
    default:
      return { kind: 'unknown' };
  }
}

/** The backwards farm's world view: rows of descriptors from a full state. */
export function backwardsWorld(state) {
  const byPos = new Map();
  for (const c of state.crops) if (!c.harvested) byPos.set(at(c.x, c.y), { status: c.stage, extra: { value: c.value } });
  state.animals.forEach((a, index) =>
    byPos.set(at(a.x, a.y), { status: a.health, extra: { index, bonus: a.bonus, rewarded: a.rewarded } }),
  );
  state.villagers.forEach((v, index) =>
    byPos.set(at(v.x, v.y), { status: v.mood, extra: { index, bonus: v.bonus, rewarded: v.rewarded } }),
  );
  return state.tiles.map((row, y) =>
    row.map((code, x) => {
      const e = byPos.get(at(x, y));
      return { ...backwardsCell(code, e?.status ?? 0, e?.extra), seen: 'now' };
    }),
  );
}

/** The 25 descriptors of a backwards observation's window. */
export function backwardsWindow(obs) {
  const out = new Array(25);
  for (let i = 0; i < 25; i++) out[i] = backwardsCell(obs.terrain[i], obs.status[i]);
  return out;
}

export const backwards = {
  id: SPEC.id,
  spec: SPEC,
  slug: 'backwards',
  code: 'B',
  title: 'Backwards Valley Farm',
  short: 'Backwards',
  blurb:
    'Everything is inverted: crops ripen if you leave them alone (walk onto ripe ones), care weakens animals (then watch them recover), insults befriend villagers. 40 steps.',
  howTo: {
    goal: 'Raise Farm Value in 40 steps: every crop, animal and villager pays its bonus once.',
    idea: 'Everything runs backwards. Crops ripen by themselves: walk onto a ripe field to harvest it. Feeding or cleaning makes an animal Weak, and it pays only when it grows back to Thriving where you can see it (within 2 tiles). Insults make villagers Friendly. Moves turn you first: the verbs act on the tile in front.',
  },
  emptyLog: "Nothing yet: walk onto ripe fields, care for animals, insult villagers… each step's effects and rewards show here.",
  actions: {
    north: { key: 'W', hint: 'Face north, and move if you can (↑)' },
    south: { key: 'S', hint: 'Face south, and move if you can (↓)' },
    east: { key: 'D', hint: 'Face east, and move if you can (→)' },
    west: { key: 'A', hint: 'Face west, and move if you can (←)' },
    wait: { key: 'Space', hint: 'Do nothing for one step' },
    water: { key: 'R', hint: 'Water the crop in front (resets it to Seed)' },
    fertilize: { key: 'E', hint: 'Fertilize the crop in front (resets it to Seed)' },
    feed: { key: 'F', hint: 'Feed the animal in front (makes it Weak)' },
    clean: { key: 'C', hint: 'Clean the pen in front (makes its animal Weak)' },
    compliment: { key: 'K', hint: 'Compliment the villager in front (mood −1)' },
    insult: { key: 'I', hint: 'Insult the villager in front (mood +1)' },
  },

  faces: true, // the agent faces a direction (0-3), in the observation and in the state
  /** The facing to draw, from an observation or the state's agent. */
  facing: (obsOrAgent) => obsOrAgent.facing,
  /** The observation carries the position. */
  position: (obs) => ({ x: obs.x, y: obs.y }),
  worldCells: backwardsWorld,
  windowCells: backwardsWindow,
  sampleCell: (code) => backwardsCell(code, 1),
  grids: (obs) => [
    ['terrain', obs.terrain],
    ['status', obs.status],
  ],

  labels: {
    fence: () => 'Fence',
    field: (d) => `Field, ${STAGES[d.stage]} (stage ${d.stage})${d.value !== undefined ? `, value ${d.value}` : ''}`,
    pen: (d) => `Pen, animal ${HEALTH[d.health]}${bonusText(d)}`,
    house: (d) => `House, villager ${MOODS[d.mood]}${bonusText(d)}`,
  },
  stateKeys: {
    field: (d) => `field-${d.stage}`,
    pen: (d) => `pen-${HEALTH[d.health].toLowerCase()}${d.rewarded ? '-paid' : ''}`,
    house: (d) => `house-${MOODS[d.mood].toLowerCase()}${d.rewarded ? '-paid' : ''}`,
  },

  statusGroups: (obs) => [
    {
      label: 'Position',
      rows: [
        { name: 'Farm Value', id: 'farmValue', value: obs.farmValue },
        { name: 'position', id: 'position', value: `x ${obs.x}, y ${obs.y}` },
        { name: 'facing', id: 'facing', value: SPEC.facings[obs.facing] },
      ],
    },
  ],

  legendSamples: () => [
    { kind: 'ground' },
    { kind: 'fence' },
    ...[0, 1, 2, 3].map((stage) => ({ kind: 'field', stage })),
    ...[0, 1, 2].map((health) => ({ kind: 'pen', health })),
    { kind: 'pen', health: 2, bonus: 2, rewarded: true },
    ...[0, 1, 2].map((mood) => ({ kind: 'house', mood })),
    { kind: 'house', mood: 2, bonus: 4, rewarded: true },
    { kind: 'out' },
    { kind: 'unknown' },
  ],

  starterCode: `// act(observation, info) returns an action: a number 0-10 or a name.
// observation: { terrain[25], status[25], x, y, facing, stepsLeft, farmValue }
function act(obs) {
  // ripe fields are harvested when you stand on them: wander and never water
  return ['north', 'south', 'east', 'west'][Math.floor(Math.random() * 4)];
}
`,
};
