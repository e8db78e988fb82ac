// summary.mjs — the results files (docs/results/<track>/*.json) summed up: per track, budget,
// farm and learner, how many runs, their test returns, and rliable's aggregates of their
// normalised scores with 95 % stratified bootstrap intervals (valley-farm/evaluate), the
// performance profile, and each pair of learners' probability of improvement. Written to
// docs/results/summary.json (what the Benchmark page reads) and as tables between markers in
// README.md and docs/benchmark.md. `npm run results -- --summarize` remakes all three; a test
// checks they are what the files give.
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as prettier from 'prettier';
import { envIds } from '../../wasm/index.js';
import { BOOTSTRAP_REPS, PROFILE_REPS, aggregates, improvement, performanceProfile } from '../../wasm/evaluate.js';
import { algorithms, settingsText } from '../../wasm/learn/index.js';
import { HOME_TRACK, RESULTS_DIR, budgetsOf, learnerKey, resultsFaults } from './check.mjs';

const root = new URL('../../', import.meta.url);
/** The τ grid of the performance profiles: normalised scores 0 … 1.2 in steps of 0.02. */
export const TAUS = Array.from({ length: 61 }, (_, i) => Math.round(i * 2) / 100);
const BOTH = 'both farms';

/** Every results file, checked: [{ path, json }] (a fault anywhere throws, naming every fault). */
export function collectResults(dir = RESULTS_DIR) {
  const budgets = budgetsOf(dir);
  const out = [];
  const faults = [];
  for (const track of readdirSync(dir, { withFileTypes: true })) {
    if (!track.isDirectory()) continue;
    for (const f of readdirSync(join(dir, track.name))
      .filter((n) => n.endsWith('.json'))
      .sort()) {
      const path = `docs/results/${track.name}/${f}`;
      let json;
      try {
        json = JSON.parse(readFileSync(join(dir, track.name, f), 'utf8'));
      } catch (err) {
        faults.push(`${path}: not JSON (${err.message.slice(0, 80)})`);
        continue;
      }
      faults.push(...resultsFaults(json, path, budgets).map((x) => `${path}: ${x}`));
      out.push({ path, json });
    }
  }
  if (faults.length) throw new Error(`the results files have faults:\n  ${faults.slice(0, 20).join('\n  ')}`);
  return out;
}

const r4 = (x) => Math.round(x * 1e4) / 1e4;
/**
 * An estimate with its 95 % bootstrap interval over `runs` training runs; of a single run, the
 * estimate alone: resampling one run gives it back every time, so its interval would be the
 * estimate itself and say nothing of the spread between runs. The tables (here and the
 * Benchmark page's) show an interval where the summary has one.
 */
const interval = ({ estimate, low, high }, runs) =>
  runs > 1 ? { estimate: r4(estimate), low: r4(low), high: r4(high) } : { estimate: r4(estimate) };
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** How tables name a learner with its settings: 'PPO', 'PPO, history 4'. */
export const learnerTitle = (algo, settings = {}) => [algorithms[algo]?.title ?? algo, settingsText(settings)].filter(Boolean).join(', ');

/**
 * The summary of results files: { format, version, bootstrap, taus, tracks: [{ track, machine,
 * rows, improvements }] }. A row is one learner at one budget on one farm (or on both farms,
 * from the seeds run on both: rliable's matrix of runs × tasks).
 */
