// specs.js — what a program needs to know about each farm before it plays one: sizes,
// action names, tile codes, observation fields and the flat layout. Plain data, usable
// without loading the engine (the page's legend and the docs read it). The engine is the
// authority: tests/js/specs.test.js checks every entry here against the WebAssembly build.

const valleyTiles = [
  { code: 0, name: 'OUT_OF_BOUNDS', walkable: false },
  { code: 1, name: 'GROUND', walkable: true },
  { code: 2, name: 'OBSTACLE', walkable: false },
  { code: 3, name: 'SOIL_EMPTY', walkable: true },
  { code: 4, name: 'SOIL_SEEDED', walkable: true },
  { code: 5, name: 'CROP_GROWING', walkable: true },
  { code: 6, name: 'CROP_MATURE', walkable: true },
  { code: 7, name: 'BARN', walkable: false },
  { code: 8, name: 'CHICKEN', walkable: true },
  { code: 9, name: 'COW', walkable: true },
  { code: 10, name: 'SHEEP', walkable: true },
  { code: 11, name: 'VILLAGER', walkable: true },
  { code: 12, name: 'MARKET', walkable: true },
  { code: 13, name: 'COTTAGE', walkable: false },
];

const backwardsTiles = [
  { code: 0, name: 'OUT_OF_BOUNDS', walkable: false },
  { code: 1, name: 'GROUND', walkable: true },
  { code: 2, name: 'FENCE', walkable: false },
  { code: 3, name: 'FIELD', walkable: true, status: ['Seed', 'Sprout', 'Growing', 'Harvest-Ready'] },
  { code: 4, name: 'PEN', walkable: false, status: ['Weak', 'Healthy', 'Thriving'] },
  { code: 5, name: 'HOUSE', walkable: false, status: ['Hostile', 'Neutral', 'Friendly'] },
];

const scalar = (min, max) => ({ shape: [], min, max });

// The rules' constants, as the engine reports them (vf_rules_json; rulesFromEngine in
// index.js). tests/js/specs.test.js holds these equal to the engine's, so the page, the
// heuristics and the docs read them here instead of copying numbers.
const valleyRules = {
  satedTicks: 10, // a feeding lasts this many ticks
  productTicks: 5, // a sated animal makes a product every 5 ticks
  priceCrop: 5,
  priceProduct: 8,
  startSeeds: 5,
  startWater: 5,
  startFeed: 3,
  startGifts: 3,
  wateringsPerCrop: 2,
  // the bounds the observation space uses, derived in the engine from the numbers above:
  // water matures 2 crops, feed yields 6 products, and one sale of all of them with every
  // relationship at 100 (price multiplier 2) pays 2 × (5 × 2 + 8 × 6) = 116 coins
  maxCrops: 2,
  maxProducts: 6,
  maxCoins: 116,
  relationshipMax: 100,
  giftPoints: 7.5,
  moodThresholds: [25, 50], // wary below 25, neutral below 50, then friendly
  rewardHarvest: 0.1,
  rewardProduct: 0.2,
  rewardCoin: 0.1,
  rewardRelationshipPoint: 0.5,
};

const backwardsRules = {
  farmValueEnd: 300, // Farm Value that ends the episode early
  crops: { count: 8, valueMin: 2, valueMax: 5 },
  animals: { count: 3, valueMin: 1, valueMax: 3 },
  villagers: { count: 3, valueMin: 3, valueMax: 6 },
};

const R = valleyRules;
const valleyObservation = {
  view: { shape: [25], min: 0, max: 13 },
  center: scalar(0, 3),
  inventory: {
    seeds: scalar(0, R.startSeeds),
    water: scalar(0, R.startWater),
    crops: scalar(0, R.maxCrops),
    feed: scalar(0, R.startFeed),
    products: scalar(0, R.maxProducts),
    coins: scalar(0, R.maxCoins),
    gifts: scalar(0, R.startGifts),
  },
  relationships: { shape: [3], min: 0, max: R.relationshipMax },
  stepsLeft: scalar(0, 50),
};

const backwardsObservation = {
  terrain: { shape: [25], min: 0, max: 5 },
  status: { shape: [25], min: 0, max: 3 },
  x: scalar(0, 9),
  y: scalar(0, 9),
  facing: scalar(0, 3),
  stepsLeft: scalar(0, 40),
  farmValue: scalar(0, backwardsRules.farmValueEnd),
};

// The flat observation of the vector envs: [name, offset, length].
const valleyLayout = [
  ['view', 0, 25],
  ['center', 25, 1],
  ['seeds', 26, 1],
  ['water', 27, 1],
  ['crops', 28, 1],
  ['feed', 29, 1],
  ['products', 30, 1],
  ['coins', 31, 1],
  ['gifts', 32, 1],
  ['relationships', 33, 3],
  ['stepsLeft', 36, 1],
];
const backwardsLayout = [
  ['terrain', 0, 25],
  ['status', 25, 25],
  ['x', 50, 1],
  ['y', 51, 1],
  ['facing', 52, 1],
  ['stepsLeft', 53, 1],
  ['farmValue', 54, 1],
];

const toFields = (layout) => layout.map(([name, offset, length]) => ({ name, offset, length }));
const codesOf = (tiles) => Object.fromEntries(tiles.map((t) => [t.name, t.code]));

export const envSpecs = {
  'ValleyFarm-v0': {
    id: 'ValleyFarm-v0',
    kind: 0,
    width: 15,
    height: 15,
    horizon: 50,
    obsSize: 37,
    actions: ['north', 'south', 'east', 'west', 'plant', 'water', 'harvest', 'feed', 'collect', 'gift', 'sell', 'wait'],
    tiles: valleyTiles,
    codes: codesOf(valleyTiles), // tile name -> code: codes.MARKET is 12
    species: ['chicken', 'cow', 'sheep'],
    moods: ['wary', 'neutral', 'friendly'],
    observation: valleyObservation,
    layout: toFields(valleyLayout),
    rules: valleyRules,
  },
  'BackwardsValleyFarm-v0': {
    id: 'BackwardsValleyFarm-v0',
    kind: 1,
    width: 10,
    height: 10,
    horizon: 40,
    obsSize: 55,
    actions: ['north', 'south', 'east', 'west', 'wait', 'water', 'fertilize', 'feed', 'clean', 'compliment', 'insult'],
    tiles: backwardsTiles,
    codes: codesOf(backwardsTiles),
    facings: ['north', 'south', 'east', 'west'],
    observation: backwardsObservation,
    layout: toFields(backwardsLayout),
    rules: backwardsRules,
  },
};

function deepFreeze(o) {
  for (const v of Object.values(o)) if (v && typeof v === 'object') deepFreeze(v);
  return Object.freeze(o);
}
deepFreeze(envSpecs);

export const envIds = Object.freeze(Object.keys(envSpecs));
