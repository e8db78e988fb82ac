// check.mjs — is a results file what docs/results/README.md says it is? First the JSON Schema
// (docs/results/schema.json, the format's one definition, readable by any JSON Schema tool),
// then what a schema cannot say: the budget is one of docs/results/budgets.json, the env one
// of the engine's, the returns one per test seed, seeds unique, the file named for what it
// holds, the 2-core track's runs made on two cores. A results file is data: nothing in it is
// run or followed; each fault is reported with where it is and what is allowed.
import { readFileSync } from 'node:fs';
import { envIds, envSpecs } from '../../wasm/index.js';
import { SPLITS } from '../../wasm/splits.js';

const root = new URL('../../', import.meta.url);
export const SCHEMA = JSON.parse(readFileSync(new URL('docs/results/schema.json', root), 'utf8'));
export const RESULTS_DIR = new URL('docs/results/', root).pathname;
/** The budgets of a results folder (its budgets.json): docs/results/'s, unless a test makes its own. */
export const budgetsOf = (dir = RESULTS_DIR) => JSON.parse(readFileSync(`${dir.replace(/\/?$/, '/')}budgets.json`, 'utf8'));
export const BUDGETS = budgetsOf();
/** The project's own machine kind: its track's name. */
export const HOME_TRACK = '2-core';

const typeOf = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v);
const isType = (v, t) =>
  t === 'number' ? typeof v === 'number' && Number.isFinite(v) : t === 'integer' ? Number.isSafeInteger(v) : typeOf(v) === t;
const shown = (v) => JSON.stringify(v)?.slice(0, 40) ?? String(v);

/**
 * The faults of `value` against `schema` (the keywords schema.json uses: type, const, enum,
 * required, properties, additionalProperties: false, items, minItems, maxItems, minimum,
 * exclusiveMinimum, minLength, pattern, $ref to #/$defs), as ["where: what", ...].
 */
export function schemaFaults(value, schema = SCHEMA, where = '(file)', rootSchema = SCHEMA) {
  if (schema.$ref)
    schema = schema.$ref
      .split('/')
      .slice(1)
      .reduce((s, k) => s[k], rootSchema);
  const faults = [];
  const fault = (what) => faults.push(`${where}: ${what}`);
  if (schema.const !== undefined && value !== schema.const) fault(`is ${shown(value)}, must be ${shown(schema.const)}`);
  if (schema.enum && !schema.enum.includes(value)) fault(`is ${shown(value)}, must be one of ${schema.enum.join(', ')}`);
  if (schema.type) {
    const types = [schema.type].flat();
    if (!types.some((t) => isType(value, t))) {
      fault(`is ${typeOf(value) === 'number' ? 'not a finite number' : `a ${typeOf(value)}`}, must be ${types.join(' or ')}`);
      return faults;
    }
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) fault(`is ${value}, must be at least ${schema.minimum}`);
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum)
      fault(`is ${value}, must be above ${schema.exclusiveMinimum}`);
  }
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength) fault(`must have at least ${schema.minLength} characters`);
    if (schema.pattern && !new RegExp(schema.pattern, 'u').test(value)) fault(`is ${shown(value)}, must match ${schema.pattern}`);
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems)
      fault(`has ${value.length} items, needs at least ${schema.minItems}`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems) fault(`has ${value.length} items, at most ${schema.maxItems}`);
    if (schema.items) value.forEach((v, i) => faults.push(...schemaFaults(v, schema.items, `${where}[${i}]`, rootSchema)));
  }
  if (typeOf(value) === 'object') {
    for (const k of schema.required ?? []) if (!Object.hasOwn(value, k)) fault(`lacks "${k}"`);
    for (const [k, v] of Object.entries(value)) {
      if (schema.properties && Object.hasOwn(schema.properties, k))
        faults.push(...schemaFaults(v, schema.properties[k], `${where}.${k}`, rootSchema));
      else if (schema.additionalProperties === false)
        fault(`has "${k.slice(0, 40)}", which the format does not know (it knows ${Object.keys(schema.properties ?? {}).join(', ')})`);
    }
  }
  return faults;
}

