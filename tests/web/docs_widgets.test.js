// Each rule widget's buttons produce the effect its text promises, on the real engine
// (web/src/docs/model/widget.js + widgets.js), and widgets never share state.
import { describe, it, expect } from 'vitest';
import { WidgetModel } from '../../web/src/docs/model/widget.js';
import { widgets, saleCoins } from '../../web/src/docs/model/widgets.js';
import { cropInFront, animalInFront, villagerInFront } from '../../web/src/docs/model/situations.js';

async function widget(id) {
  return new WidgetModel(widgets[id].situation).start();
}
const fact = (m, id, key) => widgets[id].facts(m).find(([k]) => k === key)?.[2];
const here = (list, s) => list.find((e) => e.x === s.agent.x && e.y === s.agent.y);

describe('valley widgets', () => {
  it('feeding: after 5 waits 1 product is pending, after 10 waits 2, and collect pays 0.2 each', async () => {
    const m = await widget('valley-feed');
    m.act('feed');
    m.act('wait', 4);
    expect(here(m.state.animals, m.state).pending).toBe(0);
    m.act('wait');
    expect(here(m.state.animals, m.state).pending).toBe(1);
    expect(fact(m, 'valley-feed', 'pending')).toBe('1');
    m.act('wait', 5);
    expect(here(m.state.animals, m.state).pending).toBe(2);
    expect(here(m.state.animals, m.state).sated).toBe(false);
    m.act('collect');
    expect(m.lastReward).toBeCloseTo(0.4, 10);
    expect(m.state.inventory.products).toBe(2);
  });

  it('a crop: plant, water, water, harvest gives one crop and +0.1; harvest too early is illegal', async () => {
    const m = await widget('valley-crop');
    m.act('harvest');
    expect(m.log.at(-1).legal).toBe(false);
    m.act('plant');
    expect(m.observation.center).toBe(1);
    m.act('water');
    m.act('water');
    expect(m.observation.center).toBe(3);
    m.act('harvest');
    expect(m.lastReward).toBeCloseTo(0.1, 10);
    expect(m.state.inventory.crops).toBe(1);
  });

  it('a gift: relationship 40 → 47.5 (+3.75, observed 50), a second gift → 55 friendly', async () => {
    const m = await widget('valley-gift');
    const i = m.state.villagers.findIndex((v) => v.x === m.state.agent.x && v.y === m.state.agent.y);
    m.act('gift');
    expect(m.state.villagers[i].relationship).toBe(47.5);
    expect(m.lastReward).toBeCloseTo(3.75, 10);
    expect(m.observation.relationships[i]).toBe(50);
    m.act('gift');
    expect(m.state.villagers[i].relationship).toBe(55);
    expect(m.state.villagers[i].mood).toBe(2);
    expect(fact(m, 'valley-gift', 'mood')).toBe('friendly');
  });

  it('selling: the coins equal the documented formula, the reward is 0.1 × coins', async () => {
    const m = await widget('valley-sell');
    const { crops, products } = m.state.inventory;
    const expected = saleCoins(
      crops,
      products,
      m.state.villagers.map((v) => v.relationship),
    );
    expect(fact(m, 'valley-sell', 'formula')).toContain(`= ${expected} coins`);
    m.act('sell');
    expect(m.state.inventory.coins).toBe(expected);
    expect(m.lastReward).toBeCloseTo(0.1 * expected, 10);
  });

  it('the clock: terminated after exactly 50 actions, then the buttons stop', async () => {
    const m = await widget('valley-start');
    m.act('wait', 49);
    expect(m.done).toBe(false);
    m.act('wait', 10);
    expect(m.done).toBe(true);
    expect(m.log.length).toBe(50);
  });
});

describe('backwards widgets', () => {
  it('care: watering the crop in front sets it to Seed, and waiting regrows it a stage a step', async () => {
    const m = await widget('backwards-crop');
    expect(cropInFront(m.state).stage).toBeGreaterThanOrEqual(2);
    m.act('water');
    expect(cropInFront(m.state).stage).toBe(0);
    expect(fact(m, 'backwards-crop', 'stage')).toBe('Seed (stage 0)');
    m.act('wait');
    expect(cropInFront(m.state).stage).toBe(1);
    m.act('fertilize');
    expect(cropInFront(m.state).stage).toBe(0);
  });

  it('insult: a Neutral villager turns Friendly and pays its bonus once', async () => {
    const m = await widget('backwards-insult');
    const bonus = villagerInFront(m.state).bonus;
    m.act('insult');
    expect(villagerInFront(m.state).mood).toBe(2);
    expect(m.lastReward).toBe(bonus);
    expect(m.state.meters.socialAffinity).toBe(bonus);
    m.act('compliment');
    m.act('insult');
    expect(villagerInFront(m.state).mood).toBe(2);
    expect(m.lastReward).toBe(0);
  });

  it('witnessed Thriving: care makes the animal Weak, two steps in view later it pays its bonus', async () => {
    const m = await widget('backwards-animal');
    const bonus = animalInFront(m.state).bonus;
    m.act('feed');
    expect(animalInFront(m.state).health).toBe(0);
    m.act('wait');
    expect(animalInFront(m.state).health).toBe(1);
    m.act('wait');
    expect(animalInFront(m.state).health).toBe(2);
    expect(animalInFront(m.state).rewarded).toBe(true);
    expect(m.log.reduce((s, e) => s + e.reward, 0)).toBe(bonus);
  });

  it('harvest: stepping onto the ripe crop next to you adds its value', async () => {
    const m = await widget('backwards-harvest');
    const s = m.state;
    const crop = s.crops.find((c) => !c.harvested && c.stage === 3 && Math.abs(c.x - s.agent.x) + Math.abs(c.y - s.agent.y) === 1);
    const dir = crop.y < s.agent.y ? 'north' : crop.y > s.agent.y ? 'south' : crop.x > s.agent.x ? 'east' : 'west';
    m.act(dir);
    expect(m.state.crops.find((c) => c.x === crop.x && c.y === crop.y).harvested).toBe(true);
    expect(m.lastReward).toBeGreaterThanOrEqual(crop.value);
    expect(m.state.tiles[crop.y][crop.x]).toBe(1);
  });

  it('the clock: terminated after exactly 40 actions', async () => {
    const m = await widget('backwards-start');
    m.act('wait', 39);
    expect(m.done).toBe(false);
    m.act('wait');
    expect(m.done).toBe(true);
  });
});

describe('widgets are independent', () => {
  it('reset returns to the prepared situation and leaves another widget on the same seed alone', async () => {
    const a = await widget('valley-start');
    const b = await widget('valley-observation'); // the same situation, its own env
    const start = JSON.stringify(a.state);
    a.act('wait', 3);
    b.act('north');
    b.act('east');
    const bState = JSON.stringify(b.state);
    a.reset();
    expect(JSON.stringify(a.state)).toBe(start);
    expect(a.log).toEqual([]);
    expect(JSON.stringify(b.env.state())).toBe(bState);
  });
});
