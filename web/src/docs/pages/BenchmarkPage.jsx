// BenchmarkPage.jsx — the evaluation protocol, its baseline table, the two ceilings, the
// results over training runs with their aggregates and profiles, and how to submit a result,
// generated from the committed data (wasm/data/baselines.json and best-known.json,
// docs/results/summary.json and budgets.json, docs/runs; no number typed here).
import baselines from '../../../../wasm/data/baselines.json';
import bestKnown from '../../../../wasm/data/best-known.json';
import resultsSummary from '../../../../docs/results/summary.json';
import budgets from '../../../../docs/results/budgets.json';
import { SPLITS } from 'valley-farm/splits';
import { algorithms } from 'valley-farm/learn';
import { Section, Toc } from '../components/Section.jsx';
import { TrackImprovements, TrackProfiles, TrackResults } from '../components/Results.jsx';
import { MARKDOWN_PAGES, MarkdownSections } from './MarkdownPage.jsx';

// docs/benchmark.md's narrative sections, shown here as written (its tables are this page's own, from the data)
const NOTES = ['how-ppo-learns', 'the-tuning-record'];
import { referenceRuns, settingsOf } from '../../model/referenceRuns.js';
import { heuristicValidation, pairedOverHeuristic, timeToHeuristic } from '../../model/timeToHeuristic.js';

export const BENCHMARK_SECTIONS = [
  ['protocol', 'The protocol'],
  ['table', 'Baselines'],
  ['ceiling', 'The ceilings'],
  ['window', 'The ceiling seen through the window'],
  ['results-over-training-runs', 'Results over training runs'],
  ['profiles', 'Performance profiles'],
  ['improvement', 'Probability of improvement'],
  ['learners', 'Reference runs'],
  ...MARKDOWN_PAGES.benchmark.sections.filter((s) => NOTES.includes(s.id)).map((s) => [s.id, s.title]),
  ['how-to-submit-a-result', 'How to submit a result'],
  ['run', 'Evaluate your agent'],
];

/** The learners the package ships, as the results tables list them: [{ key, title }]. */
export const shippedLearners = () => Object.entries(algorithms).map(([key, a]) => ({ key, title: a.title }));

/** A reference row of the baselines data whose agent name starts with `prefix`, or null. */
const referenceRow = (envId, prefix) => baselines.table[envId].find((r) => r.agent.startsWith(prefix)) ?? null;

/**
 * The results over training runs: one track (the 2-core machine kind's first, then others,
 * each apart), its tables, profiles and pairwise improvements. `summary` is
 * docs/results/summary.json unless a test gives another.
 */
export function resultsParts({ summary = resultsSummary, budgetList = budgets, envIds = Object.keys(baselines.table) } = {}) {
  const tracks = summary.tracks.length ? summary.tracks : [null];
  const learners = shippedLearners();
  const name = (t) => (t === null || t.track === '2-core' ? 'The 2-core track' : `Track ${t.track}`);
  return {
    results: tracks.map((t) => (
      <div data-track={t?.track ?? '2-core'}>
        {tracks.length > 1 && (
          <h3>
            {name(t)}: {t?.machine}
          </h3>
        )}
        <TrackResults track={t} budgets={budgetList} learners={learners} envIds={envIds} />
      </div>
    )),
    profiles: tracks.map((t) => (
      <div data-track={t?.track ?? '2-core'}>
        {tracks.length > 1 && <h3>{name(t)}</h3>}
        <TrackProfiles track={t} taus={summary.taus} budgets={budgetList} envIds={envIds} />
      </div>
    )),
    improvement: tracks.map((t) => (
      <div data-track={t?.track ?? '2-core'}>
        {tracks.length > 1 && <h3>{name(t)}</h3>}
        <TrackImprovements track={t} budgets={budgetList} />
      </div>
    )),
  };
}

const RUNS = referenceRuns();

const fmt = (x) => x.toFixed(2);

/** When a run's validation mean first reached the heuristic's on the same seeds: '4.2 min (31 M steps)', or 'not within the run'. */
function aboveHeuristic(run) {
  const t = timeToHeuristic(run, heuristicValidation(baselines, run.env));
  return t ? `${(t.seconds / 60).toFixed(1)} min (${(t.steps / 1e6).toFixed(1)} M steps)` : 'not within the run';
}

