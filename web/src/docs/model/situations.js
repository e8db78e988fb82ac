// situations.js — the prepared situations of the rule widgets: for each, an env id, a seed
// and an action prefix that, played from reset, put the farm into a state where one rule can
// be shown in a press or two. The seeds and prefixes were found by web/find-situations.mjs
// (run it again if a rules change breaks tests/web/docs_situations.test.js), and each
// situation carries the check that the search used, so the test can say what no longer holds.
//
// A check takes the full state (env.state()) and the observation after the prefix and returns
// true when the situation holds.
import { valley, backwards } from '../../model/farms/index.js';

export const VALLEY = valley.id;
export const BACKWARDS = backwards.id;
const { SOIL_EMPTY, MARKET } = valley.spec.codes;
/** The relationship of the gift widget's villager: two gifts take it across friendly. */
export const GIFT_FROM = 40;

// Directions as the move actions number them: north, south, east, west.
export const DIRS = [
  { dx: 0, dy: -1 },
  { dx: 0, dy: 1 },
  { dx: 1, dy: 0 },
  { dx: -1, dy: 0 },
];

const valleyAnimalHere = (s) => s.animals.find((a) => a.x === s.agent.x && a.y === s.agent.y);
const valleyVillagerHere = (s) => s.villagers.find((v) => v.x === s.agent.x && v.y === s.agent.y);
const onTile = (s, code) => s.tiles[s.agent.y][s.agent.x] === code;

/** The backwards-farm tile in front of the agent: { x, y } or null off the map. */
export function inFront(s) {
  const d = DIRS[s.agent.facing];
  const x = s.agent.x + d.dx;
  const y = s.agent.y + d.dy;
  return x >= 0 && y >= 0 && x < s.width && y < s.height ? { x, y } : null;
}
const at = (list, p) => (p ? list.find((e) => e.x === p.x && e.y === p.y) : undefined);
/** The unharvested crop, animal or villager in front of the backwards agent, if any. */
export const cropInFront = (s) =>
  at(
    s.crops.filter((c) => !c.harvested),
    inFront(s),
  );
export const animalInFront = (s) => at(s.animals, inFront(s));
export const villagerInFront = (s) => at(s.villagers, inFront(s));

/** The checks, by situation key (the search tool and the test use them). */
export const checks = {
  // on empty soil with seeds and water, and time for a whole crop cycle
  'valley-crop': (s, o) => onTile(s, SOIL_EMPTY) && s.inventory.seeds > 0 && s.inventory.water >= 2 && o.stepsLeft >= 40,
  // on a hungry animal with feed left and time for both products (10 ticks) and more
  'valley-feed': (s, o) => {
    const a = valleyAnimalHere(s);
    return !!a && !a.sated && a.pending === 0 && s.inventory.feed > 0 && o.stepsLeft >= 30;
  },
  // on a villager whose relationship is 40: two gifts cross 50, the friendly threshold
  'valley-gift': (s, o) => {
    const v = valleyVillagerHere(s);
    return !!v && v.relationship === GIFT_FROM && s.inventory.gifts >= 2 && o.stepsLeft >= 10;
  },
  // on the market carrying one product, nothing else to sell
  'valley-sell': (s, o) => onTile(s, MARKET) && s.inventory.products === 1 && s.inventory.crops === 0 && o.stepsLeft >= 3,
  // facing a crop that is at least Growing
  'backwards-crop': (s, o) => {
    const c = cropInFront(s);
    return !!c && c.stage >= 2 && o.stepsLeft >= 10;
  },
  // facing a Neutral villager who has never paid: one insult makes it Friendly and pays
  'backwards-insult': (s, o) => {
    const v = villagerInFront(s);
    return !!v && v.mood === 1 && !v.rewarded && o.stepsLeft >= 6;
  },
  // facing an animal that has not paid its bonus yet (its pen is in view, being in front)
  'backwards-animal': (s, o) => {
    const a = animalInFront(s);
    return !!a && !a.rewarded && o.stepsLeft >= 10;
  },
  // a fresh episode (the observation and termination widgets start from reset)
  'valley-start': (s, o) => s.step === 0 && o.stepsLeft === valley.spec.horizon,
  'backwards-start': (s, o) => s.step === 0 && o.stepsLeft === backwards.spec.horizon,
  // next to a Harvest-Ready crop (north, south, east or west of the agent)
  'backwards-harvest': (s, o) =>
    s.crops.some((c) => !c.harvested && c.stage === 3 && Math.abs(c.x - s.agent.x) + Math.abs(c.y - s.agent.y) === 1) && o.stepsLeft >= 10,
};

/**
 * The found situations. prefix: action names played after reset({ seed }).
 * (Filled in from the output of web/find-situations.mjs.)
 */
export const situations = {
  'valley-crop': { envId: VALLEY, seed: 5, prefix: ['east'] },
  'valley-feed': { envId: VALLEY, seed: 7, prefix: ['north'] },
  'valley-gift': { envId: VALLEY, seed: 50, prefix: ['north'] },
  'valley-sell': { envId: VALLEY, seed: 25, prefix: ['east', 'feed', 'wait', 'wait', 'wait', 'wait', 'wait', 'collect', 'east', 'east'] },
  'backwards-crop': { envId: BACKWARDS, seed: 97, prefix: [] },
  'backwards-insult': { envId: BACKWARDS, seed: 148, prefix: [] },
  'backwards-animal': { envId: BACKWARDS, seed: 36, prefix: [] },
  'backwards-harvest': { envId: BACKWARDS, seed: 25, prefix: [] },
  'valley-start': { envId: VALLEY, seed: 7, prefix: [] },
  'backwards-start': { envId: BACKWARDS, seed: 7, prefix: [] },
};

/**
 * Puts env into a situation: reset with its seed, then play its prefix. Returns the last
 * result ({ observation, info, ... }). Throws if a prefix action name is unknown.
 */
export function prepare(env, { seed, prefix }) {
  let result = env.reset({ seed });
  for (const name of prefix) {
    const id = env.actionSpace.names.indexOf(name);
    if (id < 0) throw new Error(`Unknown action '${name}' in a prepared situation`);
    result = env.step(id);
  }
  return result;
}
