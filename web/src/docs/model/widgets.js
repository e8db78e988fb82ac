// widgets.js — what each rule widget offers and shows: its prepared situation, its buttons
// (action names from envSpecs; `times` repeats the action), a line telling the reader what to
// try, and its facts — plain [key, label, value] rows computed from the widget's model
// (state, observation, log). Facts read the full hidden state on purpose: the widget shows
// the rule happening, including what the agent cannot see.
import { envSpecs } from 'valley-farm';
import { situations, cropInFront, animalInFront, villagerInFront, VALLEY, BACKWARDS, GIFT_FROM } from './situations.js';

const V = envSpecs[VALLEY];
const B = envSpecs[BACKWARDS];
const tileName = (spec, code) => spec.tiles.find((t) => t.code === code)?.name ?? String(code);
const STAGES = B.tiles.find((t) => t.name === 'FIELD').status;
const HEALTH = B.tiles.find((t) => t.name === 'PEN').status;
const MOODS = B.tiles.find((t) => t.name === 'HOUSE').status;

const { productTicks: PRODUCT_TICKS, rewardProduct: REWARD_PRODUCT, giftPoints: GIFT, moodThresholds } = V.rules;
const [NEUTRAL, FRIENDLY] = moodThresholds;
const roundTo5 = (r) => Math.floor(r / 5 + 0.5) * 5; // as the observation rounds a relationship (halves up)

const fmt = (x) => (x === null || x === undefined ? '–' : String(Math.round(x * 1000) / 1000));
const lastStep = (m) => {
  const e = m.log.at(-1);
  return ['last', 'Last step', e ? `${e.action}: ${e.legal ? 'legal' : 'illegal (played as wait)'}, reward ${fmt(e.reward)}` : 'none yet'];
};
const here = (list, s) => list.find((e) => e.x === s.agent.x && e.y === s.agent.y);
const steps = (m) => ['stepsLeft', 'Steps left', String(m.observation.stepsLeft)];

/** Sale formula for the valley inventory and exact relationships (rules: Market). */
export function saleCoins(crops, products, relationships) {
  const R = relationships.reduce((a, b) => a + b, 0);
  // the price multiplier is the mean of (1 + r / 100), (300 + R) / 300 for 3 villagers; R is
  // a multiple of 2.5, so work in quarters of a unit to keep the arithmetic integral
  return Math.floor(((V.rules.priceCrop * crops + V.rules.priceProduct * products) * (1200 + 4 * R)) / 1200);
}

