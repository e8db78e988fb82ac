// Types of `valley-farm/agents`: the baseline agents the page runs.
import type { EnvId, Observation } from '../index.js';

/** Whatever an agent may be told besides the observation. */
export interface AgentInfo {
  /** The legal mask of the observation's state, when the caller has it. */
  legal?: Uint8Array;
  [key: string]: unknown;
}

/** An agent: its own memory, reset at the start of each episode. */
export interface Agent {
  readonly name: string;
  reset(): void;
  act(observation: Observation, info?: AgentInfo): number;
}

export const BUILT_IN: readonly ['heuristic', 'random'];

/** A built-in agent by name; options.seed seeds the random agent. Throws for an unknown name or env id. */
export function createAgent(name: 'heuristic' | 'random', envId: EnvId, options?: { seed?: number }): Agent;
export function createRandomAgent(envId: EnvId, options?: { seed?: number }): Agent;
export function createValleyHeuristic(): Agent;
export function createBackwardsHeuristic(): Agent;

/** One agent per env of a vector env, as a batched policy over flat observations. */
export interface BatchAgents {
  readonly name: string;
  readonly agents: readonly Agent[];
  /** Actions for every env (a reused Int32Array); resets agent i where terminated[i]. */
  actBatch(observations: Int32Array, masks?: Uint8Array | null, terminated?: Uint8Array | null): Int32Array;
}
/** The most agents one batchAgents call makes (4096). */
export const BATCH_AGENTS_MAX: number;
/** numEnvs: a whole number from 1 to BATCH_AGENTS_MAX; anything else throws a RangeError saying so. */
export function batchAgents(name: 'heuristic' | 'random', envId: EnvId, numEnvs: number, options?: { seed?: number }): BatchAgents;
