// session.js — the game in progress, outside the UI: which farm, its env, the episode so
// far (seed, actions, rewards), what the agent has seen, an optional replay being stepped
// through, and one message for the visitor. Components render it and call its intents;
// it informs its subscribers after every change (the runner batches its steps with quiet).
import { make } from 'valley-farm';
import { Emitter } from './emitter.js';
import { envSpecs, actionId, allowedActions, DIRS } from './envMeta.js';
import { emptyMemory, remember, eyesCells } from './views.js';
import { farmFor } from './farms/index.js';
import { ReplayError, parseSeed } from '../replay.js';
import { cut, MAX_STATUS_CHARS } from './cut.js';

export class Session extends Emitter {
  constructor({ makeEnv = make } = {}) {
    super();
    this.makeEnv = makeEnv;
    this.envs = new Map(); // env id -> Promise<env>, one live env per farm
    this.scratch = new Map(); // env id -> Promise<env>, for checking replays
    this.envId = null;
    this.env = null;
    this.spec = null;
    this.farm = null; // the farm's page-side adapter (farms/)
    this.seedText = ''; // the seed box: '' means a fresh random seed at each reset
    this.view = 'world'; // 'world' | 'eyes'
    this.message = null; // { kind: 'error' | 'info', text }
    this.replay = null; // { record: { env, seed, actions }, cursor, playing }
    this.version = 0; // bumped on every change; caches key on it
    this.episodeId = 0;
    this.lastBy = null; // who played the last step: 'you', 'random', 'heuristic', ...
    this.episodeListeners = new Set();
    this.#clearEpisode();
  }

  #cache = { version: -1 };
  #replayTimer = null;

