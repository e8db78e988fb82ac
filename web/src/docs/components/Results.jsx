// Results.jsx — the benchmark's results over training runs, from docs/results/summary.json
// (npm run results): a table per budget with rliable's aggregates and their intervals and how
// many runs stand behind each number, the performance profiles, and the probability of
// improvement between learners. A learner or budget with no runs says so; no number is typed
// here.
import { ProfilePlot } from './ProfilePlot.jsx';

export const BOTH = 'both farms';
const f2 = (x) => x.toFixed(2);
/** An estimate with its interval: '0.66 (0.64 – 0.68)'; the estimate alone where the summary has no interval (of a single run: scripts/results/summary.mjs). */
export const withInterval = ({ estimate, low, high }) => (low === undefined ? f2(estimate) : `${f2(estimate)} (${f2(low)} – ${f2(high)})`);
/** The same in a table cell: the interval smaller. */
const Cell = ({ v }) => (
  <td>
    {f2(v.estimate)} {v.low !== undefined && <span class="ci">({`${f2(v.low)} – ${f2(v.high)}`})</span>}
  </td>
);
const minutes = (s) => (s < 120 ? `${Math.round(s)} s` : `${(s / 60).toFixed(1)} min`);

/**
 * One track's results, budget by budget. learners: [{ key, title }] of the learners the
 * package ships (each gets a row, "no runs yet" until it has runs), envIds: the farms.
 */
export function TrackResults({ track, budgets, learners, envIds }) {
  const rows = track?.rows ?? [];
  return Object.entries(budgets).map(([budget, { title }]) => {
    const mine = rows.filter((r) => r.budget === budget);
    const shipped = learners.map((l) => l.key);
    const titleOf = (key) => learners.find((l) => l.key === key)?.title ?? mine.find((r) => r.learner === key)?.title ?? key;
    return (
      <div class="docs-table-wrap">
        <table class="docs-table results-table" data-table={`results-${track?.track ?? 'none'}-${budget}`}>
          <caption>{title}: normalised test scores over training runs (95 % intervals)</caption>
          <thead>
            <tr>
              <th scope="col">learner</th>
              <th scope="col">runs</th>
              <th scope="col">test return, mean over runs</th>
              <th scope="col">IQM</th>
              <th scope="col">mean</th>
              <th scope="col">optimality gap</th>
              <th scope="col">median time</th>
            </tr>
          </thead>
          {[...envIds, BOTH].map((env) => {
            const here = mine.filter((r) => r.env === env);
            // the shipped learners, each with its row (runs or not; on both farms only with runs), then variants with runs
            const keys = [
              ...(env === BOTH ? [] : shipped),
              ...here.map((r) => r.learner).filter((k) => env === BOTH || !shipped.includes(k)),
            ];
            if (!keys.length) return null;
            return (
              <tbody>
                <tr class="farm-row">
                  <th scope="colgroup" colSpan={7}>
                    {env}
                  </th>
                </tr>
                {keys.map((key) => {
                  const r = here.find((x) => x.learner === key);
                  return r ? (
                    <tr data-row={`${env}/${key}`}>
                      <th scope="row">{titleOf(key)}</th>
                      <td>{r.runs}</td>
                      {r.testMean ? <Cell v={r.testMean} /> : <td>–</td>}
                      <Cell v={r.iqm} />
                      <Cell v={r.mean} />
                      <Cell v={r.optimalityGap} />
                      <td>{minutes(r.seconds)}</td>
                    </tr>
                  ) : (
                    <tr data-row={`${env}/${key}`} class="no-runs">
                      <th scope="row">{titleOf(key)}</th>
                      <td>0</td>
                      <td colSpan={5}>no runs yet</td>
                    </tr>
                  );
                })}
              </tbody>
            );
          })}
        </table>
      </div>
    );
  });
}

/** The performance profiles of a track: a plot per budget and farm that has runs. */
export function TrackProfiles({ track, taus, budgets, envIds }) {
  const plots = Object.entries(budgets).flatMap(([budget, { title }]) =>
    [...envIds, BOTH].map((env) => {
      const rows = (track?.rows ?? []).filter((r) => r.budget === budget && r.env === env);
      if (!rows.length) return null;
      const series = rows.map((r) => ({ name: r.title, runs: r.runs, ...r.profile }));
      return (
        <ProfilePlot id={`${track.track}-${budget}-${env.replace(/\W+/g, '-')}`} taus={taus} series={series} title={`${env}, ${title}`} />
      );
    }),
  );
  return plots.some(Boolean) ? <div class="profile-plots">{plots}</div> : <p data-empty="profiles">No runs yet, so no profiles yet.</p>;
}

/** P(X > Y) for each pair of learners with runs on the same farm at the same budget. */
export function TrackImprovements({ track, budgets }) {
  const pairs = (track?.improvements ?? []).filter((p) => p.x < p.y);
  if (!pairs.length) return <p data-empty="improvements">No two learners have runs at the same budget yet.</p>;
  const titleOf = (key) => track.rows.find((r) => r.learner === key)?.title ?? key;
  return (
    <div class="docs-table-wrap">
      <table class="docs-table" data-table={`improvements-${track.track}`}>
        <caption>Probability that a run of X scores above a run of Y (95 % interval); 0.5 is level</caption>
        <thead>
          <tr>
            <th scope="col">budget</th>
            <th scope="col">farm</th>
            <th scope="col">X</th>
            <th scope="col">Y</th>
            <th scope="col">P(X &gt; Y)</th>
          </tr>
        </thead>
        <tbody>
          {pairs.map((p) => (
            <tr>
              <td>{budgets[p.budget]?.title ?? p.budget}</td>
              <td>{p.env}</td>
              <td>{titleOf(p.x)}</td>
              <td>{titleOf(p.y)}</td>
              <td>{withInterval(p)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