export function summarizeResults(files, { reps = BOOTSTRAP_REPS, profileReps = PROFILE_REPS, seed = 1, budgets = budgetsOf() } = {}) {
  const tracks = [...new Set(files.map((f) => f.json.track))].sort((a, b) =>
    a === HOME_TRACK ? -1 : b === HOME_TRACK ? 1 : a.localeCompare(b),
  );
  return {
    format: 'valley-farm-results-summary',
    version: 1,
    bootstrap: { method: 'stratified, percentile', size: 0.95, reps, profileReps, seed },
    taus: TAUS,
    tracks: tracks.map((track) => {
      const mine = files.map((f) => f.json).filter((j) => j.track === track);
      const rows = [];
      const improvements = [];
      for (const budget of Object.keys(budgets)) {
        const learners = [...new Set(mine.filter((j) => j.budget === budget).map((j) => learnerKey(j)))];
        for (const env of [...envIds, BOTH]) {
          const matrices = new Map();
          for (const key of learners) {
            const byEnv = envIds.map((id) => mine.find((j) => j.budget === budget && j.env === id && learnerKey(j) === key));
            const file = env === BOTH ? byEnv.find(Boolean) : byEnv[envIds.indexOf(env)];
            if (!file) continue;
            let runs;
            let scores;
            if (env === BOTH) {
              if (byEnv.some((f) => !f)) continue;
              const seeds = byEnv[0].runs.map((r) => r.seed).filter((s) => byEnv.every((f) => f.runs.some((r) => r.seed === s)));
              if (!seeds.length) continue;
              runs = seeds.flatMap((s) => byEnv.map((f) => f.runs.find((r) => r.seed === s)));
              scores = seeds.map((s) => byEnv.map((f) => f.runs.find((r) => r.seed === s).test.normalized));
            } else {
              runs = file.runs;
              scores = runs.map((r) => r.test.normalized);
            }
            matrices.set(key, scores);
            const agg = aggregates(scores, { reps, seed });
            const profile = performanceProfile(scores, TAUS, { reps: profileReps, seed });
            const seeds = [...new Set(runs.map((r) => r.seed))];
            rows.push({
              budget,
              env,
              learner: key,
              algo: file.learner,
              settings: file.settings,
              title: learnerTitle(file.learner, file.settings),
              runs: seeds.length,
              seeds,
              steps: median(runs.map((r) => r.steps)),
              seconds: r4(median(runs.map((r) => r.seconds))),
              stepsPerSec: Math.round(median(runs.map((r) => r.stepsPerSec))),
              ...(env === BOTH
                ? {}
                : {
                    testMean: interval(
                      aggregates(
                        runs.map((r) => r.test.mean),
                        { reps, seed },
                      ).mean,
                      seeds.length,
                    ),
                  }),
              mean: interval(agg.mean, seeds.length),
              median: interval(agg.median, seeds.length),
              iqm: interval(agg.iqm, seeds.length),
              optimalityGap: interval(agg.optimalityGap, seeds.length),
              profile: { fraction: profile.fraction.map(r4), low: profile.low.map(r4), high: profile.high.map(r4) },
            });
          }
          const keys = [...matrices.keys()];
          for (const x of keys)
            for (const y of keys)
              if (x !== y)
                improvements.push({
                  budget,
                  env,
                  x,
                  y,
                  ...interval(
                    improvement(matrices.get(x), matrices.get(y), { reps, seed }),
                    Math.min(matrices.get(x).length, matrices.get(y).length),
                  ),
                });
        }
      }
      return { track, machine: mine[0].runs[0].machine.name, rows, improvements };
    }),
  };
}

const f2 = (x) => x.toFixed(2);
/** An estimate with its 95 % interval over runs, where it has one (see interval). */
const ci = (v) => (v.low === undefined ? f2(v.estimate) : `${f2(v.estimate)} (${f2(v.low)} – ${f2(v.high)})`);
const runsText = (n) => `${n} run${n === 1 ? '' : 's'}`;
/** The training runs (seeds) the benchmark makes of each learner at each budget (issue 45: at least 5). */
export const RUNS = 5;

/**
 * README.md's results table (markdown), one column per farm: the reference agents' normalised
 * score (and mean test return), then each learner the package ships at each budget it has
 * runs at: the IQM of its runs' normalised scores with its 95 % interval and how many runs; a
 * learner with none yet says so in one row. After each learner's rows come those of its runs
 * with settings of their own (PPO with a recurrent layer: "PPO, recurrent 32"), at the budgets
 * they have runs at.
 */
export function readmeResultsTable(summary, baselines, budgets = budgetsOf()) {
  const home = summary.tracks.find((t) => t.track === HOME_TRACK);
  const lines = [`| agent | ${envIds.join(' | ')} |`, `|---|${envIds.map(() => '---').join('|')}|`];
  for (const agent of baselines.table[envIds[0]].map((r) => r.agent)) {
    const cells = envIds.map((id) => {
      const r = baselines.table[id].find((x) => x.agent === agent);
      return r ? `${f2(r.normalized)} (return ${f2(r.mean)})` : '–';
    });
    lines.push(`| ${agent} | ${cells.join(' | ')} |`);
  }
  const short = ({ estimate, low, high }) => (low === undefined ? f2(estimate) : `${f2(estimate)} (${f2(low)}–${f2(high)})`);
  // the benchmark's number of runs goes without saying (the line under the table says it), so
  // the table stays short as rows are added; any other count is written in its cell
  const cell = (row) => (row.runs === RUNS ? short(row.iqm) : `${short(row.iqm)}, ${runsText(row.runs)}`);
  const rowsOf = (learner, title) => {
    const mine = Object.keys(budgets).filter((b) => home?.rows.some((r) => r.budget === b && r.learner === learner && r.env !== BOTH));
    for (const budget of mine) {
      const cells = envIds.map((env) => {
        const row = home.rows.find((r) => r.budget === budget && r.env === env && r.learner === learner);
        return row ? cell(row) : 'no runs yet';
      });
      lines.push(`| ${title}, ${budgets[budget].title} | ${cells.join(' | ')} |`);
    }
    return mine.length;
  };
  for (const algo of Object.keys(algorithms)) {
    if (!rowsOf(algo, learnerTitle(algo))) lines.push(`| ${learnerTitle(algo)} | ${envIds.map(() => 'no runs yet').join(' | ')} |`);
    const variants = new Map((home?.rows ?? []).filter((r) => r.algo === algo && r.learner !== algo).map((r) => [r.learner, r.title]));
    for (const [learner, title] of [...variants].sort((a, b) => a[1].localeCompare(b[1]))) rowsOf(learner, title); // by title: a variant after the one it extends
  }
  lines.push('', `A learner's cell: the IQM of its ${RUNS} training runs unless it names another count (of 1 run: no interval).`);
  return lines.join('\n');
}

