// Each farm's rules (docs/rules/<slug>-farm.md, which its docs page renders) list why an
// action can be illegal. The engine is the authority: every reason random play meets must be
// on its farm's list, on a row naming that action (or "any"), and every listed code must be
// one the engine gives.
import { describe, it, expect } from 'vitest';
import { envIds, envSpecs, make } from 'valley-farm';
import { farmFor } from '../../web/src/model/farms/index.js';

const RULES_DOCS = import.meta.glob('../../docs/rules/*.md', { query: '?raw', import: 'default', eager: true });

/** The rows [actions, code] of the "Why an action is illegal" table of a farm's rules. */
function whyIllegal(id) {
  const doc = RULES_DOCS[`../../docs/rules/${farmFor(id).slug}-farm.md`];
  const section = doc.slice(doc.indexOf('### Why an action is illegal'));
  return [...section.slice(0, section.indexOf('\n#', 1)).matchAll(/^\| (.+?) \| `([a-z-]+)` \|/gm)].map((m) => [m[1], m[2]]);
}

function rng(seed) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

describe.each(envIds)('%s rules page', (id) => {
  it('lists each reason random play meets on a row naming its action, and lists no reason the engine never gives', async () => {
    const rows = whyIllegal(id).map(([actions, code]) => ({ actions: actions.split(', '), code }));
    const names = envSpecs[id].actions;
    const env = await make(id);
    const random = rng(3);
    const met = new Set();
    env.reset({ seed: 2 });
    for (let t = 0; t < 20000; t++) {
      env.illegalReasons().forEach((r, a) => {
        if (!r) return;
        met.add(r.code);
        const row = rows.find((w) => w.code === r.code && (w.actions.includes(names[a]) || w.actions.includes('any')));
        expect(row, `${names[a]}: ${r.code}`).toBeDefined();
      });
      if (env.step(Math.floor(random() * names.length)).terminated) {
        env.illegalReasons().forEach((r) => met.add(r.code));
        env.reset({ seed: t });
      }
    }
    const listed = new Set(rows.map((w) => w.code));
    listed.delete('not-an-action'); // an id outside the actions: random play over the actions never meets it
    expect([...met].filter((c) => !listed.has(c))).toEqual([]);
    expect(met.size).toBeGreaterThan(listed.size / 2);
    env.close();
  });
});
