// agents/index.js — the built-in agents by name. An agent is { name, reset(), act(observation,
// info) -> action id }: a function of what it observes, keeping its own memory.
import { createRandomAgent } from './random.js';
import { createValleyHeuristic } from './valleyHeuristic.js';
import { createBackwardsHeuristic } from './backwardsHeuristic.js';

export const BUILT_IN = ['heuristic', 'random'];

export function createAgent(name, envId, options = {}) {
  if (name === 'random') return createRandomAgent(envId, options);
  if (name === 'heuristic') return envId === 'ValleyFarm-v0' ? createValleyHeuristic() : createBackwardsHeuristic();
  throw new Error(`No built-in agent '${name}'; the built-in agents are ${BUILT_IN.join(', ')}`);
}

export { createRandomAgent, createValleyHeuristic, createBackwardsHeuristic };
