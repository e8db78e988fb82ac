// rules.js — the words of the rules (docs/rules/*.md), keyed by the names envSpecs
// uses, so the tables are generated from envSpecs and only the prose lives here. The docs
// tests check that these keys are exactly envSpecs' action names, field names and tile
// names (a renamed or added action breaks a test, not silently the docs).
import { envSpecs } from 'valley-farm';

import { valley, backwards } from '../../model/farms/index.js';

export const VALLEY = valley.id;
export const BACKWARDS = backwards.id;

export const rules = {
  [VALLEY]: {
    title: 'Valley Farm',
    slug: 'valley',
    story: [
      'You are a farmer on a 15 × 15 valley with four crop fields, three barns with a chicken, a cow and a sheep, three villagers and a market.',
      'In 50 steps, plant and water crops, feed animals and collect their products, give gifts to befriend villagers, and sell everything at the market, where friendlier villagers pay more.',
    ],
    tiles: {
      OUT_OF_BOUNDS: 'Only in the observation, for cells off the map.',
      GROUND: 'Plain path or grass.',
      OBSTACLE: 'Rocks and trees; exactly 20 per map.',
      SOIL_EMPTY: 'One of the 4 crop fields, no crop.',
      SOIL_SEEDED: 'Crop stage 1 (seedling).',
      CROP_GROWING: 'Crop stage 2.',
      CROP_MATURE: 'Crop stage 3: ready to harvest.',
      BARN: 'A barn; its animal stands on the tile directly south of it.',
      CHICKEN: 'Animal tile; product: egg.',
      COW: 'Animal tile; product: milk.',
      SHEEP: 'Animal tile; product: wool.',
      VILLAGER: "A villager's home tile; the villager always stands here.",
      MARKET: 'Exactly one per map: sell here.',
      COTTAGE: "A villager's cottage; its villager stands directly south of it.",
    },
    actions: {
      north: ['the tile north is in the map and walkable', 'move one tile'],
      south: ['the tile south is in the map and walkable', 'move one tile'],
      east: ['the tile east is in the map and walkable', 'move one tile'],
      west: ['the tile west is in the map and walkable', 'move one tile'],
      plant: ['on SOIL_EMPTY, seeds > 0', 'seeds −1, crop stage → 1'],
      water: ['on soil at stage 1 or 2, water > 0', 'water −1, crop stage +1'],
      harvest: ['on CROP_MATURE', 'crops +1, stage → 0, reward +0.1'],
      feed: ['on an animal tile, the animal hungry, feed > 0', 'feed −1, the animal is sated for the next 10 ticks, counter 0'],
      collect: [
        'on an animal tile with pending products > 0',
        'products += pending, reward +0.2 each, pending 0, counter 0 (hunger unchanged)',
      ],
      gift: [
        'gifts > 0 and a villager with relationship < 100 on your tile or a 4-neighbour',
        'gifts −1, relationship +7.5 (capped at 100), reward +0.5 × the actual increase',
      ],
      sell: [
        'on MARKET, crops + products > 0',
        'coins += floor((5 × crops + 8 × products) × (300 + R) / 300), R the sum of the three relationships; reward +0.1 × coins; crops and products → 0',
      ],
      wait: ['always', 'nothing'],
    },
    actionNotes: [
      'An illegal action changes nothing but the clock: it is played as wait, and the step is spent (info.actionWasLegal is false).',
      'Gift target when several villagers qualify: the one on your tile, else north, east, south, west, in that order.',
    ],
    stepOrder: [
      "The action's effect (table above), or nothing if it is illegal.",
      'Every animal ticks, except one fed in this very step: a sated animal counts +1; when its counter reaches 5, one product becomes pending and the counter goes back to 0; its sated steps −1, and at 0 it is hungry again.',
      'The clock advances; after the 50th action the episode is terminated.',
    ],
    whyIllegal: [
      ['north, south, east, west', 'blocked', 'the tile that way is off the map, an obstacle, a barn or a cottage'],
      ['plant', 'not-on-empty-soil', 'the agent is not on empty soil'],
      ['plant', 'no-seeds', 'no seeds left'],
      ['water', 'not-on-young-crop', 'the agent is not on a seedling or a growing crop'],
      ['water', 'no-water', 'no water left'],
      ['harvest', 'not-on-mature-crop', 'the agent is not on a ripe crop'],
      ['feed, collect', 'not-on-animal', 'the agent is not on an animal'],
      ['feed', 'animal-sated', 'the animal was fed within its last 10 ticks'],
      ['feed', 'no-feed', 'no feed left'],
      ['collect', 'no-products', 'the animal has no products pending'],
      ['gift', 'no-gifts', 'no gifts left'],
      ['gift', 'no-villager-near', "no villager on the agent's tile or next to it"],
      ['gift', 'villagers-at-max', 'every villager in reach is at relationship 100'],
      ['sell', 'not-on-market', 'the agent is not on the market'],
      ['sell', 'nothing-to-sell', 'no crops and no products'],
      ['any', 'episode-over', 'the episode has ended (reset first)'],
    ],
    rewards: [
      ['harvest', '+0.1 per crop'],
      ['collect', '+0.2 per product'],
      ['gift', '+0.5 × the relationship gained (+3.75 for a full 7.5)'],
      ['sell', '+0.1 × the coins earned'],
    ],
    rewardNote: 'The reward of a step is the sum of the above; it is never negative and has no other source.',
    observation: {
      view: 'The 25 tile codes of the 5 × 5 square centred on you, row-major, north row first, west cell first; index 12 is your own tile (what is under you). Not rotated; cells off the map are 0.',
      center:
        'On soil, the crop stage 0..3; on an animal, 1 if sated else 0; on a villager, the mood 0 wary, 1 neutral, 2 friendly; otherwise 0.',
      inventory: 'seeds, water, crops, feed, products, coins, gifts (integers).',
      relationships: 'The three villagers’ relationships rounded to the nearest multiple of 5 (17.5 → 20), in villager order.',
      stepsLeft: '50 minus the actions taken.',
    },
    hidden:
      'Your coordinates, the layout beyond the 5 × 5 view, the animals’ timers, counters and pending products, and the exact relationships.',
    termination:
      'After exactly 50 actions terminated is true. Time is part of the observation (stepsLeft), so this is termination, not truncation: truncated is always false.',
    start:
      'Inventory at reset: seeds 5, water 5, feed 3, gifts 3, crops, products and coins 0. All soil is empty, every animal hungry, and each relationship drawn from {0, 10, 20, 30, 40}.',
  },
  [BACKWARDS]: {
    title: 'Backwards Valley Farm',
    slug: 'backwards',
    story: [
      'A 10 × 10 farm where everything works backwards: crops ripen when left alone and care sets them back to seed, animals thrive when left alone and care weakens them, and insults befriend villagers.',
      'In 40 steps, raise the Farm Value by walking onto ripe crops, watching animals regrow to Thriving, and insulting villagers until they turn Friendly.',
    ],
    tiles: {
      OUT_OF_BOUNDS: 'Only in the observation, for cells off the map.',
      GROUND: 'Walkable ground (a harvested field becomes GROUND).',
      FENCE: 'Blocks the way; 6 to 12 per map.',
      FIELD: 'One of 8 crop fields, walkable. Walk onto it at Harvest-Ready to harvest.',
      PEN: 'One of 3 pens, one animal each; not walkable.',
      HOUSE: 'One of 3 houses, one villager each; not walkable.',
    },
    actions: {
      north: [
        'the tile north is walkable, or you are not facing north yet (a turn)',
        'face north; move there if it is in the map and walkable, else only turn',
      ],
      south: ['the tile south is walkable, or a turn', 'face south; move if walkable, else only turn'],
      east: ['the tile east is walkable, or a turn', 'face east; move if walkable, else only turn'],
      west: ['the tile west is walkable, or a turn', 'face west; move if walkable, else only turn'],
      wait: ['always', 'nothing'],
      water: ['a crop in front', 'the crop is cared for: back to Seed (0), and it does not grow this step'],
      fertilize: ['a crop in front', 'the crop is cared for: back to Seed (0), and it does not grow this step'],
      feed: ['an animal (pen) in front', 'the animal is cared for: back to Weak (0), and it does not recover this step'],
      clean: ['an animal (pen) in front', 'the animal is cared for: back to Weak (0), and it does not recover this step'],
      compliment: ['a villager (house) in front that is not Hostile', 'mood −1 (floor Hostile)'],
      insult: ['a villager (house) in front that is not Friendly', 'mood +1 (cap Friendly)'],
    },
    actionNotes: [
      '"In front" is the 4-neighbour in the direction you face. A verb whose target is missing or of the wrong kind does nothing; the step is spent either way. No resources, no stamina.',
      'An action is legal (legalActions, info.actionWasLegal) when it changes the state beyond the clock: a move to a walkable tile, a turn to a new facing, a crop or animal verb with its target in front, a compliment on a non-Hostile or an insult on a non-Friendly villager in front. wait is always legal.',
    ],
    stepOrder: [
      "The action's local effect. Care sets a crop to Seed or an animal to Weak and marks it as cared for this step.",
      'Background tick: every crop not cared for this step advances one stage (capped at Harvest-Ready); every animal not cared for gains one health tier (capped at Thriving). Villagers never drift.',
      'Harvest: if you stand on a FIELD at Harvest-Ready, it is harvested: Crop Yield += its value, the tile becomes GROUND.',
      'Animal bonus: an animal that became Thriving in this step’s tick, has never paid, and whose pen is inside your 5 × 5 view pays its bonus once (Animal Health += bonus). An unwitnessed arrival pays nothing and the bonus stays available.',
      'Villager bonus: a villager whose mood became Friendly in this step and has never paid pays its bonus once (Social Affinity += bonus). One that starts Friendly pays only after dropping and rising again.',
      'Each meter is clamped to [0, 100]; Farm Value = Crop Yield + Animal Health + Social Affinity; reward = Farm Value − previous Farm Value.',
      'Termination: after the 40th action, or as soon as Farm Value reaches 300.',
    ],
    whyIllegal: [
      ['north, south, east, west', 'blocked', 'already facing that way, and the tile there is off the map, a fence, a pen or a house'],
      ['water, fertilize', 'no-field-in-front', 'the tile in front is not a field'],
      ['feed, clean', 'no-pen-in-front', 'the tile in front is not a pen'],
      ['compliment, insult', 'no-house-in-front', 'the tile in front is not a house'],
      ['compliment', 'villager-hostile', 'the villager in front is Hostile already'],
      ['insult', 'villager-friendly', 'the villager in front is Friendly already'],
      ['any', 'episode-over', 'the episode has ended (reset first)'],
    ],
    rewards: [
      ['harvest (walk onto a Harvest-Ready field)', '+ the crop’s value (2..5, hidden)'],
      ['an animal reaching Thriving in view', '+ its bonus (1..3, hidden), once per animal'],
      ['a villager turning Friendly', '+ its bonus (3..6, hidden), once per villager'],
    ],
    rewardNote:
      'The reward is the change of Farm Value, never negative. With these counts Farm Value cannot pass 8 × 5 + 3 × 3 + 3 × 6 = 67.',
    observation: {
      terrain:
        'The 25 tile codes of the 5 × 5 square centred on you, aligned with the map (row-major, north row first); index 12 is your tile; off the map 0.',
      status:
        'The 25 status values of the same cells: crop stage on a FIELD, animal health on a PEN, villager mood on a HOUSE, 0 elsewhere.',
      x: 'Your absolute column 0..9.',
      y: 'Your absolute row 0..9.',
      facing: '0 north, 1 south, 2 east, 3 west.',
      stepsLeft: '40 minus the actions taken.',
      farmValue: 'The current Farm Value (an integer).',
    },
    hidden:
      'The three meters, the crop values, the animal and villager bonuses (and whether they were paid), and anything outside the 5 × 5 view.',
    termination:
      'After the 40th action, or as soon as Farm Value reaches 300 (unreachable on these maps, kept for fidelity): terminated is true; truncated is always false.',
    start:
      'Zones, fences and initial values are drawn at reset: crop stage 0..3 and value 2..5, animal health 0..2 and bonus 1..3, villager mood 0..2 and bonus 3..6. You start on a reachable GROUND tile, facing north.',
  },
};

/** The rows of an env's action table: generated from envSpecs, words from rules. */
export function actionRows(envId) {
  return envSpecs[envId].actions.map((name, id) => {
    const [pre, effect] = rules[envId].actions[name] ?? ['(undocumented)', '(undocumented)'];
    return { id, name, pre, effect };
  });
}

/** The rows of an env's tile legend: code, name, walkable from envSpecs, words from rules. */
export function tileRows(envId) {
  return envSpecs[envId].tiles.map((t) => ({ ...t, note: rules[envId].tiles[t.name] ?? '(undocumented)' }));
}

/** The flat-vector layout rows, with the last index of each field. */
export function layoutRows(envId) {
  return envSpecs[envId].layout.map((f) => ({ ...f, last: f.offset + f.length - 1 }));
}
