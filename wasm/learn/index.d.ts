// Types of `valley-farm/learn`: learners in Node and in a Web Worker.
import type { EnvId, Observation, Seed } from '../index.js';

/** A registered learner's name (the keys of `algorithms`): 'tabular-q' and 'ppo' are built in. */
export type Algo = string;

export interface Progress {
  steps: number;
  updates: number;
  episodes: number;
  /** Mean return of the last 100 training episodes; null before the first ends. */
  meanReturn: number | null;
  /** Env steps per second of training (the time spent cloning the planner, if any, left out). */
  stepsPerSec: number;
  /** Algorithm-specific: ppo { policy, value, entropy } (and learningRate, the last update's, with anneal), tabular-q { tdError, states }. */
  losses: Record<string, number>;
  elapsedMs: number;
  /** ppo with imitate > 0, once it has cloned the planner: its episodes, the samples they gave, the last cross-entropy, the time it took. */
  imitation?: { episodes: number; samples: number; loss: number; seconds: number };
}
export interface Policy {
  readonly env: EnvId;
  readonly algo: Algo;
  /**
   * The policy's action, masked by info.legal when given; info.step 0 starts an episode. Tabular
   * policies are greedy; a ppo policy saved with act "sample" (what learners give) draws from its
   * distribution with a generator seeded by info.seed (the same episode, the same play), one
   * with act "greedy" (or none: saved before there was a choice) takes the most probable action.
   */
  act(observation: Observation, info?: { legal?: Uint8Array; step?: number; seed?: Seed }): number;
  /** Starts a new episode (a ppo policy forgets its frames and its memory of the farm); evaluate() calls it. */
  reset?(): void;
  /**
   * Plain JSON: { format: 'valley-farm-policy', version: 1, env, algo, config, ... }. A file from
   * `valley-farm train` also has `run` (seed, steps, seconds, package, command), which loadPolicy ignores.
   */
  toJSON(): Record<string, unknown>;
  /** A policy from loadPolicy: frees its network's tensors (a learner's policy is freed by learner.dispose()). */
  dispose?(): void;
}
export interface Learner {
  readonly env: EnvId;
  readonly algo: Algo;
  /** Resolved settings (plain JSON). */
  readonly config: Record<string, unknown>;
  /** Trains at least `steps` env steps (whole rollouts). */
  trainFor(steps: number): Promise<Progress>;
  progress(): Progress;
  policy(): Policy;
  dispose(): void;
}
/** What a learner module declares of itself (its `learner` export; wasm/learn/registry.js lists every field). */
export interface LearnerDeclaration {
  name: Algo;
  /** How tables name it ('PPO'). */
  title: string;
  defaults: Readonly<Record<string, number | number[]>>;
  docs: Readonly<Record<string, string>>;
  /** The largest allowed value of the settings that have one. */
  maxima?: Readonly<Record<string, number>>;
  /** Every setting's allowed values: a whole number or a number in [min, max] (above min when aboveMin), or at most `most` layer sizes of 1 … units. */
  limits: Readonly<Record<string, SettingLimit>>;
  /** How its policies may pick actions ('greedy', 'sample'). */
  actModes: readonly string[];
  create(env: EnvId, settings: Record<string, unknown>, seed: number): Promise<unknown>;
  /** Throws unless a saved policy of this learner is sound data (its format, version and env are checked before). */
  checkPolicy(json: Record<string, unknown>): void;
  load(json: Record<string, unknown>): Promise<Policy> | Policy;
  checkConfig?(env: EnvId, config: Record<string, unknown>): void;
  memory?(env: EnvId, config: Record<string, unknown>): number;
  resume?: { setting: string; grain(config: Record<string, unknown>): number; checkState(state: unknown): void };
  /** The defaults of settings that follow a run's planned length (PPO: { anneal: steps }). */
  runDefaults?(steps: number): Record<string, unknown>;
}
/** The learners by name, in the order they were registered. */
export const algorithms: Readonly<Record<Algo, Readonly<LearnerDeclaration>>>;
/** Adds a learner to `algorithms` after checking its declaration (a clear error names what is wrong). */
export function registerLearner(declaration: LearnerDeclaration): void;
/** Bytes a learner may plan to take: createLearner refuses settings whose estimateMemory is above it (1 GiB). */
export const MEMORY_BUDGET: number;
/**
 * The bytes a learner of these settings (the algorithm's defaults where missing) plans to take
 * once it runs: its buffers, the vector env's, the network with its gradients and Adam's moments,
 * a minibatch's activations, the planner episodes it clones (not a tabular-q table, which grows
 * with the states it meets). Throws for a setting out of its range, as createLearner does.
 */
