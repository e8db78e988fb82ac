// app.js — the page's model: one session (the game), one runner (agents), the measured
// means of the built-in agents, the visitor's agent code, and the route. Every intent of
// the UI, the console handle and the postMessage interface goes through here, so all
// three behave the same.
import { make } from 'valley-farm';
import { Emitter } from './emitter.js';
import { Session, formatReturn } from './session.js';
import { Runner } from './runner.js';
import { envIds, envSpecs } from './envMeta.js';
import { parseHash } from './route.js';
import { keyIntent } from './keys.js';
import { starterCode } from './starterCode.js';
import { LOAD_TIME_LIMIT_MS, WorkerAgent } from './workerAgent.js';
import { SeenStore } from './seen.js';
import { sleep } from './schedule.js';
import { errorMessage } from './cut.js';
import { storedPar, planSettings, heuristicReturn, planInWorker, PersonalBests, dailySeed } from './par.js';
import {
  decodeShareData,
  parseReplayJson,
  validateReplay,
  shareUrl,
  ReplayError,
  MAX_REPLAY_FILE_CHARS,
  MAX_LINK_CHARS,
} from '../replay.js';

/** What a replay is and what it reached: its farm, seed, number of actions and return. */
const replayReached = ({ record, ret }) =>
  `${record.env}, seed ${record.seed}: ${record.actions.length} actions, return ${formatReturn(ret)}.`;

/** How long a map outside the data stays in play before the planner is asked for its par. */
const PLAN_AFTER_MS = 300;
/** How long the planner may work on one map's par; past it the page stops it and says so. */
export const PLAN_TIME_LIMIT_MS = 20_000;
const TIMED_OUT = Symbol('the planner took too long');

export class FarmApp extends Emitter {
  #spares = {}; // envId -> an env the heuristic plays a par's map on, apart from the session's
  #planning = null; // the AbortController of the one plan in flight: a newer map stops it

  /**
   * planMap(envId, seed, { width, prove }, { signal }) -> Promise<plan> plans a map off the page's
   * thread and stops when `signal` aborts (default: a Worker where there are Workers; without
   * one, maps outside the committed data get no par). At most one plan runs at a time, for at
   * most planTimeLimitMs. storage keeps personal bests (default: localStorage). pars: false
   * looks up and plans no par (the embed shows none). codeLoadLimitMs: how long the visitor's
   * code may take to load (a field: the browser tests give a page under load more).
   */
  constructor({
    makeEnv = make,
    createWorker,
    planMap = typeof Worker === 'function' ? planInWorker : null,
    planTimeLimitMs = PLAN_TIME_LIMIT_MS,
    codeLoadLimitMs = LOAD_TIME_LIMIT_MS,
    storage,
    pars = true,
  } = {}) {
    super();
    this.codeLoadLimitMs = codeLoadLimitMs;
    this.parsWanted = pars;
    this.makeEnv = makeEnv;
    this.createWorker = createWorker;
    this.session = new Session({ makeEnv });
    this.runner = new Runner(this.session);
    this.route = { page: 'game' };
    this.ready = false;
    this.fatal = null; // the engine failed to load: nothing works, say so
    this.code = { ...starterCode };
    this.codeStatus = null; // { kind: 'info' | 'error', text } about the editor's agent
    this.means = {}; // env id -> { heuristic, random } summaries (or 'measuring')
    // the par of the map in play: { key, envId, seed, status: 'computing' | 'ready' | 'none' |
    // 'error', best, bound, optimal, actions, heuristic, source: 'data' | 'planner' }
    this.par = null;
    this.planMap = planMap;
    this.planTimeLimitMs = planTimeLimitMs;
    this.pars = new Map(); // `${envId} ${seed}` -> par, for maps met before
    this.bests = new PersonalBests(storage);
    this.seen = new SeenStore(storage); // farms whose how-to card was dismissed
    this.howToAsked = false; // the How to play button reopened the card
    this.newBest = false; // the episode just ended set a personal best
    this.session.subscribe(() => this.#followMap());
    this.session.onEpisodeEnd((record) => {
      const s = this.session;
      this.newBest = !s.replay && s.byHand && this.bests.record(record.env, record.seed, s.ret);
    });
  }

  // ---- par ----------------------------------------------------------------------------------

  /** Keeps this.par on the map in play; a map not met before gets its par looked up or planned. */
  #followMap() {
    const { envId, seed } = this.session;
    if (!this.parsWanted || !envId || seed === null) return;
    const key = `${envId} ${seed}`;
    if (this.par?.key === key) return;
    this.newBest = false;
    this.#planning?.abort(); // the map it plans is no longer in play (it is planned again if it comes back)
    this.par = this.pars.get(key) ?? { key, envId, seed, status: 'computing' };
    if (!this.pars.has(key)) {
      this.pars.set(key, this.par);
      this.#computePar(key, envId, seed);
    }
    queueMicrotask(() => this.inform());
  }

