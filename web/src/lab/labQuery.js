// labQuery.js — a Lab run's settings: the farm, the learner, the seed, the steps and the
// learner's own settings that differ from its defaults, as a share link carries them
// ("env=…&algo=…&seed=…&steps=…&history=4"). A link is a stranger's input, so it is parsed
// strictly; the Lab keeps its settings (localStorage) and its runs (runRecord.js) in the same
// form, and reads them back with the same checks.
import { envIds } from 'valley-farm';
import { THREADS_MAX, algorithms, runDefaultsOf } from 'valley-farm/learn';
import { MAX_LISTED } from '../model/cut.js';

/** The package's learners, in its order, with any registered since (registerLearner). */
export const algos = () => Object.keys(algorithms);
// PPO by default, on the learner core and every core; its step size anneals over these
// steps. The shortest reference run of default settings (docs/runs) is this default run,
// with its times and scores.
export const DEFAULTS = Object.freeze({ env: envIds[1], algo: 'ppo', seed: 1, steps: 35_000_000 });
const MAX_STEPS = 1e9;
// the rest of a Lab's settings are the learner's; threads (a link's, else one per core) changes only the speed
const RUN_KEYS = ['env', 'algo', 'seed', 'steps', 'threads'];

/**
 * The learner's settings a Lab run can change, from the package (algorithms[algo]): each
 * numeric one with its default for a run of `steps` (PPO's anneal follows the run's length)
 * and meaning (the layer sizes stay as they are).
 */
export const learnerSettings = (algo, steps) => {
  const run = runDefaultsOf(algorithms[algo], steps);
  return Object.entries(algorithms[algo].defaults)
    .filter(([, d]) => typeof d === 'number')
    .map(([name, d]) => ({ name, default: run[name] ?? d, doc: algorithms[algo].docs[name] }));
};

/** The settings that differ from the learner's defaults: { history: 4 } (createLearner checks them). */
export const learnerOverrides = (s) => Object.fromEntries(Object.entries(s).filter(([k]) => !RUN_KEYS.includes(k)));

// A link is a stranger's input: its settings are read only up to this length (every setting
// of every learner fits many times over), and its problems are named up to MAX_LISTED.
export const MAX_LAB_QUERY_CHARS = 2048;

/**
 * Settings from a share link's query ("env=…&algo=…&seed=…&steps=…"): { settings, errors }.
 * errors names at most MAX_LISTED problems, then how many more there were.
 */
export function parseLabQuery(query = '') {
  const settings = { ...DEFAULTS };
  if (query.length > MAX_LAB_QUERY_CHARS)
    return { settings, errors: [`the link's settings are ${query.length} characters; a Lab link carries at most ${MAX_LAB_QUERY_CHARS}`] };
  const q = new URLSearchParams(query);
  const problems = [];
  if (q.has('env')) envIds.includes(q.get('env')) ? (settings.env = q.get('env')) : problems.push(`env must be ${envIds.join(' or ')}`);
  if (q.has('algo'))
    algos().includes(q.get('algo')) ? (settings.algo = q.get('algo')) : problems.push(`algo must be ${algos().join(' or ')}`);
  for (const [key, max] of [
    ['seed', 2 ** 31],
    ['steps', MAX_STEPS],
    ['threads', THREADS_MAX],
  ]) {
    if (!q.has(key)) continue;
    const v = q.get(key);
    if (/^\d{1,12}$/.test(v) && Number(v) <= max && (key === 'seed' || Number(v) > 0)) settings[key] = Number(v);
    else problems.push(`${key} must be a whole number up to ${max}`);
  }
  // the learner's own settings, by name; their ranges are createLearner's to check, at Start
  const known = learnerSettings(settings.algo).map((x) => x.name);
  for (const [key, v] of q) {
    if (RUN_KEYS.includes(key)) continue;
    const name = key.slice(0, 40);
    if (!known.includes(key)) problems.push(`${name} is not a setting of ${settings.algo} (its settings are ${known.join(', ')})`);
    else if (/^\d{1,12}(\.\d{1,12})?(e-?\d{1,3})?$/.test(v) && Number.isFinite(Number(v))) {
      // as set() does: a setting at its default is no override (the reference curve matches)
      if (Number(v) !== algorithms[settings.algo].defaults[key]) settings[key] = Number(v);
    } else problems.push(`${name} must be a number such as ${algorithms[settings.algo].defaults[key]}`);
  }
  const errors = problems.slice(0, MAX_LISTED);
  if (problems.length > MAX_LISTED) errors.push(`and ${problems.length - MAX_LISTED} more`);
  return { settings, errors };
}

export const labQuery = (s) =>
  [
    `env=${s.env}&algo=${s.algo}&seed=${s.seed}&steps=${s.steps}`,
    ...(s.threads ? [`threads=${s.threads}`] : []),
    ...Object.entries(learnerOverrides(s)).map(([k, v]) => `${k}=${v}`),
  ].join('&');
