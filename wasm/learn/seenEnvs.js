// seenEnvs.js — a shard's vector env as its network sees it: the envs (makeVec, with legal
// masks), what each one's policy sees at each step (perception.js: the observation's features
// and, with memory, what it remembers of the farm; frames.js: the last `history` of them), and
// each episode's actions so far, which are all it takes to put the envs back where they were
// (state() and restore(): a checkpoint keeps no engine bytes and no perception state).
import { envSpecs, makeVec } from '../index.js';
import { perception } from './perception.js';
import { SparseFrames } from './frames.js';

export class SeenEnvs {
  /** n envs of `env`, their first episodes seeded `seed`, `seed` + 1, … (the vector env's schedule after). */
  static async create(env, n, { history = 1, memory = 0 }, seed) {
    const s = new SeenEnvs();
    s.env = env;
    s.n = n;
    s.A = envSpecs[env].actions.length;
    s.horizon = envSpecs[env].horizon;
    s.seeing = perception(env, memory);
    s.width = s.seeing.width * history; // a sample's inputs
    s.nonzero = Math.min(s.seeing.width, s.seeing.nonzero) * history; // the most of them that are not 0
    s.vec = await makeVec(env, n); // first: the engine that reads the features
    s.sight = s.seeing.create(n);
    s.frames = new SparseFrames(n, history, s.seeing.width, Math.min(s.seeing.width, s.seeing.nonzero));
    s.masks = new Uint8Array(n * s.A); // the legal masks of the envs' current states (a copy: the vector env's views go stale when the engine's memory grows)
    s.played = new Int32Array(n * s.horizon); // env i's actions this episode: played[i * horizon + t]
    s.length = new Int32Array(n);
    s.reset(seed);
    return s;
  }

  /** Every env starts a new episode, env i with seed + i. */
  reset(seed) {
    this.r = this.vec.reset({ seed });
    this.masks.set(this.r.masks);
    this.length.fill(0);
    for (let i = 0; i < this.n; i++) this.#see(i, -1, true);
  }

  #see(i, action, opening) {
    // the step's views, re-made if the engine's memory grew since (making a policy or an env may grow it)
    if (this.r.observations.byteLength === 0) this.r = this.vec.views();
    this.frames.see(i, this.sight, this.r.observations, i, action, opening);
  }

  /** Writes env i's input (its frames) as row `row` of `samples` (Samples of this stride, or more). */
  write(i, samples, row) {
    const v = samples.views();
    this.frames.write(i, v, row, samples.first(row));
  }

  /** Whether env i's input now opens its episode (no action taken in it yet). */
  opening(i) {
    return this.length[i] === 0;
  }

  /** How many nonzero features env i's input has now (for packed samples). */
  inputSize(i) {
    return this.frames.size(i);
  }

  /**
   * Steps every env with actions[i]; returns the step's views (rewards, terminated,
   * episodeReturns, …: the vector env's, until the next step). An env whose episode ended
   * starts its next one in the same step (its frames then open the new episode).
   */
  step(actions) {
    const r = (this.r = this.vec.step(actions));
    this.masks.set(r.masks);
    for (let i = 0; i < this.n; i++) {
      const ended = r.terminated[i] === 1;
      if (ended) this.length[i] = 0;
      else this.played[i * this.horizon + this.length[i]++] = actions[i];
      this.#see(i, actions[i], ended);
    }
    return r;
  }

  /**
   * Where every env is, as plain data: its episode's seed (a string: it may pass 2^53) and the
   * actions it has taken in it.
   */
  state() {
    return Array.from({ length: this.n }, (_, i) => ({
      seed: String(this.vec.episodeSeed(i)),
      actions: Array.from(this.played.subarray(i * this.horizon, i * this.horizon + this.length[i])),
    }));
  }

  /**
   * Puts the envs where state() found them: each env's episode started again from its seed
   * and its actions played again, all envs stepping together, so each env's frames, memory
   * and bookkeeping (its return so far, its next episode's seed) are what they were. An env
   * with fewer actions to play than the longest starts its episode later, stepping a legal
   * action until then (those steps are thrown away by the reset that starts it).
   */
  restore(state) {
    if (!Array.isArray(state) || state.length !== this.n)
      throw new TypeError(`valley-farm/learn: a checkpoint's envs must be ${this.n} records`);
    const longest = Math.max(0, ...state.map((e) => e.actions.length));
    const actions = new Int32Array(this.n);
    for (let t = 0; t <= longest; t++) {
      const starting = [];
      state.forEach((e, i) => longest - e.actions.length === t && starting.push(i));
      if (starting.length) {
        this.r = this.vec.resetEnvs(
          starting,
          starting.map((i) => (BigInt(state[i].seed) <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(state[i].seed) : BigInt(state[i].seed))),
        );
        this.masks.set(this.r.masks);
        for (const i of starting) {
          this.length[i] = 0;
          this.#see(i, -1, true);
        }
      }
      if (t === longest) break;
      for (let i = 0; i < this.n; i++) {
        const k = t - (longest - state[i].actions.length);
        actions[i] = k >= 0 ? state[i].actions[k] : this.masks.subarray(i * this.A, (i + 1) * this.A).indexOf(1);
      }
      this.step(actions);
    }
  }

  close() {
    this.vec.close();
  }
}
