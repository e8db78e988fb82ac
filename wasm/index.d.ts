// Type declarations for the valley-farm JS API: the contract of wasm/index.js. What differs
// between farms (env ids, each farm's observation, its space and rules, the event and
// illegal-reason codes, make's and unflatten's overloads) is generated from the engine's
// description into farm_types.d.ts (wasm/spec_gen.mjs); each farm's full state is typed here.
import type {
  AnyObservationSpace,
  AnyRules,
  AnyState,
  EnvId,
  EnvKind,
  IllegalReasonCode,
  Observation,
  StepEventCode,
  ValleyInventory,
} from './farm_types.js';
export * from './farm_types.js';

/**
 * A seed: an integer 0 … 2^53 − 1, or a BigInt 0n … 2^64 − 1. The same seed gives the same
 * layout, values and trajectory in every browser, in Node and in the native C build.
 */
export type Seed = number | bigint;

// ---- descriptions ------------------------------------------------------------------------

/** A plain description of one observation field in envSpecs (bounds inclusive). */
export interface FieldBounds {
  shape: number[];
  min: number;
  max: number;
}

// ---- spaces (wasm/spaces.js), in Gymnasium's terms ----------------------------------------

/**
 * Something sample() can draw from: a seed (an integer 0 … 2^53 − 1: the same seed, the
 * same sample), a function returning numbers in [0, 1), or an object with random().
 */
export type SampleSource = number | (() => number) | { random(): number };

/** What every space has: seed(), as Gymnasium's space.seed(). */
export interface Space {
  /**
   * Seeds the space's own generator (a fresh seed without one) and returns [seed]: the
   * samples drawn after it without a source of their own repeat from the same seed.
   */
  seed(seed?: number): number[];
}

/** sample()'s options: mask (1: may be drawn; Gymnasium's action mask) and a source. */
export interface SampleOptions {
  mask?: ArrayLike<number>;
  rng?: SampleSource;
}

/** Integers 0 … n − 1. sample({ mask }) draws among the values whose mask is 1 (0 when none is). */
export class Discrete implements Space {
  readonly n: number;
  readonly dtype: 'int32';
  /** The action names, for action spaces. */
  readonly names?: readonly string[];
  seed(seed?: number): number[];
  sample(rngOrOptions?: SampleSource | SampleOptions): number;
  contains(x: unknown): boolean;
}

/**
 * One integer 0 … nvec[i] − 1 per entry: a vector env's actionSpace (one entry per env).
 * sample({ mask }) takes every entry's mask one after another (a vector env's `masks`).
 */
export class MultiDiscrete implements Space {
  readonly nvec: readonly number[];
  readonly shape: readonly [number];
  readonly dtype: 'int32';
  seed(seed?: number): number[];
  sample(rngOrOptions?: SampleSource | SampleOptions): Int32Array;
  contains(x: unknown): boolean;
}

/**
 * int32 values in [low, high] elementwise (inclusive), of a shape. low/high are one number
 * for every element, or arrays of the flattened length (then min/max are absent).
 * A scalar (shape []) is a number; anything else an array or Int32Array of `size` integers.
 */
export class Box implements Space {
  readonly shape: readonly number[];
  readonly size: number;
  readonly dtype: 'int32';
  readonly low: number | readonly number[];
  readonly high: number | readonly number[];
  readonly min?: number;
  readonly max?: number;
  seed(seed?: number): number[];
  sample(rng?: SampleSource): number | Int32Array;
  contains(x: unknown): boolean;
}

/** Named sub-spaces, each also an own property (space.view, space.inventory.coins). */
export class Dict implements Space {
  readonly spaces: Readonly<Record<string, Box | Dict>>;
  readonly [field: string]: unknown;
  /** Seeds the Dict's generator (the fields' samples in a Dict sample draw from it); shared by every env of an id. */
  seed(seed?: number): number[];
  sample(rng?: SampleSource): Record<string, unknown>;
  contains(x: unknown): boolean;
}

