// env.js — one environment (make), Gymnasium-style: reset, step, the legal actions and why
// one is illegal, the full state, snapshots, the planner, and saved states for search. The
// types and the contract: index.d.ts.
//
// Memory: each env is one block of the engine's memory (its C state and its output
// buffers), freed by close() or, as a safety net, when the env object is garbage collected.
import { engineSpec } from './specs.js';
import { METADATA, checkOptions, checkResetOptions, describe, specFor, specOf } from './errors.js';
import { actionSpace, observationFrom, observationSpace } from './spaces.js';
import { randomSeed, seedHalves, seedsAfter } from './seeds.js';
import { loadEngine } from './engine.js';

// The header's limits and the byte layouts of the structs read from engine memory, as the
// engine states them (vf_spec_json, through specs.js).
const { limits: LIMITS, layouts: LAYOUTS } = engineSpec;
// Layout of an env's block: [vf_env][obs: VF_OBS_MAX x i32][flags: 8][mask][out: 16]
const align8 = (n) => (n + 7) & ~7;
const MASK_BYTES = align8(LIMITS.actionsMax);
const EVENT = LAYOUTS.event; // vf_event: its size and its fields' byte offsets
const EVENTS_BYTES = LIMITS.eventsMax * EVENT.bytes;
const PLAN = LAYOUTS.plan; // vf_plan: its size and its fields' byte offsets
const PLAN_BYTES = PLAN.bytes + 8; // + room to align it to 8 after the work memory
const PROVE_STATES_DEFAULT = 1_000_000; // enough for most seeds (vf_plan_prove)
// The most work memory one plan may take, the engine's VF_PLAN_MEMORY_MAX (the Python package
// refuses the same plans). WebAssembly memory can grow but never shrink, so the engine keeps
// what its largest plan took for the life of the page or process; this bounds it.
const PLAN_MEMORY_MAX = LIMITS.planMemoryMax;

class FarmEnv {
  #engine;
  #spec;
  #ptr = 0; // the block; 0 once closed
  #obs;
  #flags;
  #mask;
  #out64;
  #events = 0; // the step's events (vf_event[16]); 0 unless made with { events: true }
  #seed = null; // the seed of the episode in progress, null before the first reset
  #nextSeed = null; // the fresh seeds after a seeded reset (seedsAfter); null before one
  #step = 0;
  #terminated = false;
  #build; // the observation object from the flat one (spaces.js)

