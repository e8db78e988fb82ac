// valley.js — everything the page knows about ValleyFarm-v0 that the engine does not tell
// it: keys and hints, how its cells are drawn and named, where the agent is, what the
// status panel lists, the legend's samples and the editor's starter agent. Components and
// models ask this adapter (through farms/index.js) and never test the env id.
import { valleyWorld, valleyWindow, valleyCell } from '../views.js';
import { VALLEY_MOODS } from '../labels.js';

const INVENTORY = ['seeds', 'water', 'crops', 'feed', 'products', 'coins', 'gifts'];

export const valley = {
  id: 'ValleyFarm-v0',
  slug: 'valley', // the docs page and the embed's short name
  code: 'V', // the env's letter in share links
  title: 'Valley Farm',
  short: 'Valley',
  blurb: 'Plant and water crops, feed animals and collect their products, give gifts to villagers, then sell at the market. 50 steps.',
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
  position: (env) => {
    const { x, y } = env.state().agent;
    return { x, y };
  },
  worldCells: valleyWorld,
  windowCells: valleyWindow,
  /** A cell drawn for a tile code alone (the docs' tables): entities in a typical state. */
  sampleCell: (code) => valleyCell(code, code >= 8 && code <= 10 ? { sated: false } : code === 11 ? { mood: 1 } : {}),
  /** The observation's grids, by name, for the docs' observation viewer. */
  grids: (obs) => [['view', obs.view]],

  /**
   * The status panel's groups of rows: the inventory, then each villager's relationship
   * with the engine's mood (state(), not re-derived from the rounded relationship the
   * observation shows: at 47.5 the observation says 50, and the villager is still neutral).
   */
  statusGroups(obs, state) {
    return [
      { label: 'Inventory', class: 'inventory', rows: INVENTORY.map((k) => ({ name: k, id: k, value: obs.inventory[k] })) },
      {
        label: 'Villagers',
        rows: obs.relationships.map((r, i) => ({
          name: `villager ${i + 1}`,
          id: `relationship-${i}`,
          value: r,
          note: { mood: i, text: VALLEY_MOODS[state.villagers[i].mood] },
        })),
      },
    ];
  },

  /** Every tile kind and entity state, for the legend. */
  legendSamples: () => [
    { kind: 'ground' }, { kind: 'obstacle' },
    ...[0, 1, 2, 3].map((stage) => ({ kind: 'soil', stage })),
    { kind: 'barn' },
    { kind: 'animal', species: 'chicken', sated: false },
    { kind: 'animal', species: 'cow', sated: true },
    { kind: 'animal', species: 'sheep', sated: false, pending: 1 },
    { kind: 'animal', species: 'cow' },
    ...[0, 1, 2].map((mood) => ({ kind: 'villager', mood })),
    { kind: 'villager' },
    { kind: 'cottage' }, { kind: 'market' }, { kind: 'out' }, { kind: 'unknown' },
  ],

  starterCode: `// act(observation, info) returns an action: a number 0-11 or a name.
// observation: { view[25], center, inventory, relationships, stepsLeft }
function act(obs) {
  if (obs.view[12] === 3 && obs.inventory.seeds > 0) return 'plant'; // empty soil here
  return ['north', 'south', 'east', 'west'][Math.floor(Math.random() * 4)];
}
`,
};
