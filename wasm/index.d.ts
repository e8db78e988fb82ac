// Type declarations for the valley-farm JS API (shared/spec/api.md).

export type EnvId = 'ValleyFarm-v0' | 'BackwardsValleyFarm-v0';

/** The env ids, in kind order. */
export const envIds: readonly ['ValleyFarm-v0', 'BackwardsValleyFarm-v0'];

/**
 * A seed: an integer 0 … 2^53 − 1, or a BigInt 0n … 2^64 − 1. The same seed gives the same
 * layout, values and trajectory in every browser, in Node and in the native C build.
 */
export type Seed = number | bigint;

// ---- descriptions ------------------------------------------------------------------------

export interface Box {
  shape: number[];
  min: number;
  max: number;
}

export interface TileSpec {
  code: number;
  name: string;
  walkable: boolean;
  /** Backwards farm: the meaning of each status value on this tile. */
  status?: readonly string[];
}

export interface FlatField {
  name: string;
  offset: number;
  length: number;
}

export interface EnvSpec {
  id: EnvId;
  kind: 0 | 1;
  width: number;
  height: number;
  horizon: number;
  /** Length of the flat observation of vector envs: 37 or 55. */
  obsSize: number;
  actions: readonly string[];
  tiles: readonly TileSpec[];
  observation: ValleyObservationSpace | BackwardsObservationSpace;
  /** Named fields of the flat observation. */
  layout: readonly FlatField[];
  species?: readonly string[];
  moods?: readonly string[];
  facings?: readonly string[];
}

/** Plain data about both farms, usable before any env is made. */
export const envSpecs: Readonly<Record<EnvId, EnvSpec>>;

export interface ActionSpace {
  /** 12 (valley) or 11 (backwards). */
  n: number;
  names: readonly string[];
}

export interface ValleyObservationSpace {
  view: Box;
  center: Box;
  inventory: Record<keyof Inventory, Box>;
  relationships: Box;
  stepsLeft: Box;
}

export interface BackwardsObservationSpace {
  terrain: Box;
  status: Box;
  x: Box;
  y: Box;
  facing: Box;
  stepsLeft: Box;
  farmValue: Box;
}

// ---- observations ------------------------------------------------------------------------

export interface Inventory {
  seeds: number;
  water: number;
  crops: number;
  feed: number;
  products: number;
  coins: number;
  gifts: number;
}

export interface ValleyObservation {
  /** 25 tile codes, the 5 × 5 square around the agent, north row first; [12] is under the agent. */
  view: number[];
  /** Crop stage 0..3 on soil, 1 if the animal is sated, villager mood 0..2, else 0. */
  center: number;
  inventory: Inventory;
  /** The three relationships rounded to the nearest multiple of 5 (halves up). */
  relationships: [number, number, number];
  stepsLeft: number;
}

export interface BackwardsObservation {
  terrain: number[];
  status: number[];
  x: number;
  y: number;
  /** 0 north, 1 south, 2 east, 3 west. */
  facing: number;
  stepsLeft: number;
  farmValue: number;
}

export type Observation = ValleyObservation | BackwardsObservation;

export interface ResetInfo {
  /** Actions taken this episode. */
  step: number;
  /** The seed this episode was reset with. */
  seed: Seed;
}

export interface StepInfo extends ResetInfo {
  /** False when the action changed nothing but the clock (it was played as a wait). */
  actionWasLegal: boolean;
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

export interface Env<O = Observation, S = ValleyState | BackwardsState> {
  readonly id: EnvId;
  readonly actionSpace: ActionSpace;
  readonly observationSpace: ValleyObservationSpace | BackwardsObservationSpace;
  /** Starts an episode; without a seed, a random one (reported in info.seed). */
  reset(options?: { seed?: Seed }): ResetResult<O>;
  /**
   * Plays one action (an integer 0 … n − 1). Throws RangeError/TypeError for a bad action
   * and Error ("call reset()") before the first reset or after the episode terminated;
   * a throw leaves the env exactly as it was.
   */
  step(action: number): StepResult<O>;
  /** 1 where the action is legal now. */
  legalActions(): Uint8Array;
  /** The full hidden state as plain JSON-serialisable data; a fresh object each call. */
  state(): S;
  /** The complete state as bytes. */
  snapshot(): Uint8Array;
  /** Puts the env back into a snapshot's state (of the same env id); throws and changes nothing otherwise. */
  restore(bytes: Uint8Array): void;
  /** A text picture of the full map. */
  render(): string;
  /** Frees the engine's memory; every later call throws. */
  close(): void;
}

export function make(id: 'ValleyFarm-v0'): Promise<Env<ValleyObservation, ValleyState>>;
export function make(id: 'BackwardsValleyFarm-v0'): Promise<Env<BackwardsObservation, BackwardsState>>;
export function make(id: EnvId): Promise<Env>;

export interface VecStepResult {
  /** numEnvs × obsSize integers, env i at i × obsSize (the flat layout of envSpecs[id].layout). */
  observations: Int32Array;
  rewards: Float64Array;
  terminated: Uint8Array;
  /** Always zeros. */
  truncated: Uint8Array;
}

/**
 * numEnvs envs stepped together in one call into the engine. Returned arrays are views into
 * the engine's memory, reused by every call: the next reset()/step() overwrites them.
 */
export interface VecEnv {
  readonly id: EnvId;
  readonly numEnvs: number;
  /** 37 or 55. */
  readonly obsSize: number;
  readonly actionSpace: ActionSpace;
  readonly observationSpace: ValleyObservationSpace | BackwardsObservationSpace;
  /** Resets env i with seed + i (default: a random seed). */
  reset(seed?: Seed): { observations: Int32Array };
  /**
   * Steps env i with actions[i]. An env that terminates is reset within the same call with
   * its previous episode's seed + numEnvs (env i's k-th episode has seed + i + k × numEnvs);
   * its observation is then the first of its next episode.
   */
  step(actions: Int32Array | ArrayLike<number>): VecStepResult;
  close(): void;
}

/** numEnvs: an integer 1 … 65536. */
export function makeVec(id: EnvId, numEnvs: number): Promise<VecEnv>;

/** For benchmarks: run(steps) plays `steps` rounds of random actions on numEnvs envs inside the engine (one call) and returns the summed reward. */
export function makeRandomRunner(id: EnvId, numEnvs: number, seed?: number): Promise<{ run(steps: number): number; close(): void }>;

/** The engine's WebAssembly memory size in bytes. */
export function engineMemoryBytes(): Promise<number>;