  constructor(engine, spec, events = false) {
    this.#engine = engine;
    this.#spec = spec;
    const envBytes = align8(engine.envSize);
    this.#ptr = engine.alloc(envBytes + engine.obsMax * 4 + 8 + MASK_BYTES + 16 + (events ? EVENTS_BYTES + 8 : 0));
    this.#obs = this.#ptr + envBytes;
    this.#flags = this.#obs + engine.obsMax * 4;
    this.#mask = this.#flags + 8;
    this.#out64 = this.#mask + MASK_BYTES;
    if (events) this.#events = align8(this.#out64 + 16); // its doubles are read as f64[at >> 3]
    engine.registry.register(this, this.#ptr, this);
    this.#build = observationFrom(spec.id);
    this.id = spec.id;
    this.actionSpace = actionSpace(spec.id);
    this.observationSpace = observationSpace(spec.id);
    this.renderMode = 'ansi';
    this.metadata = METADATA;
    this.spec = specOf(spec);
    this.snapshotSize = spec.snapshotSize;
  }

  /**
   * Starts an episode; without a seed, a fresh one (reported in info.seed): drawn from the
   * generator the last seeded reset seeded (seedsAfter), or at random before any.
   */
  reset(options = {}) {
    this.#open();
    if (options === null || typeof options !== 'object' || Array.isArray(options)) {
      throw new TypeError(`valley-farm: reset takes an options object such as { seed: 42 }, got ${describe(options)}`);
    }
    checkOptions('reset', options, ['seed', 'options']);
    checkResetOptions('reset', options.options);
    const seed = options.seed ?? (this.#nextSeed ?? randomSeed)();
    const [lo, hi] = seedHalves(seed);
    if (options.seed !== undefined) this.#nextSeed = seedsAfter(seed);
    this.#engine.x.vfw_reset(this.#ptr, this.#spec.kind, lo, hi, this.#obs);
    this.#seed = seed;
    this.#step = 0;
    this.#terminated = false;
    return { observation: this.#observation(), info: { step: 0, seed } };
  }

  /** Plays one action; an illegal action is played as a wait (info.actionWasLegal false). */
  step(action) {
    this.#playing('step');
    checkAction(action, this.#spec);
    const e = this.#engine;
    const reward = this.#events
      ? e.x.vfw_step_explained(this.#ptr, action, this.#obs, this.#flags, this.#events)
      : e.x.vfw_step(this.#ptr, action, this.#obs, this.#flags);
    e.refresh();
    const terminated = e.u8[this.#flags] === 1;
    this.#terminated = terminated;
    this.#step++;
    const info = { step: this.#step, seed: this.#seed, actionWasLegal: e.u8[this.#flags + 1] === 1 };
    // only on an illegal step, so a legal step's info stays the contract's three keys
    if (!info.actionWasLegal) info.illegalReason = e.whys[e.u8[this.#flags + 2]];
    if (this.#events) info.events = this.#readEvents(e.u8[this.#flags + 3]);
    return { observation: this.#observation(), reward, terminated, truncated: false, info };
  }

  /** The n events vfw_step_explained wrote, as plain objects (see StepEvent in index.d.ts). */
  #readEvents(n) {
    const e = this.#engine;
    const events = [];
    const int = (at, field) => e.i32[(at + EVENT[field]) >> 2];
    const double = (at, field) => e.f64[(at + EVENT[field]) >> 3];
    for (let k = 0; k < n; k++) {
      const at = this.#events + k * EVENT.bytes; // 8-aligned: its doubles are read as f64
      events.push({
        code: e.events[int(at, 'kind')],
        text: e.text((buf, cap) => e.x.vf_event_text(this.#ptr, at, buf, cap)),
        reward: double(at, 'reward'),
        x: int(at, 'x'),
        y: int(at, 'y'),
        subject: int(at, 'subject'),
        count: int(at, 'count'),
        count2: int(at, 'count2'),
        before: double(at, 'before'),
        after: double(at, 'after'),
      });
    }
    return events;
  }

  /**
   * Why each action is illegal now: an array indexed by action, null where the action is
   * legal, else { code, text } naming the rule that blocks it ('no-seeds', 'you have no
   * seeds left'); the codes of each farm are listed in docs/rules/.
   */
  illegalReasons() {
    this.#started('illegalReasons');
    const e = this.#engine;
    e.x.vfw_illegal_reasons(this.#ptr, this.#mask); // one call for every action's vf_why
    e.refresh();
    return this.#spec.actions.map((_, a) => {
      const why = e.u8[this.#mask + a];
      return why === 0 ? null : e.whys[why];
    });
  }

  /** Uint8Array(n): 1 where the action would change more than the clock. */
  legalActions() {
    this.#started('legalActions');
    const e = this.#engine;
    e.x.vf_legal_actions(this.#ptr, this.#mask);
    e.refresh();
    return e.u8.slice(this.#mask, this.#mask + this.#spec.actions.length);
  }

  /** The full hidden state as plain JSON-serialisable data (ValleyState / BackwardsState in index.d.ts). */
  state() {
    this.#started('state');
    const e = this.#engine;
    return JSON.parse(e.text((buf, cap) => e.x.vf_state_json(this.#ptr, buf, cap)));
  }

  /** A text picture of the full map. */
  render() {
    this.#started('render');
    const e = this.#engine;
    return e.text((buf, cap) => e.x.vf_render(this.#ptr, buf, cap));
  }

  /** The complete state as bytes; restore() on any env of the same id replays from it. */
  snapshot() {
    this.#started('snapshot');
    const e = this.#engine;
    const n = e.x.vf_snapshot(this.#ptr, e.scratch, e.snapshotMax);
    e.refresh();
    return e.u8.slice(e.scratch, e.scratch + n);
  }

  /**
   * Writes the snapshot into `buffer` (a Uint8Array of at least snapshotSize bytes) and
   * returns its length: snapshot() without an allocation, for search.
   */
  snapshotInto(buffer) {
    this.#started('snapshotInto');
    if (!(buffer instanceof Uint8Array) || buffer.length < this.snapshotSize) {
      throw new TypeError(
        `valley-farm: snapshotInto takes a Uint8Array of at least ${this.snapshotSize} bytes (env.snapshotSize), got ${describe(buffer)}${buffer instanceof Uint8Array ? ` of ${buffer.length}` : ''}`,
      );
    }
    const e = this.#engine;
    const n = e.x.vf_snapshot(this.#ptr, e.scratch, e.snapshotMax);
    e.refresh();
    buffer.set(e.u8.subarray(e.scratch, e.scratch + n));
    return n;
  }

  /**
   * The best play the engine's planner finds from this state (vf_plan_beam: a beam search
   * over full states, deterministic): { actions, bestReturn, upperBound, proven }. Playing
   * `actions` from here earns bestReturn; no play earns more than upperBound (equal, and
   * `proven`: the plan is optimal). The default width is the one the published best-known
   * data use (vf_plan_width: a fraction of a second); cost grows with it.
   * `prove`: then search every play by branch and bound (vf_plan_prove), which ends with
   * an optimal plan unless its table of searched states fills first: true for
   * PROVE_STATES_DEFAULT states (engine memory grows by vf_plan_prove_work_size for the
   * call), or a number of states. A plan whose work memory is above PLAN_MEMORY_MAX is
   * refused. The env is not changed.
   */
  plan({ width, prove = false } = {}) {
    this.#started('plan');
    if (!this.#engine.x.vf_plan_beam) {
      throw new Error(
        'valley-farm: plan: this engine is valley_farm_play.wasm, which has no planner; plan with valley_farm.wasm (the default)',
      );
    }
    if (width === undefined) width = this.#spec.planWidth;
    if (!Number.isInteger(width) || width < 1 || width > LIMITS.planWidthMax) {
      throw new RangeError(`valley-farm: plan: width ${describe(width)} is not allowed; it is an integer from 1 to ${LIMITS.planWidthMax}`);
    }
    const states = prove === true ? PROVE_STATES_DEFAULT : prove === false ? 0 : prove;
    if (!Number.isInteger(states) || states < 0 || states > LIMITS.proveStatesMax) {
      throw new RangeError(
        `valley-farm: plan: prove ${describe(prove)} is not allowed; it is true, false or a number of states from 1 to ${LIMITS.proveStatesMax}`,
      );
    }
    const e = this.#engine;
    // the engine's size_t is 32 bits and comes back as a signed i32: read it unsigned (a
    // table above 2 GiB came back negative); every allowed width and table needs less than
    // 4 GiB, so the value is exact
    const proofBytes = states > 0 ? e.x.vf_plan_prove_work_size(this.#spec.kind, states) >>> 0 : 0;
    const beamBytes = e.x.vf_plan_work_size(this.#spec.kind, width) >>> 0;
    const bytes = Math.max(beamBytes, proofBytes);
    if (bytes > PLAN_MEMORY_MAX) {
      const mb = (b) => `${Math.ceil(b / 2 ** 20)} MB`;
      throw new RangeError(
        `valley-farm: plan: ${proofBytes > beamBytes ? `prove ${states}` : `width ${width}`} needs ${mb(bytes)} of engine memory, more than the ${mb(PLAN_MEMORY_MAX)} a plan may take (WebAssembly memory never shrinks, so the engine would keep it); use a smaller width or fewer states to prove`,
      );
    }
    const work = e.alloc(bytes + PLAN_BYTES);
    try {
      const out = work + bytes + (8 - (bytes % 8)); // 8-aligned, inside the PLAN_BYTES slack
      let code = e.x.vf_plan_beam(this.#ptr, width, work, bytes, out);
      // the proof reuses the beam's memory: it starts from the plan, not from the beam
      if (code === 0 && states > 0) code = e.x.vf_plan_prove(this.#ptr, states, work, bytes, out);
      if (code !== 0) throw new Error(`valley-farm: plan failed: ${e.cString(e.x.vf_error_message(code))}`);
      e.refresh();
      const length = e.i32[(out + PLAN.length) >> 2];
      const bestReturn = e.f64[(out + PLAN.bestReturn) >> 3];
      const upperBound = e.f64[(out + PLAN.upperBound) >> 3];
      const actions = Array.from(e.u8.subarray(out + PLAN.actions, out + PLAN.actions + length));
      return { actions, bestReturn, upperBound, proven: bestReturn >= upperBound };
    } finally {
      e.x.free(work);
    }
  }

  /** The engine's 64-bit hash of the full state (equal states, equal hashes), as a BigInt. */
  stateHash() {
    this.#started('stateHash');
    const e = this.#engine;
    e.x.vfw_state_hash(this.#ptr, this.#out64);
    return e.readBigU64(this.#out64);
  }

  /**
   * Copies the full state into engine memory and returns it as an EnvState (or into
   * `into`, an EnvState this env's id made earlier, without allocating): the fast, trusted
   * path for search, tens of times faster than snapshot(). Only saveState makes EnvStates,
   * and their block and kind are private (stateBlock), so a block the engine copies from or
   * into is always one saveState allocated for this env kind and has not freed.
   */
  saveState(into) {
    this.#started('saveState');
    const e = this.#engine;
    const state = into === undefined ? new EnvState(STATE_TOKEN, e, this.#spec) : into;
    const block = stateBlock(state, e, this.#spec);
    if (block === 0) {
      throw new TypeError(
        `valley-farm: saveState(into) takes an unfreed EnvState that saveState() returned on a ${this.id} env, got ${describeState(into)}`,
      );
    }
    e.refresh();
    e.u8.copyWithin(block, this.#ptr, this.#ptr + e.envSize);
    keepEpisode(state, this.#seed, this.#step, this.#terminated);
    return state;
  }

  /** Puts the env back into a state saveState() returned (on any env of this id). */
  loadState(state) {
    this.#open();
    const e = this.#engine;
    const block = stateBlock(state, e, this.#spec);
    if (block === 0) {
      throw new TypeError(
        `valley-farm: loadState takes an unfreed EnvState that saveState() returned on a ${this.id} env, got ${describeState(state)}`,
      );
    }
    e.refresh();
    e.u8.copyWithin(this.#ptr, block, block + e.envSize);
    [this.#seed, this.#step, this.#terminated] = episodeOf(state);
  }

  /**
   * Puts the env back into a snapshot's state; a bad snapshot throws and changes nothing.
   * `bytes` may be longer than the snapshot when `length` says how much of it to read (a
   * buffer that snapshotInto filled).
   */
  restore(bytes, length = bytes?.length) {
    this.#open();
    const expected = () => `restore takes the Uint8Array that snapshot() returned on a ${this.id} env`; // built only for an error
    if (!(bytes instanceof Uint8Array)) throw new TypeError(`valley-farm: ${expected()}, got ${describe(bytes)}`);
    if (!Number.isInteger(length) || length < 0 || length > bytes.length) {
      throw new RangeError(
        `valley-farm: restore length ${describe(length)} must be an integer from 0 to the buffer's ${bytes.length} bytes`,
      );
    }
    const e = this.#engine;
    if (length > e.snapshotMax) {
      throw new Error(`valley-farm: not a snapshot (${length} bytes, longer than any snapshot); ${expected()}`);
    }
    e.refresh();
    e.u8.set(length === bytes.length ? bytes : bytes.subarray(0, length), e.scratch);
    const code = e.x.vfw_restore(this.#ptr, this.#spec.kind, e.scratch, length, this.#out64);
    if (code !== 0) {
      throw new Error(`valley-farm: cannot restore: ${e.cString(e.x.vf_error_message(code))}; ${expected()}`);
    }
    this.#seed = e.readSeed(this.#out64);
    const o = this.#out64 >> 2;
    this.#step = e.u32[o + 2];
    this.#terminated = e.u32[o + 3] === 1;
  }

  /** Frees the engine memory; every later call but close() throws (closing twice is harmless, as in Gymnasium). */
  close() {
    if (this.#ptr !== 0) this.#ptr = this.#engine.release(this, this.#ptr);
  }

  #open() {
    if (this.#ptr === 0) throw new Error(`valley-farm: this ${this.id} env is closed; make a new one with make('${this.id}')`);
  }

  #started(method) {
    this.#open();
    if (this.#seed === null) throw new Error(`valley-farm: ${method}() before the first episode: call reset() first`);
  }

  #playing(method) {
    this.#started(method);
    if (this.#terminated) {
      throw new Error(`valley-farm: the episode is over (terminated after ${this.#step} steps): call reset() to start a new one`);
    }
  }

  #observation() {
    const e = this.#engine;
    e.refresh();
    return this.#build(e.i32, this.#obs >> 2);
  }
}

const STATE_TOKEN = Symbol('EnvState');

// What only this module may read or write of an EnvState (set in its static block): the
// address of its block, and the episode it holds.
let stateBlock; // (state, engine, spec) -> its block's address, or 0 unless it is a live state of that engine and kind
let keepEpisode; // (state, seed, step, terminated) records the episode of the state saved into it
let episodeOf; // (state) -> [seed, step, terminated] of the episode it holds
let isState; // (value) -> true for an EnvState that saveState made

/**
 * A copy of one env's full state in engine memory (see FarmEnv.saveState). Its block's address
 * and the kind of env it belongs to are private fields: a caller can neither read nor set them,
 * and an object that merely looks like an EnvState has no such fields, so it is refused.
 */
class EnvState {
  #engine;
  #kind; // the env kind (vf_env_kind) whose state the block holds
  #id;
  #ptr; // the block (envSize bytes); 0 once freed
  #seed = null;
  #step = 0;
  #terminated = false;

  static {
    // #ptr in state: a real EnvState (a brand check that a forged object cannot pass)
    isState = (state) => typeof state === 'object' && state !== null && #ptr in state;
    stateBlock = (state, engine, spec) => (isState(state) && state.#engine === engine && state.#kind === spec.kind ? state.#ptr : 0);
    keepEpisode = (state, seed, step, terminated) => {
      state.#seed = seed;
      state.#step = step;
      state.#terminated = terminated;
    };
    episodeOf = (state) => [state.#seed, state.#step, state.#terminated];
  }

  constructor(token, engine, spec) {
    if (token !== STATE_TOKEN) throw new TypeError('valley-farm: EnvStates come only from env.saveState()');
    this.#engine = engine;
    this.#kind = spec.kind;
    this.#id = spec.id;
    this.#ptr = engine.alloc(engine.envSize);
    engine.registry.register(this, this.#ptr, this);
    Object.freeze(this); // no own property can stand in for one of its getters
  }

  /** The env id whose state it holds. */
  get id() {
    return this.#id;
  }

  /** The episode the state is in: its seed, its step count and whether it has ended. */
  get seed() {
    return this.#seed;
  }

  get step() {
    return this.#step;
  }

  get terminated() {
    return this.#terminated;
  }

  get freed() {
    return this.#ptr === 0;
  }

  /** Releases its memory; a freed state cannot be loaded. */
  free() {
    if (this.#ptr) this.#ptr = this.#engine.release(this, this.#ptr);
  }
}

/** A value as an error about EnvStates shows it: a real one says its env id and whether it is freed. */
function describeState(state) {
  if (!isState(state)) return describe(state);
  return `${state.freed ? 'a freed' : 'an'} EnvState of ${state.id}`;
}

/**
 * Makes one environment. Rejects with an Error listing envIds for an unknown id.
 * Options: render_mode ('ansi', the only one) and events (true: every step's info.events
 * says what happened in it and what each part of the reward was for; a slower step).
 * @param {string} id
 */
export async function make(id, options) {
  const spec = specFor(id);
  const { render_mode: renderMode, events = false } = checkOptions('make', options, ['render_mode', 'events']);
  if (typeof events !== 'boolean') {
    throw new TypeError(
      `valley-farm: make: events ${describe(events)} is not allowed; it is true (every step's info lists its events) or false`,
    );
  }
  if (renderMode !== undefined && renderMode !== 'ansi') {
    throw new RangeError(
      `valley-farm: render_mode ${describe(renderMode)} is not supported; the only render mode is 'ansi' (env.render() returns the map as text)`,
    );
  }
  return new FarmEnv(await loadEngine(), spec, events);
}

function checkAction(action, spec) {
  if (Number.isInteger(action) && action >= 0 && action < spec.actions.length) return; // the hot path
  const allowed = `an action is an integer from 0 to ${spec.actions.length - 1} (${spec.actions.map((n, i) => `${i} ${n}`).join(', ')})`;
  if (typeof action !== 'number') throw new TypeError(`valley-farm: action ${describe(action)} is not a number; ${allowed}`);
  throw new RangeError(`valley-farm: action ${action} is not allowed; ${allowed}`);
}
