// labModel.js — the Lab's state outside the UI: the settings (also the share link), the
// training worker, the learning curve, the last evaluation and the trained policy. One
// model lives as long as the page (sharedLab), so a run goes on while the visitor reads the
// docs or plays a farm, and the Lab shows it again on return; the settings are also kept in
// storage, for the next visit, and the run itself in IndexedDB (runStore.js), so that a reload
// or a closed tab offers it back: to resume from its checkpoint, or to keep its policy.
//
// A run's states: running -> pausing -> paused (the Worker says when its learner has really
// stopped) -> running again; running or paused -> stopping -> stopped (the Worker's word, or
// after STOP_GRACE_MS its Worker ended, threads and all); running -> done; error. A run kept
// from an earlier page is 'interrupted' (it was live when the page closed) or 'stopped' /
// 'done' as it was.
import { Emitter } from '../model/emitter.js';
import { envMeta } from '../model/envMeta.js';
import { errorMessage } from '../model/cut.js';
import { labQuery, parseLabQuery, learnerSettings, learnerOverrides } from './labQuery.js';
import { LIVE_STATES, MAX_CURVE_POINTS, RECORD_STATES, makeRecord, readRecord, trained } from './runRecord.js';
import { evenly } from '../model/evenly.js';
import { RunLocks } from './runLocks.js';
import { TEMPLATES } from './templateNames.js';
import { ANSWER_MS, createLearnerWorker } from './learnerWorker.js';
import { readLearnerLink, splitLearnerLink } from './learnerLink.js';
import { memoryEstimate } from './labText.js';
import coreUrl from '../../../wasm/learn/learner.wasm?url';

export { algos, DEFAULTS, MAX_LAB_QUERY_CHARS, labQuery, learnerOverrides, learnerSettings, parseLabQuery } from './labQuery.js';

// How long Stop waits for the Worker to say its learner stopped before it ends the Worker: a
// learner returns within trainWorker's SLICE_MS of being asked; one that does not (a learner
// that ignores `until`) is ended, and the curve and the policy it last kept stay.
export const STOP_GRACE_MS = 500;
// The editor keeps the visitor's learner this long after their last keystroke.
export const SAVE_CODE_MS = 500;
// Runs kept in storage: the newest ones of this browser's tabs (the rest are removed).
export const MAX_KEPT_RUNS = 3;
// A progress report alone re-renders the page at most this often (the last one is shown when
// the time is up; any other change at once). The Worker reports about every 250 ms, and each
// render, with the layout, paint and compositing it brings, takes CPU from the cores the
// learner's threads use: with as many threads as cores, a thread stalled by it stalls the
// others at the next minibatch's sum (bench:learn reports the CPU the rest of Chromium takes).
export const PROGRESS_RENDER_MS = 1000;

// the templates' text: a chunk of its own, loaded when the editor first opens
const templates = () => import('./learnerTemplates.js');
const defaultWorker = () => new Worker(new URL('./trainWorker.js', import.meta.url), { type: 'module' });
// a run of the visitor's own learner ("Your learner"): its code runs only in the code sandbox
const defaultLearnerWorker = ({ template, text }) =>
  createLearnerWorker({ code: text, template, coreUrl: new URL(coreUrl, document.baseURI).href });

// where the settings are kept between visits: as a share link's query (parseLabQuery reads it back)
const STORAGE_KEY = 'valley-farm-lab-settings';
const browserStorage = () => {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage refused (a sandboxed frame, a privacy setting): nothing is kept
  }
};

/**
 * A distinct name for a policy's file: its farm, learner, seed, steps and the date and time
 * (UTC) it was saved: 'backwards-ppo-seed1-35000000steps-2025-11-27-1733.json'.
 */
export function policyFileName({ env, algo, seed }, steps, date = new Date()) {
  const farm = envMeta[env]?.slug ?? 'farm';
  const when = date.toISOString().slice(0, 16).replace('T', '-').replace(':', '');
  return `${farm}-${algo}-seed${seed}-${steps}steps-${when}.json`;
}

