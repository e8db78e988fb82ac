// agents/index.js — the built-in agents (`valley-farm/agents`), the engine's own (vf_agent:
// core/src/agents.c, the same agents the Python package and the page play). An agent is
// { name, reset(), act(observation, info) -> action id }: a function of what it observes,
// keeping its own memory (in engine memory). batchAgents runs one per env of a vector env.
//
//   import { createAgent, batchAgents } from 'valley-farm/agents';
//   const agent = createAgent('heuristic', 'ValleyFarm-v0'); // after the engine is loaded (any make())
//   agent.reset(); const action = agent.act(observation, info);
//
// The agents: 'random' (every farm: a uniformly random action a step, seeded) and 'heuristic'
// (each farm the engine has one for: envSpecs[id].agents lists a farm's).
import { engineSpec } from '../specs.js';
import { flatten } from '../spaces.js';
import { describe, specFor } from '../errors.js';
import { loadedEngine } from '../engine.js';

export const BUILT_IN = ['heuristic', 'random'];

const { layouts: LAYOUTS } = engineSpec;
const align8 = (n) => (n + 7) & ~7;

/** Checks a built-in agent's name and farm; returns its vf_agent_kind. */
function agentKind(name, spec) {
  const kind = engineSpec.agents.indexOf(name);
  if (kind < 0) throw new Error(`No built-in agent '${String(name).slice(0, 60)}'; the built-in agents are ${BUILT_IN.join(', ')}`);
  if (!spec.agents.includes(name)) throw new Error(`valley-farm: no ${name} agent plays ${spec.id} yet; it has ${spec.agents.join(', ')}`);
  return kind;
}

function seedOf(seed) {
  if (seed === undefined) return (Math.random() * 2 ** 32) >>> 0;
  if (!Number.isSafeInteger(seed) || seed < 0)
    throw new RangeError(`valley-farm: an agent's seed is an integer from 0 to 2^53 - 1 (its low 32 bits seed it), got ${describe(seed)}`);
  return seed >>> 0;
}

class BuiltInAgent {
  #engine = null; // bound at the first call (by then an env has loaded the engine)
  #spec;
  #kind;
  #seed;
  #ptr = 0; // [vf_agent][obs]
  #obs;
  #flat;
  #closed = false;

  constructor(spec, name, kind, seed) {
    this.#spec = spec;
    this.#kind = kind;
    this.#seed = seed;
    this.name = name;
  }

  /** The agent made afresh, its random generator seeded with `seed` (a 32-bit integer). */
  reseed(seed) {
    this.#seed = seed;
    this.#engine?.x.vfw_agent_init(this.#live(), this.#spec.kind, this.#kind, seed);
  }

  /** A new episode (also noticed at an observation with every step left). */
  reset() {
    const ptr = this.#live();
    this.#engine.x.vf_agent_reset(ptr);
  }

