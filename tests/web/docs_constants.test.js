// The numbers in the rules' prose (docs/rules/*.md, which the docs pages render) are checked
// against what the engine does, so a changed constant breaks this test rather than silently
// the docs. (tests/js/rules_docs.test.js checks the same files' tables.)
import { describe, expect, it } from 'vitest';
import { envSpecs, make } from 'valley-farm';
import { valley, backwards } from '../../web/src/model/farms/index.js';

const VALLEY = valley.id;
const BACKWARDS = backwards.id;
const RULES = import.meta.glob('../../docs/rules/*.md', { query: '?raw', import: 'default', eager: true });
/** A farm's rules text, with its lines joined (a sentence may wrap). */
const rulesText = (farm) => RULES[`../../docs/rules/${farm.slug}-farm.md`].replace(/\s*\n\s*/g, ' ');

const number = (text, pattern) => {
  const m = text.match(pattern);
  if (!m) throw new Error(`the docs no longer say ${pattern} in: ${text}`);
  return m.slice(1).map(Number);
};
const count = (tiles, code) => tiles.flat().filter((c) => c === code).length;

describe('ValleyFarm-v0 docs constants', () => {
  const md = rulesText(valley);

  it('states the horizon, the map size and the start inventory the engine uses', async () => {
    const env = await make(VALLEY);
    const { observation } = env.reset({ seed: 1 });
    expect(number(md, /In (\d+) steps/)).toEqual([envSpecs[VALLEY].horizon]);
    expect(number(md, /on a (\d+) × (\d+) valley/)).toEqual([envSpecs[VALLEY].width, envSpecs[VALLEY].height]);
    const [seeds, water, feed, gifts] = ['seeds', 'water', 'feed', 'gifts'].map(
      (k) => number(md, new RegExp(`\\| ${k} at the start \\| (\\d+) \\|`))[0],
    );
    expect({ seeds, water, feed, gifts }).toEqual({
      seeds: observation.inventory.seeds,
      water: observation.inventory.water,
      feed: observation.inventory.feed,
      gifts: observation.inventory.gifts,
    });
  });

  it('states the counts of obstacles and crop fields every map has', async () => {
    const env = await make(VALLEY);
    const [obstacles] = number(md, /a rock or tree; (\d+) on every map/);
    const [fields] = number(md, /one of the (\d+) fields/);
    for (let seed = 0; seed < 50; seed++) {
      env.reset({ seed });
      const { tiles, crops } = env.state();
      expect(count(tiles, 2)).toBe(obstacles);
      expect(crops).toHaveLength(fields);
    }
  });

  it('states the feeding duration and the gift step that the engine applies', async () => {
    const [ticks] = number(md, /sated for its next (\d+) ticks/);
    const [gift] = number(md, /relationship \+(\d+(?:\.\d+)?)/);
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
  const md = rulesText(backwards);

  it('states the horizon, the field count and the fence range of every map', async () => {
    expect(number(md, /In (\d+) steps/)).toEqual([envSpecs[BACKWARDS].horizon]);
    expect(number(md, /A (\d+) × (\d+) farm/)).toEqual([envSpecs[BACKWARDS].width, envSpecs[BACKWARDS].height]);
    const [fields] = number(md, /places (\d+) fields/);
    const [fewest, most] = number(md, /(\d+) to (\d+) fences/);
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