/** The single env's observation space (a Dict of Boxes, bounds from envSpecs). */
export function observationSpace(id: EnvId): Dict;
/** One flat observation: Box([obsSize]) with per-element bounds (low and high are arrays of obsSize). */
export function flatObservationSpace(id: EnvId): FlatBox;
/** A Box with per-element bounds: low and high are arrays (so min and max are absent). */
export interface FlatBox extends Box {
  readonly low: readonly number[];
  readonly high: readonly number[];
}
/** Discrete(n) with the action names. */
export function actionSpace(id: EnvId): Discrete;
/** The flat form (envSpecs[id].layout) of an observation object, into `out` if given. */
export function flatten(id: EnvId, observation: Observation, out?: Int32Array): Int32Array;

/**
 * Fresh seeds (drawn by any reset without a seed) lie in [FRESH_SEED_MIN, FRESH_SEED_MAX] =
 * [2^32, 2^53 − 2^40]: above every named validation and test seed, so default training never
 * plays a held-out level, and an autoreset's seed + i + k × numEnvs stays a safe integer for
 * the first 2^40 episodes.
 */
export const FRESH_SEED_MIN: number;
export const FRESH_SEED_MAX: number;

export interface TileSpec {
  code: number;
  name: string;
  walkable: boolean;
  /** Off the map or bare ground: nothing there to walk to. */
  background: boolean;
  /** Backwards farm: the meaning of each status value on this tile. */
  status?: readonly string[];
}

export interface FlatField {
  name: string;
  offset: number;
  length: number;
}

/** One field of the flat observation as the engine describes it (vf_spec_json). */
export interface FieldSpec extends FlatField {
  /** null, or the object of the observation that holds it ('inventory'). */
  group: string | null;
  /** [] for a scalar, [length] for an array. */
  shape: readonly number[];
  /** What the rules let it show. */
  low: number;
  high: number;
  /** tiles: the 5 x 5 view's tile codes; status: their status values; category: one code; count: an amount; x, y: the agent's position; stepsLeft. */
  role: 'tiles' | 'status' | 'category' | 'count' | 'x' | 'y' | 'stepsLeft';
  /** Its values are codes (tiles, status, category), not amounts. */
  categorical: boolean;
}

export interface EnvSpec {
  id: EnvId;
  kind: EnvKind;
  /** Its short name, lower case ('valley'): its docs page and its types (ValleyObservation) are named for it. */
  slug: string;
  width: number;
  height: number;
  horizon: number;
  /** Length of the flat observation of vector envs: 37 or 55. */
  obsSize: number;
  actions: readonly string[];
  tiles: readonly TileSpec[];
  /** Plain bounds of every observation field (the spaces are built from these). */
  observation: AnyObservationSpace;
  /** Named fields of the flat observation. */
  layout: readonly FlatField[];
  /** The same fields with their bounds, roles and groups, as the engine gives them. */
  fields: readonly FieldSpec[];
  /** Bytes of a snapshot (env.snapshotSize). */
  snapshotSize: number;
  /** The beam width the published best-known data use (env.plan's default). */
  planWidth: number;
  /** Tile name -> code (codes.MARKET is 12), from `tiles`. */
  codes: Readonly<Record<string, number>>;
  /** The names of its built-in agents (valley-farm/agents). */
  agents: readonly ('random' | 'heuristic')[];
  /** What a policy sees (the engine's vf_features): the number of features of the observation and of the memory, the most nonzero of the observation's, the memory's landmark kinds. */
  features: { observation: number; memory: number; nonzero: number; landmarks: readonly string[] };
  /** The rules' constants, the engine's own (vf_rules_json). */
  rules: AnyRules;
  species?: readonly string[];
  moods?: readonly string[];
  facings?: readonly string[];
}

/** Plain data about both farms, usable before any env is made, generated from the engine's vf_spec_json. */
export const envSpecs: Readonly<Record<EnvId, EnvSpec>>;