  /** The action for an observation object (the single env's), or a flat one (an Int32Array of obsSize). */
  act(observation) {
    const size = this.#spec.obsSize;
    const flat =
      observation instanceof Int32Array && observation.length === size
        ? observation
        : flatten(this.#spec.id, observation, (this.#flat ??= new Int32Array(size)));
    return this.actFlat(flat, 0);
  }

  /** The action for row `row` of flat observations (a vector env's). */
  actFlat(flat, row) {
    const ptr = this.#live();
    const e = this.#engine;
    const size = this.#spec.obsSize;
    e.refresh();
    let at;
    if (flat instanceof Int32Array && flat.buffer === e.buffer) at = flat.byteOffset + row * size * 4;
    else {
      at = this.#obs;
      for (let j = 0, o = at >> 2, from = row * size; j < size; j++) e.i32[o + j] = flat[from + j];
    }
    const a = e.x.vf_agent_act(ptr, at);
    if (a < 0)
      throw new RangeError(
        `valley-farm: the ${this.name} agent was shown an observation no ${this.#spec.id} episode makes (a value outside its field's bounds)`,
      );
    return a;
  }

  /** Plays a whole episode of `seed` in the engine (vf_agent_play) and returns its return. */
  play(seed) {
    const ptr = this.#live();
    return this.#engine.x.vfw_agent_play(ptr, seed % 2 ** 32, Math.floor(seed / 2 ** 32));
  }

  /** Frees its engine memory (also done when it is collected). */
  close() {
    if (this.#ptr !== 0) this.#ptr = this.#engine.release(this, this.#ptr);
    this.#closed = true;
  }

  /** Its block in engine memory, made at the first call. */
  #live() {
    if (this.#closed) throw new Error(`valley-farm: this ${this.name} agent is closed`);
    if (this.#ptr) return this.#ptr;
    const e = (this.#engine = loadedEngine(`the ${this.name} agent`));
    this.#ptr = e.alloc(align8(LAYOUTS.agent.bytes) + this.#spec.obsSize * 4);
    this.#obs = this.#ptr + align8(LAYOUTS.agent.bytes);
    e.registry.register(this, this.#ptr, this);
    e.x.vfw_agent_init(this.#ptr, this.#spec.kind, this.#kind, this.#seed);
    return this.#ptr;
  }
}

/**
 * A built-in agent by name ('heuristic' or 'random'; options.seed seeds the random one, an
 * integer, its low 32 bits used). It lives in the engine, which its first call needs loaded
 * (as any env that shows it an observation has).
 */
export function createAgent(name, envId, options = {}) {
  const spec = specFor(envId); // an unknown id throws, listing the env ids
  return new BuiltInAgent(spec, name, agentKind(name, spec), seedOf(options.seed));
}

/**
 * Each seed's return by a built-in agent, every episode played in the engine (vf_agent_play).
 * The random agent is scored as the protocol says (engineSpec.protocol.randomRuns plays of a
 * seed, the k-th by a fresh agent seeded k, and their mean), unless options.seed is given: then
 * one agent seeded so plays each seed once, in turn, its draws going on (as an agent object
 * would). What evaluate() does with an agent's name.
 */
export function builtInReturns(name, envId, seeds, options = {}) {
  const spec = specFor(envId);
  const kind = agentKind(name, spec);
  const runs = name === 'random' && options.seed === undefined ? engineSpec.protocol.randomRuns : 1;
  const seed = runs > 1 ? 1 : seedOf(options.seed);
  const agent = new BuiltInAgent(spec, name, kind, seed);
  try {
    return seeds.map((s) => {
      let sum = 0;
      for (let k = 0; k < runs; k++) {
        if (runs > 1) agent.reseed(seed + k); // each play by a fresh agent: the k-th seeded k (the protocol's runs)
        sum += agent.play(s);
      }
      return sum / runs;
    });
  } finally {
    agent.close();
  }
}

/** The most agents one batchAgents call makes: each keeps its own memory of the farm. */
export const BATCH_AGENTS_MAX = 4096;

/**
 * One agent per env of a vector env, as a batched policy: actBatch(observations, masks, terminated)
 * takes the vector env's flat observations (and, optionally, its masks and the last step's
 * terminated flags, so each agent is reset when its env starts a new episode) and returns
 * an Int32Array of actions.
 */
export function batchAgents(name, envId, numEnvs, options = {}) {
  const spec = specFor(envId);
  agentKind(name, spec); // an unknown name or env is refused before any agent is made
  if (!Number.isInteger(numEnvs) || numEnvs < 1 || numEnvs > BATCH_AGENTS_MAX)
    throw new RangeError(
      `valley-farm: batchAgents: numEnvs ${String(numEnvs).slice(0, 40)} is not allowed; it is a whole number from 1 to ${BATCH_AGENTS_MAX}`,
    );
  const agents = Array.from({ length: numEnvs }, (_, i) =>
    createAgent(name, envId, { ...options, seed: options.seed === undefined ? undefined : options.seed + i }),
  );
  const actions = new Int32Array(numEnvs);
  return {
    name,
    agents,
    actBatch(observations, masks = null, terminated = null) {
      for (let i = 0; i < numEnvs; i++) {
        if (terminated && terminated[i]) agents[i].reset();
        actions[i] = agents[i].actFlat(observations, i);
      }
      return actions;
    },
  };
}
