// tabularQ.js — Q-learning over local features (encode.js tabularKey): the fast baseline.
// A table of action values per key, ε-greedy over the legal actions of a vector env (its
// masks), one-step targets r + γ max over the next state's legal actions (none at the end).
import { envSpecs, flatten, makeVec } from '../index.js';
import { encoderFor } from './encode.js';
import { seededRandom } from '../rng.js';
import { progressOf, recordEpisode, trainingStats } from './progress.js';
import { checkSettings, number, shown, whole } from './limits.js';
import { POLICY_FORMAT, bad, checkNumbers, isNumberList, isObject } from './policyFile.js';
import { PackedTable, isPackedTable } from './packedTable.js';

/** The most rows a tabular-q policy may have: loadPolicy refuses a table of more. */
export const MAX_TABLE_ROWS = 2 ** 21;

export const defaults = Object.freeze({
  numEnvs: 32,
  alpha: 0.1,
  gamma: 0.98,
  epsilon: 0.2,
  epsilonEnd: 0.02,
  epsilonSteps: 1_000_000,
  maxStates: MAX_TABLE_ROWS,
});

export const docs = Object.freeze({
  numEnvs: 'envs stepped together',
  alpha: 'learning rate of each update',
  gamma: 'discount per step',
  epsilon: 'exploration at the start: the share of random legal actions',
  epsilonEnd: 'exploration after epsilonSteps env steps (linear in between)',
  epsilonSteps: 'env steps over which exploration falls',
  maxStates:
    'the most states the table keeps: a state first met when it is full is never learned (its values stay 0), so that a long run still saves a policy loadPolicy accepts',
});

/** Each setting's allowed values (createLearner and a saved policy's check hold them to these). */
export const limits = Object.freeze({
  numEnvs: whole(1, 4096),
  alpha: number(0, 1),
  gamma: number(0, 1),
  epsilon: number(0, 1),
  epsilonEnd: number(0, 1),
  epsilonSteps: whole(1, 1e12),
  maxStates: whole(1, MAX_TABLE_ROWS),
});

const MAX_KEY_LENGTH = 1024;

/** A greedy table policy: act(observation, info) with the same features. */
export class TablePolicy {
  constructor(env, table, actions) {
    this.env = env;
    this.algo = 'tabular-q';
    this.table = table;
    this.actions = actions;
    this.encoder = encoderFor(env);
    this.flat = new Int32Array(envSpecs[env].obsSize);
  }

  /** The greedy legal action for a flat row (or for an observation object, flattened). */
  actFlat(flat, row, mask) {
    const key = this.encoder.tabularKey(flat, row);
    const q = this.table.get(key);
    // ties (and states never seen) are broken by a hash of the state's key, not by action
    // order: always taking the first tied action walks into walls
    let h = 2166136261;
    for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619);
    let best = -1;
    let bestTie = -1;
    for (let a = 0; a < this.actions; a++) {
      if (mask && !mask[a]) continue;
      const v = q ? q[a] : 0;
      const tie = Math.imul(h ^ (a + 1), 2654435761) >>> 0;
      if (best < 0 || v > (q ? q[best] : 0) || (v === (q ? q[best] : 0) && tie > bestTie)) {
        best = a;
        bestTie = tie;
      }
    }
    return best < 0 ? this.actions - 1 : best;
  }

  /** The greedy legal action for an observation (info.legal: the mask, if known). */
  act(observation, info = {}) {
    flatten(this.env, observation, this.flat);
    return this.actFlat(this.flat, 0, info.legal ?? null);
  }

  reset() {} // it keeps nothing between steps

  toJSON(config = {}) {
    return {
      format: POLICY_FORMAT,
      version: 1,
      env: this.env,
      algo: this.algo,
      config,
      table: [...this.table].map(([k, q]) => [k, Array.from(q)]),
    }; // exact: float32 round-trips through JSON numbers
  }

  dispose() {}
}

/**
 * A TablePolicy from a saved policy that loadPolicy has checked as data (policyCheck.js): its
 * table as rows, or packed (packedTable.js, as a Worker that checked the file hands it over).
 */
export function tablePolicyFromJSON(json) {
  const actions = envSpecs[json.env].actions.length;
  const table = isPackedTable(json.table)
    ? new PackedTable(json.table, actions)
    : new Map(json.table.map(([key, q]) => [key, Float32Array.from(q)]));
  return new TablePolicy(json.env, table, actions);
}

