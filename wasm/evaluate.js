// evaluate.js — the evaluation protocol (`valley-farm/evaluate`; docs: #/docs/benchmark).
//
//   import { evaluate } from 'valley-farm/evaluate';
//   const r = await evaluate(agent, { env: 'ValleyFarm-v0', split: 'test' });
//   r.mean, r.stderr, r.ci95, r.normalized, r.returns
//   aggregates(runScores)   // over training runs: IQM, optimality gap, … with intervals (aggregate.js)
//
// An agent is what the page runs: { act(observation, info), reset?() } (info carries
// `legal`, the legal mask), a batched policy { actBatch(observations, masks, terminated) }
// over the flat observations of a vector env (wasm/agents batchAgents makes one), or a
// built-in agent's name ('heuristic', 'random': played in the engine, the random agent scored
// as the protocol says, engineSpec.protocol.randomRuns seeded plays a seed, as in Python). The
// protocol owns the envs: the agent gets observations only, and nothing it returns but an
// action is ever used (no snapshot or state of an agent's is accepted).
//
// Normalised score: per seed, (return − random) / (best known − random), where random is
// the mean return of the uniformly random agent on that seed (16 seeded runs) and best known
// is the planner's (wasm/data/best-known.json); 0 is random play, 1 the best known play, and
// an agent may score above 1 or below 0. Where the best known return does not exceed the
// random one there is no room to score, and the seed counts 1 when the return reaches the
// best known one, else 0. The score is the mean over the seeds.
import { envSpecs, loadEngine, make, makeVec } from './index.js';
import { splitSeeds } from './splits.js';
import { builtInReturns } from './agents/index.js';

// statistics over several training runs' scores (rliable's aggregates, intervals, profiles)
export {
  BOOTSTRAP_REPS,
  PROFILE_REPS,
  aggregateIqm,
  aggregateMean,
  aggregateMedian,
  aggregates,
  improvement,
  optimalityGap,
  percentile,
  performanceProfile,
  probabilityOfImprovement,
  scoreDistribution,
  stratifiedBootstrap,
} from './aggregate.js';

const MAX_EPISODES = 100_000;

let dataPromise = null;
/** The committed reference data: { bestKnown, baselines } (loaded once, lazily). */
export function referenceData() {
  dataPromise ??= Promise.all([
    import('./data/best-known.json', { with: { type: 'json' } }),
    import('./data/baselines.json', { with: { type: 'json' } }),
  ]).then(([best, base]) => ({ bestKnown: best.default, baselines: base.default }));
  return dataPromise;
}

/** Per-seed reference returns of an env: Map seed -> { best, bound, plan, random, heuristic }. */
export async function referenceBySeed(env) {
  const { bestKnown, baselines } = await referenceData();
  const out = new Map();
  for (const rows of Object.values(bestKnown.envs[env] ?? {})) {
    for (const [seed, best, bound, plan] of rows) out.set(seed, { best, bound, plan });
  }
  for (const rows of Object.values(baselines.perSeed?.[env] ?? {})) {
    for (const [seed, random, heuristic] of rows) Object.assign(out.get(seed) ?? out.set(seed, {}).get(seed), { random, heuristic });
  }
  return out;
}

/** mean, standard error and a 95 % interval (normal approximation) of numbers. */
export function summarize(values) {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const variance = n > 1 ? values.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1) : 0;
  const stderr = Math.sqrt(variance / n);
  return { mean, stderr, ci95: [mean - 1.96 * stderr, mean + 1.96 * stderr] };
}

/** The normalised score of one seed (see the file comment for ties and empty room). */
export function normalizedScore(ret, random, best) {
  if (!(best > random)) return ret >= best ? 1 : 0;
  return (ret - random) / (best - random);
}

function seedsOf(env, { split, seeds, episodes }) {
  if (split !== undefined && seeds !== undefined) throw new TypeError('valley-farm: evaluate takes a split or seeds, not both');
  let list = seeds !== undefined ? seeds : splitSeeds(split ?? 'test');
  if (!Array.isArray(list) || list.length === 0) throw new TypeError('valley-farm: evaluate: seeds must be a non-empty array of seeds');
  for (const s of list) {
    if (!Number.isSafeInteger(s) || s < 0)
      throw new RangeError(`valley-farm: evaluate: seed ${String(s).slice(0, 30)} is not an integer from 0 to 2^53 - 1`);
  }
  if (episodes !== undefined) {
    if (!Number.isInteger(episodes) || episodes < 1 || episodes > MAX_EPISODES)
      throw new RangeError(`valley-farm: evaluate: episodes must be an integer from 1 to ${MAX_EPISODES}`);
    list = list.slice(0, episodes);
  }
  if (!Object.hasOwn(envSpecs, env))
    throw new Error(
      `valley-farm: evaluate: unknown env ${JSON.stringify(String(env).slice(0, 40))}; the env ids are ${Object.keys(envSpecs).join(', ')}`,
    );
  return list;
}