/** What the engine says of itself beyond the farms (vf_spec_json). */
export const engineSpec: Readonly<{
  /** The built-in agents' names, indexed by the engine's vf_agent_kind. */
  agents: readonly string[];
  /** The evaluation protocol's numbers: the splits, the range of fresh seeds, the random agent's plays a seed. */
  protocol: Readonly<{
    splits: Readonly<Record<'test' | 'validation', Readonly<{ first: number; count: number }>>>;
    freshSeeds: Readonly<{ min: number; max: number }>;
    randomRuns: number;
  }>;
  /** Illegal-action reasons, indexed by the engine's vf_why. */
  whys: readonly { code: string; text: string }[];
  /** Event codes indexed by vf_event_kind (null for none). */
  events: readonly (string | null)[];
  /** Error messages indexed by vf_error. */
  errors: readonly string[];
  /** The header's sizes and limits (obsMax, batchMax, planWidthMax, ...). */
  limits: Readonly<Record<string, number>>;
  /** Byte sizes and field offsets of vf_env, vf_event and vf_plan. */
  layouts: Readonly<Record<string, Readonly<Record<string, number>>>>;
}>;

/** The action space: Discrete(n) with the rules' action names. */
export interface ActionSpace extends Discrete {
  /** 12 (valley) or 11 (backwards). */
  readonly n: number;
  readonly names: readonly string[];
}

// ---- observations ------------------------------------------------------------------------

/** ValleyFarm-v0's inventory (the observation's and the state's). */
export type Inventory = ValleyInventory;

export interface ResetInfo {
  /** Actions taken this episode. */
  step: number;
  /** The seed this episode was reset with. */
  seed: Seed;
}

export interface StepInfo extends ResetInfo {
  /** False when the action changed nothing but the clock (it was played as a wait). */
  actionWasLegal: boolean;
  /** Only when the action was illegal: the rule that blocked it (judged before the step). */
  illegalReason?: IllegalReason;
  /** Only for an env made with { events: true }: what happened in the step, in order. */
  events?: StepEvent[];
}

/** One thing a step did; the rewards of a step's events add up to its reward exactly. */
export interface StepEvent {
  code: StepEventCode;
  /** A sentence for players, with the reward: "gift to villager 0: relationship 0 → 7.5 (wary), +3.75". */
  text: string;
  /** The part of the step's reward this event earned (often 0). */
  reward: number;
  /** The tile where it happened. */
  x: number;
  y: number;
  /** The animal, villager or crop (its index in env.state()'s list), or -1. */
  subject: number;
  /** Per code: seeds, water, feed or gifts left; products taken or waiting; crops sold; a value or bonus. */
  count: number;
  /** Per code: products sold ('sold'), the mood after ('gift'). */
  count2: number;
  /** Per code: a stage, relationship, health or mood before and after; 'sold': the price multiplier and the coins. */
  before: number;
  after: number;
}

export interface IllegalReason {
  /** A stable short code, for programs. */
  code: IllegalReasonCode;
  /** A sentence for players, e.g. "you have no seeds left". */
  text: string;
}

export interface ResetResult<O = Observation> {
  observation: O;
  info: ResetInfo;
}

export interface StepResult<O = Observation> {
  observation: O;
  reward: number;
  terminated: boolean;
  /** Always false: the horizon is part of the observation, so it ends the MDP. */
  truncated: false;
  info: StepInfo;
}

// ---- full state --------------------------------------------------------------------------

export interface Point {
  x: number;
  y: number;
}

export interface ValleyState {
  width: 15;
  height: 15;
  step: number;
  agent: Point;
  /** tiles[y][x]: tile codes as the observation shows them. */
  tiles: number[][];
  inventory: Inventory;
  crops: Array<Point & { stage: number }>;
  animals: Array<
    Point & {
      species: 'chicken' | 'cow' | 'sheep';
      sated: boolean;
      satedStepsLeft: number;
      counter: number;
      pending: number;
    }
  >;
  /** relationship: the exact value (a multiple of 2.5); mood 0 wary, 1 neutral, 2 friendly. */
  villagers: Array<Point & { relationship: number; mood: number }>;
  market: Point;
  totalReward: number;
}

export interface BackwardsState {
  width: 10;
  height: 10;
  step: number;
  agent: Point & { facing: number };
  tiles: number[][];
  crops: Array<Point & { stage: number; value: number; harvested: boolean }>;
  animals: Array<Point & { health: number; bonus: number; rewarded: boolean }>;
  villagers: Array<Point & { mood: number; bonus: number; rewarded: boolean }>;
  meters: { cropYield: number; animalHealth: number; socialAffinity: number };
  farmValue: number;
}

