// runner.js — lets an agent play the session: play / pause / one step, at a speed from one
// step per second to as fast as possible. Fast play runs in slices of a few milliseconds
// and yields to the browser between slices (so input and drawing never wait long); the
// session is told to redraw at most once per slice. Finished episodes start again on
// their own; their returns feed the plot. Measures steps/s and episodes/s.
import { Emitter } from './emitter.js';
import { actionId, allowedActions } from './envMeta.js';
import { createAgent } from 'valley-farm/agents';
import { yieldToBrowser, sleep } from './schedule.js';
import { cut, errorMessage } from './cut.js';

export const SPEEDS = [1, 2, 5, 10, 30, 100, 1000, Infinity];
const SLICE_MS = 8;
const MAX_RETURNS = 500;

export class Runner extends Emitter {
  constructor(session, { now = () => performance.now() } = {}) {
    super();
    this.session = session;
    this.now = now;
    this.agentName = 'heuristic'; // 'heuristic' | 'random' | 'custom' | 'console'
    this.agent = null; // the instance; made from agentName on first use
    this.customAgent = null; // set by setCustomAgent (worker) or the console
    this.speed = 10;
    this.playing = false;
    this.busy = false; // a step is in flight (worker agents answer asynchronously)
    this.error = null;
    this.returns = []; // { ret, seed, env } of finished episodes in this run
    this.totalSteps = 0;
    this.totalEpisodes = 0;
    this.stepsPerSecond = 0;
    this.episodesPerSecond = 0;
    this.episodeTarget = null; // stop after this many episodes (run({ episodes }))
    this.#agentEpisode = -1;
    this.#rate = { t: 0, steps: 0, episodes: 0 };
    session.onEpisodeEnd((record) => this.#episodeEnded(record));
  }

  #agentEpisode;
  #rate;
  #played = { t: 0, episodes: 0 }; // when play() began, and the episodes finished before it
  #loopId = 0;
  #waiters = [];
  #stops = 0; // how often a code agent's worker was stopped (a step in flight then is for a game gone)

  /** Chooses the agent: 'heuristic', 'random', or 'custom' (the last setCustomAgent). */
  setAgent(name) {
    if (!['heuristic', 'random', 'custom'].includes(name)) {
      throw new TypeError(`Agent must be 'heuristic', 'random' or 'custom', got ${JSON.stringify(name)}`);
    }
    if (name === 'custom' && !this.customAgent)
      throw new Error('No custom agent yet: run code from the editor (or setAgent(object) from the console) first');
    if (name !== 'custom') this.#stopCode();
    this.agentName = name;
    this.agent = null;
    this.error = null;
    this.inform();
  }

  /**
   * Uses `agent` ({ act, reset? }, act may return a Promise) as the custom agent; `title`
   * names it where the agents are chosen (the Lab's policies), else it is "Your code".
   */
  setCustomAgent(agent, label = 'custom', title = null) {
    this.customAgent?.terminate?.();
    this.customAgent = agent;
    this.customLabel = label;
    this.customTitle = title;
    this.agentName = 'custom';
    this.agent = null;
    this.error = null;
    this.inform();
  }

  setSpeed(stepsPerSecond) {
    if (!(stepsPerSecond > 0))
      throw new RangeError(`speed must be a positive number of steps per second (or Infinity), got ${stepsPerSecond}`);
    this.speed = stepsPerSecond;
    this.inform();
  }

  #ensureAgent() {
    const s = this.session;
    if (!this.agent) {
      this.agent = this.agentName === 'custom' ? this.customAgent : createAgent(this.agentName, s.envId);
      this.agent.envId = s.envId;
      this.#agentEpisode = -1;
    }
    if (this.agent.envId !== s.envId && this.agentName !== 'custom') {
      this.agent = createAgent(this.agentName, s.envId);
      this.agent.envId = s.envId;
    }
    return this.agent;
  }

  play() {
    if (this.playing) return;
    this.error = null;
    this.playing = true;
    this.#rate = { t: this.now(), steps: 0, episodes: 0 };
    this.#played = { t: this.now(), episodes: this.totalEpisodes };
    const id = ++this.#loopId;
    this.inform();
    this.#loop(id);
  }

  pause() {
    this.#stopCode();
    if (!this.playing) return;
    this.playing = false;
    this.episodeTarget = null;
    this.stepsPerSecond = 0;
    this.episodesPerSecond = 0;
    this.session.inform();
    this.inform();
    this.#resolveWaiters();
  }

