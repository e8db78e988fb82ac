// baselines.mjs — `npm run baselines`: the reference agents on every test and validation
// seed, written to wasm/data/baselines.json:
//   perSeed[env][split]: [seed, random, heuristic] — random is the mean of the protocol's
//                         seeded runs of the uniformly random agent (engineSpec.protocol's
//                         randomRuns), heuristic the built-in heuristic's return (both the
//                         engine's agents, played by evaluate())
//   table[env]: random, heuristic, the view-limited planner (its best run over the whole test
//               split, docs/runs/view-limited) and best-known (wasm/data/best-known.json) on
//               the test split, each with mean, 95 % interval and normalised score
//               (wasm/evaluate.js)
//   viewLimited[env]: every run of the view-limited planner (scripts/view-limited.mjs) on the
//               seeds it played, with its paired differences from the heuristic and the best
//               known on the same seeds
// The Benchmark docs page and docs/benchmark.md's table (with the reference training runs of
// docs/runs) are generated from it; tests check both,
// and that the heuristic's numbers still come out of evaluate(). Run after best-known.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { engineSpec, envIds } from '../wasm/index.js';
import { SPLITS, splitSeeds } from '../wasm/splits.js';
import { evaluate, normalizedScore, summarize } from '../wasm/evaluate.js';
import { algorithms, settingsText } from '../wasm/learn/index.js';
import { readmeResultsTable, writeBetweenMarkers } from './results/summary.mjs';

const root = new URL('..', import.meta.url);

const round = (x) => Math.round(x * 1e4) / 1e4;

/** A run's learner as the tables name it (its title): PPO, or PPO, history 4 (settings beyond the defaults). */
export const learnerName = (run) => [algorithms[run.algo]?.title ?? run.algo, settingsText(run.settings)].filter(Boolean).join(', ');

/** The committed reference training runs (docs/runs/*.json, npm run reference-runs). */
export function referenceRuns() {
  const dir = new URL('docs/runs/', root);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(new URL(f, dir), 'utf8')));
}

/**
 * docs/benchmark.md's baseline table (markdown): the data's table, with each farm's trained
 * agents (the reference runs) between the heuristic and the best known.
 */
export function baselineTable(table, runs = []) {
  const f = (x) => x.toFixed(2);
  const lines = ['| env | agent | mean return (test) | 95 % interval | normalised score |', '|---|---|---:|---|---:|'];
  const row = (env, agent, mean, ci95, normalized) =>
    lines.push(`| ${env} | ${agent} | ${f(mean)} | ${f(ci95[0])} – ${f(ci95[1])} | ${f(normalized)} |`);
  for (const [env, rows] of Object.entries(table)) {
    for (const r of rows) {
      if (r.agent.startsWith('best'))
        for (const run of runs.filter((x) => x.env === env))
          row(
            env,
            `${learnerName(run)} (one seed, ${(run.steps / 1e6).toLocaleString('en')} M steps, ${run.seconds < 120 ? `${run.seconds} s` : `${Math.round(run.seconds / 60)} min`})`,
            run.test.mean,
            run.test.ci95,
            run.test.normalized,
          );
      row(env, r.agent, r.mean, r.ci95, r.normalized);
    }
  }
  return lines.join('\n');
}

/** The committed runs of the view-limited planner: { env: { runs: [...] } } (docs/runs/view-limited). */
export function viewLimitedData() {
  const dir = new URL('docs/runs/view-limited/', root);
  const out = {};
  if (!existsSync(dir)) return out;
  for (const f of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const data = JSON.parse(readFileSync(new URL(f, dir), 'utf8'));
    out[data.env] = data;
  }
  return out;
}

/**
 * A run of the view-limited planner against the baselines' per-seed data and the best-known
 * returns of the same seeds (the first of the test split): its summary, normalised score, and
 * its paired differences from the heuristic and from the best known (the protocol's mean and
 * 95 % interval of the per-seed differences).
 */
export function viewLimitedSummary(perSeed, best, run) {
  const rows = perSeed.slice(0, run.seeds.length);
  const bestOf = new Map(best.map(([seed, b]) => [seed, b]));
  run.seeds.forEach(([seed], i) => {
    if (rows[i]?.[0] !== seed)
      throw new Error(`view-limited run with ${run.completions} completions: seed ${seed} is not the test split's seed ${i + 1}`);
  });
  const returns = run.seeds.map((r) => r[1]);
  const s = summarize(returns);
  const paired = (other) => {
    const d = summarize(returns.map((r, i) => r - other[i]));
    return { mean: round(d.mean), ci95: d.ci95.map(round) };
  };
  const norm = rows.map(([seed, random], i) => normalizedScore(returns[i], random, bestOf.get(seed)));
  return {
    completions: run.completions,
    width: run.width,
    seeds: returns.length,
    mean: round(s.mean),
    stderr: round(s.stderr),
    ci95: s.ci95.map(round),
    normalized: round(norm.reduce((a, b) => a + b, 0) / norm.length),
    minusHeuristic: paired(rows.map((r) => r[2])),
    minusBestKnown: paired(rows.map(([seed]) => bestOf.get(seed))),
    cpuSecondsPerEpisode: run.cpuSecondsPerEpisode,
  };
}

