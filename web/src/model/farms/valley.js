// valley.js — everything the page knows about ValleyFarm-v0 that the engine does not tell
// it: keys and hints, how its cells are drawn and named, where the agent is, what the
// status panel lists, the legend's samples and the editor's starter agent. Components and
// models ask this adapter (through farms/index.js) and never test the env id.
import { envSpecs } from 'valley-farm';

const SPEC = envSpecs['ValleyFarm-v0'];
const C = SPEC.codes;
const INVENTORY = Object.keys(SPEC.observation.inventory);
const at = (x, y) => `${x},${y}`;

// words for the cells' labels (see `labels` below)
const SOIL = ['Soil, empty', 'Soil, seeded (stage 1)', 'Crop growing (stage 2)', 'Crop mature (stage 3): harvest it'];
const PRODUCT = { chicken: 'egg', cow: 'milk', sheep: 'wool' };
const cap = (s) => s[0].toUpperCase() + s.slice(1);
const plural = (n, word) => `${n} ${word}${n === 1 || word === 'milk' || word === 'wool' ? '' : 's'}`;

/** A valley cell from its tile code, with what is known about its entity. */
export function valleyCell(code, extra = {}) {
  switch (code) {
    case C.OUT_OF_BOUNDS:
      return { kind: 'out' };
    case C.GROUND:
      return { kind: 'ground' };
    case C.OBSTACLE:
      return { kind: 'obstacle' };
    case C.SOIL_EMPTY:
    case C.SOIL_SEEDED:
    case C.CROP_GROWING:
    case C.CROP_MATURE:
      return { kind: 'soil', stage: code - C.SOIL_EMPTY };
    case C.BARN:
      return { kind: 'barn', species: extra.species };
    case C.CHICKEN:
    case C.COW:
    case C.SHEEP:
      return { kind: 'animal', species: SPEC.species[code - C.CHICKEN], ...extra };
    case C.VILLAGER:
      return { kind: 'villager', ...extra };
    case C.MARKET:
      return { kind: 'market' };
    case C.COTTAGE:
      return { kind: 'cottage', index: extra.index };
    default:
      return { kind: 'unknown' };
  }
}

