// index.js — learners (`valley-farm/learn`): the same code in Node and in a Web Worker.
//
//   import { createLearner, loadPolicy } from 'valley-farm/learn';
//   const learner = await createLearner({ env: 'BackwardsValleyFarm-v0', algo: 'tabular-q', seed: 1 });
//   await learner.trainFor(200_000);        // -> progress { steps, episodes, meanReturn, stepsPerSec, losses }
//   const policy = learner.policy();        // act(observation, info), toJSON()
//   const again = await loadPolicy(JSON.parse(JSON.stringify(policy)));
//
// Algorithms: 'tabular-q' (tabularQ.js, no dependencies) and 'ppo' (ppo.js, TensorFlow.js,
// loaded only when used). Both train on the vector env with legal masks, from training
// seeds only (never a validation or test seed: wasm/splits.js).
import { envSpecs, flatten } from '../index.js';
import { createTabularQ, defaults as tabularDefaults, docs as tabularDocs, TablePolicy } from './tabularQ.js';
import { createPPO, defaults as ppoDefaults, docs as ppoDocs, maxima as ppoMaxima, netPolicyFromJSON } from './ppo.js';

export { setWasmPaths, tfBackend } from './tf.js';

/** A setting's command-line option: numEnvs -> --num-envs (npx valley-farm train). */
export const settingFlag = (name) => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** Settings as the tables name them: { history: 4 } -> 'history 4'; {} -> ''. */
export const settingsText = (settings = {}) =>
  Object.entries(settings)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');

// ppo.js reaches TensorFlow.js only through a dynamic import (tf.js), so reading its
// defaults here loads nothing heavy.
export const algorithms = Object.freeze({
  'tabular-q': { defaults: tabularDefaults, docs: tabularDocs },
  ppo: { defaults: ppoDefaults, docs: ppoDocs, maxima: ppoMaxima },
});

function checkConfig(algo, config) {
  const known = Object.keys(algorithms[algo].defaults);
  for (const [k, v] of Object.entries(config)) {
    if (!known.includes(k))
      throw new TypeError(`valley-farm/learn: ${algo} has no setting '${String(k).slice(0, 40)}'; its settings are ${known.join(', ')}`);
    const d = algorithms[algo].defaults[k];
    // a whole-number default is a count (envs, steps, epochs, rows): 0 or 2.5 of it means nothing
    const count = Number.isInteger(d);
    const min = d === 0 ? 0 : 1; // a count that may be 0 defaults to 0
    const max = algorithms[algo].maxima?.[k] ?? Infinity;
    const ok = Array.isArray(d)
      ? Array.isArray(v) && v.every((u) => Number.isInteger(u) && u > 0 && u <= 4096)
      : count
        ? Number.isInteger(v) && v >= min && v <= max
        : typeof v === 'number' && Number.isFinite(v) && v >= 0;
    const wanted = Array.isArray(d)
      ? 'an array of layer sizes'
      : count
        ? `a whole number from ${min}${max < Infinity ? ` to ${max}` : ''}`
        : 'a non-negative number';
    if (!ok) throw new TypeError(`valley-farm/learn: ${algo} setting ${k} must be ${wanted}, got ${JSON.stringify(v)?.slice(0, 40)}`);
  }
}

/** A learner for { env, algo, seed, ...settings } (see algorithms[algo].defaults). */
export async function createLearner({ env, algo = 'tabular-q', seed = 1, ...settings } = {}) {
  if (!Object.hasOwn(envSpecs, env))
    throw new Error(
      `valley-farm/learn: unknown env ${JSON.stringify(String(env)).slice(0, 40)}; the env ids are ${Object.keys(envSpecs).join(', ')}`,
    );
  if (!Object.hasOwn(algorithms, algo))
    throw new Error(
      `valley-farm/learn: unknown algo ${JSON.stringify(String(algo)).slice(0, 40)}; the algorithms are ${Object.keys(algorithms).join(', ')}`,
    );
  if (!Number.isInteger(seed) || seed < 0 || seed > 2 ** 31)
    throw new RangeError('valley-farm/learn: seed must be an integer from 0 to 2^31');
  checkConfig(algo, settings);
  const inner = algo === 'ppo' ? await createPPO(env, settings, seed) : await createTabularQ(env, settings, seed);
  const config = { env, algo, seed, ...inner.config };
  return {
    env,
    algo,
    config,
    trainFor: (steps) => {
      if (!Number.isInteger(steps) || steps < 1)
        throw new RangeError('valley-farm/learn: trainFor(steps) takes a positive whole number of env steps');
      return inner.trainFor(steps);
    },
    progress: () => inner.progress(),
    policy: () => wrapPolicy(inner.policy(), config),
    dispose: () => inner.dispose(),
  };
}

/** A policy as agents are used: act(observation, info) on the single env's observation. */
function wrapPolicy(p, config) {
  if (p instanceof TablePolicy) {
    return {
      env: p.env,
      algo: p.algo,
      act(observation, info = {}) {
        flatten(p.env, observation, p.flat);
        return p.actFlat(p.flat, 0, info.legal ?? null);
      },
      toJSON: () => p.toJSON(config),
    };
  }
  // reset() starts a new episode's frames (act also does when info.step is 0). An episode's
  // seed above 2^53 - 1 is a BigInt (env.reset's info.seed): folded to 32 bits as foldSeed
  // folds a Number, so the sampling generator sees both halves either way.
  const act = (o, info) =>
    typeof info?.seed === 'bigint'
      ? p.act(o, { ...info, seed: Number(BigInt.asUintN(32, info.seed ^ (info.seed >> 32n))) })
      : p.act(o, info);
  return { env: p.env, algo: p.algo, act, reset: () => p.reset(), toJSON: () => p.toJSON() };
}

/** A policy from what toJSON() gave (parsed JSON); clear errors for anything else. */
export async function loadPolicy(json) {
  if (!json || typeof json !== 'object' || json.format !== 'valley-farm-policy')
    throw new TypeError('valley-farm/learn: not a valley-farm policy (its "format" must be "valley-farm-policy")');
  if (json.version !== 1)
    throw new Error(`valley-farm/learn: policy version ${String(json.version).slice(0, 10)}; this package reads version 1`);
  if (!Object.hasOwn(envSpecs, json.env))
    throw new Error(`valley-farm/learn: the policy's env ${JSON.stringify(String(json.env)).slice(0, 40)} is unknown`);
  if (json.algo === 'tabular-q') {
    if (!Array.isArray(json.table)) throw new TypeError('valley-farm/learn: a tabular-q policy needs its "table"');
    const A = envSpecs[json.env].actions.length;
    const table = new Map();
    for (const row of json.table) {
      if (
        !Array.isArray(row) ||
        typeof row[0] !== 'string' ||
        !Array.isArray(row[1]) ||
        row[1].length !== A ||
        !row[1].every(Number.isFinite)
      ) {
        throw new TypeError(`valley-farm/learn: a table row must be [key, ${A} numbers]`);
      }
      table.set(row[0], Float32Array.from(row[1]));
    }
    return wrapPolicy(new TablePolicy(json.env, table, A), json.config ?? {});
  }
  if (json.algo === 'ppo') {
    return wrapPolicy(await netPolicyFromJSON(json), json.config);
  }
  throw new Error(`valley-farm/learn: unknown algo ${JSON.stringify(String(json.algo)).slice(0, 40)} in the policy`);
}
