// The Benchmark page's results over training runs, rendered from a summary: the committed one
// (docs/results/summary.json: every shipped learner says "no runs yet" until its runs exist)
// and the fixture's (tests/js/fixtures/results, made by npm run results from tiny runs; the js
// tests check it is what its files give). Every number shown is the summary's; the profile
// plots are described for screen readers, carry their numbers as a table, and pass axe-core.
import { render } from 'preact';
import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import { BenchmarkPage, resultsParts, shippedLearners } from '../../web/src/docs/pages/BenchmarkPage.jsx';
import { ProfilePlot } from '../../web/src/docs/components/ProfilePlot.jsx';
import summary from '../../docs/results/summary.json';
import budgets from '../../docs/results/budgets.json';
import fixture from '../js/fixtures/results/summary.json';
import fixtureBudgets from '../js/fixtures/results/budgets.json';

const ENVS = ['ValleyFarm-v0', 'BackwardsValleyFarm-v0'];

function show(node) {
  const host = document.createElement('main');
  document.body.replaceChildren(host);
  render(node, host);
  return host;
}
const Parts = ({ s, b }) => {
  const parts = resultsParts({ summary: s, budgetList: b, envIds: ENVS });
  return (
    <div>
      <h1>Results</h1>
      <section aria-label="results">{parts.results}</section>
      <section aria-label="profiles">{parts.profiles}</section>
      <section aria-label="improvement">{parts.improvement}</section>
    </div>
  );
};
const f2 = (x) => x.toFixed(2);
const ci = (v) => `${f2(v.estimate)} (${f2(v.low)} – ${f2(v.high)})`;

describe('with no runs yet', () => {
  it('each budget has a table where every shipped learner on each farm says "no runs yet", and no plot or comparison is drawn', () => {
    const host = show(<Parts s={summary} b={budgets} />);
    for (const budget of Object.keys(budgets)) {
      const table = host.querySelector(`[data-table$="-${budget}"]`);
      expect(table, budget).not.toBeNull();
      for (const env of ENVS)
        for (const { key } of shippedLearners()) {
          const row = table.querySelector(`[data-row="${env}/${key}"]`);
          if (summary.tracks.length === 0) expect(row.textContent).toContain('no runs yet');
        }
    }
    if (summary.tracks.length === 0) {
      expect(host.querySelector('[data-empty="profiles"]').textContent).toBe('No runs yet, so no profiles yet.');
      expect(host.querySelector('svg')).toBeNull();
    }
  });

  it('the whole Benchmark page renders the sections of how to submit a result and of docs/benchmark.md', () => {
    const host = show(<BenchmarkPage />);
    expect(host.querySelector('#docs-benchmark-how-to-submit-a-result').textContent).toContain('npm run results -- --learner ppo');
    expect(host.querySelector('#docs-benchmark-how-to-submit-a-result').textContent).toContain('never for choosing settings');
    expect(host.querySelector('#docs-benchmark-the-tuning-record').textContent).toContain("What moved them: the value loss's weight");
    expect(host.querySelector('#docs-benchmark-ceiling').textContent).toMatch(/Two ceilings bound what an agent can score/);
  });
});

