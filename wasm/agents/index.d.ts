// Types of `valley-farm/agents`: the built-in agents, the engine's own (the page, the CLI and
// the Python package play the same).
import type { EnvId, Observation } from '../index.js';

/** Whatever an agent may be told besides the observation. */
export interface AgentInfo {
  /** The legal mask of the observation's state, when the caller has it. */
  legal?: Uint8Array;
  [key: string]: unknown;
}

/** An agent: its own memory (in engine memory), reset at the start of each episode. */
export interface Agent {
  readonly name: string;
  reset(): void;
  /** The action for an observation object, or a flat observation (an Int32Array of obsSize); throws for one no episode makes. */
  act(observation: Observation | Int32Array, info?: AgentInfo): number;
  /** The action for row `row` of flat observations (a vector env's). */
  actFlat(flat: ArrayLike<number>, row: number): number;
  /** Plays a whole episode of `seed` in the engine and returns its return. */
  play(seed: number): number;
  /** Frees its engine memory (also done when it is collected). */
  close(): void;
}

export const BUILT_IN: readonly ['heuristic', 'random'];

/**
 * A built-in agent by name; options.seed (an integer, its low 32 bits used) seeds the random
 * agent. Throws for an unknown name or env id, or a farm without that agent (envSpecs[id].agents).
 * Its first call needs the engine loaded (as any env that shows it an observation has).
 */
export function createAgent(name: 'heuristic' | 'random', envId: EnvId, options?: { seed?: number }): Agent;
/**
 * Each seed's return by a built-in agent, played in the engine; 'random' as the protocol scores it
 * (engineSpec.protocol.randomRuns plays a seed, the k-th seeded k, averaged) unless options.seed is given.
 */
export function builtInReturns(name: 'heuristic' | 'random', envId: EnvId, seeds: number[], options?: { seed?: number }): number[];

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
