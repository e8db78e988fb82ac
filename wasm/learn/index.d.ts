// Types of `valley-farm/learn`: learners in Node and in a Web Worker.
import type { EnvId, Observation } from '../index.js';

export interface Progress {
  steps: number;
  updates: number;
  episodes: number;
  /** Mean return of the last 100 training episodes; null before the first ends. */
  meanReturn: number | null;
  stepsPerSec: number;
  /** Algorithm-specific: ppo { policy, value, entropy }, tabular-q { tdError, states }. */
  losses: Record<string, number>;
  elapsedMs: number;
}
export interface Policy {
  readonly env: EnvId;
  readonly algo: 'tabular-q' | 'ppo';
  /** The policy's action (greedy; masked by info.legal when given). */
  act(observation: Observation, info?: { legal?: Uint8Array }): number;
  /** Plain JSON: { format: 'valley-farm-policy', version: 1, env, algo, config, ... }. */
  toJSON(): Record<string, unknown>;
}
export interface Learner {
  readonly env: EnvId;
  readonly algo: 'tabular-q' | 'ppo';
  /** Resolved settings (plain JSON). */
  readonly config: Record<string, unknown>;
  /** Trains at least `steps` env steps (whole rollouts). */
  trainFor(steps: number): Promise<Progress>;
  progress(): Progress;
  policy(): Policy;
  dispose(): void;
}
export const algorithms: Readonly<
  Record<'tabular-q' | 'ppo', { defaults: Readonly<Record<string, number | number[]>>; docs: Readonly<Record<string, string>> }>
>;
export function createLearner(options: {
  env: EnvId;
  algo?: 'tabular-q' | 'ppo';
  seed?: number;
  [setting: string]: unknown;
}): Promise<Learner>;
export function loadPolicy(json: unknown): Promise<Policy>;
