// vec.js — vector environments (makeVec): numEnvs envs of one id stepped together in one call
// into the engine, with same-step autoreset, their results as typed-array views of the
// engine's memory; and the benchmarks' random runner (makeRandomRunner). The types and the
// contract: index.d.ts.
import { engineSpec } from './specs.js';
import { METADATA, checkOptions, checkResetOptions, describe, specFor, specOf } from './errors.js';
import { actionSpace, batchedActionSpace, batchedObservationSpace, flatObservationSpace } from './spaces.js';
import { randomSeed, seedBig, seedHalves, seedsAfter } from './seeds.js';
import { loadEngine } from './engine.js';
import { featureSizes } from './features.js';

const TWO_32 = 2 ** 32;
const { limits: LIMITS, layouts: LAYOUTS } = engineSpec;
const align8 = (n) => (n + 7) & ~7;
const MAX_ENVS = LIMITS.batchMax;

function checkNumEnvs(numEnvs, where) {
  if (!Number.isInteger(numEnvs) || numEnvs < 1 || numEnvs > MAX_ENVS) {
    throw new RangeError(`valley-farm: ${where}: numEnvs ${describe(numEnvs)} is not allowed; it must be an integer from 1 to ${MAX_ENVS}`);
  }
}

// Integer typed arrays whose every element is an integer: only the range needs checking.
const INTEGER_ARRAYS = [Int32Array, Uint8Array, Int8Array, Uint16Array, Int16Array, Uint32Array, Uint8ClampedArray];

// Layout of a vector env's block (every part 8-aligned):
//   [envs][obs][final obs][rewards f64][returns f64][seeds u64][next seeds u64]
//   [lengths i32][actions i32][masks u8][terminated u8][truncated u8][io struct][out 16]
//   and with features: [memories][feature indices i32][values f32][counts i32][opening u8][rows struct]
class FarmVecEnv {
  #engine;
  #spec;
  #n;
  #ptr = 0; // the block; 0 once closed
  #envs;
  #obs;
  #final;
  #rewards;
  #returns;
  #seeds;
  #nextSeeds;
  #lengths;
  #actions;
  #masks;
  #terminated;
  #truncated;
  #io;
  #out;
  #withMasks;
  #nextStep; // next-step autoreset (makeVec's autoreset: 'next-step'); else same-step
  #levels; // null: fresh seeds (last seed + n); else BigInt level seeds cycled over
  #nextSeed = null; // the fresh seeds after a seeded reset (seedsAfter); null before one
  #episodeIndex; // per env, with levels: which episode it plays (k in levels[(i + k n) mod L])
  #started = false;
  #views = null; // the result object, re-made only when the memory grows
  #buffer = null;
  #features = null; // with features: { stride, width, index, value, count, opening, rows }

