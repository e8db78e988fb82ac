// The Benchmark docs page shows the protocol's data as it is: every row of its tables is a
// row of wasm/data/baselines.json, and the proven-optimal counts are those of the plans.
import { render } from 'preact';
import { expect, it } from 'vitest';
import baselines from '../../wasm/data/baselines.json';
import bestKnown from '../../wasm/data/best-known.json';
import { BenchmarkPage } from '../../web/src/docs/pages/BenchmarkPage.jsx';
import { referenceRuns } from '../../web/src/model/referenceRuns.js';

it("the baseline tables and the proven-optimal counts are the data's", () => {
  const host = document.createElement('div');
  render(<BenchmarkPage />, host);
  for (const [env, rows] of Object.entries(baselines.table)) {
    const cells = [...host.querySelectorAll(`[data-table="baselines-${env}"] tbody tr`)].map((tr) =>
      [...tr.children].map((td) => td.textContent),
    );
    expect(cells).toEqual(
      rows.map((r) => [r.agent, r.mean.toFixed(2), `${r.ci95[0].toFixed(2)} – ${r.ci95[1].toFixed(2)}`, r.normalized.toFixed(2)]),
    );
    const proven = bestKnown.envs[env].test.filter(([, best, bound]) => best >= bound - 1e-9).length;
    expect(host.querySelector(`[data-proven="${env}"]`).textContent).toContain(`${proven} of 1000 test seeds proven optimal`);
  }
});

it("each farm's best reference run is named with its time, test mean and interval, and called above or below the heuristic only where the 95 % intervals do not overlap", () => {
  const host = document.createElement('div');
  render(<BenchmarkPage />, host);
  for (const [env, rows] of Object.entries(baselines.table)) {
    const runs = referenceRuns().filter((r) => r.env === env);
    const best = runs.reduce((a, r) => (r.test.mean > a.test.mean ? r : a));
    const heuristicRow = rows.find((r) => r.agent === 'heuristic');
    const heuristic = heuristicRow.mean;
    const text = host.querySelector(`[data-gap="${env}"]`).textContent.replace(/\s+/g, ' ');
    const [low, high] = best.test.ci95.map((x) => x.toFixed(2));
    expect(text).toContain(
      `${Math.round(best.seconds / 60)} minutes) scores ${best.test.mean.toFixed(2)} (95 % interval ${low} – ${high})`,
    );
    const [hLow, hHigh] = heuristicRow.ci95;
    const side = best.test.ci95[0] > hHigh ? 'above' : best.test.ci95[1] < hLow ? 'below' : 'level, within the 95 % intervals, with';
    expect(text).toContain(`${side} the heuristic's ${heuristic.toFixed(2)}`);
  }
});

it("the runs table says when each run's validation mean first reached the heuristic's on the same seeds", async () => {
  const { timeToHeuristic, heuristicValidation } = await import('../../web/src/model/timeToHeuristic.js');
  const run = {
    curve: [
      { steps: 2e6, seconds: 60, validation: 9 },
      { steps: 4e6, seconds: 130, validation: 12 },
      { steps: 6e6, seconds: 200, validation: 13 },
    ],
  };
  expect(timeToHeuristic(run, 11.5)).toEqual({ seconds: 130, steps: 4e6 });
  expect(timeToHeuristic(run, 12)).toEqual({ seconds: 130, steps: 4e6 }); // reaching it counts
  expect(timeToHeuristic(run, 13.5)).toBeNull();
  const rows = baselines.perSeed['ValleyFarm-v0'].validation;
  expect(rows).toHaveLength(200);
  expect(heuristicValidation(baselines, 'ValleyFarm-v0')).toBeCloseTo(rows.reduce((a, r) => a + r[2], 0) / 200, 12);
  const host = document.createElement('div');
  render(<BenchmarkPage />, host);
  const cells = [...host.querySelectorAll('[data-table="runs"] tbody tr')].map((tr) => tr.children[4].textContent);
  expect(cells).toEqual(
    referenceRuns().map((r) => {
      const t = timeToHeuristic(r, heuristicValidation(baselines, r.env));
      return t ? `${(t.seconds / 60).toFixed(1)} min (${(t.steps / 1e6).toFixed(1)} M steps)` : 'not within the run';
    }),
  );
});
