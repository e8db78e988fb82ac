// policyCheck.js — a saved policy checked as data, before anything is built from it.
//
// A policy can come from anyone (a file, a message to the page), so loadPolicy first checks
// every part of it here: its format, version, env and algorithm, its settings within the
// ranges a learner may use (settings.js), and its numbers: a ppo policy's weights must be
// the count and shapes its settings imply, a tabular-q policy's rows one value per action,
// every value a finite number. Only then does a network exist: building one before knowing
// its size let a few bytes of JSON ask for a huge one. An error names the path of the bad
// value (weights[2].values[17]) and what is allowed there.
import { envSpecs } from '../index.js';
import { checkNetworkSize, checkSettings, networkInputs, networkShapes, shown } from './settings.js';
import { ACT_MODES } from './ppo.js';

/** The most rows a tabular-q policy may have (a long run meets a few hundred thousand states). */
export const MAX_TABLE_ROWS = 2 ** 21;
const MAX_KEY_LENGTH = 1024;

/** The error for the value at `path`: what is allowed there, and what it was (`got`, as text). */
const bad = (path, wanted, got) => new TypeError(`valley-farm/learn: the policy's ${path} must be ${wanted}, got ${got}`);

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
// numbers come as a JSON array, or as a Float32Array from a check done before (the page checks
// a file in a Worker, which hands the weights back as Float32Arrays: no copy of a list on the way)
const isNumberList = (v) => Array.isArray(v) || v instanceof Float32Array;

/** Throws unless every element of `values` (at `path`) is a finite number. */
function checkNumbers(values, path) {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== 'number' || !Number.isFinite(v)) throw bad(`${path}[${i}]`, 'a finite number', shown(v));
  }
}

function checkNet(json) {
  const env = json.env;
  if (!isObject(json.config)) throw new TypeError('valley-farm/learn: a ppo policy needs its "config" (the settings it was trained with)');
  checkSettings('ppo', json.config, { what: "policy's setting", unknown: 'ignore' });
  if (json.act !== undefined && !ACT_MODES.includes(json.act))
    throw new TypeError(`valley-farm/learn: a ppo policy's "act" must be ${ACT_MODES.map((m) => `"${m}"`).join(' or ')}`);
  const hidden = json.config.hidden;
  // a learner saves every setting; the network cannot be built without its layers
  if (!Array.isArray(hidden)) throw bad('config.hidden', 'an array of layer sizes (the setting the network was built with)', shown(hidden));
  const shapes = networkShapes(networkInputs(env, json.config), hidden, envSpecs[env].actions.length);
  checkNetworkSize(shapes);
  const expected = `its network's (${shapes.map((s) => s.join('x')).join(', ')})`;
  if (!Array.isArray(json.weights) || json.weights.length !== shapes.length)
    throw new Error(
      `valley-farm/learn: the policy's weights do not fit its network: expected ${shapes.length} arrays in the shapes ${expected}`,
    );
  json.weights.forEach((w, i) => {
    const shape = shapes[i];
    if (!isObject(w)) throw bad(`weights[${i}]`, `{ shape, values } of shape ${shape.join('x')}`, shown(w));
    if (!Array.isArray(w.shape) || w.shape.length !== shape.length || w.shape.some((d, j) => d !== shape[j]))
      throw new Error(
        `valley-farm/learn: the policy's weights do not fit its network: weights[${i}].shape must be [${shape.join(', ')}], got ${String(JSON.stringify(w.shape)).slice(0, 40)} (expected shapes ${expected})`,
      );
    const size = shape.reduce((a, b) => a * b, 1);
    if (!isNumberList(w.values) || w.values.length !== size)
      throw bad(
        `weights[${i}].values`,
        `an array of ${size} numbers`,
        isNumberList(w.values) ? `${w.values.length} values` : shown(w.values),
      );
    checkNumbers(w.values, `weights[${i}].values`);
  });
}

function checkTable(json) {
  const A = envSpecs[json.env].actions.length;
  if (!Array.isArray(json.table)) throw new TypeError('valley-farm/learn: a tabular-q policy needs its "table"');
  if (json.table.length > MAX_TABLE_ROWS)
    throw new RangeError(`valley-farm/learn: the policy's table has ${json.table.length} rows; at most ${MAX_TABLE_ROWS} are allowed`);
  json.table.forEach((row, i) => {
    if (!Array.isArray(row) || row.length !== 2 || typeof row[0] !== 'string' || row[0].length > MAX_KEY_LENGTH || !isNumberList(row[1]))
      throw bad(`table[${i}]`, `a row [key, ${A} numbers] (a key of at most ${MAX_KEY_LENGTH} characters)`, shown(row));
    if (row[1].length !== A) throw bad(`table[${i}][1]`, `${A} numbers (one per action)`, `${row[1].length} values`);
    checkNumbers(row[1], `table[${i}][1]`);
  });
  if (json.config !== undefined) {
    if (!isObject(json.config)) throw bad('config', 'an object of settings', shown(json.config));
    checkSettings('tabular-q', json.config, { what: "policy's setting", unknown: 'ignore' });
  }
}

/**
 * Throws a clear error unless `json` is a policy this package can load, and its ppo network
 * or tabular-q table within the limits a learner has (a network of at most MAX_WEIGHTS).
 */
export function checkPolicyJSON(json) {
  if (!isObject(json) || json.format !== 'valley-farm-policy')
    throw new TypeError('valley-farm/learn: not a valley-farm policy (its "format" must be "valley-farm-policy")');
  if (json.version !== 1)
    throw new Error(`valley-farm/learn: policy version ${String(json.version).slice(0, 10)}; this package reads version 1`);
  if (typeof json.env !== 'string' || !Object.hasOwn(envSpecs, json.env))
    throw new Error(`valley-farm/learn: the policy's env ${JSON.stringify(String(json.env)).slice(0, 40)} is unknown`);
  if (json.algo === 'tabular-q') checkTable(json);
  else if (json.algo === 'ppo') checkNet(json);
  else
    throw new Error(
      `valley-farm/learn: unknown algo ${JSON.stringify(String(json.algo)).slice(0, 40)} in the policy; the algorithms are tabular-q, ppo`,
    );
}