export function estimateMemory(env: EnvId, algo: Algo, settings?: Record<string, unknown>): number;
/**
 * A learner. Throws a clear error for a setting out of its range (algorithms[algo].limits), a
 * ppo network of more than 2^22 weights, or settings whose estimateMemory is above MEMORY_BUDGET.
 */
export function createLearner(options: {
  env: EnvId;
  algo?: Algo;
  seed?: number;
  /** The run's planned length in env steps: settings that follow it (PPO's anneal) default to it. */
  steps?: number;
  [setting: string]: unknown;
}): Promise<Learner>;
/** The settings of a run of `steps` env steps that follow its length (the learner's runDefaults); {} without steps. */
export function runDefaultsOf(learner: LearnerDeclaration, steps?: number): Record<string, unknown>;
export type SettingLimit =
  | { kind: 'whole'; min: number; max: number }
  | { kind: 'number'; min: number; max: number; aboveMin: boolean }
  | { kind: 'layers'; most: number; units: number };
/**
 * A policy from what toJSON() gave. It is checked as data first (checkPolicyJSON): no network
 * is built from a policy that is not within a learner's limits.
 */
export function loadPolicy(json: unknown, options?: LoadPolicyOptions): Promise<Policy>;
export interface LoadPolicyOptions {
  /**
   * The caller vouches that checkPolicyJSON has passed this policy already (in a Worker, say, or
   * the rows a packed table was packed from): it is not checked again. Default false.
   */
  checked?: boolean;
}
/**
 * Throws a clear error, naming the path of the bad value (e.g. weights[2].values[17]) and what
 * is allowed, unless `json` is a policy loadPolicy accepts: its format, version, env, algo,
 * settings within the learner's limits, and weights (or table rows) of the shapes its settings
 * imply, every value a finite number.
 */
export function checkPolicyJSON(json: unknown): void;
/** A tabular-q table packed into typed arrays (packTable); loadPolicy takes one in a policy's `table`. */
export interface PackedTableData {
  /** The rows' keys' UTF-16 code units, one key after another, the rows sorted by key. */
  keys: Uint16Array;
  /** Where each row's key ends in `keys`. */
  ends: Uint32Array;
  /** The rows' action values, one per action a row. */
  values: Float32Array;
}
/**
 * A checked tabular-q policy's `table` rows ([key, one number per action]) packed for a farm of
 * `actions` actions: three typed arrays, which a Worker hands another thread without a copy
 * (their buffers in postMessage's transfer list). Where rows repeat a key, the later counts.
 */
export function packTable(rows: [string, ArrayLike<number>][], actions: number): PackedTableData;
/**
 * Where a browser finds TensorFlow.js's wasm backend (a folder URL ending in '/', or a URL
 * for each of its three files): call it before the first learner or policy. Without it a
 * browser trains on the slower cpu backend; Node finds the files in the installed package.
 */
export function setWasmPaths(
  paths:
    string | { 'tfjs-backend-wasm.wasm': string; 'tfjs-backend-wasm-simd.wasm': string; 'tfjs-backend-wasm-threaded-simd.wasm': string },
): void;
/** The backend TensorFlow.js runs on once a neural learner or policy has loaded it, else null. */
export function tfBackend(): Promise<string | null>;
/** A setting's command-line option of npx valley-farm train: numEnvs -> '--num-envs'. */
export function settingFlag(name: string): string;
/** Settings as words: { history: 4 } -> 'history 4'; {} -> ''. */
export function settingsText(settings?: Record<string, unknown>): string;
