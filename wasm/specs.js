// specs.js — what a program needs to know about each farm before it plays one: sizes,
// action names, tile codes, observation fields and the flat layout, the rules' numbers.
// Plain data, usable without loading the engine (the page's legend and the docs read it).
//
// Every fact comes from the engine: engine_spec.js is its vf_spec_json, generated at build
// time (wasm/spec_gen.mjs) and held equal to the built engine by tests/js/specs.test.js.
// This file only reshapes it for JavaScript: the observation as nested { shape, min, max }
// leaves (the Dict the single env returns), and a name -> code map of the tiles.
import engine from './engine_spec.js';

/** The observation's nested description: each field a leaf, grouped fields in their object. */
function observationOf(fields) {
  const observation = {};
  for (const f of fields) {
    const leaf = { shape: f.shape, min: f.low, max: f.high };
    if (f.group) (observation[f.group] ??= {})[f.name] = leaf;
    else observation[f.name] = leaf;
  }
  return observation;
}

function farmSpec(farm) {
  return {
    ...farm, // id, kind, width, height, horizon, obsSize, actions, tiles, fields, rules, name lists
    codes: Object.fromEntries(farm.tiles.map((t) => [t.name, t.code])), // codes.MARKET is 12
    observation: observationOf(farm.fields),
    layout: farm.fields.map(({ name, offset, length }) => ({ name, offset, length })), // the flat vector's
  };
}

function deepFreeze(o) {
  for (const v of Object.values(o)) if (v && typeof v === 'object') deepFreeze(v);
  return Object.freeze(o);
}

export const envSpecs = deepFreeze(Object.fromEntries(engine.farms.map((farm) => [farm.id, farmSpec(farm)])));

export const envIds = Object.freeze(Object.keys(envSpecs));

/**
 * What the engine says of itself beyond the farms (vf_spec_json): the built-in agents' names
 * (`agents`), illegal-reason codes (`whys`), event codes, error messages, the header's limits,
 * the evaluation protocol's numbers (`protocol`: splits, fresh seeds, the random agent's runs
 * per seed) and the byte layouts of the structs the API reads from engine memory.
 */
export const engineSpec = deepFreeze({
  agents: engine.agents,
  protocol: engine.protocol,
  whys: engine.whys,
  events: engine.events,
  errors: engine.errors,
  limits: engine.limits,
  layouts: engine.layouts,
});