/** docs/benchmark.md's results tables (markdown): per track and budget, every learner on each farm and on both. */
export function benchmarkResultsTables(summary, budgets = budgetsOf()) {
  if (!summary.tracks.length) return 'No runs yet: `npm run results` makes them (see "How to submit a result").';
  const out = [];
  for (const { track, machine, rows, improvements } of summary.tracks) {
    out.push(`### ${track === HOME_TRACK ? 'The 2-core track' : `Track ${track}`} (${machine})`, '');
    for (const budget of Object.keys(budgets)) {
      const mine = rows.filter((r) => r.budget === budget);
      out.push(`**${budgets[budget].title}**`, '');
      if (!mine.length) {
        out.push('No runs yet.', '');
        continue;
      }
      out.push(
        '| farm | learner | runs | test return, mean over runs | IQM | mean | optimality gap | median time |',
        '|---|---|---:|---|---|---|---|---:|',
      );
      for (const r of mine)
        out.push(
          `| ${r.env} | ${r.title} | ${r.runs} | ${r.testMean ? ci(r.testMean) : '–'} | ${ci(r.iqm)} | ${ci(r.mean)} | ${ci(r.optimalityGap)} | ${Math.round(r.seconds)} s |`,
        );
      const pairs = improvements.filter((p) => p.budget === budget && p.x < p.y);
      if (pairs.length) {
        out.push('', '| farm | P(X > Y) | X | Y |', '|---|---|---|---|');
        for (const p of pairs) out.push(`| ${p.env} | ${ci(p)} | ${p.x} | ${p.y} |`);
      }
      out.push('');
    }
  }
  return out.join('\n').trim();
}

/** Rewrites the text between `<!-- NAME:start -->` and `<!-- NAME:end -->` of a file. */
export function writeBetweenMarkers(url, name, text) {
  const body = readFileSync(url, 'utf8');
  const [start, end] = [`<!-- ${name}:start -->`, `<!-- ${name}:end -->`];
  if (!body.includes(start) || !body.includes(end)) throw new Error(`${url.pathname} has no ${start} … ${end} markers`);
  const next = `${body.slice(0, body.indexOf(start) + start.length)}\n${text}\n${body.slice(body.indexOf(end))}`;
  writeFileSync(`${url.pathname}.part`, next);
  renameSync(`${url.pathname}.part`, url.pathname);
}

/** The text between a file's markers (what writeBetweenMarkers put there). */
export function betweenMarkers(body, name) {
  const [start, end] = [`<!-- ${name}:start -->`, `<!-- ${name}:end -->`];
  return body.slice(body.indexOf(start) + start.length, body.indexOf(end)).trim();
}

/**
 * Remakes the summary.json of a results folder from its files and, for docs/results itself,
 * the tables of README.md and docs/benchmark.md.
 */
export async function writeSummary(dir = RESULTS_DIR, options = {}) {
  const summary = summarizeResults(collectResults(dir), { ...options, budgets: budgetsOf(dir) });
  const file = join(dir, 'summary.json');
  writeFileSync(file, await prettier.format(JSON.stringify(summary), { ...(await prettier.resolveConfig(file)), filepath: file }));
  if (dir !== RESULTS_DIR) return summary;
  const baselines = JSON.parse(readFileSync(new URL('wasm/data/baselines.json', root), 'utf8'));
  writeBetweenMarkers(new URL('README.md', root), 'results', readmeResultsTable(summary, baselines));
  writeBetweenMarkers(new URL('docs/benchmark.md', root), 'results', benchmarkResultsTables(summary));
  console.log('[valley-farm] docs/results/summary.json, README.md and docs/benchmark.md: results tables remade');
  return summary;
}