/** A paired difference as '+0.42 (0.21 – 0.64)'. */
export const signed = ({ mean, ci95 }) =>
  `${mean >= 0 ? '+' : '−'}${fmt(Math.abs(mean))} (${ci95.map((x) => fmt(x).replace('-', '−')).join(' – ')})`;

/**
 * Where a run stands against the heuristic, as the protocol decides "A beats B": the 95 %
 * interval of their paired difference over the same test seeds above 0 ('above'), below 0
 * ('below'), else the two are level.
 */
export function compared({ ci95: [low, high] }) {
  if (low > 0) return 'above';
  if (high < 0) return 'below';
  return 'level, within the paired 95 % interval, with';
}

/** The reference run with the best test mean on a farm, or null. */
export const bestRun = (envId) =>
  RUNS.filter((r) => r.env === envId).reduce((best, r) => (best === null || r.test.mean > best.test.mean ? r : best), null);

/** Rows of the baseline table for an env: { agent, mean, ci95, normalized }. */
export const baselineRows = (envId) => baselines.table[envId];

/** The view-limited planner's runs on a farm (baselines.json's viewLimited): the whole farm in view first. */
export const viewLimitedRuns = (envId) => baselines.viewLimited?.[envId] ?? [];

/** The baseline table's view-limited row of a farm, or undefined. */
const viewLimitedRow = (envId) => baselines.table[envId].find((r) => r.agent.startsWith('view-limited'));

/** A run's setting as the table names it. */
export const viewLimitedSetting = (r) =>
  r.completions === 0 ? 'whole farm in view' : `window, ${r.completions} completion${r.completions === 1 ? '' : 's'}`;

/** How many test seeds' best-known returns are proven optimal (equal to their bound). */
export function provenOptimal(envId) {
  const rows = bestKnown.envs[envId].test;
  return { proven: rows.filter(([, best, bound]) => best >= bound - 1e-9).length, of: rows.length };
}

const range = ({ first, last, count }) =>
  `${first.toLocaleString('en')} … ${last.toLocaleString('en')} (${count.toLocaleString('en')} seeds)`;

