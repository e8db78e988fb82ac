// envMeta.js — what the page adds to the API's envSpecs: the key and a one-line hint for
// each action, and short names for the two farms. Keys are matched on KeyboardEvent.key
// (case-insensitive); moves also answer to the arrow keys.
import { envIds, envSpecs } from 'valley-farm';

export { envIds, envSpecs };

export const MOVE_KEYS = {
  ArrowUp: 'north', w: 'north',
  ArrowDown: 'south', s: 'south',
  ArrowRight: 'east', d: 'east',
  ArrowLeft: 'west', a: 'west',
};

const valley = {
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
};

const backwards = {
  title: 'Backwards Valley Farm',
  short: 'Backwards',
  blurb: 'Everything is inverted: crops ripen if you leave them alone (walk onto ripe ones), care weakens animals (then watch them recover), insults befriend villagers. 40 steps.',
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
};

export const envMeta = { 'ValleyFarm-v0': valley, 'BackwardsValleyFarm-v0': backwards };

/** The action id a keyboard key means in this env, or -1. */
export function actionForKey(envId, key) {
  const spec = envSpecs[envId];
  const meta = envMeta[envId];
  if (!spec || typeof key !== 'string') return -1;
  const move = MOVE_KEYS[key] ?? MOVE_KEYS[key.toLowerCase()];
  if (move) return spec.actions.indexOf(move);
  const wanted = key === ' ' || key === 'Spacebar' ? 'SPACE' : key.toUpperCase();
  return spec.actions.findIndex((name) => meta.actions[name].key.toUpperCase() === wanted);
}

/** The action id for a number or an action name ('plant'), or -1 when it is neither. */
export function actionId(envId, action) {
  const spec = envSpecs[envId];
  if (typeof action === 'string') return spec.actions.indexOf(action);
  if (Number.isInteger(action) && action >= 0 && action < spec.actions.length) return action;
  return -1;
}

/** "an integer 0 … 11 or a name (north, south, …)": for error messages. */
export function allowedActions(envId) {
  const names = envSpecs[envId].actions;
  return `an integer 0 … ${names.length - 1} or an action name (${names.join(', ')})`;
}

/** The move action ids by direction: [north, south, east, west] = [0, 1, 2, 3] in both farms. */
export const DIRS = [
  { dx: 0, dy: -1 },
  { dx: 0, dy: 1 },
  { dx: 1, dy: 0 },
  { dx: -1, dy: 0 },
];