/** The valley's world view: rows of descriptors from a full state. */
export function valleyWorld(state) {
  const animals = new Map();
  const barns = new Map();
  state.animals.forEach((a, index) => {
    animals.set(at(a.x, a.y), {
      index,
      sated: a.sated,
      satedStepsLeft: a.satedStepsLeft,
      pending: a.pending,
      counter: a.counter,
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
      const extra =
        code === C.BARN
          ? { species: barns.get(k) }
          : code === C.COTTAGE
            ? { index: cottages.get(k) }
            : (animals.get(k) ?? villagers.get(k) ?? {});
      return { ...valleyCell(code, extra), seen: 'now' };
    }),
  );
}

/** The 25 descriptors of a valley observation's window (row-major, north row first). */
export function valleyWindow(obs) {
  const out = new Array(25);
  for (let i = 0; i < 25; i++) {
    const code = obs.view[i];
    let extra = {};
    if (i === 12 && code >= C.CHICKEN && code <= C.SHEEP) extra = { sated: obs.center === 1 };
    if (i === 12 && code === C.VILLAGER) extra = { mood: obs.center };
    out[i] = valleyCell(code, extra);
  }
  return out;
}

export const valley = {
  id: SPEC.id,
  spec: SPEC,
  slug: 'valley', // the docs page and the embed's short name
  code: 'V', // the env's letter in share links
  title: 'Valley Farm',
  short: 'Valley',
  blurb: 'Plant and water crops, feed animals and collect their products, give gifts to villagers, then sell at the market. 50 steps.',
  // the first-visit card (HowTo.jsx); its keys come from `actions` below
  howTo: {
    goal: 'Earn as much reward as you can in 50 steps: harvests, collected products, gifts and sales all pay.',
    idea: "Gifts pay best: each raises a villager's relationship by 7.5 and pays half of that (+3.75), and friendlier villagers raise the price of every sale. The water lasts for two crops, and a fed animal makes a product every 5 ticks for 10 — collect after the second, not the first.",
  },
  emptyLog: "Nothing yet: plant, feed, give gifts… each step's effects and rewards show here.",
  actions: {
    north: { key: 'W', hint: 'Move north (↑)' },
    south: { key: 'S', hint: 'Move south (↓)' },
    east: { key: 'D', hint: 'Move east (→)' },
    west: { key: 'A', hint: 'Move west (←)' },
    plant: { key: 'P', hint: 'Plant a seed on empty soil' },
    water: { key: 'R', hint: 'Water a seedling or growing crop (R for rain)' },
    harvest: { key: 'H', hint: 'Harvest a mature crop (+0.1)' },
    feed: { key: 'F', hint: 'Feed the hungry animal you stand on' },
    collect: { key: 'C', hint: 'Collect the products waiting here (+0.2 each)' },
    gift: { key: 'G', hint: 'Give a gift to a villager here or next to you' },
    sell: { key: 'M', hint: 'Sell crops and products at the market (M for market)' },
    wait: { key: 'Space', hint: 'Do nothing for one step' },
  },

  faces: false, // the valley agent has no facing: moves just move
  /** The facing to draw: none. */
  facing: () => undefined,
  /** The observation has no position: the engine's state has it (never dead-reckoned). */
  position: (obs, stateOf) => {
    const { x, y } = stateOf().agent;
    return { x, y };
  },
  worldCells: valleyWorld,
  windowCells: valleyWindow,
  /** A cell drawn for a tile code alone (the docs' tables): entities in a typical state. */
  sampleCell: (code) => valleyCell(code, code >= C.CHICKEN && code <= C.SHEEP ? { sated: false } : code === C.VILLAGER ? { mood: 1 } : {}),
  /** The observation's grids, by name, for the docs' observation viewer. */
  grids: (obs) => [['view', obs.view]],

  /** The accessible label (and tooltip) of each kind of cell this farm has (model/labels.js). */
  labels: {
    obstacle: () => 'Obstacle (rock)',
    soil: (d) => SOIL[d.stage],
    barn: (d) => (d.species ? `Barn of the ${d.species}` : 'Barn'),
    animal: (d) => {
      let fed = 'hungry or sated: not visible from here';
      if (d.sated === true) fed = d.satedStepsLeft !== undefined ? `sated for ${d.satedStepsLeft} more steps` : 'sated';
      if (d.sated === false) fed = 'hungry';
      const pending = d.pending ? `, ${plural(d.pending, PRODUCT[d.species])} waiting` : '';
      return `${cap(d.species)}, ${fed}${pending}`;
    },
    villager: (d) => {
      // numbered from 0, as the engine's events and the status panel number them
      const who = d.index !== undefined ? `Villager ${d.index}` : 'Villager';
      const mood = d.mood === undefined ? 'mood not visible from here' : SPEC.moods[d.mood];
      const rel = d.relationship !== undefined ? ` (relationship ${d.relationship})` : '';
      return `${who}, ${mood}${rel}`;
    },
    market: () => 'Market',
    cottage: (d) => (d.index !== undefined ? `Cottage of villager ${d.index}` : 'Cottage'),
  },
  /** A short key of a cell's state for the kinds whose key is more than the kind (tests and the stylesheet use it). */
  stateKeys: {
    soil: (d) => `soil-${d.stage}`,
    animal: (d) =>
      `animal-${d.species}-${d.sated === undefined ? 'unseen' : d.sated ? 'sated' : 'hungry'}${d.pending ? `-p${d.pending}` : ''}`,
    villager: (d) => `villager-${d.mood === undefined ? 'unseen' : SPEC.moods[d.mood]}`,
    barn: (d) => `barn${d.species ? `-${d.species}` : ''}`,
  },

  /**
   * The status panel's groups of rows: the inventory, then each villager's relationship
   * with the engine's mood (state(), not re-derived from the rounded relationship the
   * observation shows: at 47.5 the observation says 50, and the villager is still neutral).
   * Villagers are numbered as the engine numbers them (from 0: its events, relationships[i]).
   */
  statusGroups(obs, state) {
    return [
      { label: 'Inventory', class: 'inventory', rows: INVENTORY.map((k) => ({ name: k, id: k, value: obs.inventory[k] })) },
      {
        label: 'Villagers',
        rows: obs.relationships.map((r, i) => ({
          name: `villager ${i}`,
          id: `relationship-${i}`,
          value: r,
          note: { mood: i, text: SPEC.moods[state.villagers[i].mood] },
        })),
      },
    ];
  },

  /** Every tile kind and entity state, for the legend. */
  legendSamples: () => [
    { kind: 'ground' },
    { kind: 'obstacle' },
    ...[0, 1, 2, 3].map((stage) => ({ kind: 'soil', stage })),
    { kind: 'barn' },
    { kind: 'animal', species: 'chicken', sated: false },
    { kind: 'animal', species: 'cow', sated: true },
    { kind: 'animal', species: 'sheep', sated: false, pending: 1 },
    { kind: 'animal', species: 'cow' },
    ...[0, 1, 2].map((mood) => ({ kind: 'villager', mood })),
    { kind: 'villager' },
    { kind: 'cottage' },
    { kind: 'market' },
    { kind: 'out' },
    { kind: 'unknown' },
  ],

  starterCode: `// act(observation, info) returns an action: a number 0-11 or a name.
// observation: { view[25], center, inventory, relationships, stepsLeft }
function act(obs) {
  if (obs.view[12] === 3 && obs.inventory.seeds > 0) return 'plant'; // empty soil here
  return ['north', 'south', 'east', 'west'][Math.floor(Math.random() * 4)];
}
`,
};
