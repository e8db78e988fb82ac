// par.js — a par for every map: the best-known return on the seed in play, the heuristic's
// return on it, the plan that earns the par (to watch), and the visitor's personal best.
//
// The evaluation protocol's seeds (test and validation) read the committed data
// (wasm/data/best-known.json and baselines.json, loaded when first needed); any other seed is
// planned by the engine's planner (env.plan, the same search at the same width, and proven
// where the data's plans were) in a Worker,
// and the heuristic is played on it here, which takes a millisecond.
import { createAgent } from 'valley-farm/agents';
import { splitOf } from 'valley-farm/splits';
import { defaultStorage } from './storage.js';

let storedData = null; // Promise<{ width, plans: Map, heuristic: Map }>, keyed `${envId} ${seed}`

function loadStored() {
  storedData ??= Promise.all([import('../../../wasm/data/best-known.json'), import('../../../wasm/data/baselines.json')]).then(
    ([{ default: best }, { default: baselines }]) => {
      const plans = new Map();
      const heuristic = new Map();
      for (const [envId, splits] of Object.entries(best.envs))
        for (const rows of Object.values(splits))
          for (const [seed, ret, bound, hex] of rows)
            plans.set(`${envId} ${seed}`, { best: ret, bound, actions: [...hex].map((c) => parseInt(c, 36)) });
      for (const [envId, splits] of Object.entries(baselines.perSeed))
        for (const rows of Object.values(splits)) for (const [seed, , h] of rows) heuristic.set(`${envId} ${seed}`, h);
      return { planner: best.planner, plans, heuristic };
    },
  );
  return storedData;
}

/** The planner's settings for a farm's seeds outside the data, as its data were made:
 * { width, prove } (env.plan's options). */
export async function planSettings(envId) {
  const { planner } = await loadStored();
  return { width: planner.width[envId], prove: planner.prove?.[envId] === true };
}

/** The committed par of a protocol seed: { best, bound, actions, heuristic }, or null. */
export async function storedPar(envId, seed) {
  // the data hold the protocol's named splits only: any other map needs no download to know
  // it has no stored par (a random map, the first one a visitor sees, loads nothing on arrival)
  if (splitOf(seed) === 'train') return null;
  const { plans, heuristic } = await loadStored();
  const key = `${envId} ${seed}`;
  const plan = plans.get(key);
  return plan ? { ...plan, heuristic: heuristic.get(key) ?? null } : null;
}

/** The heuristic's return on a seed, played on `env` (a spare env of envId). */
export function heuristicReturn(env, envId, seed) {
  const agent = createAgent('heuristic', envId);
  agent.reset();
  let { observation, info } = env.reset({ seed });
  let ret = 0;
  for (;;) {
    const r = env.step(agent.act(observation, info));
    ret += r.reward;
    if (r.terminated || r.truncated) return Math.round(ret * 100) / 100;
    ({ observation, info } = r);
  }
}

/**
 * The default planner for seeds outside the data: a module Worker (planWorker.js) per request,
 * terminated when it answers or when `signal` aborts (the plan then rejects).
 */
export function planInWorker(envId, seed, { width, prove }, { signal } = {}) {
  if (signal?.aborted) return Promise.reject(new Error('the plan was stopped'));
  const worker = new Worker(new URL('../worker/planWorker.js', import.meta.url), { type: 'module' });
  const promise = new Promise((resolve, reject) => {
    worker.onmessage = ({ data }) => (data?.ok ? resolve(data.plan) : reject(new Error(data?.error ?? 'the planner stopped')));
    worker.onerror = (e) => reject(new Error(e.message || 'the planner worker failed to start'));
    // terminated at once, not after the rejection settles: the plan that aborted this one
    // starts its Worker in the same task, and at most one may be alive
    signal?.addEventListener(
      'abort',
      () => {
        worker.terminate();
        reject(new Error('the plan was stopped'));
      },
      { once: true },
    );
  }).finally(() => worker.terminate());
  worker.postMessage({ envId, seed, width, prove });
  return promise;
}

// ---- personal bests ---------------------------------------------------------------------

const BEST_KEY = 'valley-farm:best';

/** The visitor's best returns, { `${envId} ${seed}`: return }, kept in localStorage. */
export class PersonalBests {
  constructor(storage = defaultStorage()) {
    this.storage = storage;
  }

  #all() {
    try {
      const data = JSON.parse(this.storage?.getItem(BEST_KEY) ?? '{}');
      return data && typeof data === 'object' && !Array.isArray(data) ? data : {};
    } catch {
      return {}; // unreadable (edited by hand, or storage disabled): start afresh
    }
  }

  get(envId, seed) {
    const v = this.#all()[`${envId} ${seed}`];
    return typeof v === 'number' && Number.isFinite(v) ? v : null;
  }

  /** Records a return; true when it beats the best so far (or is the first). */
  record(envId, seed, ret) {
    const all = this.#all();
    const key = `${envId} ${seed}`;
    if (typeof all[key] === 'number' && all[key] >= ret) return false;
    all[key] = Math.round(ret * 100) / 100;
    try {
      this.storage?.setItem(BEST_KEY, JSON.stringify(all));
    } catch {
      // storage full or disabled: the best lives for this visit only
    }
    return true;
  }
}

/** Today's map: the UTC date as a seed (2026-11-25 -> 20261125), the same for everyone. */
export function dailySeed(date = new Date()) {
  return date.getUTCFullYear() * 10000 + (date.getUTCMonth() + 1) * 100 + date.getUTCDate();
}
