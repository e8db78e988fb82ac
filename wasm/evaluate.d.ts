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
