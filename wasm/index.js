// valley-farm — the JavaScript API (types and contract: index.d.ts), the same module in Node >= 20 and
// in browsers. It loads the WebAssembly build of the C engine and wraps it Gymnasium-style:
//
//   import { make, makeVec, envIds } from 'valley-farm';
//   const env = await make('ValleyFarm-v0');
//   let { observation } = env.reset({ seed: 42 });
//   const { reward, terminated } = env.step(11);
//
// One file per concern: engine.js loads the engine, env.js is one env (make), vec.js the
// vector env (makeVec); specs.js and spaces.js describe each farm, from the engine's own
// description (engine_spec.js).
export { envSpecs, envIds, engineSpec } from './specs.js';
export { Box, Dict, Discrete, MultiDiscrete, flatten, unflatten, observationSpace, flatObservationSpace, actionSpace } from './spaces.js';
export { FRESH_SEED_MIN, FRESH_SEED_MAX } from './seeds.js';
import { loadEngine as load } from './engine.js';
export { engineUrl, useEngineBytes, rulesFromEngine, specFromEngine, engineMemoryBytes } from './engine.js';
export { make } from './env.js';
export { makeVec, makeRandomRunner } from './vec.js';

/**
 * Loads the engine now (make and makeVec do it themselves): for the calls that need it
 * loaded and are synchronous, a policy's perception (valley-farm/learn) among them.
 */
export async function loadEngine() {
  await load();
}
