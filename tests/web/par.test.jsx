// A par for every map: the protocol's seeds read the committed best-known data, other maps
// are planned (off the page's thread in the browser), the end panel compares the return with
// par and the heuristic and replays the best-known play; personal bests and today's map.
import { describe, it, expect, vi, beforeEach } from 'vitest';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { make } from 'valley-farm';
import { createAgent } from 'valley-farm/agents';
import { App } from '../../web/src/components/App.jsx';
import { FarmApp } from '../../web/src/model/app.js';
import { PersonalBests, dailySeed } from '../../web/src/model/par.js';
import bestKnown from '../../wasm/data/best-known.json' with { type: 'json' };
import baselines from '../../wasm/data/baselines.json' with { type: 'json' };

function memoryStorage(initial = {}) {
  const data = { ...initial };
  return { getItem: (k) => data[k] ?? null, setItem: (k, v) => (data[k] = String(v)), data };
}

let host;
async function startApp(options) {
  const app = new FarmApp(options);
  app.measure = async () => {};
  host = document.createElement('div');
  document.body.replaceChildren(host);
  await act(async () => {
    render(<App app={app} />, host);
    await app.start('');
  });
  return app;
}
const stat = (name) => host.querySelector(`[data-stat="${name}"]`)?.textContent;
const parReady = (app) => vi.waitFor(() => expect(app.par?.status).toBe('ready'), { timeout: 20_000 });

beforeEach(() => vi.restoreAllMocks());

describe('par', () => {
  it("a test seed's par is the committed best-known return, beside the heuristic's, and the planner is not asked", async () => {
    const planMap = vi.fn(() => Promise.reject(new Error('not to be called')));
    const app = await startApp({ planMap, storage: memoryStorage() });
    const [seed, best, bound] = bestKnown.envs['ValleyFarm-v0'].test[3];
    await act(() => app.newEpisode(seed));
    await parReady(app);
    await act(async () => {});
    expect(app.par).toMatchObject({ best, bound, source: 'data' });
    expect(app.par.heuristic).toBe(baselines.perSeed['ValleyFarm-v0'].test[3][2]);
    expect(stat('par')).toBe(String(best));
    expect(stat('heuristic')).toBe(String(app.par.heuristic));
    expect(planMap.mock.calls.filter(([, s]) => s === seed)).toEqual([]); // only the random first map was planned
  });

  it('the end panel compares the return with par, and "Watch the best-known play" replays the plan to exactly its return', async () => {
    const app = await startApp({ planMap: null, storage: memoryStorage() });
    const [seed, best] = bestKnown.envs['BackwardsValleyFarm-v0'].test[5];
    await act(() => app.switchEnv('BackwardsValleyFarm-v0'));
    await act(() => app.newEpisode(seed));
    await parReady(app);
    await act(() => {
      for (let i = 0; i < 40; i++) app.session.act('wait');
    });
    const end = host.querySelector('[data-testid="episode-over"]');
    expect(end.querySelector('[data-stat="ofPar"]').textContent).toBe(` That is ${Math.round((100 * app.session.ret) / best)} % of par.`);
    await act(() => end.querySelector('[data-testid="watch-best"]').click());
    await vi.waitFor(() => expect(app.session.replay).not.toBeNull());
    app.session.toggleReplayPlay(); // pause the timer: step it here instead
    const { record } = app.session.replay;
    expect(record.actions.slice(0, app.par.actions.length)).toEqual(app.par.actions);
    await act(() => app.session.seek(record.actions.length));
    expect(app.session.ret).toBeCloseTo(best, 9);
    expect(app.session.log.some((e) => e.reward > 0)).toBe(true); // the events say what earned it
  });

  it('a plan that earns its last reward before the end is watched to the end of the episode, with waits', async () => {
    const app = await startApp({ planMap: null, storage: memoryStorage() });
    const short = bestKnown.envs['ValleyFarm-v0'].test.find(([, , , plan]) => plan.length < 50);
    const [seed, best, , plan] = short;
    await act(() => app.newEpisode(seed));
    await parReady(app);
    expect(await app.watchBest()).toBe(true);
    app.session.toggleReplayPlay();
    const { record } = app.session.replay;
    expect(record.actions).toHaveLength(50);
    expect(record.actions.slice(plan.length)).toEqual(Array(50 - plan.length).fill(11)); // wait is action 11
    await act(() => app.session.seek(record.actions.length));
    expect(app.session.ret).toBeCloseTo(best, 9);
    expect(app.session.done).toBe(true);
  });

  it("another map's par is planned with the data's width and proof, and its heuristic return is played", async () => {
    const planMap = vi.fn(async (envId, seed) => {
      const env = await make(envId);
      env.reset({ seed });
      return env.plan({ width: 20 });
    });
    const app = await startApp({ planMap, storage: memoryStorage() });
    await act(() => app.newEpisode(424242));
    await parReady(app);
    expect(planMap).toHaveBeenCalledWith(
      'ValleyFarm-v0',
      424242,
      { width: bestKnown.planner.width['ValleyFarm-v0'], prove: bestKnown.planner.prove['ValleyFarm-v0'] },
      { signal: expect.any(AbortSignal) },
    );
    const env = await make('ValleyFarm-v0');
    const agent = createAgent('heuristic', 'ValleyFarm-v0');
    agent.reset();
    let { observation, info } = env.reset({ seed: 424242 });
    let ret = 0;
    for (let done = false; !done;) {
      const r = env.step(agent.act(observation, info));
      ({ observation, info } = r);
      ret += r.reward;
      done = r.terminated;
    }
    expect(app.par.heuristic).toBe(Math.round(ret * 100) / 100);
    expect(app.par.source).toBe('planner');
  });

  it('a map left before its par was asked for is not planned: an agent at full speed does not queue a plan per episode', async () => {
    const planMap = vi.fn(async (envId, seed) => {
      const env = await make(envId);
      env.reset({ seed });
      return env.plan({ width: 20 });
    });
    const app = await startApp({ planMap, storage: memoryStorage() });
    await parReady(app);
    planMap.mockClear();
    await act(() => app.newEpisode(424242));
    await act(() => app.newEpisode(424243)); // left at once, as a fast runner does
    await parReady(app);
    expect(app.par.seed).toBe(424243);
    expect(planMap.mock.calls.map(([, seed]) => seed)).toEqual([424243]);
  });

  it('without a planner, a map outside the data says it has no par instead of waiting forever', async () => {
    const app = await startApp({ planMap: null, storage: memoryStorage() });
    await act(() => app.newEpisode(31337));
    await vi.waitFor(() => expect(app.par.status).toBe('none'));
    await act(async () => {});
    expect(host.querySelector('[data-testid="par"]').textContent).toMatch(/not known for this map/);
  });
});

