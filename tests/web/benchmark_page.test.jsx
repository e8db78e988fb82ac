// The Benchmark docs page shows the protocol's data as it is: every row of its tables is a
// row of wasm/data/baselines.json, and the proven-optimal counts are those of the plans.
import { render } from 'preact';
import { expect, it } from 'vitest';
import baselines from '../../wasm/data/baselines.json';
import bestKnown from '../../wasm/data/best-known.json';
import { BenchmarkPage } from '../../web/src/docs/pages/BenchmarkPage.jsx';
import { referenceRuns } from '../../web/src/model/referenceRuns.js';
import { SPLITS } from '../../wasm/splits.js';

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

/** Run − heuristic on each test seed, by hand: the run's returns are in the test split's order. */
function pairedByHand(run) {
  const rows = baselines.perSeed[run.env].test;
  const d = run.test.returns.map((r, i) => r - rows[i][2]);
  const mean = d.reduce((a, x) => a + x, 0) / d.length;
  const se = Math.sqrt(d.reduce((a, x) => a + (x - mean) ** 2, 0) / (d.length - 1) / d.length);
  return { mean, low: mean - 1.96 * se, high: mean + 1.96 * se };
}

it("the baselines data's per-seed test rows are the test split's seeds in order (a run's returns are paired with them by position)", () => {
  for (const env of Object.keys(baselines.table)) {
    const seeds = baselines.perSeed[env].test.map((r) => r[0]);
    expect(seeds).toEqual(Array.from({ length: SPLITS.test.count }, (_, i) => SPLITS.test.first + i));
  }
});

it('pairedOverHeuristic is the mean of the per-seed differences with 1.96 standard errors either side', async () => {
  const { pairedOverHeuristic } = await import('../../web/src/model/timeToHeuristic.js');
  const data = {
    perSeed: {
      F: {
        test: [
          [1, 0, 10],
          [2, 0, 12],
          [3, 0, 14],
          [4, 0, 10],
        ],
      },
    },
  };
  // differences 1, 0, 2, 1: mean 1, sample variance 2/3, standard error sqrt(2/3/4)
  const p = pairedOverHeuristic(data, { env: 'F', test: { returns: [11, 12, 16, 11] } });
  expect(p.mean).toBe(1);
  expect(p.ci95[0]).toBeCloseTo(1 - 1.96 * Math.sqrt(1 / 6), 12);
  expect(p.ci95[1]).toBeCloseTo(1 + 1.96 * Math.sqrt(1 / 6), 12);
  expect(() => pairedOverHeuristic(data, { env: 'F', test: { returns: [1, 2] } })).toThrow(/2\) do not match the 4 test seeds of F/);
});

it("each farm's best reference run is named with its time and test interval, and called above or below the heuristic only where the paired 95 % interval over the same test seeds excludes 0", () => {
  const host = document.createElement('div');
  render(<BenchmarkPage />, host);
  for (const [env, rows] of Object.entries(baselines.table)) {
    const runs = referenceRuns().filter((r) => r.env === env);
    const best = runs.reduce((a, r) => (r.test.mean > a.test.mean ? r : a));
    const heuristic = rows.find((r) => r.agent === 'heuristic').mean;
    const text = host.querySelector(`[data-gap="${env}"]`).textContent.replace(/\s+/g, ' ');
    const [low, high] = best.test.ci95.map((x) => x.toFixed(2));
    expect(text).toContain(
      `${Math.round(best.seconds / 60)} minutes) scores ${best.test.mean.toFixed(2)} (95 % interval ${low} – ${high})`,
    );
    const p = pairedByHand(best);
    const side = p.low > 0 ? 'above' : p.high < 0 ? 'below' : 'level, within the paired 95 % interval, with';
    expect(text).toContain(`${side} the heuristic's ${heuristic.toFixed(2)} on the same seeds`);
    const sign = (x) => (x < 0 ? '−' : '') + Math.abs(x).toFixed(2);
    expect(text).toContain(`(run − heuristic ${p.mean >= 0 ? '+' : '−'}${Math.abs(p.mean).toFixed(2)} (${sign(p.low)} – ${sign(p.high)}))`);
  }
});

