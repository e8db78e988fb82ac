// agents/index.js — the baseline agents (`valley-farm/agents`), the same code the page runs.
// An agent is { name, reset(), act(observation, info) -> action id }: a function of what it
// observes, keeping its own memory. batchAgents runs one per env of a vector env.
//
//   import { createAgent, batchAgents } from 'valley-farm/agents';
//   const agent = createAgent('heuristic', 'ValleyFarm-v0');
//   agent.reset(); const action = agent.act(observation, info);
import { unflatten } from '../spaces.js';
import { specFor } from '../errors.js';
import { createRandomAgent } from './random.js';
import { createValleyHeuristic } from './valleyHeuristic.js';
import { createBackwardsHeuristic } from './backwardsHeuristic.js';

export const BUILT_IN = ['heuristic', 'random'];

// each heuristic names the farm it plays (its envId)
const HEURISTICS = new Map([createValleyHeuristic, createBackwardsHeuristic].map((create) => [create.envId, create]));

/** A built-in agent by name ('heuristic' or 'random'; options.seed seeds the random one). */
export function createAgent(name, envId, options = {}) {
  specFor(envId); // an unknown id throws, listing the env ids
  if (name === 'random') return createRandomAgent(envId, options);
  if (name === 'heuristic') {
    if (!HEURISTICS.has(envId)) throw new Error(`valley-farm: no heuristic plays ${envId} yet; the random agent does`);
    return HEURISTICS.get(envId)();
  }
  throw new Error(`No built-in agent '${String(name).slice(0, 60)}'; the built-in agents are ${BUILT_IN.join(', ')}`);
}

/** The most agents one batchAgents call makes: each keeps its own memory of the farm. */
export const BATCH_AGENTS_MAX = 4096;

/**
 * One agent per env of a vector env, as a batched policy: actBatch(observations, masks, terminated)
 * takes the vector env's flat observations (and, optionally, its masks and the last step's
 * terminated flags, so each agent is reset when its env starts a new episode) and returns
 * an Int32Array of actions. Each agent sees the observation object the single env would show
 * (unflatten) and info.legal, the row of the mask.
 */
export function batchAgents(name, envId, numEnvs, options = {}) {
  createAgent(name, envId); // an unknown name or env is refused before any agent is made
  if (!Number.isInteger(numEnvs) || numEnvs < 1 || numEnvs > BATCH_AGENTS_MAX)
    throw new RangeError(
      `valley-farm: batchAgents: numEnvs ${String(numEnvs).slice(0, 40)} is not allowed; it is a whole number from 1 to ${BATCH_AGENTS_MAX}`,
    );
  const agents = Array.from({ length: numEnvs }, (_, i) =>
    createAgent(name, envId, { ...options, seed: options.seed === undefined ? undefined : options.seed + i }),
  );
  for (const a of agents) a.reset();
  const actions = new Int32Array(numEnvs);
  return {
    name,
    agents,
    actBatch(observations, masks = null, terminated = null) {
      const n = masks ? masks.length / numEnvs : 0;
      for (let i = 0; i < numEnvs; i++) {
        if (terminated && terminated[i]) agents[i].reset();
        const info = masks ? { legal: masks.subarray(i * n, (i + 1) * n) } : {};
        actions[i] = agents[i].act(unflatten(envId, observations, i), info);
      }
      return actions;
    },
  };
}

export { createRandomAgent, createValleyHeuristic, createBackwardsHeuristic };
