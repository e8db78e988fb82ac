// widget.js — the model of one rule widget, outside the UI: its own env (never shared, so
// resetting one widget never touches another), a prepared situation, the actions pressed
// since, and the facts the widget shows about the rule. Components render it and call act()
// and reset(); it informs its subscribers after each change.
import { make } from 'valley-farm';
import { Emitter } from '../../model/emitter.js';
import { farmFor } from '../../model/farms/index.js';
import { prepare } from './situations.js';

export class WidgetModel extends Emitter {
  /** situation: { envId, seed, prefix }; makeEnv: for tests. */
  constructor(situation, { makeEnv = make } = {}) {
    super();
    this.situation = situation;
    this.envId = situation.envId;
    this.makeEnv = makeEnv;
    this.env = null;
    this.error = null;
    this.log = []; // { step, action, legal, reward } since the reset, newest last
    this.observation = null;
    this.done = false;
    this.version = 0;
  }

  /** Makes the env and prepares the situation. */
  async start() {
    try {
      this.env = await this.makeEnv(this.envId);
      this.reset();
    } catch (err) {
      this.error = err.message;
      this.inform();
    }
    return this;
  }

  /** Back to the prepared situation. */
  reset() {
    const result = prepare(this.env, this.situation);
    this.observation = result.observation;
    this.step = result.info.step;
    this.done = !!result.terminated;
    this.log = [];
    this.#changed();
  }

  /** Plays an action (a name) `times` times, stopping at the end of the episode. */
  act(name, times = 1) {
    const id = this.env.actionSpace.names.indexOf(name);
    if (id < 0) throw new TypeError(`Unknown action '${name}'; the actions are ${this.env.actionSpace.names.join(', ')}`);
    for (let i = 0; i < times && !this.done; i++) {
      const r = this.env.step(id);
      this.observation = r.observation;
      this.step = r.info.step;
      this.done = r.terminated || r.truncated;
      this.log.push({ step: r.info.step, action: name, legal: r.info.actionWasLegal, reward: r.reward });
    }
    this.#changed();
  }

  /** Steps played since the prepared situation. */
  get since() {
    return this.log.length;
  }

  /** The reward of the last step (null before any). */
  get lastReward() {
    return this.log.at(-1)?.reward ?? null;
  }

  #changed() {
    this.version++;
    this.state = this.env.state();
    this.cells = farmFor(this.envId).worldCells(this.state);
    this.legal = this.env.legalActions();
    this.inform();
  }

  close() {
    this.env?.close();
    this.env = null;
  }
}