describe("personal bests and today's map", () => {
  it("an episode played by hand sets the map's personal best; a lower one or an agent's does not", async () => {
    const storage = memoryStorage();
    const app = await startApp({ planMap: null, storage });
    const s = app.session;
    const play = async (actions) => {
      await act(() => app.newEpisode(1000001));
      await act(() => {
        for (const a of actions) s.act(a);
        while (!s.done) s.act('wait');
      });
    };
    const route = bestKnown.envs['ValleyFarm-v0'].test[1][3].slice(0, 12);
    await play([...route].map((c) => parseInt(c, 36)));
    const first = s.ret;
    expect(first).toBeGreaterThan(0);
    expect(app.newBest).toBe(true);
    expect(app.personalBest).toBe(Math.round(first * 100) / 100);
    await play([]);
    expect(app.newBest).toBe(false);
    expect(app.personalBest).toBe(Math.round(first * 100) / 100);
    await act(() => app.newEpisode(1000001));
    await act(() => {
      while (!s.done) s.act('wait', { by: 'heuristic' });
    });
    expect(app.newBest).toBe(false);
    expect(JSON.parse(storage.data['valley-farm:best'])).toEqual({ 'ValleyFarm-v0 1000001': Math.round(first * 100) / 100 });
  });

  it('a broken or missing store loses nothing: no best, no error', () => {
    expect(new PersonalBests(memoryStorage({ 'valley-farm:best': '{not json' })).get('ValleyFarm-v0', 1)).toBeNull();
    const throwing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    const bests = new PersonalBests(throwing);
    expect(bests.get('ValleyFarm-v0', 1)).toBeNull();
    expect(bests.record('ValleyFarm-v0', 1, 3)).toBe(true);
  });

  it("today's map is the UTC date as a seed, the same for everyone that day", async () => {
    expect(dailySeed(new Date('2026-11-25T23:59:00Z'))).toBe(20261125);
    expect(dailySeed(new Date('2027-01-02T00:00:00Z'))).toBe(20270102);
    const app = await startApp({ planMap: null, storage: memoryStorage() });
    await act(() => app.dailyMap(new Date('2026-11-25T12:00:00Z')));
    expect(app.session.seed).toBe(20261125);
    expect(app.session.message.text).toMatch(/Today's map: seed 20261125/);
  });
});