function actionOf(spec, value, seed, step) {
  const a = typeof value === 'string' ? spec.actions.indexOf(value) : value;
  if (Number.isInteger(a) && a >= 0 && a < spec.actions.length) return a;
  const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : String(value).slice(0, 40);
  throw new Error(
    `valley-farm: evaluate: on seed ${seed}, step ${step}, act() returned ${shown}; it must return an integer 0 … ${spec.actions.length - 1} or an action name`,
  );
}

async function runSingle(agent, env, seeds) {
  const spec = envSpecs[env];
  const e = await make(env);
  const returns = [];
  try {
    for (const seed of seeds) {
      let { observation, info } = e.reset({ seed });
      const r0 = agent.reset?.();
      if (r0 && typeof r0.then === 'function') await r0;
      let total = 0;
      for (let step = 0; ; step++) {
        let a = agent.act(observation, { ...info, legal: e.legalActions() });
        if (a && typeof a.then === 'function') a = await a;
        const r = e.step(actionOf(spec, a, seed, step));
        total += r.reward;
        if (r.terminated || r.truncated) break;
        ({ observation, info } = r);
      }
      returns.push(total);
    }
  } finally {
    e.close();
  }
  return returns;
}

async function runBatched(agent, env, seeds, numEnvs) {
  const spec = envSpecs[env];
  const n = Math.min(numEnvs, seeds.length);
  // a fixed level list: env i plays seeds i, i + n, i + 2n, ... in turn
  const vec = await makeVec(env, n, { levels: seeds });
  const bySeed = new Map();
  const played = new Array(n).fill(0); // episodes env i finished
  const wanted = Array.from({ length: n }, (_, i) => Math.ceil((seeds.length - i) / n));
  let r = vec.reset();
  let terminated = null;
  try {
    for (let step = 0; played.some((k, i) => k < wanted[i]); step++) {
      const actions = await agent.actBatch(r.observations, r.masks, terminated);
      if (!(actions?.length === n)) throw new Error(`valley-farm: evaluate: actBatch returned ${actions?.length} actions for ${n} envs`);
      for (let i = 0; i < n; i++) actionOf(spec, actions[i], vec.episodeSeed(i), step);
      r = vec.step(actions);
      for (let i = 0; i < n; i++) {
        if (!r.terminated[i] || played[i] >= wanted[i]) continue;
        played[i]++;
        bySeed.set(Number(r.episodeSeeds[i]), r.episodeReturns[i]);
      }
      terminated = r.terminated;
    }
  } finally {
    vec.close();
  }
  return seeds.map((s) => bySeed.get(s));
}

/**
 * Runs `agent` once on each seed of the split (default 'test') or the given seeds (the
 * first `episodes` of them, if given) and returns { env, seeds, returns, mean, stderr,
 * ci95, normalized: { mean, perSeed }, reference: { random, heuristic, bestKnown } } —
 * normalized and reference where the seeds have reference data (test and validation).
 * `seed`: a built-in random agent named by string is one agent seeded so, playing the seeds
 * in turn (its draws going on, as an agent object's would), instead of the protocol's runs.
 */
export async function evaluate(agent, { env, split, seeds, episodes, numEnvs = 64, seed } = {}) {
  const list = seedsOf(env, { split, seeds, episodes });
  let returns;
  if (typeof agent === 'string') {
    await loadEngine();
    returns = builtInReturns(agent, env, list, { seed });
  } else if (agent && typeof agent.actBatch === 'function') returns = await runBatched(agent, env, list, numEnvs);
  else if (agent && typeof agent.act === 'function') returns = await runSingle(agent, env, list);
  else
    throw new TypeError(
      "valley-farm: evaluate takes an agent { act(observation, info), reset?() }, a batched policy { actBatch(observations, masks, terminated) } or a built-in agent's name ('heuristic', 'random')",
    );
  const ref = await referenceBySeed(env);
  const known = list.every((s) => ref.get(s)?.best !== undefined && ref.get(s)?.random !== undefined);
  const result = { env, seeds: list, returns, ...summarize(returns) };
  if (known) {
    const perSeed = list.map((s, i) => normalizedScore(returns[i], ref.get(s).random, ref.get(s).best));
    result.normalized = { mean: perSeed.reduce((a, b) => a + b, 0) / perSeed.length, perSeed };
    const mean = (key) => list.reduce((a, s) => a + ref.get(s)[key], 0) / list.length;
    result.reference = { random: mean('random'), heuristic: mean('heuristic'), bestKnown: mean('best') };
  }
  return result;
}