export function BenchmarkPage() {
  const sections = resultsParts();
  const ceilings = Object.keys(baselines.table).map((envId) => {
    const row = referenceRow(envId, 'view-limited');
    return row && { envId, row };
  });
  return (
    <article class="docs-page" data-page="benchmark">
      <h1>Benchmark</h1>
      <Toc page="benchmark" sections={BENCHMARK_SECTIONS} />
      <Section page="benchmark" id="protocol" title="The protocol">
        <ul>
          <li>
            <strong>test</strong>: seeds {range(SPLITS.test)}. Report these.
          </li>
          <li>
            <strong>validation</strong>: seeds {range(SPLITS.validation)}. Tune on these.
          </li>
          <li>
            <strong>train</strong>: every other seed. A reset without a seed draws above 2<sup>32</sup>, so default training never meets a
            held-out seed.
          </li>
        </ul>
        <p>
          Each agent plays each seed once. The table gives the mean return with its 95 % interval and the <strong>normalised score</strong>:
          per seed (return − random) / (best known − random), averaged. 0 is random play, 1 the best known play; where there is no room
          (best known ≤ random) a seed counts 1 if the return reaches the best known, else 0. Random is the mean of {baselines.randomRuns}{' '}
          seeded runs of the random agent on that seed.
        </p>
      </Section>
      <Section page="benchmark" id="table" title="Baselines">
        {Object.keys(baselines.table).map((envId) => (
          <table class="docs-table" data-table={`baselines-${envId}`}>
            <caption>{envId}, test split</caption>
            <thead>
              <tr>
                <th>agent</th>
                <th>mean return</th>
                <th>95 % interval</th>
                <th>normalised score</th>
              </tr>
            </thead>
            <tbody>
              {baselineRows(envId).map((r) => (
                <tr>
                  <td>{r.agent}</td>
                  <td>{fmt(r.mean)}</td>
                  <td>
                    {fmt(r.ci95[0])} – {fmt(r.ci95[1])}
                  </td>
                  <td>{fmt(r.normalized)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      </Section>
      <Section page="benchmark" id="ceiling" title="The ceilings">
        <p>
          Two ceilings bound what an agent can score. The <strong>best known</strong> play (normalised 1) sees the whole farm from the first
          step; an agent sees only its window.{' '}
          {ceilings.some(Boolean) ? (
            <>
              The <strong>view-limited planner</strong> plans over only what it has seen, filling the rest with layouts that agree with it:{' '}
              {ceilings
                .filter(Boolean)
                .map(({ envId, row }) => `${envId} ${fmt(row.mean)} (normalised ${fmt(row.normalized)})`)
                .join(', ')}
              . Between the two lies the price of not seeing; below the second, what a learner could still learn.
            </>
          ) : (
            <>A view-limited reference (a planner that sees only what the agent has seen) is not in the data yet.</>
          )}
        </p>
        <p>
          The best-known returns come from the engine's planner (<code>vf_plan_beam</code>): a beam search over full states that sees what
          no agent sees (
          {Object.entries(bestKnown.planner.width)
            .map(([envId, width]) => `${envId} ${width} states wide`)
            .join(', ')}
          ; the valley's expands whole trips, a walk along a shortest path and the action at its end). Each seed's plan is stored with it
          and replayed by the tests, so the numbers are always reachable. Its upper bound (<code>vf_plan_bound</code>) is what the seed's
          resources could still pay in the steps left (backwards: each bonus once, if it can be earned in time and a walk through all of
          them fits; valley: every crop the water can ripen, every feeding's products and every gift, all sold at the price the gifts could
          raise, each only if the steps left allow it).
        </p>
        <p>
          Then branch and bound (<code>vf_plan_prove</code>) proves each plan optimal or betters it: it searches every play and skips each
          state whose reward plus its bound cannot beat the best plan so far, or that it has searched already. In the valley it expands
          trips, which cover every play (moves change only where the agent stands and waits only the clock, so any play can be reordered
          into waits and shortest walks that end in an action); in the backwards farm every action but watering, fertilizing and cleaning
          (which only set a crop back, or do what feeding does). A seed it finishes is proven: its bound is then its best-known return.
        </p>
        <ul>
          {Object.keys(bestKnown.envs).map((envId) => {
            const { proven, of } = provenOptimal(envId);
            return (
              <li data-proven={envId}>
                {envId}: {proven} of {of} test seeds proven optimal (best known = upper bound).
              </li>
            );
          })}
        </ul>
      </Section>
      <Section page="benchmark" id="window" title="The ceiling seen through the window">
        <p>
          The best known play sees the whole farm from the first step; an agent sees the 5 × 5 square around it. The{' '}
          <strong>view-limited planner</strong> (<code>vf_view_act</code>, in the engine) estimates what the window allows. At each step it
          completes what it has seen into whole farms: each completion is drawn from the layout generator's own distribution given
          everything the agent saw, so it is a farm the generator could make and, replayed with the agent's actions, shows exactly the
          observations the agent saw (what they leave hidden, such as where the valley's agent stands or a backwards crop's value, is drawn
          from what the generator allows given them). It plans on each completion with the engine's beam, plays each plan on every
          completion, and takes the first action of the plan that earns the most across them; a completion that still agrees with what the
          agent sees is kept for the next step. The same decision made on the true state, with the whole farm in view and the same beam,
          shows what the window costs this planner:
        </p>
        {Object.keys(baselines.viewLimited ?? {}).map((envId) => (
          <table class="docs-table" data-table={`view-limited-${envId}`}>
            <caption>
              {envId}, test split, the beam {viewLimitedRuns(envId)[0]?.width} states wide
            </caption>
            <thead>
              <tr>
                <th>planner</th>
                <th>seeds</th>
                <th>mean return</th>
                <th>95 % interval</th>
                <th>normalised score</th>
                <th>− heuristic, paired</th>
                <th>− best known, paired</th>
                <th>CPU s an episode</th>
              </tr>
            </thead>
            <tbody>
              {viewLimitedRuns(envId).map((r) => (
                <tr>
                  <td>{viewLimitedSetting(r)}</td>
                  <td>{r.seeds.toLocaleString('en')}</td>
                  <td>{fmt(r.mean)}</td>
                  <td>
                    {fmt(r.ci95[0])} – {fmt(r.ci95[1])}
                  </td>
                  <td>{fmt(r.normalized)}</td>
                  <td>{signed(r.minusHeuristic)}</td>
                  <td>{signed(r.minusBestKnown)}</td>
                  <td>{r.cpuSecondsPerEpisode.toFixed(2)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
        <p>
          So there are two ceilings. The best known play is what the rules allow with the whole farm in view; the view-limited planner is
          what one agent reaches with the window. It is a floor under what the window allows, not a ceiling: each of its plans is made for
          one completion, so it never walks somewhere only to look, and a better explorer may reach more. A learner that scores below it is
          held back by what it learned, not by its window; one above it has found more than this planner in the window. Each seed's episode
          is in <code>docs/runs/view-limited/</code> (<code>npm run view-limited</code> plays them again).
        </p>
      </Section>
      <Section page="benchmark" id="results-over-training-runs" title="Results over training runs">
        <p>
          Each learner the package ships, trained with several seeds at fixed budgets (
          {Object.values(budgets)
            .map((b) => b.title)
            .join(', ')}
          ), each run's policy scored on the {SPLITS.test.count.toLocaleString('en')} test seeds. The number to cite is the{' '}
          <strong>IQM</strong>, the interquartile mean of the runs' normalised scores; the <strong>optimality gap</strong> is their mean
          shortfall below 1. Every number has its 95 % stratified bootstrap interval over runs (
          {resultsSummary.bootstrap.reps.toLocaleString('en')} resamples, seeded) and the number of runs behind it; rliable's definitions
          (Agarwal et al., NeurIPS 2021). Runs on other machines are kept in their own track.
        </p>
        {sections.results}
      </Section>
      <Section page="benchmark" id="profiles" title="Performance profiles">
        <p>
          For each normalised score τ, the fraction of runs that score above it: a curve further up and to the right is better at every
          level, and where two curves cross neither dominates.
        </p>
        {sections.profiles}
      </Section>
      <Section page="benchmark" id="improvement" title="Probability of improvement">
        <p>The chance that a run of one learner scores above a run of another on the same farm at the same budget (ties count half).</p>
        {sections.improvement}
      </Section>
      <Section page="benchmark" id="learners" title="Reference runs">
        <p>
          Reference runs of the package's learners (<code>valley-farm/learn</code>), one seed each, scored on the test split: the tuning
          record's runs, and the Lab's reference curve.
        </p>
        <table class="docs-table" data-table="runs">
          <thead>
            <tr>
              <th>env</th>
              <th>learner</th>
              <th>env steps</th>
              <th>wall time</th>
              <th>validation above the heuristic</th>
              <th>test mean</th>
              <th>− heuristic, paired (95 % interval)</th>
              <th>normalised score</th>
            </tr>
          </thead>
          <tbody>
            {RUNS.map((r) => (
              <tr>
                <td>{r.env}</td>
                <td>
                  {r.algo}
                  {settingsOf(r) && `, ${settingsOf(r)}`}
                </td>
                <td>{r.steps.toLocaleString('en')}</td>
                <td>{r.seconds} s</td>
                <td>{aboveHeuristic(r)}</td>
                <td>{fmt(r.test.mean)}</td>
                <td>{signed(pairedOverHeuristic(baselines, r))}</td>
                <td>{fmt(r.test.normalized)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p>
          Each run's command and learning curve are in <code>docs/runs/</code>. Against the hand-written heuristic and the ceiling:
        </p>
        <ul>
          {Object.keys(baselines.table).map((envId) => {
            const best = bestRun(envId);
            const mean = (agent) => baselines.table[envId].find((r) => r.agent.startsWith(agent)).mean;
            const heuristic = mean('heuristic');
            const paired = best && pairedOverHeuristic(baselines, best);
            return (
              best && (
                <li data-gap={envId}>
                  {envId}: the best run ({best.algo}
                  {settingsOf(best) && `, ${settingsOf(best)}`}, {Math.round(best.seconds / 60)} minutes) scores {fmt(best.test.mean)} (95 %
                  interval {fmt(best.test.ci95[0])} – {fmt(best.test.ci95[1])}), {compared(paired)} the heuristic's {fmt(heuristic)} on the
                  same seeds (run − heuristic {signed(paired)}); the best known play scores {fmt(mean('best known'))}
                  {viewLimitedRow(envId) && `, and the view-limited planner, with the window only, ${fmt(viewLimitedRow(envId).mean)}`}.
                </li>
              )
            );
          })}
        </ul>
        <p>
          An observation shows only the tiles around the agent. The heuristic keeps a map of all it has seen; a PPO policy with{' '}
          <code>memory</code> gets the same from features of what it has seen this episode (the nearest cell of each kind, where it has not
          looked), and learns much faster with it. Cloning the planner's play (<code>imitate</code>) starts PPO far above random. The
          planner sees the whole farm, with what no observation shows (a crop's value, a villager's bonus, a product waiting), so no policy
          that sees the farm as the agent does can follow all of its plans. Where a curve still rises at its end, longer runs score more; a
          recurrent core could learn what the memory's features leave out (which animals it fed, and when).
        </p>
      </Section>
      <MarkdownSections page={MARKDOWN_PAGES.benchmark} only={NOTES} />
      <Section page="benchmark" id="how-to-submit-a-result" title="How to submit a result">
        <ol>
          <li>
            Tune on the validation seeds only. The test seeds ({SPLITS.test.first.toLocaleString('en')} …{' '}
            {SPLITS.test.last.toLocaleString('en')}) are for the final score, never for choosing settings, seeds or checkpoints; a results
            file says so (<code>"tuning": "validation"</code>) and its checks refuse a command that plays test seeds while training.
          </li>
          <li>
            Make the runs on a quiet machine, one batch at a time. Each seed is trained at the budget, scored on the test split and added to
            its file with its policy; an interrupted batch continues where it stopped.
            <pre class="docs-pre" tabIndex={0}>
              <code>{`npm run results -- --learner ppo --env ValleyFarm-v0 --budget 35M --seeds 1-5
npm run results -- --learner ppo --env ValleyFarm-v0 --budget 10min --steps 100e6 --seeds 1-5
npm run results -- --learner ppo --env ValleyFarm-v0 --budget 35M --seeds 1-5 --track gpu-a100 --machine "A100, 8 cores"`}</code>
            </pre>
          </li>
          <li>
            The file format: <code>docs/results/README.md</code> and its JSON Schema <code>docs/results/schema.json</code>, one file per
            learner, farm and budget with a run per training seed (its command, settings, machine and load, steps, time, learning curve, and
            its return on every test seed). A learner of your own, or runs from another language, can write it directly; runs made on
            another machine go into a track named after it. <code>npm test</code> checks every file and replays a sample of each run's test
            seeds from its stored policy.
          </li>
        </ol>
      </Section>
      <Section page="benchmark" id="run" title="Evaluate your agent">
        <pre class="docs-pre" tabIndex={0}>
          <code>{`npx valley-farm eval my-agent.mjs --env ValleyFarm-v0 --split test
npx valley-farm eval heuristic --env BackwardsValleyFarm-v0 --json`}</code>
        </pre>
        <pre class="docs-pre" tabIndex={0}>
          <code>{`import { evaluate } from 'valley-farm/evaluate';
const r = await evaluate({ act: (observation, info) => 11 }, { env: 'ValleyFarm-v0', split: 'test' });
console.log(r.mean, r.ci95, r.normalized.mean);`}</code>
        </pre>
        <p>
          Regenerate the data with <code>npm run best-known</code> (the planner: the committed data took{' '}
          {Math.round(bestKnown.seconds / 60)} min, the two farms side by side on a core each) and <code>npm run baselines</code>;{' '}
          <code>npm run view-limited</code> plays the view-limited planner's runs again (hours of CPU; it goes on where it stopped).
        </p>
      </Section>
    </article>
  );
}
