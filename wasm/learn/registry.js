// registry.js — the learners, by name. Each learner is one module that declares itself (its
// `learner` export); everything that names or configures learners reads this table: the
// settings checks and memory estimate (settings.js), a saved policy's check (policyCheck.js),
// createLearner and loadPolicy (index.js), the command line's options and help
// (wasm/cli/train.mjs, eval.mjs) and the Lab's form and share links (web/src/lab). Adding a
// learner: its module, its import and entry in BUILT_IN below, its tests, its docs
// (docs/adding-a-learner.md).
//
// A declaration holds:
//   name, title       its algo name ('ppo') and how tables name it ('PPO')
//   defaults, docs    every setting's default and a sentence saying what it does
//   limits            every setting's allowed values (limits.js: whole, number, layers)
//   actModes          how its policies may pick actions ('greedy', 'sample'); the first is a
//                     file's default
//   create(env, settings, seed)  a run (settings checked, defaults not yet merged)
//   checkPolicy(json)  throws unless a saved policy of it is sound data (its envelope is checked)
//   load(json)         its policy from a file checkPolicy passed
// and may hold:
//   maxima             the largest value of the settings that have one
//   checkConfig(env, c)  throws for settings that fit their limits but not together
//   memory(env, c, { threads })  bytes a run takes beyond its vector envs (estimateMemory)
//   memorySettings     { setting: what less of it is ('fewer envs') }: the settings that size
//                      its memory, most first, which a run over the learner budget is told to
//                      lower (settings.js lessMemory)
//   resume             { checkState(state, c) }: its runs can be saved (checkpoint()) between
//                      trainFor calls and resumed (restore(state)) exactly; checkState throws
//                      unless a checkpoint's state fits a run of config c (checkpointCheck.js
//                      checks the rest of the checkpoint first)
//   runDefaults(steps) the defaults of settings that follow a run's planned length (PPO's
//                      anneal), used where the length is given (createLearner's steps)
//   thread(ctx)        the part of a run each thread runs (threads.js): a learner that has
//                      one runs on every core with the same bits (exchange.js)
//   url                where its module is (import.meta.url), for a learner from outside the
//                      package that runs threads: each thread imports it from there
import { allowed, fits, isLimit } from './limits.js';
import { learner as tabularQ } from './tabularQ.js';
import { learner as ppo } from './ppo.js';
import { learner as reinforce } from './reinforce.js';
import { learner as dqn } from './dqn.js';

const BUILT_IN = [tabularQ, ppo, reinforce, dqn];

/** The learners by name, in the order they were registered (add them with registerLearner). */
export const algorithms = {};

const NAME = /^[a-z][a-z0-9-]{0,30}$/;
const REQUIRED = ['create', 'checkPolicy', 'load'];
const OPTIONAL = ['checkConfig', 'memory', 'runDefaults', 'thread'];

/** Throws a clear error naming the first thing a learner's declaration lacks or gets wrong. */
function checkDeclaration(d) {
  const fail = (what) => {
    throw new TypeError(`valley-farm/learn: registerLearner: ${what}`);
  };
  if (!d || typeof d !== 'object') fail('a learner is an object (a module\'s "learner" export)');
  if (typeof d.name !== 'string' || !NAME.test(d.name))
    fail(`a learner's name is lower-case letters, digits and dashes, starting with a letter, got ${JSON.stringify(d.name)}`);
  const who = `learner ${d.name}`;
  if (Object.hasOwn(algorithms, d.name)) fail(`${who} is registered already`);
  if (typeof d.title !== 'string' || !d.title) fail(`${who} needs a title (how tables name it)`);
  for (const k of ['defaults', 'docs', 'limits'])
    if (!d[k] || typeof d[k] !== 'object') fail(`${who} needs "${k}", an object keyed by its settings`);
  const settings = Object.keys(d.defaults);
  for (const k of ['docs', 'limits']) {
    const keys = Object.keys(d[k]);
    if (keys.length !== settings.length || !settings.every((s) => Object.hasOwn(d[k], s)))
      fail(`${who}'s ${k} must name exactly its settings (${settings.join(', ')}), got ${keys.join(', ')}`);
  }
  for (const s of settings) {
    if (typeof d.docs[s] !== 'string' || !d.docs[s]) fail(`${who}'s docs.${s} must be a sentence`);
    if (!isLimit(d.limits[s])) fail(`${who}'s limits.${s} must be made by whole(), number() or layers() (limits.js)`);
    if (!fits(d.limits[s], d.defaults[s])) fail(`${who}'s default ${s} ${JSON.stringify(d.defaults[s])} is not ${allowed(d.limits[s])}`);
  }
  if (!Array.isArray(d.actModes) || d.actModes.length === 0 || !d.actModes.every((m) => typeof m === 'string'))
    fail(`${who} needs actModes, the ways its policies pick actions (e.g. ['greedy'])`);
  for (const k of REQUIRED) if (typeof d[k] !== 'function') fail(`${who} needs ${k}, a function`);
  for (const k of OPTIONAL) if (d[k] !== undefined && typeof d[k] !== 'function') fail(`${who}'s ${k} must be a function`);
  if (d.runDefaults !== undefined) {
    const keys = Object.keys(d.runDefaults(1) ?? {});
    if (!keys.every((k) => Object.hasOwn(d.defaults, k)))
      fail(`${who}'s runDefaults(steps) must give some of its settings, got ${keys.join(', ')}`);
  }
  if (d.memorySettings !== undefined) {
    const m = d.memorySettings;
    if (
      !m ||
      typeof m !== 'object' ||
      !Object.entries(m).every(([k, words]) => Object.hasOwn(d.defaults, k) && typeof words === 'string' && words)
    )
      fail(`${who}'s memorySettings must map some of its settings to what less of each is ({ numEnvs: 'fewer envs' })`);
  }
  if (d.url !== undefined && typeof d.url !== 'string') fail(`${who}'s url must be its module's URL (import.meta.url)`);
  if (d.resume !== undefined) {
    const r = d.resume;
    if (!r || typeof r.checkState !== 'function') fail(`${who}'s resume must be { checkState(state, c) }`);
  }
}

/**
 * Adds a learner (its module's `learner` export, checked first). The built-in ones are
 * registered below; a test or a program can add its own before it creates one.
 */
export function registerLearner(declaration) {
  checkDeclaration(declaration);
  Object.defineProperty(algorithms, declaration.name, { value: Object.freeze({ ...declaration }), enumerable: true });
}

/**
 * The settings of a run of `steps` env steps that follow its length (the learner's
 * runDefaults), {} when the length is not given or the learner has none.
 */
export const runDefaultsOf = (learner, steps) => (steps === undefined || !learner.runDefaults ? {} : learner.runDefaults(steps));

/** The learner called `algo`, or a clear error listing the ones there are (`where`: what named it). */
export function learnerOf(algo, where = '') {
  if (typeof algo === 'string' && Object.hasOwn(algorithms, algo)) return algorithms[algo];
  throw new Error(
    `valley-farm/learn: unknown algo ${JSON.stringify(String(algo)).slice(0, 40)}${where}; the algorithms are ${Object.keys(algorithms).join(', ')}`,
  );
}

for (const learner of BUILT_IN) registerLearner(learner);