// ---- environments ------------------------------------------------------------------------

/** A copy of one env's full state in engine memory, made only by env.saveState(). */
export interface EnvState {
  readonly id: EnvId;
  readonly freed: boolean;
  /** Releases its memory; a freed state cannot be loaded. */
  free(): void;
}

export interface Env<O = Observation, S = AnyState> {
  readonly id: EnvId;
  readonly actionSpace: ActionSpace;
  /** A Dict space whose fields are Boxes with shape, min and max (a FieldBounds each). */
  readonly observationSpace: Dict & AnyObservationSpace;
  /** 'ansi': render() returns the map as text. */
  readonly renderMode: 'ansi';
  /** Gymnasium's env.metadata: the render modes make() takes. */
  readonly metadata: EnvMetadata;
  /** Gymnasium's env.spec. */
  readonly spec: EnvRegistration;
  /** The length of every snapshot of this env id, in bytes. */
  readonly snapshotSize: number;
  /**
   * Starts an episode; without a seed, a fresh one in [FRESH_SEED_MIN, FRESH_SEED_MAX]
   * (reported in info.seed). As in Gymnasium, a seeded reset also seeds the generator later
   * unseeded resets draw from, so a run repeats from its first seed. `options`: none yet
   * ({} or left out). Unknown keys throw.
   */
  reset(options?: ResetOptions): ResetResult<O>;
  /**
   * Plays one action (an integer 0 … n − 1). Throws RangeError/TypeError for a bad action
   * and Error ("call reset()") before the first reset or after the episode terminated;
   * a throw leaves the env exactly as it was.
   */
  step(action: number): StepResult<O>;
  /** 1 where the action is legal now. */
  legalActions(): Uint8Array;
  /** Per action: null where it is legal now, else the rule that blocks it. */
  illegalReasons(): (IllegalReason | null)[];
  /** The full hidden state as plain JSON-serialisable data; a fresh object each call. */
  state(): S;
  /** The complete state as bytes. */
  snapshot(): Uint8Array;
  /** Writes the snapshot into buffer (at least snapshotSize bytes) and returns its length: no allocation. */
  snapshotInto(buffer: Uint8Array): number;
  /**
   * Puts the env back into a snapshot's state (of the same env id); throws and changes
   * nothing otherwise. `length` reads only a prefix of bytes (a snapshotInto buffer).
   * A snapshot is checked to be well formed and consistent, not proven reachable by play:
   * never accept one from an agent you evaluate.
   */
  restore(bytes: Uint8Array, length?: number): void;
  /** The engine's 64-bit hash of the full state: FNV-1a 64 of the snapshot bytes. */
  stateHash(): bigint;
  /**
   * The best play the engine's planner finds from this state (beam search over full states; width 1..65536, default: the width the
   * published best-known data use, vf_plan_width in the engine). `prove`: then branch and bound over every play, which ends with a
   * proven-optimal plan unless its table of states (true: the package's default size; or a number up to 2^26) fills first.
   * A plan whose work memory is above 1 GiB (a table of more than about 2^24 states, or a very wide valley beam) is refused:
   * WebAssembly memory never shrinks, so the engine keeps what its largest plan took.
   */
  plan(options?: { width?: number; prove?: boolean | number }): Plan;
  /** Copies the full state into engine memory (into `into`, if given, without allocating): the fast path for search. */
  saveState(into?: EnvState): EnvState;
  /** Puts the env back into a state saveState() returned on an env of the same id. */
  loadState(state: EnvState): void;
  /** A text picture of the full map. */
  render(): string;
  /** Frees the engine's memory; every later call but close() throws (closing twice is harmless). */
  close(): void;
}

/** A plan from env.plan(): playing actions from the state it was made in earns bestReturn; no play earns more than upperBound. */
export interface Plan {
  actions: number[];
  bestReturn: number;
  upperBound: number;
  /** bestReturn equals upperBound: no play from the state earns more. */
  proven: boolean;
}

/** reset()'s options, as Gymnasium's reset(seed, options). */
export interface ResetOptions {
  seed?: Seed;
  /** These envs take no reset options yet: {} or null (any key throws). */
  options?: Record<string, never> | null;
}

