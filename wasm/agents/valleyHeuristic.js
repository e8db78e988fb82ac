// valleyHeuristic.js — a sensible ValleyFarm-v0 player that sees only the observation.
// The observation has no coordinates, so the agent keeps its own map in coordinates
// relative to where it started (a move succeeds exactly when the cell it walks into is
// walkable, which the view shows), and simulates the animals it fed with the rules'
// counters, so it knows when products are waiting.
//
// Each step: do the best thing on this tile (gift, collect, feed, harvest, water, plant,
// sell), else walk towards the cell with the best value per step of walking and work —
// villagers while it holds gifts (+3.75 a gift), animals to feed and collect, crops, the
// market when it carries goods (and, near the end, the market first), unexplored edges.
import { envSpecs } from '../specs.js';
import { STEPS, key, distances } from './grid.js';

const SPEC = envSpecs['ValleyFarm-v0'];
const A = Object.fromEntries(SPEC.actions.map((name, i) => [name, i]));
const HORIZON = SPEC.horizon;
const WALKABLE = new Set(SPEC.tiles.filter((t) => t.walkable).map((t) => t.code));
const { VILLAGER, MARKET, CHICKEN, SHEEP, SOIL_EMPTY, SOIL_SEEDED, CROP_GROWING, CROP_MATURE } = SPEC.codes;
const { satedTicks: SATED_TICKS, productTicks: PRODUCT_TICKS, priceCrop: PRICE_CROP, priceProduct: PRICE_PRODUCT } = SPEC.rules;
const { giftPoints: GIFT_POINTS, rewardRelationshipPoint } = SPEC.rules;
const GIFT_VALUE = GIFT_POINTS * rewardRelationshipPoint; // 3.75 a gift
const isAnimal = (code) => code >= CHICKEN && code <= SHEEP;
const NEIGHBOURS = [7, 17, 13, 11]; // view indices north, south, east, west of the agent

export function createValleyHeuristic() {
  let pos;
  let map; // key(x, y) -> tile code, everything seen so far
  let animals; // key(x, y) -> { satedLeft, counter, pending } for animals this agent fed
  let last; // { action, at: key(x, y) } the previous action and where it was taken
  let goal = null; // key() of the cell it is walking to: kept unless clearly beaten (no dithering)

  function reset() {
    pos = { x: 0, y: 0 };
    map = new Map();
    animals = new Map();
    last = null;
    goal = null;
  }

  // The previous action's effect on the animals, then their tick (rules: Animals).
  function advance() {
    if (!last) return;
    const here = animals.get(last.at);
    if (last.action === A.feed) animals.set(last.at, { satedLeft: SATED_TICKS, counter: 0, pending: here?.pending ?? 0, fedNow: true });
    if (last.action === A.collect && here) Object.assign(here, { pending: 0, counter: 0 });
    for (const a of animals.values()) {
      if (a.fedNow) {
        a.fedNow = false;
        continue;
      }
      if (a.satedLeft <= 0) continue;
      a.counter++;
      if (a.counter === PRODUCT_TICKS) {
        a.pending++;
        a.counter = 0;
      }
      a.satedLeft--;
    }
  }

  function choose(obs) {
    const inv = obs.inventory;
    const v = obs.view;
    const here = v[12];
    const k = key(pos.x, pos.y);
    const left = obs.stepsLeft;
    const goods = inv.crops + inv.products;

    // 1. the best thing to do right here
    if (inv.gifts > 0 && (here === VILLAGER || NEIGHBOURS.some((i) => v[i] === VILLAGER))) return A.gift;
    if (isAnimal(here)) {
      if ((animals.get(k)?.pending ?? 0) > 0) return A.collect;
      if (obs.center === 0 && inv.feed > 0 && left > 6) return A.feed;
    }
    if (here === CROP_MATURE) return A.harvest;
    if ((here === SOIL_SEEDED && inv.water >= 2) || (here === CROP_GROWING && inv.water >= 1)) return A.water;
    if (here === SOIL_EMPTY && inv.seeds > 0 && inv.water >= 2 && left > 8) return A.plant;
    if (here === MARKET && goods > 0) return A.sell;

    // 2. walk towards the best value per step
    const walkable = (x, y) => WALKABLE.has(map.get(key(x, y)));
    const dist = distances(pos.x, pos.y, walkable);
    const market = [...dist.values()].find((c) => map.get(key(c.x, c.y)) === MARKET);
    if (goods > 0 && market && market.dist + 2 >= left) return market.first;

    let best = null;
    const consider = (cell, value, work) => {
      if (cell.dist + work > left) return;
      const k2 = key(cell.x, cell.y);
      const score = (value / (cell.dist + work)) * (k2 === goal ? 1.5 : 1);
      if (!best || score > best.score) best = { score, first: cell.first, at: k2 };
    };
    const knownVillager = [...map.values()].includes(VILLAGER);
    for (const cell of dist.values()) {
      if (cell.dist === 0) continue;
      const code = map.get(key(cell.x, cell.y));
      const near = (c) => STEPS.some(([dx, dy]) => map.get(key(cell.x + dx, cell.y + dy)) === c);
      if (inv.gifts > 0 && (code === VILLAGER || near(VILLAGER))) consider(cell, GIFT_VALUE * inv.gifts, inv.gifts);
      if (isAnimal(code)) {
        const a = animals.get(key(cell.x, cell.y));
        if (a && (a.pending > 0 || (a.satedLeft > 0 && PRODUCT_TICKS - a.counter <= cell.dist)))
          consider(cell, 1.2 * Math.max(1, a.pending), 1);
        else if ((!a || a.satedLeft === 0) && inv.feed > 0 && left - cell.dist > 12) consider(cell, 1.6, 6);
      }
      if (code === CROP_MATURE) consider(cell, 0.6, 1);
      if (code === CROP_GROWING && inv.water >= 1) consider(cell, 0.55, 2);
      if (code === SOIL_SEEDED && inv.water >= 2) consider(cell, 0.5, 3);
      if (code === SOIL_EMPTY && inv.seeds > 0 && inv.water >= 2 && left - cell.dist > 8) consider(cell, 0.5, 4);
      if (code === MARKET && goods > 0) consider(cell, 0.11 * (PRICE_CROP * inv.crops + PRICE_PRODUCT * inv.products), 1);
      const frontier = STEPS.some(([dx, dy]) => !map.has(key(cell.x + dx, cell.y + dy)));
      if (frontier) consider(cell, inv.gifts > 0 && !knownVillager ? 2 : 0.4, 2);
    }
    goal = best?.at ?? null;
    return best ? best.first : A.wait;
  }

  function act(obs) {
    if (!map || obs.stepsLeft === HORIZON) reset();
    advance();
    for (let i = 0; i < 25; i++) map.set(key(pos.x + (i % 5) - 2, pos.y + Math.floor(i / 5) - 2), obs.view[i]);
    const k = key(pos.x, pos.y);
    if (isAnimal(obs.view[12]) && obs.center === 0 && animals.get(k)?.satedLeft > 0) animals.get(k).satedLeft = 0;
    const action = choose(obs);
    last = { action, at: k };
    if (action < 4) {
      const [dx, dy] = STEPS[action];
      if (WALKABLE.has(map.get(key(pos.x + dx, pos.y + dy)))) pos = { x: pos.x + dx, y: pos.y + dy };
    }
    return action;
  }

  reset();
  return { name: 'heuristic', reset, act };
}
