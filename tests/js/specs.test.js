// envSpecs is plain data for the page and the docs, generated from the engine's own
// description (vf_spec_json, wasm/engine_spec.js). These tests hold the generated file equal
// to the built engine, and the description itself true to what the engine does in play.
import { describe, expect, it } from 'vitest';
import engineData from '../../wasm/engine_spec.js';
import { envSpecs, make, rulesFromEngine, specFromEngine } from '../../wasm/index.js';

describe('the generated spec', () => {
  it('wasm/engine_spec.js is exactly what the built engine says of itself (else: node wasm/build.mjs)', async () => {
    expect(await specFromEngine()).toEqual(engineData);
  });

  it('wasm/observations.js and wasm/farm_types.d.ts are exactly what spec_gen.mjs makes of the built engine', async () => {
    const { observationsModule, typesModule, OBSERVATIONS_FILE, TYPES_FILE } = await import('../../wasm/spec_gen.mjs');
    const { readFileSync } = await import('node:fs');
    const spec = await specFromEngine();
    expect(readFileSync(OBSERVATIONS_FILE, 'utf8')).toBe(await observationsModule(spec));
    expect(readFileSync(TYPES_FILE, 'utf8')).toBe(await typesModule(spec));
  });
});

const walkableByName = (spec) => Object.fromEntries(spec.tiles.map((t) => [t.code, t.walkable]));

describe.each(Object.keys(envSpecs))('%s spec', (id) => {
  const spec = envSpecs[id];

  it('gives the map size and horizon that play shows', async () => {
    const env = await make(id);
    const { observation } = env.reset({ seed: 1 });
    expect(observation.stepsLeft).toBe(spec.horizon);
    const state = env.state();
    expect([state.width, state.height]).toEqual([spec.width, spec.height]);
    expect(state.tiles).toHaveLength(spec.height);
    expect(state.tiles[0]).toHaveLength(spec.width);
  });

  it('names every tile code the engine draws, and only those', async () => {
    const env = await make(id);
    const seen = new Set();
    // a farmer that does whatever farm work is legal where it stands, else walks at random,
    // so that every crop stage and entity state shows up
    const work = spec.actions.map((name, a) => a).filter((a) => a >= 4);
    for (let seed = 0; seed < 300; seed++) {
      let { observation } = env.reset({ seed });
      for (const row of env.state().tiles) for (const code of row) seen.add(code);
      for (let t = 0; ; t++) {
        for (const code of observation.view ?? observation.terrain) seen.add(code);
        const legal = env.legalActions();
        const chores = work.filter((a) => legal[a] && spec.actions[a] !== 'wait');
        const r = env.step(chores.length ? chores[t % chores.length] : (seed * 7 + t) % 4);
        for (const row of env.state().tiles) for (const code of row) seen.add(code);
        observation = r.observation;
        if (r.terminated) break;
      }
    }
    expect([...seen].sort((a, b) => a - b)).toEqual(spec.tiles.map((t) => t.code));
  });

  it('says which tiles are walkable exactly as the engine moves', async () => {
    const env = await make(id);
    const walkable = walkableByName(spec);
    let checked = 0;
    for (let seed = 0; seed < 100; seed++) {
      env.reset({ seed });
      for (let t = 0; t < 30; t++) {
        const { agent, tiles } = env.state();
        const move = (seed * 3 + t) % 4; // north, south, east, west
        const [dx, dy] = [
          [0, -1],
          [0, 1],
          [1, 0],
          [-1, 0],
        ][move];
        const target = tiles[agent.y + dy]?.[agent.x + dx] ?? 0;
        const r = env.step(move);
        const after = env.state().agent;
        expect(after.x === agent.x + dx && after.y === agent.y + dy).toBe(walkable[target]);
        checked++;
        if (r.terminated) break;
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('shows the view fields as a viewSize square of the map, the agent at its centre, north row first', async () => {
    const env = await make(id);
    const n = spec.viewSize;
    const c = (n - 1) / 2;
    const views = spec.fields.filter((f) => f.role === 'tiles');
    expect(views).toHaveLength(1);
    expect(views[0].length).toBe(n * n);
    let checked = 0;
    for (let seed = 0; seed < 20; seed++) {
      let { observation } = env.reset({ seed });
      for (let t = 0; t < 20; t++) {
        const { agent, tiles } = env.state();
        const view = observation[views[0].name];
        for (let dy = -c; dy <= c; dy++)
          for (let dx = -c; dx <= c; dx++) {
            const tile = tiles[agent.y + dy]?.[agent.x + dx] ?? spec.codes.OUT_OF_BOUNDS;
            if (view[(c + dy) * n + c + dx] === tile) checked++;
          }
        observation = env.step((seed + t) % 4).observation;
      }
    }
    expect(checked).toBe(20 * 20 * n * n);
  });

  it('gives the flat layout that a vector env uses, field by field', () => {
    let offset = 0;
    for (const f of spec.layout) {
      expect(f.offset).toBe(offset);
      offset += f.length;
    }
    expect(offset).toBe(spec.obsSize);
  });

  it('bounds every observation field the engine produces', async () => {
    const env = await make(id);
    const problems = new Set();
    const check = (space, value, path) => {
      if ('shape' in space) {
        const values = Array.isArray(value) ? value : [value];
        if (values.length !== (space.shape[0] ?? 1)) problems.add(`${path} has length ${values.length}`);
        for (const v of values) if (!(v >= space.min && v <= space.max)) problems.add(`${path} = ${v}`);
      } else {
        for (const key of Object.keys(space)) check(space[key], value[key], `${path}.${key}`);
        if (Object.keys(value).length !== Object.keys(space).length) problems.add(`${path} has other fields`);
      }
    };
    for (let seed = 0; seed < 300; seed++) {
      let { observation } = env.reset({ seed });
      for (;;) {
        check(spec.observation, observation, 'observation');
        const legal = env.legalActions();
        const choices = [...legal.keys()].filter((a) => legal[a]);
        const r = env.step(choices[(seed * 7 + observation.stepsLeft) % choices.length]);
        observation = r.observation;
        if (r.terminated) break;
      }
      check(spec.observation, observation, 'observation');
    }
    expect([...problems]).toEqual([]);
  });
});

describe('the rules block', () => {
  it.each(Object.keys(envSpecs))("%s: envSpecs' rules are exactly the engine's own constants (vf_rules_json)", async (id) => {
    expect(await rulesFromEngine(id)).toEqual(envSpecs[id].rules);
  });

  it("the valley's observation bounds are the rules' bounds, derived once", () => {
    const { rules, observation } = envSpecs['ValleyFarm-v0'];
    expect(observation.inventory.coins.max).toBe(2 * (rules.priceCrop * rules.maxCrops + rules.priceProduct * rules.maxProducts));
    expect(rules.maxCrops).toBe(Math.floor(rules.startWater / rules.wateringsPerCrop));
    expect(rules.maxProducts).toBe(rules.startFeed * Math.floor(rules.satedTicks / rules.productTicks));
    expect(observation.inventory.crops.max).toBe(rules.maxCrops);
  });

  it('rulesFromEngine names the env ids it accepts', async () => {
    await expect(rulesFromEngine('Nope-v0')).rejects.toThrow(
      /unknown env id 'Nope-v0'; the env ids are 'ValleyFarm-v0', 'BackwardsValleyFarm-v0'/,
    );
  });
});
