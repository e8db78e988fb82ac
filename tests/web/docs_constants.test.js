// The numbers in the docs' prose (web/src/docs/model/rules.js) are checked against what the
// engine does, so a changed constant breaks this test rather than silently the docs.
import { describe, expect, it } from 'vitest';
import { envSpecs, make } from 'valley-farm';
import { BACKWARDS, VALLEY, rules } from '../../web/src/docs/model/rules.js';

const number = (text, pattern) => {
  const m = text.match(pattern);
  if (!m) throw new Error(`the docs no longer say ${pattern} in: ${text}`);
  return m.slice(1).map(Number);
};
const count = (tiles, code) => tiles.flat().filter((c) => c === code).length;

describe('ValleyFarm-v0 docs constants', () => {
  const r = rules[VALLEY];

  it('states the horizon, the map size and the start inventory the engine uses', async () => {
    const env = await make(VALLEY);
    const { observation } = env.reset({ seed: 1 });
    expect(number(r.story[1], /In (\d+) steps/)).toEqual([envSpecs[VALLEY].horizon]);
    expect(number(r.story[0], /on a (\d+) × (\d+) valley/)).toEqual([envSpecs[VALLEY].width, envSpecs[VALLEY].height]);
    const [seeds, water, feed, gifts] = number(r.start, /seeds (\d+), water (\d+), feed (\d+), gifts (\d+)/);
    expect({ seeds, water, feed, gifts }).toEqual({
      seeds: observation.inventory.seeds,
      water: observation.inventory.water,
      feed: observation.inventory.feed,
      gifts: observation.inventory.gifts,
    });
  });

  it('states the counts of obstacles and crop fields every map has', async () => {
    const env = await make(VALLEY);
    const [obstacles] = number(r.tiles.OBSTACLE, /exactly (\d+) per map/);
    const [fields] = number(r.tiles.SOIL_EMPTY, /One of the (\d+) crop fields/);
    for (let seed = 0; seed < 50; seed++) {
      env.reset({ seed });
      const { tiles, crops } = env.state();
      expect(count(tiles, 2)).toBe(obstacles);
      expect(crops).toHaveLength(fields);
    }
  });

  it('states the feeding duration and the gift step that the engine applies', async () => {
    const [ticks] = number(r.actions.feed[1], /sated for the next (\d+) ticks/);
    const [gift] = number(r.actions.gift[1], /relationship \+(\d+(?:\.\d+)?)/);
    expect(ticks).toBe(10);
    expect(gift).toBe(7.5);
    // the engine: the widgets tests play feeding and gifting; here, the state right after
    const env = await make(VALLEY);
    for (let seed = 0; seed < 400; seed++) {
      env.reset({ seed });
      for (let t = 0; t < 50; t++) {
        const legal = env.legalActions();
        const before = env.state();
        if (legal[7]) {
          env.step(7);
          const { agent, animals } = env.state();
          expect(animals.find((a) => a.x === agent.x && a.y === agent.y).satedStepsLeft).toBe(ticks);
          return;
        }
        if (legal[9] && before.villagers.every((v) => v.relationship <= 100 - gift)) {
          env.step(9);
          const after = env.state().villagers.map((v, i) => v.relationship - before.villagers[i].relationship);
          expect(after.filter((d) => d !== 0)).toEqual([gift]);
        } else if (env.step((seed + t) % 4).terminated) break;
      }
    }
    throw new Error('no feeding found in 400 seeds');
  });
});

describe('BackwardsValleyFarm-v0 docs constants', () => {
  const r = rules[BACKWARDS];

  it('states the horizon, the field count and the fence range of every map', async () => {
    expect(number(r.story[1], /In (\d+) steps/)).toEqual([envSpecs[BACKWARDS].horizon]);
    const [fields] = number(r.tiles.FIELD, /One of (\d+) crop fields/);
    const [fewest, most] = number(r.tiles.FENCE, /(\d+) to (\d+) per map/);
    const env = await make(BACKWARDS);
    const fenceCounts = new Set();
    for (let seed = 0; seed < 300; seed++) {
      env.reset({ seed });
      const { tiles, crops } = env.state();
      expect(crops).toHaveLength(fields);
      const fences = count(tiles, 2);
      expect(fences).toBeGreaterThanOrEqual(fewest);
      expect(fences).toBeLessThanOrEqual(most);
      fenceCounts.add(fences);
    }
    expect(Math.min(...fenceCounts)).toBe(fewest);
    expect(Math.max(...fenceCounts)).toBe(most);
  });
});