/** The table's row: the view-limited run with the best mean over the whole test split, or null. */
export function viewLimitedRow(summaries, testSeeds) {
  const whole = summaries.filter((r) => r.completions > 0 && r.seeds === testSeeds);
  if (!whole.length) return null;
  const r = whole.reduce((a, b) => (b.mean > a.mean ? b : a));
  return {
    agent: `view-limited planner (${r.completions} completion${r.completions === 1 ? '' : 's'})`,
    mean: r.mean,
    stderr: r.stderr,
    ci95: r.ci95,
    normalized: r.normalized,
  };
}

/** Puts the view-limited runs (docs/runs/view-limited) into a baselines object: viewLimited and the table's row. */
export function withViewLimited(baselines, best) {
  baselines.viewLimited = {};
  for (const [env, data] of Object.entries(viewLimitedData())) {
    const summaries = data.runs.map((run) => viewLimitedSummary(baselines.perSeed[env].test, best.envs[env].test, run));
    baselines.viewLimited[env] = summaries;
    const table = baselines.table[env].filter((r) => !r.agent.startsWith('view-limited'));
    const row = viewLimitedRow(summaries, baselines.perSeed[env].test.length);
    if (row)
      table.splice(
        table.findIndex((r) => r.agent.startsWith('best')),
        0,
        row,
      );
    baselines.table[env] = table;
  }
  return baselines;
}

const writeBaselines = (out) =>
  writeFileSync(new URL('wasm/data/baselines.json', root), `${JSON.stringify(out).replace(/\],\[/g, '],\n[')}\n`);

/** Rewrites the view-limited parts of wasm/data/baselines.json from docs/runs/view-limited (npm run view-limited does). */
export function updateViewLimited() {
  const baselines = JSON.parse(readFileSync(new URL('wasm/data/baselines.json', root), 'utf8'));
  const best = JSON.parse(readFileSync(new URL('wasm/data/best-known.json', root), 'utf8'));
  writeBaselines(withViewLimited(baselines, best));
  console.log("[valley-farm] wasm/data/baselines.json's view-limited rows written");
  updateTables();
}

/**
 * Writes docs/benchmark.md's baseline table between its markers, and the README's results
 * table (whose reference rows are this data's); tests/js/evaluate_data.test.js checks both.
 */
export function updateTables() {
  const baselines = JSON.parse(readFileSync(new URL('wasm/data/baselines.json', root), 'utf8'));
  writeBetweenMarkers(new URL('docs/benchmark.md', root), 'baselines', baselineTable(baselines.table, referenceRuns()));
  const summary = JSON.parse(readFileSync(new URL('docs/results/summary.json', root), 'utf8'));
  writeBetweenMarkers(new URL('README.md', root), 'results', readmeResultsTable(summary, baselines));
  console.log("[valley-farm] docs/benchmark.md's baseline table and README.md's results table updated");
}
if (import.meta.url === `file://${process.argv[1]}`) await main();

async function main() {
  const best = JSON.parse(readFileSync(new URL('wasm/data/best-known.json', root), 'utf8'));
  const out = { format: 'valley-farm-baselines', version: 1, randomRuns: engineSpec.protocol.randomRuns, perSeed: {}, table: {} };
  for (const id of envIds) {
    out.perSeed[id] = {};
    for (const split of Object.keys(SPLITS)) {
      const seeds = splitSeeds(split);
      const random = (await evaluate('random', { env: id, seeds })).returns;
      const heuristic = (await evaluate('heuristic', { env: id, seeds })).returns;
      out.perSeed[id][split] = seeds.map((seed, i) => [seed, round(random[i]), round(heuristic[i])]);
    }
    const rows = out.perSeed[id].test;
    const bestOf = new Map(best.envs[id].test.map(([seed, b]) => [seed, b]));
    const line = (name, values) => {
      const s = summarize(values);
      const norm = rows.map(([seed, random], i) => normalizedScore(values[i], random, bestOf.get(seed)));
      return {
        agent: name,
        mean: round(s.mean),
        stderr: round(s.stderr),
        ci95: s.ci95.map(round),
        normalized: round(norm.reduce((a, b) => a + b, 0) / norm.length),
      };
    };
    out.table[id] = [
      line(
        'random',
        rows.map((r) => r[1]),
      ),
      line(
        'heuristic',
        rows.map((r) => r[2]),
      ),
      line(
        'best known (planner)',
        rows.map(([seed]) => bestOf.get(seed)),
      ),
    ];
    console.log(`[valley-farm] ${id}: ${out.table[id].map((l) => `${l.agent} ${l.mean.toFixed(2)}`).join(', ')}`);
  }
  writeBaselines(withViewLimited(out, best));
  console.log('[valley-farm] wasm/data/baselines.json written');

  updateTables();
}
