// The published baseline numbers come from the data, and the data from the agents:
// docs/benchmark.md's table is the one scripts/baselines.mjs makes from wasm/data/baselines.json, the
// stored heuristic and random returns are what those agents earn now, and the table's
// best-known row is the mean of the replayed plans (tests/js/best_known.test.js).
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../../wasm/agents/index.js';
import { evaluate, normalizedScore, summarize } from '../../wasm/evaluate.js';
import { envIds } from '../../wasm/index.js';
import { splitSeeds } from '../../wasm/splits.js';
import { baselineTable, referenceRuns } from '../../scripts/baselines.mjs';
import { betweenMarkers } from '../../scripts/results/summary.mjs';
import * as page from '../../web/src/model/referenceRuns.js';

const read = (p) => readFileSync(new URL(`../../${p}`, import.meta.url), 'utf8');
const baselines = JSON.parse(read('wasm/data/baselines.json'));
const best = JSON.parse(read('wasm/data/best-known.json'));

it("docs/benchmark.md's baseline table is the data's", () => {
  const table = betweenMarkers(read('docs/benchmark.md'), 'baselines');
  expect(table).toBe(baselineTable(baselines.table, referenceRuns()));
  // every committed reference run has its row (four: two learners on each farm)
  expect(table.split('\n').filter((l) => / M steps, \d+ (s|min)\) \|/.test(l))).toHaveLength(referenceRuns().length);
});

describe.each(envIds)('%s reference data', (id) => {
  it('the stored heuristic returns are what the heuristic earns now (first 40 test seeds)', async () => {
    const rows = baselines.perSeed[id].test.slice(0, 40);
    const r = await evaluate(createAgent('heuristic', id), { env: id, seeds: rows.map((x) => x[0]) });
    r.returns.forEach((ret, i) => expect(ret).toBeCloseTo(rows[i][2], 3));
  });

  it("the table's best-known mean is the mean of the stored plans' returns, and it beats the heuristic", () => {
    const rows = best.envs[id].test;
    const mean = rows.reduce((a, r) => a + r[1], 0) / rows.length;
    const line = baselines.table[id].find((l) => l.agent.startsWith('best'));
    expect(line.mean).toBeCloseTo(mean, 3);
    expect(line.normalized).toBeCloseTo(1, 6);
    expect(line.mean).toBeGreaterThan(baselines.table[id].find((l) => l.agent === 'heuristic').mean);
  });
});

it("the page's reference runs are the committed files of docs/runs, and the Lab's is the one with its settings and nearest its steps", () => {
  const files = readdirSync(new URL('../../docs/runs/', import.meta.url)).filter((f) => f.endsWith('.json'));
  expect(page.referenceRuns()).toHaveLength(files.length);
  const runs = files.map((f) => JSON.parse(read(`docs/runs/${f}`)));
  for (const json of runs) {
    // the Lab trains with default settings, so its reference is a run without any: of
    // several, the one of its length, and without a length the shortest
    if (Object.keys(json.settings).length === 0) {
      expect(page.referenceRun(json.env, json.algo, {}, json.steps)).toEqual(json);
      const lengths = runs.filter((r) => r.env === json.env && r.algo === json.algo && !Object.keys(r.settings).length).map((r) => r.steps);
      expect(page.referenceRun(json.env, json.algo).steps).toBe(Math.min(...lengths));
    } else expect(page.referenceRun(json.env, json.algo).settings).toEqual({});
    expect(page.referenceRun(json.env, json.algo, json.settings, json.steps)).toEqual(json);
  }
  expect(page.referenceRun('ValleyFarm-v0', 'no-such-learner')).toBeNull();
  expect(page.settingsOf({ settings: { history: 4, numEnvs: 8 } })).toBe('history 4, numEnvs 8');
  expect(page.settingsOf({ settings: {} })).toBe('');
});

// A run stores its return on every test seed, so its published score is checked against the
// data in use now: a better best-known plan (npm run best-known) changes every normalised
// score, and a run scored against older data fails here until it is run again.
describe.each(referenceRuns().map((r) => [`${r.algo} ${JSON.stringify(r.settings)} ${r.env}`, r]))('reference run %s', (_, run) => {
  it("its test score is its stored returns' against today's random and best-known data", () => {
    const seeds = splitSeeds('test');
    expect(run.test.returns).toHaveLength(seeds.length);
    const s = summarize(run.test.returns);
    expect(run.test.mean).toBeCloseTo(s.mean, 6);
    expect(run.test.ci95[0]).toBeCloseTo(s.ci95[0], 6);
    const random = baselines.perSeed[run.env].test;
    const bestRows = best.envs[run.env].test;
    const perSeed = run.test.returns.map((r, i) => normalizedScore(r, random[i][1], bestRows[i][1]));
    expect(run.test.normalized).toBeCloseTo(perSeed.reduce((a, b) => a + b, 0) / perSeed.length, 6);
    expect(run.reference.bestKnown).toBeCloseTo(bestRows.reduce((a, r) => a + r[1], 0) / bestRows.length, 6);
    // no plan-free agent beats the best known on any seed by more than rounding
    run.test.returns.forEach((r, i) => expect(r).toBeLessThanOrEqual(bestRows[i][1] + 1e-6));
  });
});