  constructor(engine, spec, numEnvs, { masks = true, levels = null, features = false, memory = false, autoreset = 'same-step' }) {
    this.#engine = engine;
    this.#spec = spec;
    this.#n = numEnvs;
    this.#withMasks = masks;
    this.#nextStep = autoreset === 'next-step';
    this.#levels = levels;
    this.#episodeIndex = levels ? new Float64Array(numEnvs) : null;
    this.id = spec.id;
    this.obsSize = spec.obsSize;
    // Gymnasium's vector spaces: the batched ones, and those of one env's row
    this.actionSpace = batchedActionSpace(spec.id, numEnvs);
    this.singleActionSpace = actionSpace(spec.id);
    this.observationSpace = batchedObservationSpace(spec.id, numEnvs);
    this.singleObservationSpace = flatObservationSpace(spec.id);
    // Gymnasium's metadata["autoreset_mode"], in this package's words
    this.metadata = Object.freeze({ ...METADATA, autoresetMode: autoreset });
    this.spec = specOf(spec);
    const n = numEnvs;
    const na = spec.actions.length;
    const parts = [
      ['envs', align8(engine.envSize) * n],
      ['obs', n * spec.obsSize * 4],
      ['final', n * spec.obsSize * 4],
      ['rewards', n * 8],
      ['returns', n * 8],
      ['seeds', n * 8],
      ['nextSeeds', n * 8],
      ['lengths', n * 4],
      ['actions', n * 4],
      ['masks', n * na],
      ['terminated', n],
      ['truncated', n],
      ['io', engine.x.vfw_batch_io_size()], // pointers: this module's size, not the spec's
      ['out', 16],
    ];
    const sizes = features ? featureSizes(spec.id, memory) : null;
    if (features)
      parts.push(
        ['memories', memory ? align8(LAYOUTS.memory.bytes) * n : 0],
        ['index', n * sizes.nonzero * 4],
        ['value', n * sizes.nonzero * 4],
        ['count', n * 4],
        ['opening', n],
        ['rows', engine.x.vfw_feature_rows_size()],
      );
    const at = {};
    let bytes = 0;
    for (const [name, size] of parts) {
      at[name] = bytes;
      bytes += align8(size);
    }
    this.#ptr = engine.alloc(bytes);
    const p = (name) => this.#ptr + at[name];
    this.#envs = p('envs');
    this.#obs = p('obs');
    this.#final = p('final');
    this.#rewards = p('rewards');
    this.#returns = p('returns');
    this.#seeds = p('seeds');
    this.#nextSeeds = p('nextSeeds');
    this.#lengths = p('lengths');
    this.#actions = p('actions');
    this.#masks = p('masks');
    this.#terminated = p('terminated');
    this.#truncated = p('truncated');
    this.#io = p('io');
    this.#out = p('out');
    engine.refresh();
    engine.u8.fill(0, this.#ptr, this.#ptr + bytes);
    if (features) {
      const f = { stride: sizes.nonzero, width: sizes.width, index: p('index'), value: p('value'), count: p('count') };
      f.opening = p('opening');
      f.rows = p('rows');
      engine.u8.fill(1, f.opening, f.opening + n); // every row opens an episode at a reset
      engine.x.vfw_feature_rows_init(f.rows, memory ? p('memories') : 0, f.index, f.value, f.count, f.stride);
      this.#features = f;
    }
    engine.x.vfw_batch_io_init(
      this.#io,
      this.#actions,
      levels ? this.#nextSeeds : 0,
      this.#obs,
      this.#rewards,
      this.#terminated,
      masks ? this.#masks : 0,
      this.#final,
      this.#returns,
      this.#lengths,
      this.#seeds,
      features ? this.#features.rows : 0,
      this.#nextStep ? 1 : 0, // the engine's vf_autoreset
    );
    engine.registry.register(this, this.#ptr, this);
  }

  /** The number of envs (read-only: the batch size the engine was given). */
  get numEnvs() {
    return this.#n;
  }

  /**
   * Starts a new episode in every env. Fresh-seed schedule: env i gets seed + i, where
   * seed is given (`reset({ seed })` or `reset(seed)`) or drawn (reported as `seed`). With a
   * fixed level list (makeVec's `levels`), env i plays levels[i mod L] and no seed is taken.
   * Returns the result views (observations, masks, ...) and the base `seed` used.
   */
  reset(options) {
    this.#open();
    let seed;
    if (typeof options === 'number' || typeof options === 'bigint') seed = options;
    else {
      ({ seed } = checkOptions('vec.reset', options, ['seed', 'options']));
      checkResetOptions('vec.reset', options?.options);
    }
    const e = this.#engine;
    if (this.#levels) {
      if (seed !== undefined)
        throw new Error(
          `valley-farm: this vector env plays a fixed list of ${this.#levels.length} levels (makeVec's levels option), so reset() takes no seed`,
        );
      for (let i = 0; i < this.#n; i++) this.#resetOne(i, this.#levelSeed(i, 0));
      this.#episodeIndex.fill(0);
      this.#queueLevelSeeds();
      this.#started = true;
      return { ...this.#result(), seed: null };
    }
    if (seed !== undefined) seedHalves(seed); // checked before it seeds anything
    if (seed !== undefined) this.#nextSeed = seedsAfter(seed);
    else seed = (this.#nextSeed ?? randomSeed)();
    const [lo, hi] = seedHalves(seed);
    const code = e.x.vfw_batch_reset(this.#envs, this.#n, this.#spec.kind, lo, hi, this.#obs);
    if (code !== 0) throw new Error(`valley-farm: vec.reset: ${e.cString(e.x.vf_error_message(code))}`);
    this.#fillMasks();
    this.#openFeatures();
    this.#started = true;
    return { ...this.#result(), seed };
  }

  /**
   * Starts a new episode in the chosen envs only: env indices[j] with seeds[j] (or, without
   * seeds, the next seed its schedule gives: a fresh random seed, or its next level). Other
   * envs are untouched. Returns the result views, whose rows for these envs are updated.
   */
  resetEnvs(indices, seeds) {
    this.#open();
    const n = this.#n;
    const rule = `indices must be an array of distinct integers from 0 to ${n - 1}`;
    if (!(Array.isArray(indices) || INTEGER_ARRAYS.some((T) => indices instanceof T)))
      throw new TypeError(`valley-farm: resetEnvs: ${rule}, got ${describe(indices)}`);
    const seen = new Set();
    for (const i of indices) {
      if (!Number.isInteger(i) || i < 0 || i >= n)
        throw new RangeError(`valley-farm: resetEnvs: index ${describe(i)} is out of range; ${rule}`);
      if (seen.has(i)) throw new RangeError(`valley-farm: resetEnvs: index ${i} appears twice; ${rule}`);
      seen.add(i);
    }
    let bigSeeds;
    if (seeds !== undefined) {
      if (!Array.isArray(seeds) || seeds.length !== indices.length)
        throw new TypeError(
          `valley-farm: resetEnvs: seeds must be an array with one seed per index (${indices.length}), got ${describe(seeds)}`,
        );
      bigSeeds = seeds.map((s, j) => {
        try {
          return seedBig(s);
        } catch (err) {
          throw new err.constructor(`valley-farm: resetEnvs: seeds[${j}]: ${err.message.replace('valley-farm: ', '')}`);
        }
      });
    }
    if (!this.#started && indices.length < n)
      throw new Error('valley-farm: resetEnvs() before the first reset(): call reset() first, which starts every env');
    indices.forEach((i, j) => {
      let seed = bigSeeds?.[j];
      if (seed === undefined && this.#levels) seed = this.#levelSeed(i, ++this.#episodeIndex[i]);
      this.#resetOne(i, seed ?? seedBig((this.#nextSeed ?? randomSeed)()));
    });
    if (this.#levels) this.#queueLevelSeeds();
    if (indices.length === n) this.#started = true;
    return this.#result();
  }

  /** The seed of env i's episode in progress (a Number, or a BigInt above 2^53 - 1). */
  episodeSeed(i) {
    this.#open();
    if (!Number.isInteger(i) || i < 0 || i >= this.#n)
      throw new RangeError(`valley-farm: episodeSeed: index ${describe(i)} must be an integer from 0 to ${this.#n - 1}`);
    const e = this.#engine;
    e.x.vfw_seed(this.#envs + i * align8(e.envSize), this.#out);
    return e.readSeed(this.#out);
  }

  /**
   * Steps every env in one call into the engine. For an env whose episode ends in this step
   * (terminated[i] = 1):
   *   - rewards[i] is the last step's reward;
   *   - same-step autoreset (the default): observations row i is the FIRST observation of its
   *     next episode, masks row i its mask; finalObservations row i the LAST of the one that
   *     ended;
   *   - next-step autoreset: observations row i is the LAST observation of the episode that
   *     ended; the next step resets env i instead of stepping it (its action ignored, reward
   *     0, terminated 0) and shows the next episode's first;
   *   - episodeReturns[i], episodeLengths[i], episodeSeeds[i] (BigUint64Array) are the ended
   *     episode's return, number of steps and seed.
   * Rows of the bookkeeping views where terminated[i] = 0 hold stale values: read them only
   * where terminated[i] = 1. The next episode's seed is the schedule's: the last seed +
   * numEnvs (env i's k-th episode has seed + i + k numEnvs), or the next level.
   * The returned object and its typed arrays are views into the engine's memory that the
   * next call overwrites: copy what you keep.
   */
  step(actions) {
    this.#open();
    if (!this.#started) throw new Error('valley-farm: step() before the first episodes: call reset() first');
    const e = this.#engine;
    const n = this.#n;
    const max = this.#spec.actions.length;
    const typed = actions instanceof Int32Array || INTEGER_ARRAYS.some((T) => actions instanceof T);
    if (!typed && !Array.isArray(actions)) throw new TypeError(`valley-farm: ${this.#allowedActions()}, got ${describe(actions)}`);
    if (actions.length !== n) throw new RangeError(`valley-farm: ${actions.length} actions for ${n} envs; ${this.#allowedActions()}`);
    // A typed array holds integers already: copied in, the engine finds any out of range
    // (a Uint32Array's values above 2^31 - 1 arrive negative), before anything steps.
    if (!typed)
      for (let i = 0; i < n; i++)
        if (!Number.isInteger(actions[i]) || actions[i] < 0 || actions[i] >= max) throw this.#badAction(actions, i);
    let result = this.#result();
    e.i32.set(actions, this.#actions >> 2);
    if (typed) {
      const first = e.x.vfw_first_bad_action(this.#actions, n, max);
      if (first >= 0) throw this.#badAction(actions, first);
    }
    // the envs whose next level starts in this step: next-step, those the last step ended
    const resetNow = this.#levels && this.#nextStep ? Uint8Array.from(result.terminated) : null;
    e.x.vf_batch_step_io(this.#envs, n, this.#spec.kind, this.#io);
    e.refresh();
    if (this.#buffer !== e.buffer) result = this.#result();
    if (this.#levels) this.#advanceLevels(resetNow ?? result.terminated);
    return result;
  }

  /**
   * The result views as the last reset or step left them, re-made if the engine's memory grew
   * since (WebAssembly memory that grows detaches every view of it: making another env or
   * buffer may do that); the object the next call returns.
   */
  views() {
    this.#open();
    if (!this.#started) throw new Error('valley-farm: views() before the first episodes: call reset() first');
    return this.#result();
  }

  /** Frees the engine memory; every later call but close() throws (closing twice is harmless). */
  close() {
    if (this.#ptr !== 0) this.#ptr = this.#engine.release(this, this.#ptr);
  }

  #open() {
    if (this.#ptr === 0) throw new Error(`valley-farm: this ${this.id} vector env is closed; make a new one with makeVec('${this.id}', n)`);
  }

  // step()'s errors, built only when one is thrown (not on every step)
  #allowedActions() {
    return `actions must be an integer typed array (Int32Array, Uint8Array, ...) or an array of ${this.#n} integers from 0 to ${this.#spec.actions.length - 1}`;
  }

  #badAction(actions, i) {
    const a = actions[i];
    const Err = typeof a === 'number' ? RangeError : TypeError;
    return new Err(`valley-farm: actions[${i}] is ${describe(a)}; ${this.#allowedActions()}`);
  }

  #resetOne(i, seed) {
    const e = this.#engine;
    e.u8[this.#terminated + i] = 0; // its episode is not over (next-step autoreset reads this)
    const row = this.#obs + i * this.#spec.obsSize * 4; // #spec: a caller can change obsSize, not this
    e.x.vfw_reset(this.#envs + i * align8(e.envSize), this.#spec.kind, Number(seed & 0xffffffffn), Number(seed >> 32n), row);
    if (this.#withMasks) e.x.vf_legal_actions(this.#envs + i * align8(e.envSize), this.#masks + i * this.#spec.actions.length);
    if (this.#features) e.x.vfw_features_row(this.#spec.kind, row, -1, 1, this.#features.rows, i);
  }

  /** Every row's features, each opening its episode (after reset). */
  #openFeatures() {
    const f = this.#features;
    if (f) this.#engine.x.vf_batch_features(this.#spec.kind, this.#n, this.#obs, 0, f.opening, f.rows);
  }

  #fillMasks() {
    if (this.#withMasks) this.#engine.x.vf_batch_legal_actions(this.#envs, this.#n, this.#masks);
  }

  #levelSeed(i, k) {
    const L = this.#levels.length;
    return this.#levels[(i + k * this.#n) % L];
  }

  /** Writes each env's next level seed where the engine reads it at an autoreset. */
  #queueLevelSeeds() {
    const e = this.#engine;
    e.refresh();
    const next = new BigUint64Array(e.buffer, this.#nextSeeds, this.#n);
    for (let i = 0; i < this.#n; i++) next[i] = this.#levelSeed(i, this.#episodeIndex[i] + 1);
  }

  /** Envs where `started` is 1 began their next level: queue the one after it. */
  #advanceLevels(started) {
    const e = this.#engine;
    let next = null;
    for (let i = 0; i < this.#n; i++) {
      if (started[i] !== 1) continue;
      next ??= new BigUint64Array(e.buffer, this.#nextSeeds, this.#n);
      this.#episodeIndex[i]++;
      next[i] = this.#levelSeed(i, this.#episodeIndex[i] + 1);
    }
  }

  #result() {
    const e = this.#engine;
    e.refresh();
    if (this.#buffer !== e.buffer) {
      const n = this.#n;
      const b = e.buffer;
      this.#buffer = b;
      this.#views = {
        observations: new Int32Array(b, this.#obs, n * this.#spec.obsSize),
        rewards: new Float64Array(b, this.#rewards, n),
        terminated: new Uint8Array(b, this.#terminated, n),
        truncated: new Uint8Array(b, this.#truncated, n),
        masks: this.#withMasks ? new Uint8Array(b, this.#masks, n * this.#spec.actions.length) : null,
        finalObservations: new Int32Array(b, this.#final, n * this.#spec.obsSize),
        episodeReturns: new Float64Array(b, this.#returns, n),
        episodeLengths: new Int32Array(b, this.#lengths, n),
        episodeSeeds: new BigUint64Array(b, this.#seeds, n),
        features: null,
      };
      const f = this.#features;
      if (f) {
        // row i's pairs: index/value[i * stride .. i * stride + count[i]) (vf_features)
        this.#views.features = {
          stride: f.stride,
          width: f.width,
          index: new Int32Array(b, f.index, n * f.stride),
          value: new Float32Array(b, f.value, n * f.stride),
          count: new Int32Array(b, f.count, n),
        };
      }
      const v = this.#views;
      // Gymnasium's vector `infos` (same-step autoreset): a value per env, and beside each
      // key its `_key` mask of the envs where the value means something (those that ended)
      v.infos = {
        ...(this.#nextStep ? {} : { final_obs: v.finalObservations, _final_obs: v.terminated }),
        episode: { r: v.episodeReturns, l: v.episodeLengths, seed: v.episodeSeeds },
        _episode: v.terminated,
      };
    }
    return this.#views;
  }
}

/**
 * Makes numEnvs environments stepped together in one call per step.
 * Options: masks (default true: legal masks in every result), levels (an array of seeds:
 * every episode plays one of them, env i's k-th episode levels[(i + k numEnvs) mod L]),
 * autoreset ('same-step', the default, or 'next-step', as Gymnasium's vector envs: see step()),
 * features and memory (each row's features in every result: vec.js's result.features).
 * @param {string} id
 * @param {number} numEnvs an integer from 1 to 65536
 */
export async function makeVec(id, numEnvs, options) {
  const spec = specFor(id);
  checkNumEnvs(numEnvs, 'makeVec');
  const {
    masks = true,
    levels,
    features = false,
    memory = false,
    autoreset = 'same-step',
  } = checkOptions('makeVec', options, ['masks', 'levels', 'features', 'memory', 'autoreset']);
  if (autoreset !== 'same-step' && autoreset !== 'next-step')
    throw new RangeError(
      `valley-farm: makeVec's autoreset option must be 'same-step' (the default) or 'next-step', got ${describe(autoreset)}`,
    );
  for (const [name, value] of Object.entries({ masks, features, memory }))
    if (typeof value !== 'boolean')
      throw new TypeError(`valley-farm: makeVec's ${name} option must be true or false, got ${describe(value)}`);
  if (memory && !features) throw new TypeError("valley-farm: makeVec's memory option adds the memory's features: it needs features: true");
  let levelSeeds = null;
  if (levels !== undefined) {
    if (!Array.isArray(levels) || levels.length === 0 || levels.length > 1e7) {
      throw new TypeError(
        `valley-farm: makeVec's levels option must be a non-empty array of seeds (at most 10^7), got ${describe(levels)}`,
      );
    }
    levelSeeds = levels.map((s, j) => {
      try {
        return seedBig(s);
      } catch (err) {
        throw new err.constructor(`valley-farm: makeVec: levels[${j}]: ${err.message.replace('valley-farm: ', '')}`);
      }
    });
  }
  return new FarmVecEnv(await loadEngine(), spec, numEnvs, { masks, levels: levelSeeds, features, memory, autoreset });
}

/**
 * For benchmarks: numEnvs envs whose run(steps) plays `steps` rounds of uniformly random
 * actions entirely inside the module (one call from JS, the C function the native
 * benchmark calls) and returns the sum of rewards. close() frees them.
 * numEnvs: 1 to 65536; seed: an integer from 0 to 2^32 - 1 (envs reset with seed + i, the
 * actions of the k-th run drawn from seed + k); steps: an integer from 0 to 2^31 - 1.
 */
export async function makeRandomRunner(id, numEnvs, seed = 1) {
  const spec = specFor(id);
  checkNumEnvs(numEnvs, 'makeRandomRunner');
  if (!Number.isInteger(seed) || seed < 0 || seed >= TWO_32) {
    throw new RangeError(`valley-farm: makeRandomRunner: seed ${describe(seed)} is not allowed; it must be an integer from 0 to 2^32 - 1`);
  }
  const e = await loadEngine();
  const envBytes = align8(e.envSize) * numEnvs;
  let ptr = e.alloc(envBytes + numEnvs * spec.obsSize * 4);
  e.x.vfw_batch_reset(ptr, numEnvs, spec.kind, seed, 0, ptr + envBytes);
  let round = 0;
  return {
    run(steps) {
      if (!ptr) throw new Error('valley-farm: this runner is closed');
      if (!Number.isInteger(steps) || steps < 0 || steps > 2 ** 31 - 1) {
        throw new RangeError(`valley-farm: run(steps): steps ${describe(steps)} must be an integer from 0 to 2^31 - 1`);
      }
      return e.x.vfw_batch_run_random(ptr, numEnvs, steps, (seed + round++) >>> 0, ptr + envBytes);
    },
    close() {
      if (ptr) e.release(this, ptr);
      ptr = 0;
    },
  };
}
