// The rules reference in the repository (docs/rules/*.md) says what the engine does: its
// tile tables, action tables and numbers are read from the markdown and compared with the
// engine (through envSpecs, which tests/js/specs.test.js checks against the WebAssembly
// build, and through play).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { envSpecs, make } from '../../wasm/index.js';

const doc = (name) => readFileSync(new URL(`../../docs/rules/${name}.md`, import.meta.url), 'utf8');

/** The rows of the markdown table whose header starts with `first`. */
function table(md, first) {
  const lines = md.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`| ${first} |`));
  expect(start, `a table headed "${first}"`).toBeGreaterThanOrEqual(0);
  const rows = [];
  for (let i = start + 2; i < lines.length && lines[i].startsWith('|'); i++)
    rows.push(
      lines[i]
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  return rows;
}

const number = (rows, name) => Number(rows.find((r) => r[0] === name)[1]);

describe.each([
  ['ValleyFarm-v0', 'valley-farm'],
  ['BackwardsValleyFarm-v0', 'backwards-farm'],
])('%s rules reference', (id, file) => {
  const md = doc(file);
  const spec = envSpecs[id];

  it('lists every tile code with its name and walkability, as the engine has them', () => {
    const rows = table(md, 'code');
    expect(rows.map((r) => [Number(r[0]), r[1], r[2] === 'yes'])).toEqual(spec.tiles.map((t) => [t.code, t.name, t.walkable]));
  });

  it('lists every action by id and name, as the engine has them', () => {
    const rows = table(md, 'id');
    expect(rows.map((r) => [Number(r[0]), r[1]])).toEqual(spec.actions.map((name, i) => [i, name]));
  });

  it('gives the horizon, the map size and the observation length the engine has', async () => {
    expect(number(table(md, 'quantity'), 'horizon (actions per episode)')).toBe(spec.horizon);
    expect(md).toContain(`A ${spec.width} × ${spec.height} grid`);
    expect(md.replace(/\n/g, ' ')).toContain(`flat row has ${spec.obsSize} integers`);
    const env = await make(id);
    const { observation } = env.reset({ seed: 3 });
    expect(observation.stepsLeft).toBe(spec.horizon);
    expect(Object.keys(observation).every((k) => md.includes(`| ${k} |`) || md.includes(`| ${k}, `) || md.includes(`, ${k} |`))).toBe(true);
  });
});

it('the valley start inventory is the one the reference gives', async () => {
  const rows = table(doc('valley-farm'), 'quantity');
  const env = await make('ValleyFarm-v0');
  const { inventory } = env.reset({ seed: 11 }).observation;
  expect(inventory.seeds).toBe(number(rows, 'seeds at the start'));
  expect(inventory.water).toBe(number(rows, 'water at the start'));
  expect(inventory.feed).toBe(number(rows, 'feed at the start'));
  expect(inventory.gifts).toBe(number(rows, 'gifts at the start'));
  expect([inventory.crops, inventory.products, inventory.coins]).toEqual([0, 0, 0]);
});

it("the backwards counts are the engine state's", async () => {
  const rows = table(doc('backwards-farm'), 'quantity');
  const env = await make('BackwardsValleyFarm-v0');
  for (let seed = 1; seed <= 20; seed++) {
    env.reset({ seed });
    const s = env.state();
    expect(s.crops).toHaveLength(number(rows, 'fields'));
    expect(s.animals).toHaveLength(number(rows, 'pens'));
    expect(s.villagers).toHaveLength(number(rows, 'houses'));
    const fences = s.tiles.flat().filter((t) => t === 2).length;
    expect(fences).toBeGreaterThanOrEqual(number(rows, 'fewest fences'));
    expect(fences).toBeLessThanOrEqual(number(rows, 'most fences'));
  }
});
