// tutorial.js — the steps of "Write your first agent": the code the reader starts from at
// each step, per farm. Each defines act(observation, info) (and may define reset()), the
// same contract as the game's agent editor.
//
// The numbers in the reader's code (tile codes, status values, how many actions) are the
// spec's, written in when the page is built, so the code stays right if the engine changes.
import { valley, backwards } from '../../model/farms/index.js';

/** `const NAME = code, …;` lines (four names a line) for the reader's code: the tile codes it names, from the spec. */
function tileCodes(spec, names) {
  const lines = [];
  for (let i = 0; i < names.length; i += 4)
    lines.push(
      `const ${names
        .slice(i, i + 4)
        .map((n) => `${n} = ${spec.codes[n]}`)
        .join(', ')};`,
    );
  return lines.join('\n');
}
const VALLEY_TILES = tileCodes(valley.spec, [
  'OUT_OF_BOUNDS',
  'OBSTACLE',
  'SOIL_EMPTY',
  'SOIL_SEEDED',
  'CROP_GROWING',
  'CROP_MATURE',
  'BARN',
  'CHICKEN',
  'SHEEP',
  'VILLAGER',
  'MARKET',
  'COTTAGE',
]);
const status = (tile, name) => backwards.spec.tiles.find((t) => t.name === tile).status.indexOf(name);

export const TUTORIAL_STEPS = {
  [valley.id]: [
    {
      title: 'A random agent',
      text: 'The baseline every agent must beat: a uniformly random action each step. Most random actions are illegal (planting on grass, selling away from the market) and only spend a step.',
      code: `// A random agent: any of the ${valley.spec.actions.length} actions, uniformly.
function act(observation, info) {
  return Math.floor(Math.random() * ${valley.spec.actions.length});
}`,
    },
    {
      title: 'Do the right thing where you stand',
      text: `Read the observation: view[12] is the tile under you, center its state. Act when the tile allows it, else walk randomly. Gifts pay the most (+${valley.spec.rules.giftPoints * valley.spec.rules.rewardRelationshipPoint} each), so give them whenever a villager is next to you.`,
      code: `${VALLEY_TILES}
const isAnimal = (code) => code >= CHICKEN && code <= SHEEP;
const MOVES = ['north', 'south', 'east', 'west'];

function act(obs) {
  const here = obs.view[12];
  const inv = obs.inventory;
  // the villager on your tile or a 4-neighbour (view indices 12, 7, 17, 13, 11)
  if (inv.gifts > 0 && [12, 7, 17, 13, 11].some((i) => obs.view[i] === VILLAGER)) return 'gift';
  if (here === SOIL_EMPTY && inv.seeds > 0) return 'plant';
  if ((here === SOIL_SEEDED || here === CROP_GROWING) && inv.water > 0) return 'water';
  if (here === CROP_MATURE) return 'harvest';
  if (isAnimal(here) && obs.center === 0 && inv.feed > 0) return 'feed';
  if (here === MARKET && inv.crops + inv.products > 0) return 'sell';
  return MOVES[Math.floor(Math.random() * 4)];
}`,
    },
    {
      title: 'Walk towards what you can see',
      text: 'Instead of wandering, head for the nearest useful tile in the 5 × 5 view: villagers while you hold gifts, soil while you hold seeds, hungry animals while you hold feed, the market when you carry goods. Stay on a fed animal until its products are pending, and collect them.',
      code: `${VALLEY_TILES}
const isAnimal = (code) => code >= CHICKEN && code <= SHEEP;
const MOVES = ['north', 'south', 'east', 'west'];
let waited = 0;                       // steps spent on a fed animal

function reset() { waited = 0; }

function useful(code, inv) {
  if (code === VILLAGER) return inv.gifts > 0;
  if (code === SOIL_EMPTY) return inv.seeds > 0;
  if (code === SOIL_SEEDED || code === CROP_GROWING) return inv.water > 0;
  if (code === CROP_MATURE) return true;
  if (isAnimal(code)) return inv.feed > 0;
  if (code === MARKET) return inv.crops + inv.products > 0;
  return false;
}

function act(obs) {
  const here = obs.view[12];
  const inv = obs.inventory;
  if (inv.gifts > 0 && [12, 7, 17, 13, 11].some((i) => obs.view[i] === VILLAGER)) return 'gift';
  if (here === SOIL_EMPTY && inv.seeds > 0) return 'plant';
  if ((here === SOIL_SEEDED || here === CROP_GROWING) && inv.water > 0) return 'water';
  if (here === CROP_MATURE) return 'harvest';
  if (isAnimal(here) && obs.center === 0 && inv.feed > 0) { waited = 0; return 'feed'; }
  if (isAnimal(here) && waited < 6) { waited++; return waited === 6 ? 'collect' : 'wait'; }
  if (here === MARKET && inv.crops + inv.products > 0) return 'sell';
  // the nearest useful tile in view (not the one under you)
  let best = null;
  for (let i = 0; i < 25; i++) {
    const dx = (i % 5) - 2, dy = Math.floor(i / 5) - 2;
    if (i === 12 || !useful(obs.view[i], inv)) continue;
    const d = Math.abs(dx) + Math.abs(dy);
    if (!best || d < best.d) best = { dx, dy, d };
  }
  if (best) {
    const tries = [];
    if (best.dy < 0) tries.push(['north', 7]);
    if (best.dy > 0) tries.push(['south', 17]);
    if (best.dx > 0) tries.push(['east', 13]);
    if (best.dx < 0) tries.push(['west', 11]);
    const open = tries.find(([, i]) => ![OUT_OF_BOUNDS, OBSTACLE, BARN, COTTAGE].includes(obs.view[i]));
    if (open) return open[0];
  }
  waited = 0;
  return MOVES[Math.floor(Math.random() * 4)];
}`,
    },
  ],
  [backwards.id]: [
    {
      title: 'A random agent',
      text: 'A random action each step. In this farm random play does harm: watering and feeding set crops and animals back.',
      code: `// A random agent: any of the ${backwards.spec.actions.length} actions, uniformly.
function act(observation, info) {
  return Math.floor(Math.random() * ${backwards.spec.actions.length});
}`,
    },
    {
      title: 'Never care, walk onto ripe crops, insult villagers',
      text: `Everything here is inverted: leave crops and animals alone, step onto Harvest-Ready fields (status ${status('FIELD', 'Harvest-Ready')}), and insult a villager in front until it is Friendly. Terrain and status are aligned with the map; index 12 is you.`,
      code: `${tileCodes(backwards.spec, ['FIELD', 'HOUSE'])}
const READY = ${status('FIELD', 'Harvest-Ready')}, FRIENDLY = ${status('HOUSE', 'Friendly')}; // status values
const MOVES = ['north', 'south', 'east', 'west'];
const FRONT = [7, 17, 13, 11];       // view index in front of you, by facing

function act(obs) {
  const front = FRONT[obs.facing];
  if (obs.terrain[front] === HOUSE && obs.status[front] < FRIENDLY) return 'insult';
  // a neighbouring ripe field: step onto it
  for (let d = 0; d < 4; d++) {
    if (obs.terrain[FRONT[d]] === FIELD && obs.status[FRONT[d]] === READY) return MOVES[d];
  }
  // a house next to you that is not Friendly yet: turn to it
  for (let d = 0; d < 4; d++) {
    if (obs.terrain[FRONT[d]] === HOUSE && obs.status[FRONT[d]] < FRIENDLY) return MOVES[d];
  }
  return MOVES[Math.floor(Math.random() * 4)];
}`,
    },
  ],
};