export const widgets = {
  'valley-crop': {
    situation: situations['valley-crop'],
    title: 'A crop, from seed to harvest',
    tryThis:
      'You stand on empty soil. Press plant, then water twice, then harvest. Try harvest too early: it is illegal and only spends the step.',
    buttons: [{ action: 'plant' }, { action: 'water' }, { action: 'harvest' }, { action: 'wait' }],
    facts: (m) => {
      const s = m.state;
      return [
        ['tile', 'Under you', tileName(V, s.tiles[s.agent.y][s.agent.x])],
        ['stage', 'Crop stage (observation.center)', String(m.observation.center)],
        ['seeds', 'Seeds', String(s.inventory.seeds)],
        ['water', 'Water', String(s.inventory.water)],
        ['crops', 'Crops', String(s.inventory.crops)],
        lastStep(m),
      ];
    },
  },
  'valley-feed': {
    situation: situations['valley-feed'],
    title: `Feeding an animal: products after ${V.rules.productTicks} and ${2 * V.rules.productTicks} ticks`,
    tryThis: `You stand on a hungry cow. Feed it, then wait ${PRODUCT_TICKS} steps: one product is pending. Wait ${PRODUCT_TICKS} more: two. Collect them (+${REWARD_PRODUCT} each).`,
    buttons: [{ action: 'feed' }, { action: 'wait' }, { action: 'wait', times: PRODUCT_TICKS }, { action: 'collect' }],
    facts: (m) => {
      const a = here(m.state.animals, m.state);
      const fedAt = m.log.findLastIndex((e) => e.action === 'feed' && e.legal);
      return [
        ['animal', 'Animal', a ? a.species : 'none here'],
        ['sated', 'Sated (hidden)', a ? `${a.sated ? 'yes' : 'no'}, ${a.satedStepsLeft} ticks left` : '–'],
        ['ticks', 'Ticks since feeding', fedAt < 0 ? '–' : String(m.log.length - 1 - fedAt)],
        ['counter', 'Counter (hidden)', a ? String(a.counter) : '–'],
        ['pending', 'Pending products (hidden)', a ? String(a.pending) : '–'],
        ['products', 'Products in inventory', String(m.state.inventory.products)],
        lastStep(m),
      ];
    },
  },
  'valley-gift': {
    situation: situations['valley-gift'],
    title: `A gift: +${V.rules.giftPoints} relationship, +${V.rules.giftPoints * V.rules.rewardRelationshipPoint} reward`,
    tryThis: `You stand on a villager whose relationship is ${GIFT_FROM} (wary is below ${NEUTRAL}, neutral below ${FRIENDLY}). Give a gift: ${GIFT_FROM + GIFT}, shown as ${roundTo5(GIFT_FROM + GIFT)} in the observation. A second gift: ${GIFT_FROM + 2 * GIFT}, friendly.`,
    buttons: [{ action: 'gift' }, { action: 'wait' }],
    facts: (m) => {
      const s = m.state;
      const i = s.villagers.findIndex((v) => v.x === s.agent.x && v.y === s.agent.y);
      const v = s.villagers[i];
      return [
        ['relationship', 'Relationship (exact, hidden)', v ? fmt(v.relationship) : '–'],
        ['observed', 'observation.relationships[i] (rounded to 5)', v ? String(m.observation.relationships[i]) : '–'],
        ['mood', 'Mood', v ? V.moods[v.mood] : '–'],
        ['gifts', 'Gifts left', String(s.inventory.gifts)],
        lastStep(m),
      ];
    },
  },
  'valley-sell': {
    situation: situations['valley-sell'],
    title: 'Selling at the market',
    tryThis: 'You stand on the market with one product. Press sell and compare the coins with the formula.',
    buttons: [{ action: 'sell' }, { action: 'wait' }],
    facts: (m) => {
      const s = m.state;
      const rel = s.villagers.map((v) => v.relationship);
      const R = rel.reduce((a, b) => a + b, 0);
      const { crops, products } = s.inventory;
      return [
        ['goods', 'Crops, products', `${crops}, ${products}`],
        ['R', 'R = sum of relationships', `${rel.map(fmt).join(' + ')} = ${fmt(R)}`],
        [
          'formula',
          'Sale would give',
          `floor((${V.rules.priceCrop} × ${crops} + ${V.rules.priceProduct} × ${products}) × (300 + ${fmt(R)}) / 300) = ${saleCoins(crops, products, rel)} coins`,
        ],
        ['coins', 'Coins', String(s.inventory.coins)],
        lastStep(m),
      ];
    },
  },
  'valley-start': {
    situation: situations['valley-start'],
    title: `The clock: ${V.horizon} actions, then terminated`,
    tryThis: 'Every action, legal or not, spends one step. Wait until the episode ends.',
    buttons: [{ action: 'wait' }, { action: 'wait', times: 10 }],
    facts: (m) => [steps(m), ['terminated', 'terminated', String(m.done)], ['return', 'Return', fmt(m.state.totalReward)]],
  },
  'valley-observation': {
    situation: situations['valley-start'],
    title: 'What the agent sees',
    tryThis: 'Walk around: the observation below is exactly what an agent receives (as the flat vector of a vector env, too).',
    buttons: [{ action: 'north' }, { action: 'south' }, { action: 'east' }, { action: 'west' }],
    showObservation: true,
    facts: (m) => [['center', 'center', String(m.observation.center)], steps(m), lastStep(m)],
  },
  'backwards-crop': {
    situation: situations['backwards-crop'],
    title: 'Care resets a crop to Seed',
    tryThis:
      'You face a growing crop. Water or fertilize it: back to Seed, and it does not grow that step. Then wait and watch it grow one stage a step.',
    buttons: [{ action: 'water' }, { action: 'fertilize' }, { action: 'wait' }],
    facts: (m) => {
      const c = cropInFront(m.state);
      return [
        ['stage', 'Crop in front', c ? `${STAGES[c.stage]} (stage ${c.stage})` : 'none'],
        ['value', 'Its value (hidden)', c ? String(c.value) : '–'],
        lastStep(m),
      ];
    },
  },
  'backwards-harvest': {
    situation: situations['backwards-harvest'],
    title: 'Harvest by walking onto a ripe crop',
    tryThis: 'A Harvest-Ready crop is next to you. Step onto it: it is harvested (+ its value) and becomes ground.',
    buttons: [{ action: 'north' }, { action: 'south' }, { action: 'east' }, { action: 'west' }, { action: 'wait' }],
    facts: (m) => [
      ['cropYield', 'Crop Yield (hidden meter)', String(m.state.meters.cropYield)],
      ['farmValue', 'Farm Value (observed)', String(m.observation.farmValue)],
      ['harvested', 'Fields harvested', String(m.state.crops.filter((c) => c.harvested).length)],
      lastStep(m),
    ],
  },
  'backwards-animal': {
    situation: situations['backwards-animal'],
    title: 'An animal reaching Thriving while you watch',
    tryThis:
      'You face a pen. Feed or clean it: the animal drops to Weak. Wait two steps in view: it becomes Thriving and pays its bonus, once.',
    buttons: [{ action: 'feed' }, { action: 'clean' }, { action: 'wait' }],
    facts: (m) => {
      const a = animalInFront(m.state);
      return [
        ['health', 'Animal in front', a ? HEALTH[a.health] : 'none'],
        ['bonus', 'Bonus (hidden)', a ? `${a.bonus}${a.rewarded ? ', paid' : ', not paid yet'}` : '–'],
        ['animalHealth', 'Animal Health (hidden meter)', String(m.state.meters.animalHealth)],
        ['farmValue', 'Farm Value', String(m.observation.farmValue)],
        lastStep(m),
      ];
    },
  },
  'backwards-insult': {
    situation: situations['backwards-insult'],
    title: 'Insults befriend',
    tryThis:
      'You face a Neutral villager. Insult: Friendly, and its bonus is paid. Compliment and insult again: Friendly once more, but no second bonus.',
    buttons: [{ action: 'insult' }, { action: 'compliment' }],
    facts: (m) => {
      const v = villagerInFront(m.state);
      return [
        ['mood', 'Villager in front', v ? MOODS[v.mood] : 'none'],
        ['bonus', 'Bonus (hidden)', v ? `${v.bonus}${v.rewarded ? ', paid' : ', not paid yet'}` : '–'],
        ['socialAffinity', 'Social Affinity (hidden meter)', String(m.state.meters.socialAffinity)],
        ['farmValue', 'Farm Value', String(m.observation.farmValue)],
        lastStep(m),
      ];
    },
  },
  'backwards-start': {
    situation: situations['backwards-start'],
    title: `The clock: ${B.horizon} actions, then terminated`,
    tryThis: 'Every action spends one step. Wait until the episode ends.',
    buttons: [{ action: 'wait' }, { action: 'wait', times: 10 }],
    facts: (m) => [steps(m), ['terminated', 'terminated', String(m.done)], ['farmValue', 'Farm Value', String(m.observation.farmValue)]],
  },
  'backwards-observation': {
    situation: situations['backwards-start'],
    title: 'What the agent sees',
    tryThis: 'Turn and walk: the observation below is exactly what an agent receives. A move into a fence only turns you.',
    buttons: [{ action: 'north' }, { action: 'south' }, { action: 'east' }, { action: 'west' }],
    showObservation: true,
    facts: (m) => [
      ['position', 'x, y, facing', `${m.observation.x}, ${m.observation.y}, ${B.facings[m.observation.facing]}`],
      steps(m),
      lastStep(m),
    ],
  },
};