  #clearEpisode() {
    this.seed = null;
    this.actions = [];
    this.rewards = [];
    this.legalMarks = [];
    this.ret = 0;
    this.lastReward = null;
    this.lastLegal = null;
    this.byHand = true; // every step so far was the visitor's own (for personal bests)
    this.log = []; // what each step did: { step, code, text, reward, x, y } (the engine's events)
    this.lastEvents = []; // the last step's events
    this.observation = null;
    this.info = null;
    this.done = false;
    this.pos = null;
    this.memory = null;
  }

  #envFor(id, pool = this.envs) {
    if (!envSpecs[id]) return Promise.reject(new Error(`Unknown farm '${id}'; the farms are ${Object.keys(envSpecs).join(', ')}`));
    // events: each step says what it did and what its reward was for (the log, the floats)
    if (!pool.has(id)) pool.set(id, this.makeEnv(id, pool === this.envs ? { events: true } : undefined));
    return pool.get(id);
  }

  /**
   * Switches to a farm and starts an episode (seed: as reset). The seed is read before the
   * switch: a bad seed in the box gets a message and the farm in play stays (returns null).
   */
  async open(envId, { seed } = {}) {
    const chosen = this.#chooseSeed(seed);
    if (!chosen) return null;
    const env = await this.#envFor(envId);
    this.#stopReplay();
    this.#use(envId, env);
    return this.reset(chosen.seed);
  }

  /** Makes env (of envId) the one in play, with its spec and page-side adapter. */
  #use(envId, env) {
    this.envId = envId;
    this.env = env;
    this.spec = envSpecs[envId];
    this.farm = farmFor(envId);
  }

  /**
   * Starts a new episode: with `seed` if given, else the seed box's seed, else a random
   * one. A bad seed in the box gets a message and changes nothing (returns null).
   */
  reset(seed) {
    const chosen = this.#chooseSeed(seed);
    if (!chosen) return null;
    const result = this.env.reset(chosen.seed === undefined ? {} : { seed: chosen.seed });
    this.#stopReplay();
    this.#start(result);
    if (this.message?.kind !== 'error') this.message = null;
    this.inform();
    return result;
  }

  /** { seed }: `seed` if given, else the seed box's (undefined: random); null after a message when the box's seed is bad. */
  #chooseSeed(seed) {
    if (seed !== undefined || this.seedText.trim() === '') return { seed };
    try {
      return { seed: parseSeed(this.seedText.trim(), 'seed you typed') };
    } catch (err) {
      this.notify('error', `${err.message} Nothing changed: fix or clear the Seed box.`);
      return null;
    }
  }

  #start({ observation, info }) {
    this.#clearEpisode();
    this.episodeId++;
    this.seed = info.seed;
    this.observation = observation;
    this.info = info;
    const { width, height } = this.spec;
    this.memory = emptyMemory(width, height);
    this.version++;
    this.pos = this.farm.position(observation, () => this.state);
    remember(this.memory, this.farm.windowCells(observation), this.pos);
  }

  /**
   * Plays one action (an id or a name) and returns the step result, or null when the
   * episode is over. During a replay, acting plays on from the step shown (the rest of
   * the replay is dropped). `quiet` skips inform() (the runner informs once per slice).
   */
  act(action, { by = 'you', quiet = false } = {}) {
    const id = actionId(this.envId, action);
    if (id < 0) throw new TypeError(`Action ${JSON.stringify(action)} is not allowed; use ${allowedActions(this.envId)}`);
    if (this.replay) {
      const { cursor, record } = this.replay;
      this.#stopReplay();
      if (cursor < record.actions.length)
        this.notify('info', `You took over the replay at step ${cursor}; its remaining actions were dropped.`, true);
    }
    if (this.done) {
      this.notify('info', `The episode is over (return ${formatReturn(this.ret)}). Press New episode (N) to play again.`, quiet);
      return null;
    }
    const result = this.env.step(id);
    this.lastBy = by;
    if (by !== 'you') this.byHand = false;
    this.#record(id, result);
    if (!quiet) this.inform();
    return result;
  }

  #record(id, result) {
    const { observation, reward, info, terminated } = result;
    this.actions.push(id);
    this.rewards.push(reward);
    this.legalMarks.push(info.actionWasLegal);
    this.ret += reward;
    this.lastReward = reward;
    this.lastLegal = info.actionWasLegal;
    const step = this.actions.length;
    this.lastEvents = (info.events ?? []).map(({ code, text, reward: r, x, y }) => ({ step, code, text, reward: r, x, y }));
    this.log.push(...this.lastEvents);
    this.observation = observation;
    this.info = info;
    this.done = terminated || result.truncated;
    this.version++; // a new version first: the position may read this version's state
    this.pos = this.farm.position(observation, () => this.state); // from the engine, never dead-reckoned
    remember(this.memory, this.farm.windowCells(observation), this.pos);
    if (this.done) {
      const record = this.record();
      for (const fn of [...this.episodeListeners]) fn(record);
    }
  }

  /** Calls fn({ env, seed, actions, ret }) at the end of every episode. */
  onEpisodeEnd(fn) {
    this.episodeListeners.add(fn);
    return () => this.episodeListeners.delete(fn);
  }

  /** A click on a map cell: a 4-neighbour of the agent means the move towards it. */
  clickCell(x, y) {
    if (!this.pos) return -1;
    const dx = x - this.pos.x;
    const dy = y - this.pos.y;
    const dir = DIRS.findIndex((d) => d.dx === dx && d.dy === dy);
    if (dir >= 0) this.act(dir);
    return dir;
  }

  /** The current episode (or, during a replay, the whole replay) as a record. */
  record() {
    if (this.replay) return { ...this.replay.record, actions: [...this.replay.record.actions], ret: this.replay.ret };
    return { env: this.envId, seed: this.seed, actions: [...this.actions], ret: this.ret };
  }

  // ---- replay -------------------------------------------------------------------------

  /**
   * Checks a record (from replay.js) by playing it on a spare env, then shows it from step
   * 0. A record that does not replay throws ReplayError and leaves the game untouched.
   */
  async loadReplay(record) {
    const spare = await this.#envFor(record.env, this.scratch);
    let result = spare.reset({ seed: record.seed });
    let ret = 0;
    for (let i = 0; i < record.actions.length; i++) {
      if (i > 0 && result.terminated) {
        throw new ReplayError(`The replay's episode ends after step ${i}, but ${record.actions.length - i} more action(s) follow.`);
      }
      result = spare.step(record.actions[i]);
      ret += result.reward;
    }
    const env = await this.#envFor(record.env);
    this.#stopReplay();
    this.#use(record.env, env);
    this.replay = { record: { env: record.env, seed: record.seed, actions: [...record.actions] }, ret, cursor: 0, playing: false };
    this.message = null;
    this.seek(0);
  }

  /** Shows the replay after its first k actions (replays from the seed: at most 50 steps). */
  seek(k) {
    const rp = this.replay;
    if (!rp) return;
    const target = Math.max(0, Math.min(rp.record.actions.length, k));
    this.#start(this.env.reset({ seed: rp.record.seed }));
    for (let i = 0; i < target; i++) this.#record(rp.record.actions[i], this.env.step(rp.record.actions[i]));
    this.lastBy = 'replay';
    this.byHand = false;
    rp.cursor = target;
    if (target === rp.record.actions.length) this.#pauseReplay();
    this.inform();
  }

  /** One step forward (+1) or back (−1) through the replay. */
  replayStep(delta) {
    const rp = this.replay;
    if (!rp) return;
    if (delta > 0 && rp.cursor < rp.record.actions.length) {
      const a = rp.record.actions[rp.cursor];
      this.#record(a, this.env.step(a));
      this.lastBy = 'replay';
      rp.cursor++;
      if (rp.cursor === rp.record.actions.length) this.#pauseReplay();
      this.inform();
    } else if (delta < 0) {
      this.seek(rp.cursor - 1);
    }
  }

  /** Plays the replay forward at `stepsPerSecond`, or pauses it. */
  toggleReplayPlay(stepsPerSecond = 4) {
    const rp = this.replay;
    if (!rp) return;
    if (rp.playing) {
      this.#pauseReplay();
    } else {
      if (rp.cursor === rp.record.actions.length) this.seek(0);
      rp.playing = true;
      this.#replayTimer = setInterval(() => this.replayStep(1), 1000 / stepsPerSecond);
    }
    this.inform();
  }

  /** Leaves the replay and keeps playing from the step shown. */
  takeOver() {
    if (!this.replay) return;
    this.#stopReplay();
    this.inform();
  }

  #pauseReplay() {
    clearInterval(this.#replayTimer);
    this.#replayTimer = null;
    if (this.replay) this.replay.playing = false;
  }

  #stopReplay() {
    this.#pauseReplay();
    this.replay = null;
  }

  // ---- derived data, cached per version -------------------------------------------------
  // Each is asked of the engine at most once per version of the session: every view reads
  // these (never the env), so a key press costs one step, one state and one set of reasons.

  #cached(name, compute) {
    if (this.#cache.version !== this.version) this.#cache = { version: this.version };
    if (!(name in this.#cache)) this.#cache[name] = compute();
    return this.#cache[name];
  }

  /** The full hidden state (env.state()). */
  get state() {
    return this.#cached('state', () => this.env.state());
  }

  /** Uint8Array: 1 where the action is legal now (no reason against it: the engine says they agree). */
  get legal() {
    return this.#cached('legal', () => Uint8Array.from(this.reasons, (why) => (why === null ? 1 : 0)));
  }

  /** Per action: null where it is legal now, else the engine's { code, text } for why not. */
  get reasons() {
    return this.#cached('reasons', () => this.env.illegalReasons());
  }

  /** The last step's action name and the rule that made it illegal, or null. */
  get lastIllegal() {
    const why = this.info?.illegalReason;
    return why ? { action: this.spec.actions[this.actions.at(-1)], why } : null;
  }

  /** The board's rows of cell descriptors for the current view. */
  get cells() {
    return this.#cached(`cells-${this.view}`, () =>
      this.view === 'eyes' ? eyesCells(this.memory, this.pos) : this.farm.worldCells(this.state),
    );
  }

  // ---- small intents --------------------------------------------------------------------

  setView(view) {
    if (view !== 'world' && view !== 'eyes') throw new TypeError(`view must be 'world' or 'eyes', got ${JSON.stringify(view)}`);
    this.view = view;
    this.inform();
  }

  setSeedText(text) {
    this.seedText = String(text);
    this.inform();
  }

  notify(kind, text, quiet = false) {
    this.message = { kind, text: cut(text, MAX_STATUS_CHARS) }; // it may quote a stranger's words
    if (!quiet) this.inform();
  }

  dismiss() {
    this.message = null;
    this.inform();
  }
}

/** A return or reward as the page shows it: at most 2 decimals, no trailing zeros. */
export function formatReturn(value) {
  if (value === null || value === undefined) return '–';
  return String(Math.round(value * 100) / 100);
}