/**
 * A learner with its settings beyond the defaults, as names and tables key it: 'ppo',
 * 'ppo-history-4'; the settings in alphabetical order, so that the same settings give one name.
 */
export const learnerKey = ({ learner, settings = {} }) =>
  [
    learner,
    ...Object.keys(settings)
      .sort()
      .map((k) => `${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}-${settings[k]}`),
  ].join('-');

/** A results file's name: its learner key, its farm, its budget. */
export const resultsName = (file) => `${learnerKey(file)}-${file.env}-${file.budget}`;

/**
 * Every fault of a results file (parsed JSON); `path` (docs/results/<track>/<name>.json) also
 * checks its name; `budgets` are docs/results/budgets.json's unless given (a test's tiny ones).
 */
export function resultsFaults(json, path = null, budgets = BUDGETS) {
  const faults = schemaFaults(json);
  if (faults.length) return faults;
  if (!Object.hasOwn(budgets, json.budget))
    faults.push(`budget: is ${shown(json.budget)}, must be one of ${Object.keys(budgets).join(', ')}`);
  if (!envIds.includes(json.env)) faults.push(`env: is ${shown(json.env)}, must be one of ${envIds.join(', ')}`);
  const seen = new Set();
  json.runs.forEach((run, i) => {
    const at = `runs[${i}] (seed ${run.seed})`;
    if (seen.has(run.seed)) faults.push(`${at}: a second run of seed ${run.seed}; each training seed once`);
    seen.add(run.seed);
    if (run.test.returns.length !== SPLITS.test.count || run.test.episodes !== SPLITS.test.count)
      faults.push(
        `${at}: test has ${run.test.returns.length} returns over ${run.test.episodes} episodes; the test split has ${SPLITS.test.count} seeds, one return each`,
      );
    if (run.validation.episodes > SPLITS.validation.count)
      faults.push(`${at}: validation.episodes ${run.validation.episodes} is more than the split's ${SPLITS.validation.count} seeds`);
    const budget = budgets[json.budget];
    // A learner trains whole rollouts (PPO's numEnvs × nSteps, REINFORCE's episodes), so a run
    // may end past its budget by less than one rollout: numEnvs × the longer of nSteps and an
    // episode
    const rollout = (run.config?.numEnvs ?? 1) * Math.max(run.config?.nSteps ?? 1, envSpecs[json.env]?.horizon ?? 1);
    if (budget?.steps && (run.steps < budget.steps || run.steps >= budget.steps + rollout))
      faults.push(
        `${at}: trained ${run.steps} steps; the ${json.budget} budget is ${budget.steps}, and a run ends past it by less than one rollout (${rollout} steps here)`,
      );
    if (budget?.seconds && run.stoppedBy !== 'max-seconds' && run.seconds > budget.seconds)
      faults.push(`${at}: took ${run.seconds} s; the ${json.budget} budget is ${budget.seconds} s`);
    if (json.track === HOME_TRACK && run.machine.cores !== 2)
      faults.push(
        `${at}: ran on ${run.machine.cores} cores; the ${HOME_TRACK} track's runs are made on the 2-core machine kind (name another track for another machine)`,
      );
    if (/--split\s+test|--seeds\s/.test(run.command))
      faults.push(`${at}: its command plays test seeds while training; tuning uses validation seeds only`);
  });
  if (path) {
    const m = /(?:^|\/)([a-z0-9][a-z0-9-]*)\/([^/]+)\.json$/.exec(path);
    if (!m || m[1] !== json.track || m[2] !== resultsName(json))
      faults.push(`the file ${path} must be docs/results/${json.track}/${resultsName(json)}.json, after what it holds`);
  }
  return faults;
}
