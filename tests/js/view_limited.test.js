// The view-limited planner's committed runs (docs/runs/view-limited, from npm run view-limited):
// every stored episode replays in the engine to its stored return with legal actions only, and
// never earns more than the best known play of its seed; the native agent plays the first
// seeds of every run again to the same actions (the agent is the same for a seed); and the
// baselines data's view-limited rows are the runs' summaries against today's data.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { envIds, envSpecs, make } from '../../wasm/index.js';
import { SPLITS } from '../../wasm/splits.js';
import { viewLimitedData, viewLimitedRow, viewLimitedSummary } from '../../scripts/baselines.mjs';

const root = new URL('../../', import.meta.url).pathname;
const read = (p) => JSON.parse(readFileSync(`${root}${p}`, 'utf8'));
const baselines = read('wasm/data/baselines.json');
const best = read('wasm/data/best-known.json');
const data = viewLimitedData();
const AGENT = `${root}build/valley-farm-view-limited`;

it('every farm has its view-limited runs, each of the whole farm in view and of the window', () => {
  expect(Object.keys(data).sort()).toEqual([...envIds].sort());
  for (const env of envIds) {
    const completions = data[env].runs.map((r) => r.completions);
    expect(completions).toContain(0);
    expect(completions.some((k) => k > 0)).toBe(true);
  }
});

describe.each(envIds)('%s view-limited runs', (env) => {
  const runs = data[env]?.runs ?? [];

  it('each run plays the first test seeds in order, one run per number of completions', () => {
    expect(new Set(runs.map((r) => r.completions)).size).toBe(runs.length);
    for (const run of runs) {
      expect(run.seeds.length).toBeGreaterThan(0);
      expect(run.seeds.map((r) => r[0])).toEqual(Array.from({ length: run.seeds.length }, (_, i) => SPLITS.test.first + i));
    }
  });

  it('each episode replays to its stored return with legal actions only, never above the best known of its seed', async () => {
    const e = await make(env);
    const n = envSpecs[env].actions.length;
    const bestOf = new Map(best.envs[env].test.map(([seed, b]) => [seed, b]));
    for (const run of runs) {
      for (const [seed, ret, actions] of run.seeds) {
        e.reset({ seed });
        let total = 0;
        for (const ch of actions) {
          const a = parseInt(ch, 36);
          if (!(a < n) || !e.legalActions()[a]) throw new Error(`seed ${seed}, ${run.completions} completions: action ${ch} is not legal`);
          total += e.step(a).reward;
        }
        if (Math.abs(total - ret) > 1e-9) throw new Error(`seed ${seed}: the actions earn ${total}, the data says ${ret}`);
        if (ret > bestOf.get(seed) + 1e-9) throw new Error(`seed ${seed}: ${ret} above the best known ${bestOf.get(seed)}`);
        expect(actions.length).toBe(envSpecs[env].horizon);
      }
    }
    e.close();
  });

  it('the native agent plays the first two seeds of every run again to the same actions', () => {
    expect(existsSync(AGENT), `${AGENT} is missing: build it (cmake --build build; npm test does)`).toBe(true);
    for (const run of runs) {
      const r = spawnSync(AGENT, [env, String(SPLITS.test.first), '2', String(run.completions), String(run.width), String(run.agentSeed)], {
        encoding: 'utf8',
      });
      expect(r.status, r.stderr).toBe(0);
      const lines = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines.map((l) => [l.seed, l.return, l.actions])).toEqual(run.seeds.slice(0, 2));
    }
  }, 600_000);

  it("the baselines data's view-limited rows are the runs' summaries against today's random, heuristic and best-known data", () => {
    const summaries = runs.map((run) => viewLimitedSummary(baselines.perSeed[env].test, best.envs[env].test, run));
    expect(baselines.viewLimited[env]).toEqual(summaries);
    const row = viewLimitedRow(summaries, SPLITS.test.count);
    const table = baselines.table[env];
    if (row) expect(table[table.findIndex((r) => r.agent.startsWith('best')) - 1]).toEqual(row);
    else expect(table.some((r) => r.agent.startsWith('view-limited'))).toBe(false);
    // the paired differences, by hand for one run
    const run = runs.at(-1);
    const d = run.seeds.map(([, ret], i) => ret - baselines.perSeed[env].test[i][2]);
    expect(summaries.at(-1).minusHeuristic.mean).toBeCloseTo(d.reduce((a, x) => a + x, 0) / d.length, 4);
  });
});