export async function createTabularQ(env, config, seed) {
  const c = { ...defaults, ...config };
  const vec = await makeVec(env, c.numEnvs);
  const A = envSpecs[env].actions.length;
  const enc = encoderFor(env);
  const table = new Map();
  const random = seededRandom(seed);
  // a state met when the table is full: its values read as 0, and it is never updated
  const unkept = new Float32Array(A);
  const qOf = (key) => {
    let q = table.get(key);
    if (!q) {
      if (table.size >= c.maxStates) return unkept;
      table.set(key, (q = new Float32Array(A)));
    }
    return q;
  };
  let r = vec.reset({ seed: seed * 1_000_003 + 2 ** 32 }); // a training seed, never a held-out one
  let keys = Array.from({ length: c.numEnvs }, (_, i) => enc.tabularKey(r.observations, i));
  const actions = new Int32Array(c.numEnvs);
  const stats = trainingStats();

  function choose(i, q, eps) {
    const m = r.masks.subarray(i * A, (i + 1) * A);
    if (random() < eps) {
      let count = 0;
      for (let a = 0; a < A; a++) count += m[a];
      let k = Math.floor(random() * count);
      for (let a = 0; a < A; a++) if (m[a] && k-- === 0) return a;
    }
    let best = -1;
    for (let a = 0; a < A; a++) if (m[a] && (best < 0 || q[a] > q[best])) best = a;
    return best;
  }

  return {
    config: c,
    async trainFor(steps) {
      const target = stats.steps + steps;
      let err = 0;
      let n = 0;
      while (stats.steps < target) {
        const eps = Math.max(c.epsilonEnd, c.epsilon - ((c.epsilon - c.epsilonEnd) * stats.steps) / c.epsilonSteps);
        for (let i = 0; i < c.numEnvs; i++) actions[i] = choose(i, qOf(keys[i]), eps);
        r = vec.step(actions);
        for (let i = 0; i < c.numEnvs; i++) {
          const q = qOf(keys[i]);
          const a = actions[i];
          let next = 0;
          const nextKey = enc.tabularKey(r.observations, i);
          if (!r.terminated[i]) {
            const q2 = qOf(nextKey);
            next = -Infinity;
            for (let b = 0; b < A; b++) if (r.masks[i * A + b] && q2[b] > next) next = q2[b];
          } else {
            recordEpisode(stats, r.episodeReturns[i]);
          }
          const delta = r.rewards[i] + c.gamma * next - q[a];
          if (q !== unkept) q[a] += c.alpha * delta;
          err += Math.abs(delta);
          n++;
          keys[i] = nextKey;
        }
        stats.steps += c.numEnvs;
        stats.updates += c.numEnvs;
      }
      stats.losses = { tdError: err / Math.max(1, n), states: table.size };
      return this.progress();
    },
    progress: () => progressOf(stats),
    policy() {
      return new TablePolicy(env, new Map([...table].map(([k, q]) => [k, Float32Array.from(q)])), A);
    },
    dispose() {
      vec.close();
    },
  };
}

/**
 * Throws a clear error, naming the path of the bad value, unless a saved tabular-q policy's
 * table has at most MAX_TABLE_ROWS rows of [key, one finite number per action] and its
 * settings are within the limits. A packed table (packedTable.js) is held to the same rules,
 * read from its arrays in a few passes over them (no list a row).
 */
function checkPolicy(json) {
  const A = envSpecs[json.env].actions.length;
  if (isPackedTable(json.table)) checkPackedTable(json.table, A);
  else checkTableRows(json.table, A);
  if (json.config !== undefined) {
    if (!isObject(json.config)) throw bad('config', 'an object of settings', shown(json.config));
    checkSettings(learner, json.config, { what: "policy's setting", unknown: 'ignore' });
  }
}

function checkPackedTable({ keys, ends, values }, A) {
  if (ends.length > MAX_TABLE_ROWS)
    throw new RangeError(`valley-farm/learn: the policy's table has ${ends.length} rows; at most ${MAX_TABLE_ROWS} are allowed`);
  if (values.length !== ends.length * A)
    throw bad('table.values', `${A} numbers a row (${ends.length * A} for ${ends.length} rows)`, `${values.length}`);
  for (let row = 0, start = 0; row < ends.length; start = ends[row++]) {
    if (ends[row] < start || ends[row] > keys.length)
      throw bad(`table.ends[${row}]`, `from ${start} to the keys' ${keys.length} code units`, `${ends[row]}`);
    if (ends[row] - start > MAX_KEY_LENGTH)
      throw bad(`table's row ${row}`, `a key of at most ${MAX_KEY_LENGTH} characters`, `${ends[row] - start}`);
  }
  if (ends.length > 0 && ends[ends.length - 1] !== keys.length)
    throw bad('table.keys', `the rows' ${ends[ends.length - 1]} code units`, `${keys.length}`);
  checkNumbers(values, 'table.values');
}

function checkTableRows(table, A) {
  if (!Array.isArray(table)) throw new TypeError('valley-farm/learn: a tabular-q policy needs its "table"');
  if (table.length > MAX_TABLE_ROWS)
    throw new RangeError(`valley-farm/learn: the policy's table has ${table.length} rows; at most ${MAX_TABLE_ROWS} are allowed`);
  table.forEach((row, i) => {
    if (!Array.isArray(row) || row.length !== 2 || typeof row[0] !== 'string' || row[0].length > MAX_KEY_LENGTH || !isNumberList(row[1]))
      throw bad(`table[${i}]`, `a row [key, ${A} numbers] (a key of at most ${MAX_KEY_LENGTH} characters)`, shown(row));
    if (row[1].length !== A) throw bad(`table[${i}][1]`, `${A} numbers (one per action)`, `${row[1].length} values`);
    checkNumbers(row[1], `table[${i}][1]`);
  });
}

/**
 * Tabular Q as the registry lists it (registry.js; every field: docs/adding-a-learner.md). It
 * sees each state as encode.js's tabular key; its table, which grows with the states it meets,
 * is not in estimateMemory's count (no `memory`).
 */
export const learner = Object.freeze({
  name: 'tabular-q',
  title: 'tabular Q',
  defaults,
  docs,
  limits,
  actModes: Object.freeze(['greedy']),
  create: createTabularQ,
  checkPolicy,
  load: tablePolicyFromJSON,
});
