// Types of `valley-farm/evaluate`: the evaluation protocol.
import type { EnvId, Observation } from './index.js';

/** An agent as the page runs it; info carries the legal mask as `legal`. */
export interface EvalAgent {
  act(observation: Observation, info: Record<string, unknown> & { legal: Uint8Array }): number | string | Promise<number | string>;
  reset?(): void | Promise<void>;
}
/** A batched policy over a vector env's flat observations; terminated is null on the first call. */
export interface BatchedPolicy {
  actBatch(observations: Int32Array, masks: Uint8Array, terminated: Uint8Array | null): ArrayLike<number> | Promise<ArrayLike<number>>;
}
export interface EvalOptions {
  env: EnvId;
  /** Default 'test'. */
  split?: 'test' | 'validation';
  seeds?: number[];
  /** Only the first `episodes` seeds. */
  episodes?: number;
  /** Envs of the vector env a batched policy runs on (default 64). */
  numEnvs?: number;
  /** A built-in random agent named by string is one agent seeded so, playing the seeds in turn, instead of the protocol's runs. */
  seed?: number;
}
export interface EvalResult {
  env: EnvId;
  seeds: number[];
  returns: number[];
  mean: number;
  stderr: number;
  ci95: [number, number];
  /** Where every seed has reference data (the test and validation splits). */
  normalized?: { mean: number; perSeed: number[] };
  reference?: { random: number; heuristic: number; bestKnown: number };
}
/** agent: an agent, a batched policy, or a built-in agent's name (played in the engine; 'random' scored as the protocol's runs per seed). */
export function evaluate(agent: EvalAgent | BatchedPolicy | 'heuristic' | 'random', options: EvalOptions): Promise<EvalResult>;
export function summarize(values: number[]): { mean: number; stderr: number; ci95: [number, number] };
/** (ret − random) / (best − random); where best ≤ random: 1 if ret ≥ best, else 0. */
export function normalizedScore(ret: number, random: number, best: number): number;
export function referenceBySeed(
  env: EnvId,
): Promise<Map<number, { best: number; bound: number; plan: string; random: number; heuristic: number }>>;

// Statistics over training runs (wasm/aggregate.js): rliable's definitions. A score matrix is
// scores[run][task] (a task is a farm); a plain array of numbers is one task.
export type Scores = number[] | number[][];
/** A statistic with its 95 % stratified bootstrap interval (percentile method). */
export interface Interval {
  estimate: number;
  low: number;
  high: number;
}
export interface BootstrapOptions {
  /** Bootstrap replicates (default BOOTSTRAP_REPS, 50,000; PROFILE_REPS, 2,000, for profiles). */
  reps?: number;
  /** Seeds the resampling: the same seed gives the same interval (default 1). */
  seed?: number;
}
export const BOOTSTRAP_REPS: number;
export const PROFILE_REPS: number;
/** The mean over tasks of each task's mean over runs. */
export function aggregateMean(scores: Scores): number;
/** The median over tasks of each task's mean over runs. */
export function aggregateMedian(scores: Scores): number;
/** The interquartile mean of all runs × tasks (floor(n / 4) cut from each end, as scipy's trim_mean). */
export function aggregateIqm(scores: Scores): number;
/** gamma − mean(min(score, gamma)) over all runs × tasks (gamma default 1). */
export function optimalityGap(scores: Scores, gamma?: number): number;
/** Per task P(X > Y) + ½ P(X = Y) over all pairs of runs, averaged over tasks. */
export function probabilityOfImprovement(x: Scores, y: Scores): number;
/** For each τ, the fraction of all runs × tasks scoring above τ. */
export function scoreDistribution(scores: Scores, taus: number[]): number[];
/** The q-th percentile (0 … 100) of sorted values, interpolated linearly (NumPy's default). */
export function percentile(sorted: ArrayLike<number>, q: number): number;
export function stratifiedBootstrap(
  statistic: (...matrices: number[][][]) => number | number[],
  matrices: Scores[],
  options?: BootstrapOptions & { size?: number },
): { estimate: number | number[]; low: number | number[]; high: number | number[] };
export function aggregates(
  scores: Scores,
  options?: BootstrapOptions & { gamma?: number },
): { runs: number; tasks: number; mean: Interval; median: Interval; iqm: Interval; optimalityGap: Interval };
export function improvement(x: Scores, y: Scores, options?: BootstrapOptions): Interval;
export function performanceProfile(
  scores: Scores,
  taus: number[],
  options?: BootstrapOptions,
): { taus: number[]; fraction: number[]; low: number[]; high: number[] };
