// Types of `valley-farm/learn`: learners in Node and in a Web Worker.
import type { EnvId, Observation, Seed } from '../index.js';

/** A registered learner's name (the keys of `algorithms`): 'tabular-q', 'ppo', 'reinforce' and 'dqn' are built in. */
export type Algo = string;

export interface Progress {
  steps: number;
  updates: number;
  episodes: number;
  /** Mean return of the last 100 training episodes; null before the first ends. */
  meanReturn: number | null;
  /** Env steps per second of training (the time spent cloning the planner, if any, left out). */
  stepsPerSec: number;
  /**
   * Algorithm-specific: ppo { policy, value, entropy, approxKl, clipFraction, gradNorm } (and
   * learningRate, the last update's, with anneal), reinforce { policy, value, entropy }, dqn
   * { td, q, epsilon }, tabular-q { tdError, states }.
   */
  losses: Record<string, number>;
  elapsedMs: number;
  /** A learner on the learner core: the threads it trains on and the shards its runs are cut into (which fix its bits). */
  threads?: number;
  shards?: number;
  /**
   * ppo with imitate > 0: while it clones the planner, the phase ('planning' its episodes, then
   * 'cloning' passes over them), done of total and the seconds so far; once it has, its
   * episodes, the samples they gave, the last cross-entropy and the time it took.
   */
  imitation?:
    | { episodes: number; phase: 'planning' | 'cloning'; done: number; total: number; seconds: number }
    | { episodes: number; samples: number; loss: number; seconds: number };
}
export interface TrainOptions {
  /** Hears of work that plays no steps of its own (PPO's cloning), as it goes. */
  onProgress?(progress: Progress): void;
  /** A performance.now() time: the learner returns at the first point it can after it (between planner episodes, cloning minibatches or updates), its steps perhaps not all done. */
  until?: number;
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
  /** Trains at least `steps` env steps (whole rollouts), or stops after options.until. */
  trainFor(steps: number, options?: TrainOptions): Promise<Progress>;
  progress(): Progress;
  policy(): Policy;
  /**
   * The run so far as JSON-ready data, to resume exactly (restore), on any number of threads:
   * a learner that declares `resume` (ppo), between trainFor calls; null where it cannot take
   * one (PPO while it clones the planner).
   */
  checkpoint(): Promise<Checkpoint | null>;
  /** Continues from a checkpoint of a run with this env, algo, seed and settings (checked as data first). */
  restore(checkpoint: unknown): Promise<void>;
  dispose(): void;
}
export interface Checkpoint {
  format: 'valley-farm-checkpoint';
  version: number;
  env: EnvId;
  algo: Algo;
  seed: number;
  config: Record<string, unknown>;
  state: Record<string, unknown>;
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
  create(env: EnvId, settings: Record<string, unknown>, seed: number, run: { threads: number }): Promise<unknown>;
  /** Throws unless a saved policy of this learner is sound data (its format, version and env are checked before). */
  checkPolicy(json: Record<string, unknown>): void;
  load(json: Record<string, unknown>): Promise<Policy> | Policy;
  checkConfig?(env: EnvId, config: Record<string, unknown>): void;
  memory?(env: EnvId, config: Record<string, unknown>, run: { threads: number }): number;
  /** The settings that size its memory, most first, each with what less of it is ({ numEnvs: 'fewer envs' }). */
  memorySettings?: Readonly<Record<string, string>>;
  /** Its runs can be saved and resumed: checkState(state, config) throws unless a checkpoint's state fits a run of config. */
  resume?: { checkState(state: unknown, config: Record<string, unknown>): void };
  /** The part of a run each thread runs (startThreads): a learner with one runs on every core with the same bits. */
  thread?(ctx: ThreadContext): Promise<Record<string, unknown>>;
  /** Where its module is (import.meta.url): a learner from outside the package that runs threads. */
  url?: string;
  /** The defaults of settings that follow a run's planned length (PPO: { anneal: steps }). */
  runDefaults?(steps: number): Record<string, unknown>;
}
/** The learners by name, in the order they were registered. */
export const algorithms: Readonly<Record<Algo, Readonly<LearnerDeclaration>>>;
/** Adds a learner to `algorithms` after checking its declaration (a clear error names what is wrong). */
export function registerLearner(declaration: LearnerDeclaration): void;
/** Bytes a learner may plan to take: createLearner refuses settings whose estimateMemory is above it (1 GiB). */
export const MEMORY_BUDGET: number;
/** What one thread of a run costs beyond its learner's own memory (a Worker's heap, the engine and learner core), in bytes. */
export const THREAD_BYTES: number;
/** What a checkpoint's `format` says ('valley-farm-checkpoint'). */
export const CHECKPOINT_FORMAT: string;
/** The checkpoint version this package writes and reads (a learner's checkpoint() carries it). */
export const CHECKPOINT_VERSION: number;
/** The threads a run of this learner takes when given `threads`: all of them for a learner with a `thread` part (PPO, REINFORCE, DQN), else 1. */
export function threadCount(algo: string, threads?: number): number;
/**
 * The bytes a learner of these settings (the algorithm's defaults where missing) plans to take
 * once it runs: its buffers, the vector env's, the network with its gradients and Adam's moments,
 * a minibatch's activations, the planner episodes it clones (not a tabular-q table, which grows
 * with the states it meets), and THREAD_BYTES for each of its threads. Throws for a setting out
 * of its range, as createLearner does.
 */