/** env.metadata (Gymnasium's metadata["render_modes"]). */
export interface EnvMetadata {
  readonly renderModes: readonly ['ansi'];
}

/**
 * env.spec (Gymnasium's EnvSpec): the id, and maxEpisodeSteps null, as in Python: no time limit
 * truncates an episode; the rules end every one at envSpecs[id].horizon (terminated).
 */
export interface EnvRegistration {
  readonly id: EnvId;
  readonly maxEpisodeSteps: null;
}

/** Options of make(): render_mode may only be 'ansi' (text); any other key throws, naming the known ones. */
export interface MakeOptions {
  render_mode?: 'ansi';
  /** true: every step's info.events lists what happened and what each reward was for (a slower step). */
  events?: boolean;
}

/**
 * What reset(), resetEnvs() and step() return: views into the engine's memory, the same
 * objects every call, overwritten by the next call (copy what you keep). Rows are per env:
 * row i of observations is observations.subarray(i × obsSize, (i + 1) × obsSize).
 *
 * On a step where env i's episode ends (terminated[i] = 1), with same-step autoreset:
 *   rewards[i]            the reward of the step that ended it
 *   observations row i    the FIRST observation of env i's next episode (masks row i: its mask)
 *   finalObservations row i  the LAST observation of the episode that ended
 *   episodeReturns[i], episodeLengths[i], episodeSeeds[i]  that episode's return, steps, seed
 * With next-step autoreset (makeVec's autoreset: 'next-step'), observations row i is the
 * LAST observation of the episode that ended (finalObservations row i too), and the next
 * step resets env i instead of stepping it: its action is ignored, rewards[i] is 0,
 * terminated[i] 0, observations row i the next episode's first.
 * Where terminated[i] = 0, the bookkeeping rows hold stale values from an earlier boundary.
 *
 * Worked example (ValleyFarm-v0, 2 envs, reset({ seed: 10 })): after step 50 both episodes
 * end: terminated = [1, 1], episodeSeeds = [10n, 11n], episodeLengths = [50, 50],
 * finalObservations rows show stepsLeft 0, observations rows show stepsLeft 50 of the
 * episodes with seeds 12 and 13 (seed + i + k × numEnvs), and episodeSeed(0) is now 12.
 */
export interface VecResult {
  /** numEnvs × obsSize integers (the flat layout of envSpecs[id].layout). */
  observations: Int32Array;
  rewards: Float64Array;
  terminated: Uint8Array;
  /** Always zeros. */
  truncated: Uint8Array;
  /** numEnvs × n legal masks (1 = legal) for the observations shown; null when makeVec's masks option is false. */
  masks: Uint8Array | null;
  finalObservations: Int32Array;
  episodeReturns: Float64Array;
  episodeLengths: Int32Array;
  /** Exact 64-bit seeds: Number(episodeSeeds[i]) for a plain number. */
  episodeSeeds: BigUint64Array;
  /**
   * With makeVec's features option: what a policy sees of each env's observation (the engine's
   * vf_features; with the memory option, also what it remembers of its episode), computed in
   * the step itself: row i's nonzero (index, value) pairs at index/value[i × stride ..
   * i × stride + count[i]), indices below width. Else null.
   */
  features: VecFeatures | null;
  /**
   * Gymnasium's vector infos: the same views under Gymnasium's keys, each value beside its
   * `_key` mask of the envs where it means something (those whose episode ended this step).
   */
  infos: {
    /** Same-step autoreset only (next-step shows the last observation in observations). */
    final_obs?: Int32Array;
    _final_obs?: Uint8Array;
    episode: { r: Float64Array; l: Int32Array; seed: BigUint64Array };
    _episode: Uint8Array;
  };
}

/** A vector env's features (makeVec's features option): each row's nonzero (index, value) pairs. */
export interface VecFeatures {
  /** Room for each row's pairs: the most nonzero features one observation can have. */
  stride: number;
  /** The number of features (dense): indices run 0 … width − 1. */
  width: number;
  index: Int32Array;
  value: Float32Array;
  count: Int32Array;
}

