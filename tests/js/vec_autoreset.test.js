// Both autoreset modes of the vector env (makeVec's autoreset option, the engine's
// vf_autoreset), replayed step by step against the semantics of Gymnasium's SyncVectorEnv
// (gymnasium/vector/sync_vector_env.py) transcribed over single envs: which observation,
// reward, mask and episode record each mode gives at a done and at the step after it. The
// expected sequence comes from single envs only; the Python suite holds the same against
// Gymnasium's own SyncVectorEnv (python/tests/test_gymnasium.py).
import { describe, expect, it } from 'vitest';
import { envSpecs, make, makeVec } from '../../wasm/index.js';
import { flatten } from '../../wasm/spaces.js';

/** SyncVectorEnv.step over single envs, each reset with the vector env's seeds (seed + i + k n). */
async function syncVectorEnv(id, n, seed, nextStep) {
  const envs = await Promise.all(Array.from({ length: n }, () => make(id)));
  const seeds = envs.map((_, i) => seed + i);
  let autoreset = new Array(n).fill(false);
  const returns = new Array(n).fill(0);
  const lengths = new Array(n).fill(0);
  const row = (observation) => Array.from(flatten(id, observation));
  let obs = envs.map((env, i) => row(env.reset({ seed: seeds[i] }).observation));
  return {
    obs,
    seeds,
    step(actions) {
      const rewards = new Array(n).fill(0);
      const terms = new Array(n).fill(false);
      const finals = new Map();
      const episodes = new Map();
      obs = obs.slice();
      envs.forEach((env, i) => {
        if (nextStep && autoreset[i]) {
          // the step after a done: a reset; the action is not played
          seeds[i] += n;
          obs[i] = row(env.reset({ seed: seeds[i] }).observation);
          returns[i] = lengths[i] = 0;
          return;
        }
        const r = env.step(actions[i]);
        obs[i] = row(r.observation);
        rewards[i] = r.reward;
        terms[i] = r.terminated;
        returns[i] += r.reward;
        lengths[i] += 1;
        if (!r.terminated) return;
        episodes.set(i, { r: returns[i], l: lengths[i], seed: seeds[i] });
        if (!nextStep) {
          // same step: the final observation aside, then a reset
          finals.set(i, obs[i]);
          seeds[i] += n;
          obs[i] = row(env.reset({ seed: seeds[i] }).observation);
          returns[i] = lengths[i] = 0;
        }
      });
      autoreset = terms;
      const masks = envs.map((env) => Array.from(env.legalActions(), (legal) => (legal ? 1 : 0)));
      return { obs, rewards, terms, finals, episodes, masks };
    },
  };
}

describe.each(['ValleyFarm-v0', 'BackwardsValleyFarm-v0'])('%s', (id) => {
  const spec = envSpecs[id];
  const n = 3;

  it.each(['same-step', 'next-step'])('%s autoreset replays SyncVectorEnv over single envs, step by step', async (mode) => {
    const vec = await makeVec(id, n, { autoreset: mode });
    expect(vec.metadata.autoresetMode).toBe(mode);
    const expected = await syncVectorEnv(id, n, 90, mode === 'next-step');
    let r = vec.reset({ seed: 90 });
    const rows = (view) => Array.from({ length: n }, (_, i) => Array.from(view.subarray(i * vec.obsSize, (i + 1) * vec.obsSize)));
    expect(rows(r.observations)).toEqual(expected.obs);
    let boundaries = 0;
    for (let t = 0; t < 3 * spec.horizon + 6; t++) {
      const actions = Int32Array.from({ length: n }, (_, i) => (t * 7 + i * 5) % spec.actions.length);
      const wasDone = Uint8Array.from(r.terminated);
      r = vec.step(actions);
      const e = expected.step(actions);
      expect(rows(r.observations)).toEqual(e.obs);
      expect(Array.from(r.rewards)).toEqual(e.rewards);
      expect(Array.from(r.terminated)).toEqual(e.terms.map(Number));
      expect(
        Array.from({ length: n }, (_, i) => Array.from(r.masks.subarray(i * spec.actions.length, (i + 1) * spec.actions.length))),
      ).toEqual(e.masks);
      if (mode === 'next-step') {
        expect(r.infos.final_obs).toBeUndefined();
        for (let i = 0; i < n; i++) {
          if (!wasDone[i]) continue;
          expect([r.rewards[i], r.terminated[i], Number(vec.episodeSeed(i))]).toEqual([0, 0, expected.seeds[i]]);
          boundaries++;
        }
      } else {
        for (const [i, last] of e.finals) {
          expect(r.infos._final_obs[i]).toBe(1);
          expect(Array.from(r.infos.final_obs.subarray(i * vec.obsSize, (i + 1) * vec.obsSize))).toEqual(last);
          boundaries++;
        }
      }
      for (const [i, ep] of e.episodes) {
        expect(r.infos._episode[i]).toBe(1);
        expect(r.infos.episode.r[i]).toBeCloseTo(ep.r, 9);
        expect([r.infos.episode.l[i], Number(r.infos.episode.seed[i])]).toEqual([ep.l, ep.seed]);
      }
    }
    expect(boundaries).toBeGreaterThanOrEqual(3 * n);
    vec.close();
  });

  it('plays the same seeds and levels in both modes', async () => {
    for (const levels of [undefined, [4, 5, 6, 7]]) {
      const played = {};
      for (const mode of ['same-step', 'next-step']) {
        const vec = await makeVec(id, n, { autoreset: mode, levels });
        vec.reset(levels ? undefined : { seed: 20 });
        const seeds = Array.from({ length: n }, (_, i) => [Number(vec.episodeSeed(i))]);
        for (let t = 0; t < 3 * spec.horizon + 3; t++) {
          vec.step(new Int32Array(n));
          for (let i = 0; i < n; i++) if (Number(vec.episodeSeed(i)) !== seeds[i].at(-1)) seeds[i].push(Number(vec.episodeSeed(i)));
        }
        played[mode] = seeds;
        vec.close();
      }
      // env i's k-th episode: seed + i + k n, or levels[(i + k n) mod L]
      const want = Array.from({ length: n }, (_, i) =>
        Array.from({ length: 4 }, (_, k) => (levels ? levels[(i + k * n) % 4] : 20 + i + k * n)),
      );
      expect(played['same-step']).toEqual(want);
      expect(played['next-step']).toEqual(want);
    }
  });
});

it('refuses an autoreset option that is not a mode, naming the modes', async () => {
  for (const bad of ['next_step', 'NextStep', 1, null]) {
    await expect(makeVec('ValleyFarm-v0', 2, { autoreset: bad })).rejects.toThrow(
      /autoreset option must be 'same-step' \(the default\) or 'next-step'/,
    );
  }
});