export function estimateMemory(env: EnvId, algo: Algo, settings?: Record<string, unknown>, run?: { threads?: number }): number;
/** What to lower for a run above MEMORY_BUDGET, from the learner's memorySettings: 'use fewer envs (numEnvs) or …'. */
export function lessMemory(learner: LearnerDeclaration, run?: { threads?: number }): string;
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
  /** Threads to train on (1 … THREADS_MAX; default one per core, at most DEFAULT_THREADS_MAX): only the speed follows them. */
  threads?: number;
  [setting: string]: unknown;
}): Promise<Learner>;
export const THREADS_MAX: number;
export const DEFAULT_THREADS_MAX: number;
/** One thread per core of this machine, at most `most`. */
export function defaultThreads(most: number): number;
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
/** A setting's command-line option of npx valley-farm train: numEnvs -> '--num-envs'. */
export function settingFlag(name: string): string;
/** Settings as words: { history: 4 } -> 'history 4'; {} -> ''. */
export function settingsText(settings?: Record<string, unknown>): string;

// ---- the learner kit (kit.js): what a learner of your own builds on -------------------------

/** The learner core (its own WebAssembly module), loaded once. */
export function loadCore(): Promise<Core>;
/** Loads the learner core from learner.wasm's bytes instead of its URL (before the first loadCore). */
export function useCoreBytes(bytes: ArrayBuffer): void;
/** Has `check` asked before each allocation in the learner core; it refuses one by throwing (a host's memory budget). */
export function useMemoryCheck(check: (bytes: number, memory: WebAssembly.Memory) => void): void;
/** A Worker of a run's thread, as a thread starter makes it (useThreadStarter). */
export interface ThreadWorker {
  post(message: unknown, transfer?: Transferable[]): void;
  listen(onMessage: (message: any) => void, onError: (error: Error) => void): void;
  stop(): void;
}
/** Starts a run's other threads with `start` (null: the package's Workers). */
export function useThreadStarter(start: (() => Promise<ThreadWorker>) | null): void;
/** A thread's answers to the coordinator's calls: answer(message) for each message. */
export function serveThread(options: {
  post(message: unknown): void;
  learnerOf(which: { name: string; url?: string }): unknown;
}): (message: { id: number; method: string; args: unknown[] }) => Promise<void>;
export interface Core {
  readonly memory: WebAssembly.Memory;
}
export interface NetLayout {
  inputs: number;
  hidden: number[];
  /** 'tanh' or 'relu', or one for each hidden layer (default 'tanh'). */
  activation?: 'tanh' | 'relu' | Array<'tanh' | 'relu'>;
  /** Units of a GRU after the hidden layers (default 0: none); the network then reads sequences (forwardSeq). */
  recurrent?: number;
  /** The recurrent layer: 'gru' (default) or 'lstm' (Keras's LSTM; its state h then c, 2 × recurrent floats). */
  cell?: 'gru' | 'lstm';
  /** Each head's units, side by side on the last hidden layer: [actions, 1] for logits and a value. */
  heads: number[];
  /** Each head's initial deviation (0: Glorot-uniform). */
  headInit?: number[];
}
/** A network on the learner core: forward, the policy of its logits, backward from the gradient at its outputs, the optimisers. */
export class CoreNet {
  constructor(core: Core, layout: NetLayout);
  readonly count: number;
  readonly outputs: number;
  /** A sequence's state: a GRU's units, an LSTM's twice its units (h then c); 0: no recurrent layer. */
  readonly stateSize: number;
  readonly shapes: number[][];
  params(): Float32Array;
  grads(): Float32Array;
  moments(): Float32Array;
  adamSteps: number;
  init(seed: number): void;
  weights(): Array<{ shape: number[]; values: number[] }>;
  setWeights(weights: Array<{ values: ArrayLike<number> }>): void;
  /** The outputs of n rows of samples (rows: samples.rows, whose first n entries you set, or 0 for 0 … n − 1): n × outputs. */
  forward(samples: Samples, n: number, rows: number): Float32Array;
  /** The masked softmax of the last forward's first head: log π, π (n × actions; illegal actions −Infinity and 0) and the entropy (n). */
  policy(samples: Samples, n: number, rows: number): { logp: Float32Array; p: Float32Array; entropy: Float32Array };
  /** Where you write d loss / d outputs of the last forward's n rows (n × outputs). */
  outputGrad(n: number): Float32Array;
  /** Adds d loss / d params of the last forward's rows to the gradient, from outputGrad(n). */
  backward(samples: Samples, n: number, rows: number): void;
  /**
   * A recurrent network's outputs for T steps of B sequences (time-major: sample t × B + b is step t of sequence b),
   * T·B × outputs: each sequence from state (B × stateSize, default zeros), from zeros where starts[t × B + b] is 1;
   * each one's state after its last step into finalState (which may be state).
   */
  forwardSeq(
    samples: Samples,
    T: number,
    B: number,
    rows: number,
    options?: { starts?: Uint8Array | null; state?: Float32Array | null; finalState?: Float32Array | null },
  ): Float32Array;
  /** Adds d loss / d params of the last forwardSeq's steps (back through time within them), from outputGrad(T·B). */
  backwardSeq(samples: Samples, T: number, B: number, rows: number): void;
  zeroGrad(): void;
  addGrads(other: Float32Array): void;
  gradNorm(): number;
  scaleGrads(factor: number): void;
  adam(learningRate: number): void;
  sgd(learningRate: number): void;
  copyFrom(other: CoreNet): void;
  dispose(): void;
}
/** Sparse inputs (and legal masks) of samples, in the learner core's memory. */
export class Samples {
  constructor(core: Core, count: number, stride: number, options?: { actions?: number });
  static packed(core: Core, nnz: ArrayLike<number>, options?: { actions?: number }): Samples;
  static ring(core: Core, count: number, pairs: number, options?: { actions?: number }): Samples;
  static bytes(count: number, pairs: number, packed: boolean, actions?: number): number;
  readonly count: number;
  readonly stride: number;
  /** The rows a call reads (a pointer for forward, backward and policy); set them through views().rows. */
  readonly rows: number;
  views(): { idx: Int32Array; val: Float32Array; nnz: Int32Array; start: Uint32Array; rows: Int32Array; masks: Uint8Array };
  first(s: number): number;
  dispose(): void;
}
export function layoutShapes(layout: {
  inputs: number;
  hidden: number[];
  recurrent?: number;
  cell?: 'gru' | 'lstm';
  heads: number[];
}): number[][];
/** A shard's vector env as its network sees it (its features, memory and history), with each episode's actions so far. */
export class SeenEnvs {
  static create(env: EnvId, n: number, settings: { history?: number; memory?: number }, seed: number): Promise<SeenEnvs>;
  readonly n: number;
  readonly A: number;
  /** A sample's inputs, and the most of them that are not 0. */
  readonly width: number;
  readonly nonzero: number;
  /** The legal masks of the envs' current states (n × A, a copy). */
  readonly masks: Uint8Array;
  reset(seed: number): void;
  write(i: number, samples: Samples, row: number): void;
  inputSize(i: number): number;
  /** Whether env i's input now opens its episode (no action taken in it yet). */
  opening(i: number): boolean;
  step(actions: Int32Array): { rewards: Float64Array; terminated: Uint8Array; episodeReturns: Float64Array };
  state(): Array<{ seed: string; actions: number[] }>;
  restore(state: Array<{ seed: string; actions: number[] }>): void;
  close(): void;
}
/** A recurrent network's states through a rollout of T steps of n envs (rows t × n + i), and minibatches of whole env sequences. */
export class RolloutStates {
  constructor(net: CoreNet, n: number, T: number);
  /** Each env's state before its next step (n × stateSize). */
  readonly now: Float32Array;
  /** A rollout begins: its sequences start from the states now. */
  begin(): void;
  /** Every env's step t (rows t × n + i): its outputs, each env's state carried (from zero where its episode opens). */
  step(samples: Samples, t: number, envs: SeenEnvs): Float32Array;
  /** The outputs of rows [at, at + n) from the states now, which stay. */
  peek(samples: Samples, at: number, envs: SeenEnvs): Float32Array;
  /** Env i's episode ended (every env's, with no i): its next state starts from zero. */
  forget(i?: number): void;
  /** Envs order[from, from + B)'s whole sequences: their outputs (n = T·B × outputs) and rows, time-major. */
  forward(samples: Samples, order: Int32Array, from: number, B: number): { out: Float32Array; rows: Int32Array; n: number };
  /** Back through those sequences' steps, from the net's outputGrad. */
  backward(samples: Samples, B: number): void;
  save(): number[];
  restore(values: ArrayLike<number>): void;
}
/** RolloutStates's calls for a network without a recurrent layer: each step computed alone, a minibatch any samples. */
export class RolloutRows {
  constructor(net: CoreNet, n: number);
  begin(): void;
  step(samples: Samples, t: number): Float32Array;
  peek(samples: Samples, at: number): Float32Array;
  forget(i?: number): void;
  forward(samples: Samples, order: Int32Array, from: number, B: number): { out: Float32Array; rows: Int32Array; n: number };
  backward(samples: Samples, B: number): void;
  save(): undefined;
  restore(values?: unknown): void;
}
/** How a network goes through a rollout of T steps of n envs: RolloutStates with a recurrent layer, else RolloutRows. */
export function networkRollout(net: CoreNet, n: number, T: number): RolloutStates | RolloutRows;
export const ACT_MODES: readonly ['sample', 'greedy'];
export function networkLayout(
  env: EnvId,
  settings: { history?: number; memory?: number; hidden: number[]; recurrent?: number; lstm?: number },
  heads: 'logits' | 'q',
): NetLayout & { nonzero: number };
export class NetPolicy implements Policy {
  constructor(
    core: Core,
    env: EnvId,
    algo: Algo,
    net: CoreNet,
    config: Record<string, unknown>,
    options?: { heads?: 'logits' | 'q'; act?: 'sample' | 'greedy' },
  );
  readonly env: EnvId;
  readonly algo: Algo;
  act(observation: Observation, info?: { legal?: Uint8Array; step?: number; seed?: Seed }): number;
  reset(): void;
  toJSON(): Record<string, unknown>;
  dispose(): void;
}
export function checkNetPolicy(json: Record<string, unknown>, learner: LearnerDeclaration, heads: 'logits' | 'q'): void;
export function loadNetPolicy(json: Record<string, unknown>, heads: 'logits' | 'q'): Promise<NetPolicy>;
/** Throws unless a network of these settings has at most MAX_WEIGHTS weights. */
export function checkNetwork(env: EnvId, settings: Record<string, any>, heads: 'logits' | 'q', name: string): void;
/** What a learner's thread(ctx) is given (startThreads). */
export interface ThreadContext {
  env: EnvId;
  config: Record<string, unknown>;
  seed: number;
  /** This thread's shards: [first, end) of `shards`. */
  first: number;
  end: number;
  shards: number;
  thread: number;
  threads: number;
  /** The exchange of a network's gradients with the other threads: keep(shard) after each shard's backward, then sum(); sumNumbers for small sums. */
  exchange(net: CoreNet): {
    keep(shard: number): void;
    sum(options?: { maxNorm?: number }): Promise<number>;
    sumNumbers(mine: ArrayLike<number>[]): Promise<Float64Array>;
    close(): void;
  };
  note(message: unknown): void;
}
export interface Team {
  /** Thread 0's methods, in this thread (its network is the policy's). */
  local: Record<string, any>;
  threads: number;
  /** The method on every thread, in parallel; the results in thread order. */
  all(method: string, ...args: unknown[]): Promise<any[]>;
  onNote(fn: (note: unknown, thread: number) => void): void;
  dispose(): void;
}
export function startThreads(
  learner: LearnerDeclaration,
  args: Record<string, unknown>,
  options: { shards: number; threads: number },
): Promise<Team>;
export function shardEnvs(shard: number, shards: number, numEnvs: number): { from: number; n: number };
export function shardRandom(seed: number, shard: number): () => number;

