// The docs' generated tables cannot drift from the engine: they come from envSpecs, and these
// tests check the rendered tables against the engine itself (tile codes, observation fields,
// the flat layout of a vector env). The rules' own tables are docs/rules/*.md, which
// tests/js/rules_docs.test.js checks.
import { describe, it, expect } from 'vitest';
import { render } from 'preact';
import { make, makeVec, envIds, envSpecs } from 'valley-farm';
import { TileTable, LayoutTable, ObservationTable } from '../../web/src/docs/components/SpecTables.jsx';
import { flatten } from 'valley-farm';

function table(Component, envId) {
  const host = document.createElement('div');
  render(<Component envId={envId} />, host);
  return host;
}

describe.each(envIds)('%s', (envId) => {
  it('the tile legend has every tile code once, and the codes the engine uses are in it', async () => {
    const codes = [...table(TileTable, envId).querySelectorAll('tbody tr')].map((r) => Number(r.dataset.code));
    expect(codes).toEqual(envSpecs[envId].tiles.map((t) => t.code));
    const env = await make(envId);
    for (const seed of [1, 2, 3, 7]) {
      env.reset({ seed });
      for (const row of env.state().tiles) for (const code of row) expect(codes).toContain(code);
    }
    env.close();
  });

  it('the observation table names every field of the observation the engine returns', async () => {
    const env = await make(envId);
    const { observation } = env.reset({ seed: 7 });
    const fields = [...table(ObservationTable, envId).querySelectorAll('tbody tr')].map((r) => r.dataset.field.split('.')[0]);
    expect([...new Set(fields)]).toEqual(Object.keys(observation));
    env.close();
  });

  it('the documented flat layout matches a vector env observation for seed 7, field by field', async () => {
    const rows = [...table(LayoutTable, envId).querySelectorAll('tbody tr')].map((r) => ({
      name: r.dataset.field,
      offset: Number(r.dataset.offset),
      length: Number(r.dataset.length),
    }));
    const vec = await makeVec(envId, 1);
    const flat = Array.from(vec.reset(7).observations);
    const env = await make(envId);
    let { observation } = env.reset({ seed: 7 });
    expect(flat.length).toBe(envSpecs[envId].obsSize);
    expect(rows.at(-1).offset + rows.at(-1).length).toBe(vec.obsSize);
    for (const { name, offset, length } of rows) {
      const value = name in observation ? observation[name] : observation.inventory[name];
      expect(flat.slice(offset, offset + length), name).toEqual(length === 1 ? [value] : Array.from(value));
    }
    // and after a few steps, the docs' flatten() still equals the vector env
    for (let t = 0; t < 5; t++) {
      const a = t % envSpecs[envId].actions.length;
      observation = env.step(a).observation;
      const out = Array.from(vec.step([a]).observations);
      expect(Array.from(flatten(envId, observation))).toEqual(out);
    }
    vec.close();
    env.close();
  });
});