  async #computePar(key, envId, seed) {
    let par;
    try {
      const stored = await storedPar(envId, seed);
      if (stored) par = { ...stored, source: 'data' };
      else if (!this.planMap) par = { status: 'none', reason: 'this browser cannot run the planner in the background' };
      else {
        // Planning takes a core for a fraction of a second: plan only a map that stays in
        // play, not each of the many maps an agent playing at full speed runs through.
        await sleep(PLAN_AFTER_MS);
        const plan = this.par?.key === key ? await this.#plan(envId, seed, await planSettings(envId)) : null;
        if (plan === null) {
          this.pars.delete(key); // another map came into play: planned if this one comes back
          return;
        }
        if (plan === TIMED_OUT)
          par = { status: 'none', reason: `the planner took more than ${this.planTimeLimitMs / 1000} s on this map and was stopped` };
        else {
          this.#spares[envId] ??= await this.makeEnv(envId);
          const heuristic = heuristicReturn(this.#spares[envId], envId, seed);
          par = { best: plan.bestReturn, bound: plan.upperBound, actions: plan.actions, heuristic, source: 'planner' };
        }
      }
      if (par.status !== 'none') par = { status: 'ready', optimal: par.best === par.bound, ...par };
    } catch (err) {
      par = { status: 'error', reason: errorMessage(err, 200) };
    }
    const done = { key, envId, seed, ...par };
    this.pars.set(key, done);
    if (this.par?.key === key) {
      this.par = done;
      this.inform();
    }
  }