export class LabModel extends Emitter {
  /**
   * createWorker(): a training Worker (trainWorker.js). storage: localStorage or null.
   * runs: a promise of openRunStore()'s { store, note }. locks: navigator.locks or null.
   * createLearnerWorker({ template, text }): a Worker-like object that trains the visitor's
   * learner (learnerWorker.js). learnerStore: a promise of openLearnerStore()'s { store, note }.
   */
  constructor({
    createWorker = defaultWorker,
    createLearnerWorker = defaultLearnerWorker,
    storage = null,
    runs = null,
    locks = null,
    learnerStore = null,
    now = () => Date.now(),
  } = {}) {
    super();
    this.createWorker = createWorker;
    this.createLearnerWorker = createLearnerWorker;
    this.code = null; // "Your learner": { template, text } while Start trains the visitor's code
    this.shipped = null; // the text of the template the editor was opened on, as shipped
    this.runCode = null; // the code the run shown was made by ({ template, text }; null: a built-in learner)
    this.learnerStore = learnerStore;
    this.learners = {}; // the visitor's learners kept in this browser: template -> { template, text, savedAt }
    this.learnerNote = null; // why they are not kept, or a kept one could not be read
    this.storage = storage;
    this.runs = runs;
    this.locks = new RunLocks(locks); // which kept runs other tabs show
    this.now = now;
    this.settings = { ...parseLabQuery('').settings };
    this.opened = false; // adopt() has run once (the first visit to the Lab on this page load)
    this.state = 'idle'; // idle | running | pausing | paused | stopping | stopped | done | error | interrupted
    this.curve = []; // { steps, meanReturn }
    this.progress = null;
    this.evaluation = null; // the last one: { steps, mean, ci95, normalized, episodes, heuristic, paired }
    this.evaluating = false;
    this.error = null;
    this.note = null; // what happened to the run beyond its state (a Worker ended, a run kept)
    this.storeNote = null; // why runs are not kept, where the browser refuses storage
    this.worker = null;
    this.run = null; // the settings of the run shown
    this.runId = null;
    this.kept = null; // what the Worker last kept: { steps, policy (text), checkpoint (text or null) }
    this.savedSteps = null; // the steps of the run's record the store has written (a reload finds that one)
    this.phase = null; // where the cloning's current phase began: { phase, seconds, done } (its time left)
    this.waiting = new Map(); // reply type -> { resolve, reject }
    this.store = null;
    this.#stopTimer = null;
  }

  #stopTimer;
  #saveTimer = null;
  #informed = -Infinity; // when the page was last told of a change
  #progressTimer = null; // tells it of the last progress report, once PROGRESS_RENDER_MS is up

  inform() {
    clearTimeout(this.#progressTimer);
    this.#progressTimer = null;
    this.#informed = this.now();
    super.inform();
  }

  /** A progress report's change: told now, or when PROGRESS_RENDER_MS has passed since the page was last told. */
  #informProgress() {
    const wait = this.#informed + PROGRESS_RENDER_MS - this.now();
    if (wait <= 0) this.inform();
    else this.#progressTimer ??= setTimeout(() => this.inform(), wait);
  }

  /** A run is going in this tab (its Worker trains, or holds it paused). */
  get live() {
    return LIVE_STATES.includes(this.state);
  }

  /** Start would end a run that is not over (a paused one, or one kept from an earlier page): it asks first. */
  get startNeedsConfirm() {
    return this.live || this.state === 'interrupted';
  }

  /** There is a trained network to evaluate, download or play (not before cloning's planning ends). */
  get hasPolicy() {
    return this.kept?.policy != null || (this.worker !== null && trained(this.progress));
  }

  /** A kept run can go on from its checkpoint (a visitor's learner's run in the sandbox, with the code it ran). */
  get resumable() {
    return this.state === 'interrupted' && typeof this.kept?.checkpoint === 'string';
  }

  /** The run has trained since the last evaluation was taken: more steps, or more updates (its cloning's). */
  get evaluationStale() {
    const e = this.evaluation;
    if (!e) return false;
    const p = this.progress;
    const steps = p?.steps ?? this.kept?.steps;
    return (
      (Number.isFinite(steps) && steps > (e.steps ?? 0)) ||
      (Number.isFinite(p?.updates) && Number.isFinite(e.updates) && p.updates > e.updates)
    );
  }

  /**
   * The Lab is shown with the address's query. A query with settings sets them, unless a run
   * is going (its settings stay; the address is then rewritten to them). Without one, the
   * first visit restores the last settings kept in storage, and a later one keeps what the
   * model has. Returns a message for the visitor, or null.
   */
  adopt(fullQuery = '') {
    const { query } = splitLearnerLink(fullQuery); // a learner's code in the link: adoptLearner
    const first = !this.opened;
    this.opened = true;
    const busy = this.live;
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
    this.#keepSettings();
    this.inform();
    return note;
  }