  /**
   * A code agent costs nothing while it does not play: its worker, and every Worker its code
   * started, is stopped (workerAgent.js suspend). Its next step starts it again, from reset().
   */
  #stopCode() {
    if (!this.customAgent?.suspend?.()) return;
    this.#stops++;
    if (this.agent === this.customAgent) this.#agentEpisode = -1;
  }

  /** Plays exactly one agent step (starting a new episode first if the last one ended). */
  async stepOnce() {
    if (this.playing || this.busy) return;
    await this.#step();
    this.session.inform();
    this.inform();
  }

  /** Plays `episodes` whole episodes at `speed`; resolves with their returns. */
  run({ episodes = 1, speed = Infinity } = {}) {
    if (!Number.isInteger(episodes) || episodes < 1) throw new RangeError(`episodes must be a positive integer, got ${episodes}`);
    this.pause();
    this.setSpeed(speed);
    const start = this.returns.length;
    if (this.session.done || this.session.actions.length > 0) this.session.reset();
    this.episodeTarget = this.totalEpisodes + episodes;
    // a run the agent's error stopped rejects with that error (a pause by hand resolves with what was played)
    const finished = new Promise((resolve, reject) =>
      this.#waiters.push(() => (this.error ? reject(new Error(this.error)) : resolve(this.returns.slice(start).map((r) => r.ret)))),
    );
    this.play();
    return finished;
  }

  clearStats() {
    this.returns = [];
    this.totalSteps = 0;
    this.totalEpisodes = 0;
    this.inform();
  }

  #resolveWaiters() {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const fn of waiters) fn();
  }

  /** One step of the agent; false when it failed (the runner pauses and shows why). */
  async #step() {
    const s = this.session;
    if (s.replay) s.takeOver();
    if (s.done) s.reset();
    const agent = this.#ensureAgent();
    this.busy = true;
    // What the action is for: if any of it changes while the agent thinks (the visitor
    // pressed a key or N, opened a replay or another farm, paused or restarted the run),
    // the answer is for a game that is gone and is dropped, and so is an error.
    const asked = this.#moment(s);
    try {
      if (this.#agentEpisode !== s.episodeId) {
        this.#agentEpisode = s.episodeId;
        const r = agent.reset?.();
        if (r && typeof r.then === 'function') await r;
      }
      // the legal mask too, as evaluate() gives it: a learned policy was trained with it
      let action = agent.act(s.observation, { ...s.info, legal: s.legal });
      if (action && typeof action.then === 'function') action = await action;
      if (this.session !== s || s.done || !this.#same(asked, this.#moment(s))) return true;
      const id = actionId(s.envId, action);
      if (id < 0) throw new Error(`act() returned ${describe(action)}; it must return ${allowedActions(s.envId)}`);
      s.act(id, { by: this.agentName === 'custom' ? (this.customLabel ?? 'custom') : this.agentName, quiet: true });
      this.totalSteps++;
      this.#rate.steps++;
      return true;
    } catch (err) {
      if (this.session !== s || !this.#same(asked, this.#moment(s))) return true;
      this.error = `${agentLabel(this)}: ${errorMessage(err)}`;
      this.pause();
      return false;
    } finally {
      this.busy = false;
    }
  }

  /** The game an agent step is asked for (see #step). */
  #moment(s) {
    return {
      episode: s.episodeId,
      env: s.envId,
      steps: s.actions.length,
      replay: s.replay,
      loop: this.playing ? this.#loopId : -1,
      agent: this.agent,
      stops: this.#stops,
    };
  }

  #same(a, b) {
    return (
      a.episode === b.episode &&
      a.env === b.env &&
      a.steps === b.steps &&
      a.replay === b.replay &&
      a.loop === b.loop &&
      a.agent === b.agent &&
      a.stops === b.stops
    );
  }

  #episodeEnded(record) {
    if (!this.playing && !this.busy) return; // episodes the visitor played by hand are not in the run
    this.returns.push({ ret: record.ret, seed: record.seed, env: record.env });
    if (this.returns.length > MAX_RETURNS) this.returns.shift();
    this.totalEpisodes++;
    this.#rate.episodes++;
  }

  async #loop(id) {
    const s = this.session;
    let lastDraw = 0;
    let due = 0; // steps owed at a finite speed
    let last = this.now();
    while (this.playing && id === this.#loopId) {
      const sliceEnd = this.now() + SLICE_MS;
      if (this.speed === Infinity) {
        while (this.playing && this.now() < sliceEnd) {
          if (!(await this.#stepAndCheck())) break;
        }
      } else {
        const t = this.now();
        due = Math.min(due + ((t - last) * this.speed) / 1000, Math.max(1, this.speed / 10));
        last = t;
        while (this.playing && due >= 1 && this.now() < sliceEnd) {
          due--;
          if (!(await this.#stepAndCheck())) break;
        }
      }
      const t = this.now();
      if (t - this.#rate.t > 500) {
        const secs = (t - this.#rate.t) / 1000;
        this.stepsPerSecond = this.#rate.steps / secs;
        // over the whole play, not the half-second window: an episode takes seconds at a slow
        // speed, so a window holds 0 or 1 of them and would show 0 or 2 episodes/s
        this.episodesPerSecond = (this.totalEpisodes - this.#played.episodes) / ((t - this.#played.t) / 1000);
        this.#rate = { t, steps: 0, episodes: 0 };
      }
      if (t - lastDraw > 30 || this.speed <= 30) {
        lastDraw = t;
        s.inform();
        this.inform();
      }
      if (!this.playing) break;
      if (this.speed === Infinity) await yieldToBrowser();
      else await sleep(Math.max(1, Math.min(50, 1000 / this.speed - (this.now() - t))));
    }
  }

  async #stepAndCheck() {
    const ok = await this.#step();
    if (ok && this.episodeTarget !== null && this.totalEpisodes >= this.episodeTarget) {
      this.pause();
      return false;
    }
    return ok;
  }
}

function describe(value) {
  if (typeof value === 'string')
    return (
      cut(JSON.stringify(value.length > 100 ? value.slice(0, 100) : value), 120) +
      (value.length > 100 ? `… (${value.length} characters)` : '')
    );
  if (value === undefined) return 'undefined (did you forget `return`?)';
  if (typeof value === 'object') return value === null ? 'null' : 'an object';
  return String(value);
}

const agentLabel = (runner) =>
  runner.agentName === 'custom' ? `Your agent (${runner.customLabel ?? 'custom'})` : `The ${runner.agentName} agent`;
