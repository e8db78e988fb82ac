// evalRuns.mjs — `npx valley-farm eval --runs a.json b.json ... --env ENV`: several saved
// policies of one learner on one farm, one per training run (seed), each scored on the split
// with the protocol, then summed up over runs as the benchmark does (valley-farm/evaluate):
// IQM, mean, median and optimality gap of their normalised scores with 95 % stratified
// bootstrap intervals. One run is no estimate of a learner; this says how much the seed moves it.
import { readFile } from 'node:fs/promises';
import { aggregates, evaluate } from '../evaluate.js';

/** Loads each policy file, checked to be of one learner and this farm: [{ file, json, policy }]. */
async function loadRuns(files, env, act) {
  const { algorithms, loadPolicy } = await import('../learn/index.js');
  const runs = [];
  for (const file of files) {
    let json;
    try {
      json = JSON.parse(await readFile(file, 'utf8'));
    } catch (err) {
      throw new Error(`${file}: ${err.code === 'ENOENT' ? 'no such file' : `not a policy file (${err.message.slice(0, 80)})`}`);
    }
    const modes = algorithms[json?.algo]?.actModes;
    if (act && modes && !modes.includes(act))
      throw new Error(`${file}: a ${json.algo} policy can act ${modes.map((m) => `--${m}`).join(' or ')} only`);
    if (act && modes?.length > 1) json.act = act;
    const policy = await loadPolicy(json);
    if (policy.env !== env) throw new Error(`${file} is a policy for ${policy.env}, not ${env}`);
    runs.push({ file, json, policy });
  }
  const algos = [...new Set(runs.map((r) => r.json.algo))];
  if (algos.length > 1)
    throw new Error(`the policies are of ${algos.join(' and ')}; --runs sums up runs of one learner (compare learners run by run)`);
  return runs;
}

/**
 * Scores each policy on the split and aggregates: { env, split, learner, runs: [{ file,
 * seed, steps, mean, normalized }], aggregates: { runs, mean, median, iqm, optimalityGap } }.
 */
export async function evaluateRuns(files, { env, split = 'test', episodes, act = null, reps, seed } = {}) {
  const runs = await loadRuns(files, env, act);
  const scored = [];
  for (const r of runs) {
    const e = await evaluate(r.policy, { env, split, episodes });
    scored.push({
      file: r.file,
      seed: r.json.run?.seed ?? null,
      steps: r.json.run?.steps ?? null,
      mean: e.mean,
      normalized: e.normalized.mean,
    });
  }
  return {
    env,
    split,
    learner: runs[0].json.algo,
    runs: scored,
    aggregates: aggregates(
      scored.map((r) => r.normalized),
      { reps, seed },
    ),
  };
}

const f2 = (x) => (Math.abs(x) < 0.005 ? 0 : x).toFixed(2);
const ci = ({ estimate, low, high }) => `${f2(estimate)} | ${f2(low)} – ${f2(high)}`;

/** The result as the markdown tables eval prints. */
export function runsText(r) {
  const lines = [
    `${r.runs.length} runs of ${r.learner} on ${r.env}, ${r.split} split\n`,
    '| policy | training seed | mean return | normalised |',
    '|---|---:|---:|---:|',
  ];
  for (const x of r.runs) lines.push(`| ${x.file} | ${x.seed ?? '–'} | ${f2(x.mean)} | ${f2(x.normalized)} |`);
  const a = r.aggregates;
  lines.push(
    '',
    `Over the ${a.runs} runs (normalised scores; 95 % stratified bootstrap intervals):\n`,
    '| aggregate | estimate | 95 % interval |',
    '|---|---:|---|',
  );
  for (const [name, key] of [
    ['IQM', 'iqm'],
    ['mean', 'mean'],
    ['median', 'median'],
    ['optimality gap', 'optimalityGap'],
  ])
    lines.push(`| ${name} | ${ci(a[key])} |`);
  return lines.join('\n');
}