describe("with the fixture's runs", () => {
  const track = fixture.tracks[0];

  it("each row shows the summary's runs, test return, IQM, mean and optimality gap with their intervals", () => {
    const host = show(<Parts s={fixture} b={fixtureBudgets} />);
    expect(track.rows.length).toBeGreaterThanOrEqual(4);
    for (const r of track.rows) {
      const row = host.querySelector(`[data-table="results-fixture-${r.budget}"] [data-row="${r.env}/${r.learner}"]`);
      expect(row, `${r.env}/${r.learner}`).not.toBeNull();
      const cells = [...row.children].map((td) => td.textContent);
      expect(row.closest('tbody').querySelector('.farm-row').textContent).toBe(r.env);
      expect(cells.slice(0, 6)).toEqual([
        r.title,
        String(r.runs),
        r.testMean ? ci(r.testMean) : '–',
        ci(r.iqm),
        ci(r.mean),
        ci(r.optimalityGap),
      ]);
    }
    // the shipped PPO (default settings) has no runs; the fixture's is a variant, listed by its title
    expect(host.querySelector('[data-row="ValleyFarm-v0/ppo"]').textContent).toContain('no runs yet');
    expect(host.textContent).toContain('PPO, imitate 0');
    // a variant is listed only where it has runs
    expect(host.querySelector('[data-row="BackwardsValleyFarm-v0/ppo-hidden-8,8-imitate-0-n-steps-64-num-envs-8-workers-1"]')).toBeNull();
  });

  it("a row whose numbers have no interval (a single run's, as the summary writes them) shows the estimates alone", () => {
    const [first] = track.rows;
    const alone = (v) => v && { estimate: v.estimate };
    const row1 = {
      ...first,
      runs: 1,
      testMean: alone(first.testMean),
      iqm: alone(first.iqm),
      mean: alone(first.mean),
      optimalityGap: alone(first.optimalityGap),
    };
    const single = { ...fixture, tracks: [{ ...track, rows: [row1] }] };
    const host = show(<Parts s={single} b={fixtureBudgets} />);
    const row = host.querySelector(`[data-table="results-fixture-${first.budget}"] [data-row="${first.env}/${first.learner}"]`);
    const cells = [...row.children].map((td) => td.textContent.trim());
    expect(cells.slice(1, 6)).toEqual([
      '1',
      first.testMean ? f2(first.testMean.estimate) : '–',
      f2(first.iqm.estimate),
      f2(first.mean.estimate),
      f2(first.optimalityGap.estimate),
    ]);
    expect(row.querySelector('.ci')).toBeNull();
  });

  it('a profile is drawn for each budget and farm with runs, one line and band per learner, its numbers in a table', () => {
    const host = show(<Parts s={fixture} b={fixtureBudgets} />);
    const plots = host.querySelectorAll('[data-profile]');
    expect(plots.length).toBe(new Set(track.rows.map((r) => `${r.budget}/${r.env}`)).size);
    const valley = host.querySelector('[data-profile="fixture-tiny-ValleyFarm-v0"]');
    expect(valley.querySelectorAll('g.profile')).toHaveLength(2);
    expect(valley.querySelector('svg').getAttribute('role')).toBe('img');
    expect(valley.querySelector('desc').textContent).toMatch(/half its runs score above/);
    const row = track.rows.find((r) => r.env === 'ValleyFarm-v0' && r.learner === 'tabular-q');
    const i = fixture.taus.indexOf(0);
    const pct = (x) => `${Math.round(x * 100)} %`;
    const first = valley.querySelector('tbody tr');
    expect(first.querySelector('th').textContent).toBe('0.0');
    expect(first.textContent).toContain(`${pct(row.profile.fraction[i])} (${pct(row.profile.low[i])} – ${pct(row.profile.high[i])})`);
    expect(valley.querySelectorAll('tbody tr')).toHaveLength(13); // τ = 0.0, 0.1, ..., 1.2
  });

  it("P(X > Y) is shown once for each pair, with the summary's interval", () => {
    const host = show(<Parts s={fixture} b={fixtureBudgets} />);
    const rows = [...host.querySelectorAll('[data-table="improvements-fixture"] tbody tr')];
    expect(rows).toHaveLength(track.improvements.length / 2);
    const p = track.improvements.find((x) => x.x < x.y);
    expect(rows[0].textContent).toContain(ci(p));
  });

  it('axe-core finds no serious or critical violation in the tables and plots (and does find one in an SVG without a name)', async () => {
    const host = show(<Parts s={fixture} b={fixtureBudgets} />);
    const found = (await axe.run(host, { resultTypes: ['violations'] })).violations.filter((v) =>
      ['serious', 'critical'].includes(v.impact),
    );
    expect(found.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    const control = show(
      <svg role="img">
        <rect width="1" height="1" />
      </svg>,
    );
    expect((await axe.run(control, { resultTypes: ['violations'] })).violations.map((v) => v.id)).toContain('svg-img-alt');
  });

  it('a plot of one learner draws its line through each τ at the fraction above it', () => {
    const host = show(
      <ProfilePlot
        id="t"
        taus={[0, 0.5, 1]}
        series={[{ name: 'A', runs: 4, fraction: [1, 0.5, 0], low: [1, 0.25, 0], high: [1, 0.75, 0] }]}
        title="test"
      />,
    );
    const d = host.querySelector('.line').getAttribute('d');
    const ys = [...d.matchAll(/[ML][\d.]+ ([\d.]+)/g)].map((m) => Number(m[1]));
    expect(ys[0]).toBeLessThan(ys[1]); // 1 is drawn above ½, ½ above 0
    expect(ys[1]).toBeLessThan(ys[2]);
    expect(host.querySelector('desc').textContent).toContain('A (4 runs): half its runs score above about 1.00');
  });
});