// ---- a run (run.js): what every learner on the learner core does alike ----------------------

/** Chunk m of M of `count` things: [from, from + n). */
export function chunk(m: number, M: number, count: number): { from: number; n: number };
/** Minibatch m of M's samples when shard j's share is chunk m of its units(j) units of unitSize samples. */
export function minibatchSize(m: number, M: number, shards: number, units: (shard: number) => number, unitSize?: number): number;
/** A thread's learner core, network of networkLayout(env, config, heads) initialised from the seed, its exchange, and the env's actions A. */
export function threadNet(
  ctx: ThreadContext,
  heads: 'logits' | 'q',
): Promise<{ core: Core; net: CoreNet; ex: ReturnType<ThreadContext['exchange']>; A: number }>;
/** A thread's shards [ctx.first, ctx.end): { index, from, n, envs, random } and what more(shard) adds. */
export function makeShards<T extends object>(
  ctx: ThreadContext,
  more: (shard: { index: number; from: number; n: number; envs: SeenEnvs; random: () => number }) => T,
): Promise<Array<{ index: number; from: number; n: number; envs: SeenEnvs; random: () => number } & T>>;
/** A shard's rollout buffers of T steps of its n envs (rolloutBytes counts them). */
export function rolloutBuffers(core: Core, shard: { n: number; envs: SeenEnvs }, T: number, A: number): Record<string, any>;
/** share(s, j) adds each shard's share to the net's gradient (zeroed before each); summed over every shard, clipped to maxNorm (0: not), one Adam step; the norm before clipping. */
export function gradientStep(
  net: CoreNet,
  ex: ReturnType<ThreadContext['exchange']>,
  mine: Array<{ index: number }>,
  share: (shard: any, j: number) => void,
  learningRate: number,
  maxNorm?: number,
): Promise<number>;
/** Every shard's `advantages` made of mean 0 and deviation 1 over every shard of the run. */
export function normaliseAdvantages(ex: ReturnType<ThreadContext['exchange']>, mine: Array<{ advantages: Float32Array }>): Promise<void>;
/** A thread's part of a checkpoint: shardStates(), setShardStates(records), setWeights({ params, moments, adamSteps }). */
export function checkpointMethods(mine: unknown[], net: CoreNet): Record<string, (...args: any[]) => any>;
/** Frees a thread's shards (envs, and their parts that have dispose()), exchange and networks. */
export function closeThread(mine: unknown[], ex: { close(): void }, ...nets: CoreNet[]): void;
/** A run's start: settings with defaults, threads, stats, policy. */
export function startRun(
  learner: LearnerDeclaration,
  env: EnvId,
  config: Record<string, unknown>,
  seed: number,
  options?: { threads?: number; heads?: 'logits' | 'q' },
): Promise<Run>;
/** A run as its coordinator holds it. */
export class Run {
  readonly c: Record<string, any>;
  readonly team: Team;
  readonly stats: Record<string, any>;
  readonly policy: NetPolicy;
  /** The run as a learner's create() returns it: own's methods with config, progress, policy and dispose. */
  as<T extends object>(own: T): T & { config: Record<string, any>; progress(): Progress; policy(): NetPolicy; dispose(): void };
  progress(): Progress;
  /** call(left) until `steps` more env steps are made, or `until` (performance.now()) passes between calls. */
  trainSteps(steps: number, until: number | undefined, call: (left: number) => Promise<void>): Promise<Progress>;
  /** The threads' { returns, sums } of one call added to the stats; the sums' means by name (null if no samples). */
  addResults(results: Array<{ returns: number[][]; sums: ArrayLike<number>[] }>, names: string[]): Record<string, number> | null;
  /** The stats, weights, Adam's state and every shard's state, for a checkpoint. */
  save(): Promise<Record<string, any>>;
  /** Sets the threads and stats from a checkpoint's state; throws if `started`. */
  restore(state: Record<string, any>, started: boolean): Promise<void>;
}
/** Bytes of every shard's rollout of T steps. */
export function rolloutBytes(env: EnvId, settings: Record<string, any>, T: number): number;
/** Bytes of a run's networks on `threads` threads, with the activations of `rows` rows. */
export function networkBytes(layout: NetLayout, settings: Record<string, any>, threads: number, rows: number): number;
export function whole(min: number, max: number): SettingLimit;
export function number(min: number, max: number, options?: { aboveMin?: boolean }): SettingLimit;
export function layers(most: number, units: number): SettingLimit;
export function checkNetworkSize(shapes: number[][], name: string): void;
export function weightCount(shapes: number[][]): number;
export function trainingStats(): Record<string, any>;
export function recordEpisode(stats: Record<string, any>, ret: number): void;
export function progressOf(stats: Record<string, any>): Progress;
export function seededRandom(seed: number): (() => number) & { state(): number };
export function drawFrom(p: ArrayLike<number>, offset: number, n: number, random: () => number): number;
export function shuffle(order: { length: number; [k: number]: number }, random: () => number): void;
export const envSpecs: Readonly<Record<EnvId, any>>;
