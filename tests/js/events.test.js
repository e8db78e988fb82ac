// Step events (vf_step_explained): with make(id, { events: true }) each step's info says
// what happened and what each part of the reward was for. The engine's own tests check each
// event against its rule; these hold the JS API to the same promises.
import { describe, it, expect } from 'vitest';
import { envIds, envSpecs, make } from 'valley-farm';

function rng(seed) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

describe.each(envIds)('%s step events', (id) => {
  it("add up to each step's reward and leave the trajectory exactly as without them", async () => {
    const told = await make(id, { events: true });
    const plain = await make(id);
    const random = rng(5);
    told.reset({ seed: 21 });
    plain.reset({ seed: 21 });
    const codes = new Set();
    let rewarded = 0;
    for (let t = 0; t < 5000; t++) {
      const legal = told.legalActions();
      const options = [...legal].flatMap((ok, a) => (ok ? [a] : []));
      const a = random() < 0.7 ? options[Math.floor(random() * options.length)] : Math.floor(random() * legal.length);
      const r = told.step(a);
      const q = plain.step(a);
      expect(r.reward).toBe(q.reward);
      expect(r.observation).toEqual(q.observation);
      expect(Object.keys(q.info)).not.toContain('events');
      const sum = r.info.events.reduce((s, e) => s + e.reward, 0);
      expect(sum).toBe(r.reward);
      for (const e of r.info.events) {
        codes.add(e.code);
        expect(e.text.length).toBeGreaterThan(10);
        expect(e.x).toBeGreaterThanOrEqual(0);
        expect(e.x).toBeLessThan(envSpecs[id].width);
        if (e.reward > 0) expect(e.text).toMatch(/\+\d+(\.\d+)?$/);
      }
      rewarded += r.reward > 0;
      if (r.terminated) {
        told.reset({ seed: 21 + t });
        plain.reset({ seed: 21 + t });
      }
    }
    expect(told.stateHash()).toBe(plain.stateHash());
    expect(rewarded).toBeGreaterThan(20);
    expect(codes.size).toBeGreaterThan(4);
  });
});

describe('the events option', () => {
  it('a gift is told with the relationship before and after and the reward the rules give', async () => {
    const env = await make('ValleyFarm-v0', { events: true });
    // walk seeds until a gift is possible at the start (a villager next to the agent)
    for (let seed = 0; seed < 2000; seed++) {
      env.reset({ seed });
      if (!env.legalActions()[9]) continue;
      const { reward, info } = env.step(9);
      const [gift] = info.events;
      expect(gift.code).toBe('gift');
      expect(gift.after - gift.before).toBe(7.5); // relationships start at 0..40
      expect(gift.reward).toBe(0.5 * 7.5);
      expect(reward).toBe(3.75);
      expect(gift.text).toBe(
        `gift to villager ${gift.subject}: relationship ${gift.before} → ${gift.after} (${['wary', 'neutral', 'friendly'][gift.count2]}), +3.75`,
      );
      return;
    }
    throw new Error('no seed below 2000 starts next to a villager');
  });

  it('must be a boolean, and the error says so', async () => {
    await expect(make('ValleyFarm-v0', { events: 'yes' })).rejects.toThrow(/events 'yes' is not allowed; it is true .* or false/);
  });
});