/** @deprecated the same as VecResult */
export type VecStepResult = VecResult;

export interface VecOptions {
  /** Legal masks in every result (default true; false saves their cost). */
  masks?: boolean;
  /**
   * A fixed list of level seeds (Procgen-style fixed-level training): env i's k-th episode
   * plays levels[(i + k × numEnvs) mod levels.length]; reset() then takes no seed.
   */
  levels?: Seed[];
  /** Each result also holds what a policy sees of every env (VecResult.features; default false). */
  features?: boolean;
  /** With features: also each env's memory of its episode (default false). */
  memory?: boolean;
  /**
   * When an ended episode's env starts its next (Gymnasium's AutoresetMode): 'same-step' (the
   * default) in the step that ended it, 'next-step' in the step after (see VecResult).
   */
  autoreset?: AutoresetMode;
}

/** Gymnasium's vector autoreset modes, in this package's words. */
export type AutoresetMode = 'same-step' | 'next-step';

export interface VecMetadata extends EnvMetadata {
  /** Gymnasium's metadata["autoreset_mode"]: makeVec's autoreset option. */
  readonly autoresetMode: AutoresetMode;
}

/**
 * numEnvs envs of one id stepped together in one call into the engine, with same-step or
 * next-step autoreset. Seeds: env i's k-th episode has seed + i + k × numEnvs (fresh
 * schedule), or the fixed level list's, in either mode.
 */
export interface VecEnv {
  readonly id: EnvId;
  /** Read-only. */
  readonly numEnvs: number;
  /** 37 or 55. */
  readonly obsSize: number;
  /** The batched actions: MultiDiscrete, numEnvs entries of n (Gymnasium's vector action_space). */
  readonly actionSpace: MultiDiscrete;
  /** One env's actions: Discrete(n) with the action names. */
  readonly singleActionSpace: ActionSpace;
  /** The batched flat observations: Box([numEnvs, obsSize]). */
  readonly observationSpace: Box;
  /** One row of `observations`: Box([obsSize]) (unflatten gives the single env's object). */
  readonly singleObservationSpace: FlatBox;
  readonly metadata: VecMetadata;
  readonly spec: EnvRegistration;
  /** Resets env i with seed + i (default: a fresh seed, reported as `seed`, from the last seeded reset's generator if there was one). */
  reset(options?: Seed | ResetOptions): VecResult & { seed: Seed | null };
  /** Resets only envs indices[j] (with seeds[j], or their schedule's next seed); the others play on. */
  resetEnvs(indices: ArrayLike<number>, seeds?: Seed[]): VecResult;
  /** The seed of env i's episode in progress. */
  episodeSeed(i: number): Seed;
  /** Steps env i with actions[i] (any integer typed array or array of numbers). */
  step(actions: ArrayLike<number>): VecResult;
  /** The result views as the last call left them, re-made if engine memory grew since (making an env or buffer may grow it). */
  views(): VecResult;
  close(): void;
}

/** numEnvs: an integer 1 … 65536. Unknown options throw, naming the known ones. */
export function makeVec(id: EnvId, numEnvs: number, options?: VecOptions): Promise<VecEnv>;

/**
 * For benchmarks: run(steps) plays `steps` rounds of random actions on numEnvs envs inside
 * the engine (one call) and returns the summed reward. numEnvs 1 … 65536, seed 0 … 2^32 − 1,
 * steps 0 … 2^31 − 1; anything else throws.
 */
export function makeRandomRunner(id: EnvId, numEnvs: number, seed?: number): Promise<{ run(steps: number): number; close(): void }>;

/** Loads the engine now (make and makeVec do it themselves), for synchronous calls that need it loaded. */
export function loadEngine(): Promise<void>;
/** The engine's WebAssembly memory size in bytes. */
export function engineMemoryBytes(): Promise<number>;
/** The rules' constants as the engine reports them (envSpecs[id].rules holds the same). */
export function rulesFromEngine(id: EnvId): Promise<AnyRules>;
/** The loaded engine's vf_spec_json, parsed (what envSpecs and engineSpec are generated from). */
export function specFromEngine(): Promise<{ farms: readonly object[] } & Record<string, unknown>>;
