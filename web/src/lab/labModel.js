// labModel.js — the Lab's state outside the UI: the settings (also the share link), the
// training worker, the learning curve, the last evaluation and the trained policy. One
// model lives as long as the page (sharedLab), so a run goes on while the visitor reads the
// docs or plays a farm, and the Lab shows it again on return; the settings are also kept in
// storage, for the next visit.
import { Emitter } from '../model/emitter.js';
import { envIds } from '../model/envMeta.js';
import { THREADS_MAX, algorithms, runDefaultsOf } from 'valley-farm/learn';
import { errorMessage, MAX_LISTED } from '../model/cut.js';

export const ALGOS = Object.keys(algorithms); // the package's learners, in its order
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

const defaultWorker = () => new Worker(new URL('./trainWorker.js', import.meta.url), { type: 'module' });

// where the settings are kept between visits: as a share link's query (parseLabQuery reads it back)
const STORAGE_KEY = 'valley-farm-lab-settings';
const browserStorage = () => {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage refused (a sandboxed frame, a privacy setting): nothing is kept
  }
};

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
  if (q.has('algo')) ALGOS.includes(q.get('algo')) ? (settings.algo = q.get('algo')) : problems.push(`algo must be ${ALGOS.join(' or ')}`);
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

export class LabModel extends Emitter {
  constructor({ createWorker = defaultWorker, storage = null } = {}) {
    super();
    this.createWorker = createWorker;
    this.storage = storage;
    this.settings = { ...DEFAULTS };
    this.opened = false; // adopt() has run once (the first visit to the Lab on this page load)
    this.state = 'idle'; // idle | running | paused | stopped | done | error
    this.curve = []; // { steps, meanReturn }
    this.progress = null;
    this.evaluation = null;
    this.error = null;
    this.worker = null;
    this.run = null;
    this.waiting = new Map(); // reply type -> resolve
  }

  /**
   * The Lab is shown with the address's query. A query with settings sets them, unless a run
   * is going (its settings stay; the address is then rewritten to them). Without one, the
   * first visit restores the last settings kept in storage, and a later one keeps what the
   * model has. Returns a message for the visitor, or null.
   */
  adopt(query = '') {
    const first = !this.opened;
    this.opened = true;
    const busy = this.state === 'running' || this.state === 'paused';
    let note = null;
    if (query && !busy) {
      const { settings, errors } = parseLabQuery(query);
      this.settings = settings;
      note = errors.length ? `The link's settings: ${errors.join('; ')} (defaults used)` : null;
    } else if (query && busy) {
      if (labQuery(parseLabQuery(query).settings) !== labQuery(this.settings))
        note = "A run is going: the link's settings wait until it ends (Stop it, then open the link again).";
    } else if (!query && first) {
      let kept = null;
      try {
        kept = this.storage?.getItem(STORAGE_KEY) ?? null;
      } catch {
        kept = null;
      }
      if (kept) this.settings = parseLabQuery(kept).settings; // a kept value the parser refuses falls back to the defaults
    }
    this.#keep();
    this.inform();
    return note;
  }

  #keep() {
    try {
      this.storage?.setItem(STORAGE_KEY, labQuery(this.settings));
    } catch {
      // storage full or refused: the settings still live in the address
    }
  }

  /**
   * Changes a setting. A learner setting set to its default, or to null, is dropped (the share
   * link names only what differs); another learner drops the old one's settings.
   */
  set(key, value) {
    if (this.state === 'running') return;
    const next = { ...this.settings, [key]: value };
    const known = learnerSettings(next.algo);
    for (const k of Object.keys(learnerOverrides(next))) {
      const setting = known.find((x) => x.name === k);
      if (!setting || next[k] === null || next[k] === setting.default) delete next[k];
    }
    this.settings = next;
    this.#keep();
    this.inform();
  }

  start() {
    this.worker?.terminate();
    this.worker = this.createWorker();
    this.worker.onmessage = ({ data }) => this.#receive(data);
    this.worker.onerror = (e) => this.#fail(`the training worker failed: ${e.message ?? 'unknown error'}`);
    this.curve = [];
    this.progress = null;
    this.evaluation = null;
    this.error = null;
    this.state = 'running';
    this.run = { ...this.settings }; // what this run was started with (the settings may change after it ends)
    this.worker.postMessage({ type: 'start', settings: { ...this.settings } });
    this.inform();
  }

  pause() {
    if (this.state !== 'running') return;
    this.worker.postMessage({ type: 'pause' });
    this.state = 'paused';
    this.inform();
  }

  resume() {
    if (this.state !== 'paused') return;
    this.worker.postMessage({ type: 'resume' });
    this.state = 'running';
    this.inform();
  }

  /** Ends the run where it is; the worker keeps the policy it trained (evaluate, download, play). */
  stop() {
    if (this.state !== 'running' && this.state !== 'paused') return;
    this.worker.postMessage({ type: 'stop' });
    this.state = 'stopped';
    this.inform();
  }

  /** Ends everything: the worker and its policy go (a new Start makes another). */
  dispose() {
    this.worker?.terminate();
    this.worker = null;
    if (this.state === 'running' || this.state === 'paused') this.state = 'stopped';
    this.inform();
  }

  /** There is a policy to evaluate, download or play: a run has trained at least once. */
  get hasPolicy() {
    return Boolean(this.worker && this.progress);
  }

  /** How the game page names the trained policy: 'Your trained policy (ppo, 8,192 steps)'. */
  policyTitle() {
    const algo = this.run?.algo ?? this.settings.algo;
    return `Your trained policy (${algo}${this.progress ? `, ${this.progress.steps.toLocaleString('en')} steps` : ''})`;
  }

  /** Evaluates the current policy on a split (in the worker); resolves with the result. */
  evaluate(split = 'test', episodes) {
    if (!this.worker) return Promise.reject(new Error('Train a policy first'));
    return this.#ask({ type: 'evaluate', split, episodes }, 'evaluation').then((r) => {
      this.evaluation = r.result;
      this.inform();
      return r.result;
    });
  }

  /** The trained policy as plain JSON (what Download saves). */
  policyJson() {
    if (!this.worker) return Promise.reject(new Error('Train a policy first'));
    return this.#ask({ type: 'policy' }, 'policy').then((r) => r.json);
  }

  #ask(message, replyType) {
    return new Promise((resolve, reject) => {
      this.waiting.set(replyType, { resolve, reject });
      this.worker.postMessage(message);
    });
  }

  #receive(data) {
    if (!data || typeof data !== 'object') return;
    if (data.type === 'progress' || data.type === 'done') {
      this.progress = data.progress;
      if (data.progress.meanReturn !== null) this.curve.push({ steps: data.progress.steps, meanReturn: data.progress.meanReturn });
      if (data.type === 'done' && this.state !== 'stopped') this.state = 'done';
      this.inform();
    } else if (data.type === 'error') this.#fail(data.message);
    else if (this.waiting.has(data.type)) {
      const w = this.waiting.get(data.type);
      this.waiting.delete(data.type);
      w.resolve(data);
    }
  }

  #fail(message) {
    this.error = errorMessage(message);
    this.state = 'error';
    for (const w of this.waiting.values()) w.reject(new Error(this.error));
    this.waiting.clear();
    this.inform();
  }
}

let shared = null;
/** The Lab's one model for the page's lifetime (see the file comment), its settings kept in localStorage. */
export function sharedLab() {
  return (shared ??= new LabModel({ storage: browserStorage() }));
}
