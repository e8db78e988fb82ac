// The rules reference in the repository (docs/rules/*.md) says what the engine does: its
// tile tables, action tables and numbers are read from the markdown and compared with the
// engine (through envSpecs, which tests/js/specs.test.js checks against the WebAssembly
// build, and through play), and the shape of env.state() under "### The full state" is
// compared with the state the engine returns.
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

/** The text of the markdown subsection headed exactly `heading` (up to the next heading). */
function subsection(md, heading) {
  const lines = md.split('\n');
  const start = lines.indexOf(heading);
  expect(start, `a subsection headed "${heading}"`).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((l, i) => i > start && /^#{1,6} /.test(l));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/**
 * The key paths a written shape names: "{ a, b: { c }, d: [{ e }] }" gives a, b, b.c, d, d[].e.
 * A key with no value after it is a leaf (a number, a string, or an array of them).
 */
function shapePaths(shape) {
  const tokens = shape.match(/[A-Za-z_$][\w$]*|[{}[\]:,]/g) ?? [];
  let i = 0;
  const take = (want) => {
    if (tokens[i] !== want) throw new Error(`state shape: expected "${want}" at token ${i} ("${tokens[i]}") of ${shape}`);
    i++;
  };
  const object = (prefix, out) => {
    take('{');
    while (tokens[i] !== '}') {
      const key = tokens[i++];
      out.push(prefix + key);
      if (tokens[i] === ':') {
        i++;
        if (tokens[i] === '[') {
          take('[');
          object(`${prefix}${key}[].`, out);
          take(']');
        } else object(`${prefix}${key}.`, out);
      }
      if (tokens[i] === ',') i++;
    }
    take('}');
    return out;
  };
  const paths = object('', []);
  if (i !== tokens.length) throw new Error(`state shape: text after the closing brace in ${shape}`);
  return paths;
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The key paths of a state, in shapePaths' notation, added to `out`; an array's objects are merged. */
function statePaths(value, out, prefix = '') {
  for (const [key, v] of Object.entries(value)) {
    out.add(prefix + key);
    if (Array.isArray(v)) for (const e of v.filter(isObject)) statePaths(e, out, `${prefix}${key}[].`);
    else if (isObject(v)) statePaths(v, out, `${prefix}${key}.`);
  }
  return out;
}

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

  // The state's shape is written once, in the rules file; a field renamed, added or dropped in
  // the engine's state JSON fails this until the subsection says so.
  it("names every key of the engine's env.state() in its full-state shape, and no other", async () => {
    const text = subsection(md, '### The full state');
    const block = /```[a-z]*\n([\s\S]*?)```/.exec(text);
    expect(block, 'a code block with the shape in "### The full state"').not.toBeNull();
    const written = new Set(shapePaths(block[1]));
    const env = await make(id);
    env.reset({ seed: 5 });
    const actual = statePaths(env.state(), new Set());
    for (let t = 0; t < 8; t++) {
      const mask = env.legalActions();
      const legal = [...mask.keys()].filter((a) => mask[a]);
      env.step(legal[t % legal.length]);
      statePaths(env.state(), actual);
    }
    expect(
      [...actual].filter((k) => !written.has(k)),
      'state keys the subsection does not name',
    ).toEqual([]);
    expect(
      [...written].filter((k) => !actual.has(k)),
      'keys the subsection names that the state lacks',
    ).toEqual([]);
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