  /**
   * The planner's plan of a map, as the one plan in flight: null when a newer map stopped it
   * (#followMap aborts it), TIMED_OUT past the time limit.
   */
  async #plan(envId, seed, settings) {
    this.#planning?.abort();
    const planning = (this.#planning = new AbortController());
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      planning.abort();
    }, this.planTimeLimitMs);
    // a planMap that ignores the signal still cannot keep the par waiting
    const stopped = new Promise((resolve) => planning.signal.addEventListener('abort', () => resolve(null), { once: true }));
    try {
      const plan = await Promise.race([this.planMap(envId, seed, settings, { signal: planning.signal }), stopped]);
      return timedOut ? TIMED_OUT : plan;
    } catch (err) {
      if (planning.signal.aborted) return timedOut ? TIMED_OUT : null;
      throw err;
    } finally {
      clearTimeout(timer);
      if (this.#planning === planning) this.#planning = null;
    }
  }

  /** Whether the farm's how-to card shows: on a first visit, or when asked for. */
  get howToOpen() {
    return this.howToAsked || !this.seen.has(this.session.envId);
  }

  openHowTo() {
    this.howToAsked = true;
    this.inform();
  }

  closeHowTo() {
    this.howToAsked = false;
    this.seen.add(this.session.envId);
    this.inform();
  }

  /** The visitor's best return on the map in play, or null. */
  get personalBest() {
    const { envId, seed } = this.session;
    return seed === null ? null : this.bests.get(envId, seed);
  }

  /** Replays the plan that earns the par, step by step with its events. */
  async watchBest() {
    const par = this.par;
    if (par?.status !== 'ready') return false;
    const actions = await this.#toTheEnd(par.envId, par.seed, par.actions);
    const ok = await this.#openReplay(() => ({ env: par.envId, seed: par.seed, actions }), 'Could not open the best-known play.');
    if (ok) {
      this.session.notify(
        'info',
        `Watching the best-known play of this map (return ${par.best}): pause with the replay bar, or take over from any step.`,
      );
      this.session.toggleReplayPlay(4);
    }
    return ok;
  }

  /** A plan ends with its last reward; waits after it play the episode to its end. */
  async #toTheEnd(envId, seed, plan) {
    const env = (this.#spares[envId] ??= await this.makeEnv(envId));
    const wait = envSpecs[envId].actions.indexOf('wait');
    const actions = [...plan];
    let r = env.reset({ seed });
    for (const a of actions) r = env.step(a);
    while (!(r.terminated || r.truncated)) {
      r = env.step(wait);
      actions.push(wait);
    }
    return actions;
  }

  /** The same map again, from its start. */
  tryAgain() {
    return this.newEpisode(this.session.seed);
  }

  /** Today's map: the same seed for everyone today (the UTC date). */
  dailyMap(date = new Date()) {
    const result = this.newEpisode(dailySeed(date));
    if (result)
      this.session.notify(
        'info',
        `Today's map: seed ${dailySeed(date)}, the same for everyone until midnight UTC. Share your replay when you are done.`,
      );
    return result;
  }

  /** Loads the engine, opens the first farm and applies the URL fragment. */
  async start(hash = '') {
    try {
      await this.session.open(envIds[0]);
    } catch (err) {
      this.fatal = `The farm engine could not start: ${err.message}`;
      this.inform();
      return;
    }
    this.ready = true;
    this.inform();
    await this.applyHash(hash);
    this.measure(this.session.envId);
  }

  /** Follows a URL fragment (see route.js); a bad replay link gets a message, the game goes on. */
  async applyHash(hash) {
    const route = parseHash(hash);
    this.route = route;
    this.inform();
    if (route.replay !== undefined) {
      this.runner.pause();
      try {
        await this.session.loadReplay(decodeShareData(route.replay));
        this.session.notify(
          'info',
          `Opened a shared replay: ${replayReached(this.session.replay)} Step through it with ◀ ▶ (keys [ and ]), or play on from any step.`,
        );
      } catch (err) {
        this.session.notify('error', `This link's replay could not be opened. ${err.message} The game goes on.`);
      }
      this.measure(this.session.envId);
    }
  }

  async switchEnv(id) {
    if (id === this.session.envId && !this.session.replay) return;
    this.runner.pause();
    this.howToAsked = false; // the new farm's card shows only if it was never dismissed
    await this.session.open(id);
    this.measure(id);
    this.inform();
  }

  /** Reads a replay file's text; true when it opened. Errors become the session message. */
  async importReplayText(text, name = 'the file') {
    return this.#openReplay(() => parseReplayJson(text), `Could not open ${name}.`);
  }

  /** Opens a replay file (a File or Blob): too large a file is refused before it is read. */
  async importReplayFile(file, name = `"${file?.name ?? 'the file'}"`) {
    if (typeof file?.size === 'number' && file.size > MAX_REPLAY_FILE_CHARS) {
      this.runner.pause();
      this.session.notify('error', `Could not open ${name}. It has ${file.size} bytes; a replay file is at most ${MAX_REPLAY_FILE_CHARS}.`);
      return false;
    }
    return this.importReplayText(await file.text(), name);
  }

  /** Opens a replay from a record object, JSON text or a share link / its data. */
  async loadReplay(source) {
    const parse = () => {
      if (typeof source === 'string' && source.length > MAX_REPLAY_FILE_CHARS) {
        throw new ReplayError(
          `It has ${source.length} characters; a replay is at most ${MAX_REPLAY_FILE_CHARS} as JSON and ${MAX_LINK_CHARS} as a link.`,
        );
      }
      if (typeof source === 'string') {
        const s = source.trim();
        if (s.startsWith('{')) return parseReplayJson(s);
        return decodeShareData(s.includes('#replay=') ? s.split('#replay=')[1] : s.replace(/^replay=/, ''));
      }
      return validateReplay(source);
    };
    return this.#openReplay(parse, 'Could not open the replay.');
  }

  async #openReplay(parse, prefix) {
    this.runner.pause();
    try {
      const record = parse();
      await this.session.loadReplay(record);
      this.session.notify('info', `Replaying ${replayReached(this.session.replay)} Step with ◀ ▶ (keys [ and ]) or play on from any step.`);
      this.measure(record.env);
      return true;
    } catch (err) {
      if (!(err instanceof ReplayError)) console.warn(err);
      this.session.notify('error', `${prefix} ${err.message}`);
      return false;
    }
  }

  /** Copies the episode's share link and says so (the link stays in the message to copy by hand). */
  async shareEpisode() {
    const url = this.shareLink();
    try {
      await globalThis.navigator?.clipboard?.writeText(url);
      this.session.notify('info', `Copied the link to your replay: ${url}`);
    } catch {
      this.session.notify('info', `The link to your replay: ${url}`);
    }
    return url;
  }

  /** The share link of the current episode (or replay). */
  shareLink(pageUrl = globalThis.location?.href ?? '') {
    return shareUrl(this.session.record(), pageUrl);
  }

  /** A keydown: true when the page used it (the caller then prevents the default). */
  key(event) {
    if (!this.ready || this.route.page !== 'game') return false;
    const intent = keyIntent(this.session.envId, event);
    if (!intent) return false;
    if (intent.type === 'act') this.playByHand(intent.action);
    else if (intent.type === 'reset') this.newEpisode();
    else if (intent.type === 'replay') this.session.replayStep(intent.delta);
    return true;
  }

  /** The visitor plays an action: an agent that is running pauses first. */
  playByHand(action) {
    this.runner.pause();
    return this.session.act(action);
  }

  clickCell(x, y) {
    this.runner.pause();
    return this.session.clickCell(x, y);
  }

  newEpisode(seed) {
    this.runner.pause();
    return this.session.reset(seed);
  }

  setCode(text) {
    this.code[this.session.envId] = text;
    this.inform();
  }

  /** Compiles the editor's code in a worker and makes it the running agent. */
  async runCode(code = this.code[this.session.envId]) {
    this.runner.pause();
    const agent = new WorkerAgent(code, {
      loadTimeLimitMs: this.codeLoadLimitMs,
      ...(this.createWorker ? { createWorker: this.createWorker } : {}),
    });
    try {
      await agent.load();
    } catch (err) {
      agent.terminate();
      this.codeStatus = { kind: 'error', text: `Your code did not load: ${errorMessage(err)}` };
      this.inform();
      return false;
    }
    this.runner.setCustomAgent(agent, 'your code');
    this.codeStatus = { kind: 'info', text: 'Your agent is loaded: it runs in a sandboxed Web Worker, one step at most 1 s.' };
    this.inform();
    this.runner.play();
    return true;
  }

  /**
   * The reference agents' mean returns on the test split, from the evaluation protocol's
   * committed data (wasm/data/baselines.json, the numbers of the Benchmark docs page):
   * { random, heuristic, bestKnown } as { mean, ci95 }, and the number of seeds.
   */
  async measure(envId) {
    if (!envId || this.means[envId]) return;
    this.means[envId] = 'measuring';
    this.inform();
    try {
      const { default: data } = await import('../../../wasm/data/baselines.json'); // not in the first load
      const rows = Object.fromEntries(data.table[envId].map((r) => [r.agent.split(' ')[0], r]));
      this.means[envId] = {
        random: rows.random,
        heuristic: rows.heuristic,
        bestKnown: rows.best,
        seeds: data.perSeed[envId].test.length,
        split: 'test',
      };
    } catch (err) {
      this.means[envId] = { error: err.message };
    }
    this.inform();
  }
}
