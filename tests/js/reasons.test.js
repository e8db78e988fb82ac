// Why an action is illegal comes from the engine (vf_why_illegal): these tests hold the JS
// API to it and to the rules documents, which list each farm's reasons.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { envIds, envSpecs, make } from 'valley-farm';

const RULES = { 'ValleyFarm-v0': 'docs/rules/valley-farm.md', 'BackwardsValleyFarm-v0': 'docs/rules/backwards-farm.md' };

function rng(seed) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

describe.each(envIds)('%s', (id) => {
  it("a step's info has an illegalReason exactly when the step was illegal, the one illegalReasons() gave before it", async () => {
    const env = await make(id);
    const random = rng(7);
    env.reset({ seed: 5 });
    let illegal = 0;
    const codes = new Set();
    for (let t = 0; t < 3000; t++) {
      const before = env.illegalReasons();
      const legal = env.legalActions();
      expect(before.map((r) => (r === null ? 1 : 0))).toEqual([...legal]);
      const a = Math.floor(random() * envSpecs[id].actions.length);
      const r = env.step(a);
      expect(r.info.illegalReason ?? null).toEqual(before[a]);
      expect('illegalReason' in r.info).toBe(!r.info.actionWasLegal);
      if (!r.info.actionWasLegal) {
        illegal++;
        codes.add(r.info.illegalReason.code);
        expect(r.info.illegalReason.text.length).toBeGreaterThan(10);
      }
      if (r.terminated) {
        expect(env.illegalReasons().every((x) => x?.code === 'episode-over')).toBe(true);
        env.reset({ seed: 5 + t });
      }
    }
    expect(illegal).toBeGreaterThan(1000);
    expect(codes.size).toBeGreaterThan(3);
    env.close();
  });

  it('its rules document lists every reason random play meets, by its code', async () => {
    const doc = readFileSync(RULES[id], 'utf8');
    const env = await make(id);
    const random = rng(11);
    env.reset({ seed: 1 });
    for (let t = 0; t < 3000; t++) {
      for (const r of env.illegalReasons()) if (r && r.code !== 'episode-over') expect(doc).toContain(`\`${r.code}\``);
      if (env.step(Math.floor(random() * envSpecs[id].actions.length)).terminated) env.reset({ seed: t });
    }
    env.close();
  });
});
