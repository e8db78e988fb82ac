// baselines.mjs — `npm run baselines`: the reference agents on every test and validation
// seed, written to wasm/data/baselines.json:
//   perSeed[env][split]: [seed, random, heuristic] — random is the mean of the protocol's
//                         seeded runs of the uniformly random agent (engineSpec.protocol's
//                         randomRuns), heuristic the built-in heuristic's return (both the
//                         engine's agents, played by evaluate())
//   table[env]: random, heuristic and best-known (wasm/data/best-known.json) on the test
//               split, each with mean, 95 % interval and normalised score (wasm/evaluate.js)
// The Benchmark docs page and docs/benchmark.md's table (with the reference training runs of
// docs/runs) are generated from it; tests check both,
// and that the heuristic's numbers still come out of evaluate(). Run after best-known.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
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
  writeFileSync(new URL('wasm/data/baselines.json', root), `${JSON.stringify(out).replace(/\],\[/g, '],\n[')}\n`);
  console.log('[valley-farm] wasm/data/baselines.json written');

  updateTables();
}