it("the runs table gives each run's paired difference from the heuristic on the test seeds", () => {
  const host = document.createElement('div');
  render(<BenchmarkPage />, host);
  const cells = [...host.querySelectorAll('[data-table="runs"] tbody tr')].map((tr) => tr.children[6].textContent);
  const sign = (x) => (x < 0 ? '−' : '') + Math.abs(x).toFixed(2);
  expect(cells).toEqual(
    referenceRuns().map((r) => {
      const p = pairedByHand(r);
      return `${p.mean >= 0 ? '+' : '−'}${Math.abs(p.mean).toFixed(2)} (${sign(p.low)} – ${sign(p.high)})`;
    }),
  );
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

it("the window's table gives each view-limited run of docs/runs/view-limited, its mean and paired differences those of the runs' returns", () => {
  const files = import.meta.glob('../../docs/runs/view-limited/*.json', { eager: true, import: 'default' });
  const runs = Object.fromEntries(Object.values(files).map((d) => [d.env, d]));
  const host = document.createElement('div');
  render(<BenchmarkPage />, host);
  const sign = (x) => (x < 0 ? '−' : '') + Math.abs(x).toFixed(2);
  const shown = ({ mean, ci95 }) => `${mean >= 0 ? '+' : '−'}${Math.abs(mean).toFixed(2)} (${sign(ci95[0])} – ${sign(ci95[1])})`;
  /** mean and 95 % interval of per-seed differences, by hand */
  const paired = (d) => {
    const mean = d.reduce((a, x) => a + x, 0) / d.length;
    const se = Math.sqrt(d.reduce((a, x) => a + (x - mean) ** 2, 0) / (d.length - 1) / d.length);
    return { mean, ci95: [mean - 1.96 * se, mean + 1.96 * se] };
  };
  expect(Object.keys(baselines.viewLimited ?? {}).sort()).toEqual(Object.keys(runs).sort());
  for (const [env, data] of Object.entries(runs)) {
    const cells = [...host.querySelectorAll(`[data-table="view-limited-${env}"] tbody tr`)].map((tr) =>
      [...tr.children].map((td) => td.textContent),
    );
    const rows = baselines.viewLimited[env];
    expect(cells).toHaveLength(data.runs.length);
    data.runs.forEach((run, i) => {
      const returns = run.seeds.map((r) => r[1]);
      const heuristic = baselines.perSeed[env].test.slice(0, returns.length).map((r) => r[2]);
      const best = bestKnown.envs[env].test.slice(0, returns.length).map((r) => r[1]);
      const r = rows[i];
      expect(cells[i]).toEqual([
        run.completions === 0 ? 'whole farm in view' : `window, ${run.completions} completion${run.completions === 1 ? '' : 's'}`,
        returns.length.toLocaleString('en'),
        r.mean.toFixed(2),
        `${r.ci95[0].toFixed(2)} – ${r.ci95[1].toFixed(2)}`,
        r.normalized.toFixed(2),
        shown(r.minusHeuristic),
        shown(r.minusBestKnown),
        r.cpuSecondsPerEpisode.toFixed(2),
      ]);
      expect(r.mean).toBeCloseTo(returns.reduce((a, x) => a + x, 0) / returns.length, 3);
      for (const [stored, byHand] of [
        [r.minusHeuristic, paired(returns.map((x, k) => x - heuristic[k]))],
        [r.minusBestKnown, paired(returns.map((x, k) => x - best[k]))],
      ]) {
        expect(stored.mean).toBeCloseTo(byHand.mean, 3);
        expect(stored.ci95[0]).toBeCloseTo(byHand.ci95[0], 3);
        expect(stored.ci95[1]).toBeCloseTo(byHand.ci95[1], 3);
      }
    });
  }
});