  /**
   * A share link's learner (learnerLink.js), if the link carries one: put in the editor when
   * the link has the opt-in allow=code, never started. Resolves with a note for the visitor,
   * or null when the link carries no learner.
   */
  async adoptLearner(fullQuery = '') {
    const { link } = splitLearnerLink(fullQuery);
    if (!link) return null;
    if (this.state === 'running') return "A run is going: the link's learner waits until it ends (Stop it, then open the link again).";
    try {
      const { template, text } = await readLearnerLink(link);
      await this.openCode(template, text);
      return `The link's learner (from the ${template} template) is in the editor below: read it before you press Start. It runs in a sandbox that cannot reach this site's storage or network.`;
    } catch (err) {
      return `The link's learner: ${errorMessage(err)}`;
    }
  }

  #keepSettings() {
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
    this.#keepSettings();
    this.inform();
  }

  /**
   * "Your learner": opens the editor on a template (learnerTemplates.js: 'reinforce', 'ppo',
   * 'dqn'): on `text` if given (a link's), else on the learner kept from it, else on the
   * template itself. Start then trains the code with the template's settings, and the Learner
   * setting is the template.
   */
  async openCode(template, text = null) {
    if (this.state === 'running') return;
    if (!TEMPLATES.includes(template))
      throw new Error(`no template ${String(template).slice(0, 40)}; the templates are ${TEMPLATES.join(', ')}`);
    const shipped = (await templates()).templateSource(template);
    if (this.state === 'running') return; // started meanwhile
    this.shipped = shipped;
    this.code = { template, text: text ?? this.learners[template]?.text ?? shipped };
    if (this.settings.algo !== template) this.set('algo', template);
    if (text !== null) this.#saveCode();
    this.inform();
  }

  /** The visitor edited their learner's text: kept in this browser a moment later. */
  editCode(text) {
    if (!this.code || typeof text !== 'string') return;
    this.code = { ...this.code, text };
    clearTimeout(this.#saveTimer);
    this.#saveTimer = setTimeout(() => this.#saveCode(), SAVE_CODE_MS);
    this.inform();
  }

  /** The editor back on the template as shipped (the learner kept from it goes). */
  resetCode() {
    if (!this.code || this.state === 'running') return;
    clearTimeout(this.#saveTimer);
    const { template } = this.code;
    this.code = { template, text: this.shipped };
    delete this.learners[template];
    this.learnerStore?.then((opened) => opened?.store?.remove(template)).catch(() => {});
    this.inform();
  }

  /** Back to the built-in learners (the editor's text stays kept). */
  closeCode() {
    if (this.state === 'running') return;
    this.#saveCode();
    this.code = null;
    this.inform();
  }

  /** Reads the learners kept in this browser (sharedLab calls it once). */
  async loadLearners() {
    const opened = await this.learnerStore;
    if (!opened?.store) {
      this.learnerNote = opened?.note ?? null;
      return this.inform();
    }
    try {
      const { learners, errors } = await opened.store.list();
      this.learners = { ...learners, ...this.learners }; // what was edited meanwhile wins
      this.learnerNote = errors.length ? `A learner kept in this browser could not be read: ${errorMessage(errors[0], 200)}` : null;
    } catch (err) {
      this.learnerNote = `The learners kept in this browser could not be read: ${errorMessage(err, 200)}`;
    }
    this.inform();
  }

  #saveCode() {
    clearTimeout(this.#saveTimer);
    if (!this.code) return;
    const { template, text } = this.code;
    if (text === this.shipped && !this.learners[template]) return; // nothing of the visitor's yet
    const record = { template, text, savedAt: this.now() };
    this.learners[template] = record;
    this.learnerStore
      ?.then((opened) => opened?.store?.put(record))
      .catch((err) => {
        this.learnerNote = `Your learner could not be kept in this browser: ${errorMessage(err, 200)}; Download .js to keep it`;
        this.inform();
      });
  }

  /**
   * Starts a run of the settings. Where one is not over (paused, or kept from an earlier page),
   * only with { replace: true } (the page asks the visitor first): returns false otherwise, and
   * for settings whose memory estimate is above the learner budget (memoryEstimate, with a note).
   */
  start({ replace = false } = {}) {
    if (this.state === 'running' || (this.startNeedsConfirm && !replace)) return false;
    if (this.code && this.settings.algo !== this.code.template) this.settings = { ...this.settings, algo: this.code.template };
    // refused before any Worker or sandbox starts, the run shown (if any) left as it is
    const { refused } = memoryEstimate(this.settings);
    if (refused) {
      this.note = `Not started: ${refused}.`;
      this.inform();
      return false;
    }
    const replaced = this.runId;
    this.runCode = this.code ? { ...this.code } : null;
    this.#newWorker();
    this.curve = [];
    this.progress = null;
    this.evaluation = null;
    this.error = null;
    this.note = null;
    this.kept = null;
    this.savedSteps = null;
    this.phase = null;
    this.state = 'running';
    this.run = { ...this.settings }; // what this run was started with (the settings may change after it ends)
    this.runId = `${this.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
    this.locks.hold(this.runId);
    if (replaced) this.#forget(replaced);
    this.worker.postMessage({ type: 'start', settings: { ...this.run } });
    this.inform();
    return true;
  }

  /** Asks the learner to pause: 'pausing' until the Worker says it has stopped (then 'paused'). */
  pause() {
    if (this.state !== 'running') return;
    this.worker.postMessage({ type: 'pause' });
    this.state = 'pausing';
    this.inform();
  }

  resume() {
    if (this.state !== 'paused' && this.state !== 'pausing') return;
    this.worker.postMessage({ type: 'resume' });
    this.state = 'running';
    this.phase = null; // the pause is not part of the cloning's rate
    this.inform();
  }

  /**
   * Ends the run where it is; the Worker keeps its policy (evaluate, download, play). A learner
   * that has not stopped after STOP_GRACE_MS is ended with its Worker (PPO's threads with it):
   * the curve and the last policy it kept stay.
   */
  stop() {
    if (!this.live || this.state === 'stopping') return;
    this.worker.postMessage({ type: 'stop' });
    this.state = 'stopping';
    clearTimeout(this.#stopTimer);
    this.#stopTimer = setTimeout(() => this.#halt(), this.#stopGrace());
    this.inform();
  }

  /** How long Stop waits: a visitor's learner answers through the sandbox's frame and relay, and gets ANSWER_MS. */
  #stopGrace() {
    return this.runCode ? ANSWER_MS : STOP_GRACE_MS;
  }

  #halt() {
    if (this.state !== 'stopping') return;
    this.#endWorker();
    this.state = 'stopped';
    const steps = this.kept?.steps;
    this.note = `The learner did not stop within ${this.#stopGrace() / 1000} s of Stop (${
      this.runCode ? 'an endless loop, or a step that never returns' : 'it was in the middle of a long step'
    }), so its Worker was ended${
      this.kept?.policy
        ? `: the curve and the policy it last kept (at ${steps.toLocaleString('en')} steps) stay`
        : ': it had kept no policy yet'
    }.`;
    this.#persist();
    this.inform();
  }

  /**
   * Resumes a kept run from its checkpoint, in a new Worker: a run of the visitor's learner in a
   * new sandbox, with the code it was kept with (never the site's own Worker: that checkpoint
   * was written by their code).
   */
  resumeKept() {
    if (!this.resumable) return;
    this.#newWorker();
    this.state = 'running';
    this.note = null;
    this.error = null;
    this.phase = null;
    this.worker.postMessage({ type: 'start', settings: { ...this.run }, checkpoint: this.kept.checkpoint });
    this.#persist();
    this.inform();
  }

  /** Keeps a kept run's policy and curve, as a stopped run's (no resume offered any more). */
  keepPolicy() {
    if (this.state !== 'interrupted') return;
    this.state = 'stopped';
    this.note = null;
    this.#persist();
    this.inform();
  }

  /** Forgets the run shown (and removes it from storage). */
  discard() {
    if (this.live || this.state === 'idle') return;
    if (this.runId) this.#forget(this.runId);
    this.#endWorker();
    this.state = 'idle';
    Object.assign(this, {
      run: null,
      runId: null,
      runCode: null,
      kept: null,
      curve: [],
      progress: null,
      evaluation: null,
      note: null,
      error: null,
    });
    this.inform();
  }

  /** Ends everything: the worker and its policy go (a new Start makes another). */
  dispose() {
    this.#endWorker();
    if (this.live) this.state = 'stopped';
    this.inform();
  }

  /** How the game page names the trained policy: 'Your trained policy (ppo, 8,192 steps)'. */
  policyTitle() {
    const algo = this.runCode ? `your learner from ${this.runCode.template}` : (this.run?.algo ?? this.settings.algo);
    const steps = this.progress?.steps ?? this.kept?.steps;
    return `Your trained policy (${algo}${Number.isFinite(steps) ? `, ${steps.toLocaleString('en')} steps` : ''})`;
  }

  /**
   * Evaluates the policy on the test split (in the worker; one that holds the kept policy
   * where the run's has ended); resolves with the result.
   */
  evaluate() {
    if (!this.hasPolicy) return Promise.reject(new Error('Train a policy first'));
    this.evaluating = true;
    this.inform();
    return this.#ask({ type: 'evaluate' }, 'evaluation').then(
      (r) => {
        this.evaluation = r.result;
        this.evaluating = false;
        this.inform();
        return r.result;
      },
      (err) => {
        this.evaluating = false;
        this.inform();
        throw err;
      },
    );
  }

  /** The trained policy's file, its text with the run record ({ name, text }): what Download saves. */
  async policyFile() {
    if (!this.hasPolicy) throw new Error('Train a policy first');
    const { text, steps } = this.worker
      ? await this.#ask({ type: 'policy' }, 'policy')
      : { text: this.kept.policy, steps: this.kept.steps };
    const run = this.run ?? this.settings;
    return { name: policyFileName(this.runCode ? { ...run, algo: `my-${run.algo}` } : run, steps ?? 0), text };
  }

  /** Writes the run, and the editor's text, as they are now to storage (the page calls it when it is hidden or closed). */
  flush() {
    this.#persist();
    this.#saveCode();
  }

  /**
   * Offers the newest run that storage kept and no other tab holds: a run that was live when
   * its page closed becomes 'interrupted' (resume it, or keep its policy), a finished one shows
   * as it ended. A damaged record is removed, with a note saying why.
   */
  async recover() {
    const opened = await this.runs;
    this.store = opened?.store ?? null;
    this.storeNote = opened?.note ?? null;
    if (!this.store) return this.inform();
    let records;
    try {
      records = await this.store.list();
    } catch (err) {
      this.storeNote = `The runs kept in this browser could not be read: ${errorMessage(err, 200)}`;
      return this.inform();
    }
    const held = await this.locks.held();
    const newest = records.filter((r) => !held.has(String(r?.id))).sort((a, b) => (Number(b?.savedAt) || 0) - (Number(a?.savedAt) || 0));
    for (const old of newest.slice(MAX_KEPT_RUNS)) this.#forget(old?.id);
    for (const raw of newest.slice(0, MAX_KEPT_RUNS)) {
      if (this.state !== 'idle') return; // a run started meanwhile
      const r = readRecord(raw);
      if (r instanceof Error) {
        this.note = `A run kept from an earlier visit could not be read, and was removed: ${errorMessage(r, 300)}`;
        this.#forget(raw?.id);
        continue;
      }
      if (!(await this.locks.hold(r.id, { ifFree: true }))) continue; // another tab took it meanwhile
      if (this.state !== 'idle') return this.locks.letGo();
      Object.assign(this, {
        runId: r.id,
        run: r.settings,
        curve: r.curve,
        progress: null,
        kept: { steps: r.steps, policy: r.policy, checkpoint: r.checkpoint, savedAt: r.savedAt },
        runCode: r.code,
        state: LIVE_STATES.includes(r.state) ? 'interrupted' : r.state,
      });
      break;
    }
    this.inform();
  }

  /** The run's Worker: the visitor's learner's (code) or a built-in learner's. */
  #newWorker(code = this.runCode) {
    this.#endWorker();
    this.worker = code ? this.createLearnerWorker(code) : this.createWorker();
    this.worker.onmessage = ({ data }) => this.#receive(data);
    this.worker.onerror = (e) => this.#fail(`the training worker failed: ${e.message ?? 'unknown error'}`);
  }

  #endWorker() {
    clearTimeout(this.#stopTimer);
    this.worker?.terminate();
    this.worker = null;
    for (const w of this.waiting.values()) w.reject(new Error('the training worker was ended'));
    this.waiting.clear();
  }

  /** A worker for the policy: the run's, or a new one that holds the kept policy. */
  #policyWorker() {
    if (this.worker) return this.worker;
    this.#newWorker(null); // a kept policy is the template's (learnerWorker.js): the site's own Worker loads it
    this.worker.postMessage({ type: 'load', policy: this.kept.policy });
    return this.worker;
  }

  #ask(message, replyType) {
    const worker = this.#policyWorker();
    return new Promise((resolve, reject) => {
      this.waiting.set(replyType, { resolve, reject });
      worker.postMessage(message);
    });
  }

  #receive(data) {
    if (!data || typeof data !== 'object') return;
    const p = data.progress;
    if (p && typeof p === 'object') this.#progressed(p);
    if (data.type === 'started')
      this.curve = this.curve.filter((q) => q.steps <= p.steps); // resumed: the curve from its checkpoint on
    else if (data.type === 'progress' && p.meanReturn !== null && this.live) this.#plot(p);
    else if (data.type === 'done') {
      if (p.meanReturn !== null) this.#plot(p);
      if (this.state !== 'stopped') this.state = 'done';
      this.#settled();
    } else if (data.type === 'paused' && this.state === 'pausing') {
      this.state = 'paused';
      this.#persist();
    } else if (data.type === 'stopped' && this.state === 'stopping') {
      this.state = 'stopped';
      this.#settled();
    } else if (data.type === 'kept') {
      this.kept = { steps: data.steps, policy: data.policy, checkpoint: data.checkpoint ?? null };
      this.#persist();
    } else if (data.type === 'error') this.#fail(data.message);
    else if (this.waiting.has(data.type)) {
      const w = this.waiting.get(data.type);
      this.waiting.delete(data.type);
      if (data.error !== undefined) w.reject(new Error(errorMessage(data.error)));
      else w.resolve(data);
    }
    if (data.type === 'progress') this.#informProgress();
    else this.inform();
  }

  #progressed(p) {
    if (!this.live && this.state !== 'done' && this.state !== 'stopped') return;
    this.progress = p;
    const im = p.imitation;
    if (im?.phase && im.phase !== this.phase?.phase) this.phase = { phase: im.phase, seconds: im.seconds, done: im.done };
    else if (!im?.phase) this.phase = null;
  }

  #plot(p) {
    const last = this.curve.at(-1);
    if (last && last.steps === p.steps) return; // the same report, twice (a slice's end, then done)
    this.curve.push({ steps: p.steps, meanReturn: p.meanReturn });
    if (this.curve.length > MAX_CURVE_POINTS) this.curve = evenly(this.curve, MAX_CURVE_POINTS / 2);
  }

  #settled() {
    clearTimeout(this.#stopTimer);
    this.#persist();
  }

  #fail(message) {
    const error = errorMessage(message);
    for (const w of this.waiting.values()) w.reject(new Error(error));
    this.waiting.clear();
    this.evaluating = false;
    if (this.live || this.state === 'idle') {
      this.error = error;
      this.state = 'error';
      clearTimeout(this.#stopTimer);
    } else this.note = error; // a kept policy's Worker: the run is as it was
    this.inform();
  }

  #persist() {
    if (!this.store || !this.runId || !this.run) return;
    const record = makeRecord({
      id: this.runId,
      state: this.state === 'interrupted' ? 'paused' : this.state,
      settings: this.run,
      steps: this.kept?.steps ?? 0,
      curve: this.curve,
      policy: this.kept?.policy ?? null,
      checkpoint: this.kept?.checkpoint ?? null,
      code: this.runCode,
      savedAt: this.now(),
    });
    if (!RECORD_STATES.includes(record.state)) return; // an error, or no run: nothing to keep
    const { id, steps } = record;
    this.store.put(record).then(
      () => {
        if (this.runId !== id) return; // another run started meanwhile
        this.savedSteps = steps;
        this.inform();
      },
      (err) => {
        this.storeNote = `The run could not be kept in this browser's storage: ${errorMessage(err, 200)}`;
        this.inform();
      },
    );
  }

  #forget(id) {
    if (typeof id === 'string') this.store?.remove(id).catch(() => {});
  }
}

let shared = null;
/**
 * The Lab's one model for the page's lifetime (see the file comment): its settings kept in
 * localStorage, its runs in IndexedDB. While a run is live, leaving the page asks first.
 */
export function sharedLab() {
  if (shared) return shared;
  const runs = import('./runStore.js').then(({ openRunStore }) => openRunStore());
  const learnerStore = import('./learnerStore.js').then(({ openLearnerStore }) => openLearnerStore());
  shared = new LabModel({ storage: browserStorage(), runs, learnerStore, locks: globalThis.navigator?.locks ?? null });
  shared.recover();
  shared.loadLearners();
  addEventListener('beforeunload', (e) => {
    if (!shared.live) return;
    shared.flush();
    e.preventDefault();
    e.returnValue = ''; // older browsers ask only when it is set
  });
  addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && shared.flush());
  return shared;
}
