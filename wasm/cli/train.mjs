// train.mjs — `npx valley-farm train --env ENV [--algo tabular-q|ppo] [--steps N] [--seed S]
//             [--out policy.json] [--log curve.csv] [--eval-every N] [--SETTING VALUE ...]`
// Trains a learner (valley-farm/learn) with a progress line, evaluates it on the validation
// split as it goes, and writes the policy (JSON) and the learning curve (CSV). Any setting
// of the learner (algorithms[algo].defaults) is an option too, in kebab case:
// --history 4, --num-envs 128, --hidden 128,128. parse() is exported for the test that
// checks the commands recorded in docs/runs.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { SPLITS } from '../splits.js';
import { envIds } from '../index.js';
import { evaluate } from '../evaluate.js';
import { algorithms, createLearner, settingFlag } from '../learn/index.js';

const MAX_STEPS = 1e12;

const USAGE =
  'usage: valley-farm train --env ENV [--algo tabular-q|ppo] [--steps N] [--seed S] [--out policy.json] [--log curve.csv] [--eval-every N] [--eval-episodes N] [--SETTING VALUE, e.g. --history 4]';

export function parse(argv) {
  const o = { algo: 'tabular-q', steps: 1e6, seed: 1, out: 'policy.json', log: null, evalEvery: null, evalEpisodes: 50 };
  const names = {
    '--env': 'env',
    '--algo': 'algo',
    '--steps': 'steps',
    '--seed': 'seed',
    '--out': 'out',
    '--log': 'log',
    '--eval-every': 'evalEvery',
    '--eval-episodes': 'evalEpisodes',
  };
  const rest = []; // options that may be the learner's settings, read once the algo is known
  for (let i = 0; i < argv.length; i += 2) {
    if (argv[i + 1] === undefined) throw new Error(`${String(argv[i]).slice(0, 40)} needs a value`);
    if (names[argv[i]]) o[names[argv[i]]] = argv[i + 1];
    else rest.push([argv[i], argv[i + 1]]);
  }
  if (!envIds.includes(o.env)) throw new Error(`--env must be one of ${envIds.join(', ')}`);
  if (!Object.hasOwn(algorithms, o.algo)) throw new Error(`--algo must be one of ${Object.keys(algorithms).join(', ')}`);
  const defaults = algorithms[o.algo].defaults;
  o.settings = {};
  for (const [flag, value] of rest) {
    const name = Object.keys(defaults).find((k) => settingFlag(k) === flag);
    if (!name)
      throw new Error(
        `unknown option ${String(flag).slice(0, 40)}; ${o.algo}'s settings are ${Object.keys(defaults).map(settingFlag).join(', ')}`,
      );
    // a list (hidden layers) is comma-separated; createLearner checks every value
    o.settings[name] = Array.isArray(defaults[name]) ? value.split(',').map(Number) : Number(value);
  }
  // the largest value of each: a run of a trillion steps, every validation seed (what the
  // run is evaluated on); the learner checks the seed's range
  const most = { steps: MAX_STEPS, seed: Number.MAX_SAFE_INTEGER, evalEvery: MAX_STEPS, evalEpisodes: SPLITS.validation.count };
  for (const k of ['steps', 'seed', 'evalEvery', 'evalEpisodes']) {
    if (o[k] === null) continue;
    const n = Number(o[k]);
    const least = k === 'seed' ? 0 : 1;
    if (!Number.isInteger(n) || n < least || n > most[k]) {
      const range = k === 'seed' ? 'a non-negative whole number' : `a whole number from ${least} to ${most[k]} (5e6 is fine)`;
      throw new Error(`${settingFlag(k)} must be ${range}, got ${String(o[k]).slice(0, 40)}`);
    }
    o[k] = n;
  }
  if (o.log !== null && resolve(o.log) === resolve(o.out))
    throw new Error(
      `--log and --out name the same file (${String(o.out).slice(0, 80)}): the curve would replace the policy; give them different names`,
    );
  o.evalEvery ??= Math.max(o.steps / 10, 1);
  return o;
}

export async function main(argv) {
  let o;
  try {
    o = parse(argv);
  } catch (err) {
    console.error(`valley-farm train: ${err.message}\n${USAGE}`);
    return 2;
  }
  let learner;
  try {
    learner = await createLearner({ env: o.env, algo: o.algo, seed: o.seed, ...o.settings });
  } catch (err) {
    console.error(`valley-farm train: ${err.message}\n${USAGE}`);
    return 2;
  }
  const curve = [['steps', 'seconds', 'mean_return_last_100', 'validation_mean', 'validation_normalized']];
  const chunk = Math.min(o.evalEvery, 50_000);
  let nextEval = o.evalEvery;
  let p = learner.progress();
  if (o.settings.imitate > 0) console.error(`cloning ${o.settings.imitate.toLocaleString('en')} of the planner's episodes first…`);
  while (p.steps < o.steps) {
    const cloned = Boolean(p.imitation);
    p = await learner.trainFor(Math.min(chunk, o.steps - p.steps));
    if (!cloned && p.imitation)
      console.error(
        `cloned the planner: ${p.imitation.samples.toLocaleString('en')} steps of its play in ${p.imitation.seconds.toFixed(1)} s (cross-entropy ${p.imitation.loss.toFixed(3)})`,
      );
    let val = null;
    if (p.steps >= nextEval || p.steps >= o.steps) {
      nextEval += o.evalEvery;
      val = await evaluate(learner.policy(), { env: o.env, split: 'validation', episodes: o.evalEpisodes });
    }
    curve.push([
      p.steps,
      (p.elapsedMs / 1000).toFixed(1),
      p.meanReturn?.toFixed(3) ?? '',
      val ? val.mean.toFixed(3) : '',
      val ? val.normalized.mean.toFixed(4) : '',
    ]);
    const left = p.stepsPerSec > 0 ? (o.steps - p.steps) / p.stepsPerSec : 0;
    const line = `steps ${p.steps.toLocaleString('en')} / ${o.steps.toLocaleString('en')}  ${Math.round(p.stepsPerSec).toLocaleString('en')} steps/s  mean return ${p.meanReturn?.toFixed(2) ?? '–'}${val ? `  validation ${val.mean.toFixed(2)} (normalised ${val.normalized.mean.toFixed(3)})` : ''}  ${Math.round(left)} s left`;
    if (process.stderr.isTTY) process.stderr.write(`\r${line}   `);
    else if (val) console.error(line);
  }
  if (process.stderr.isTTY) process.stderr.write('\n');
  writeFileSync(o.out, JSON.stringify(learner.policy().toJSON()));
  if (o.log) writeFileSync(o.log, `${curve.map((r) => r.join(',')).join('\n')}\n`);
  console.log(
    `wrote ${o.out}${o.log ? ` and ${o.log}` : ''}: ${o.algo} on ${o.env}, ${p.steps} steps in ${(p.elapsedMs / 1000).toFixed(1)} s`,
  );
  learner.dispose();
  return 0;
}
