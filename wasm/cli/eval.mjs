// eval.mjs — `npx valley-farm eval AGENT --env ENV [--split test|validation | --seeds A..B]
//            [--episodes N] [--greedy | --sample] [--json]`
//            `npx valley-farm eval --runs POLICY.json POLICY.json ... --env ENV` (evalRuns.mjs)
// Evaluates an agent with the protocol (wasm/evaluate.js) and prints a table, or JSON.
// AGENT: a built-in agent ('heuristic', 'random'), a saved policy (.json, from `valley-farm
// train`), or a module file exporting act(observation, info) (and optionally reset()), a
// default { act, reset }, or a default function that returns one.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUILT_IN } from '../agents/index.js';
import { engineSpec, envIds, envSpecs } from '../index.js';
import { SPLITS } from '../splits.js';
import { evaluate } from '../evaluate.js';
import { registerLearnerFile } from './learnerFile.mjs';
import { UsageError, helpText, nearest, parseOptions, wantsHelp } from './args.mjs';

const USAGE =
  'valley-farm eval AGENT --env ENV [--split test|validation | --seeds A..B] [--episodes N] [--greedy|--sample] [--json]\n       valley-farm eval --runs POLICY.json POLICY.json ... --env ENV [--split test|validation] [--json]';
const MAX_SEEDS = 100_000;

const OPTIONS = {
  env: { arg: 'ENV', what: `the env: ${envIds.join(', ')} (required)` },
  split: { arg: 'SPLIT', default: 'test', what: 'the seeds played: test (the numbers to report) or validation (for tuning)' },
  seeds: { arg: 'A..B', what: 'play these seeds instead of a split: a range A..B (both included) or a list A,B,C' },
  episodes: { arg: 'N', what: 'play only the first N seeds (default: all of them)' },
  greedy: { what: 'a saved ppo policy takes its most probable action' },
  sample: { what: 'a saved ppo policy draws its action, seeded by the episode (default: as the policy was saved)' },
  json: { what: 'print the result as one JSON object' },
  learner: { arg: 'FILE', what: 'the file of the learner of your own that trained the policy (its learner is registered first)' },
  runs: {
    what: 'AGENT is several saved policies of one learner on one farm, one per training run: each is scored, then their normalised scores are summed up as the benchmark does (IQM, mean, median, optimality gap, with 95 % bootstrap intervals over runs)',
  },
};

export function help() {
  return helpText(
    USAGE,
    'Plays AGENT once on each seed and prints its mean return, standard error, 95 % interval and normalised\n' +
      'score (0: random play, 1: the best known play of each seed), with the reference agents on the same seeds.\n' +
      'AGENT: heuristic, random, a policy .json (valley-farm train) or its .onnx (valley-farm export), or a .mjs/.js file\n' +
      'exporting act(observation, info).\n' +
      'random is scored as the reference row is: the mean of several seeded runs on each seed.',
    [['options', OPTIONS]],
  );
}

/** '5..9' or '5,7,9' -> [5, ...]; clear errors for anything else. */
export function parseSeeds(text) {
  const range = /^(\d+)\.\.(\d+)$/.exec(text);
  const list = range ? null : text.split(',');
  if (range) {
    const [a, b] = [Number(range[1]), Number(range[2])];
    if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b) || b < a || b - a + 1 > MAX_SEEDS)
      throw new UsageError(`--seeds ${text.slice(0, 40)}: a range A..B needs A ≤ B, at most ${MAX_SEEDS.toLocaleString('en')} seeds`);
    return Array.from({ length: b - a + 1 }, (_, i) => a + i);
  }
  if (list.length > MAX_SEEDS || !list.every((s) => /^\d+$/.test(s) && Number.isSafeInteger(Number(s))))
    throw new UsageError(`--seeds must be a range A..B or a comma-separated list of whole numbers, got ${text.slice(0, 40)}`);
  return list.map(Number);
}

export function parse(argv) {
  const { values, positionals } = parseOptions(argv, OPTIONS, { positionals: true });
  if (values.runs) {
    if (!positionals.length || !positionals.every((p) => p.endsWith('.json')))
      throw new UsageError(
        '--runs takes saved policies (.json), one per training run: valley-farm eval --runs a.json b.json ... --env ENV',
      );
    if (values.seeds !== undefined)
      throw new UsageError('--runs scores runs on a split (test or validation), whose seeds have reference returns; not --seeds');
  } else if (positionals.length !== 1)
    throw new UsageError(positionals.length ? `name one agent, not ${positionals.length}` : 'name one agent');
  if (!envIds.includes(values.env)) throw new UsageError(`--env must be one of ${envIds.join(', ')}`);
  if (values.split !== undefined && !['test', 'validation'].includes(values.split))
    throw new UsageError('--split must be test or validation');
  if (values.split !== undefined && values.seeds !== undefined) throw new UsageError('give --split or --seeds, not both');
  if (values.greedy && values.sample) throw new UsageError('give --greedy or --sample, not both');
  const o = {
    agentName: positionals[0],
    runs: values.runs ? positionals : null,
    env: values.env,
    json: Boolean(values.json),
    act: values.greedy ? 'greedy' : values.sample ? 'sample' : null,
    learner: values.learner,
  };
  if (values.seeds !== undefined) o.seeds = parseSeeds(values.seeds);
  else o.split = values.split ?? 'test';
  if (values.episodes !== undefined) {
    const n = Number(values.episodes);
    // an evaluation plays each seed once: at most the split's (or the list's) seeds
    const most = o.seeds ? o.seeds.length : SPLITS[o.split].count;
    const of = o.seeds ? 'the seeds given' : `the ${o.split} split's seeds`;
    if (!Number.isInteger(n) || n < 1 || n > most)
      throw new UsageError(`--episodes must be a whole number from 1 to ${most} (${of}), got ${String(values.episodes).slice(0, 40)}`);
    o.episodes = n;
  }
  if (o.act && !isPolicyFile(o.agentName)) throw new UsageError(`--${o.act} chooses how a saved policy (.json or .onnx) acts`);
  if (o.runs && o.episodes !== undefined && o.episodes < SPLITS[o.split].count)
    throw new UsageError(`--runs scores every seed of the split; leave out --episodes`);
  if (!BUILT_IN.includes(o.agentName) && !existsSync(o.agentName)) {
    const near = nearest(o.agentName, BUILT_IN);
    throw new UsageError(
      `no agent ${String(o.agentName).slice(0, 60)}: ${near.length ? `did you mean ${near.join(' or ')}? ` : ''}AGENT is a built-in agent (${BUILT_IN.join(', ')}), a policy .json or a .mjs/.js file`,
    );
  }
  return o;
}

/** A saved policy's file: its JSON (valley-farm train), or an ONNX model of one (learn/onnx.js). */
const isPolicyFile = (name) => name.endsWith('.json') || name.endsWith('.onnx');

async function loadAgent(name, env, act) {
  if (BUILT_IN.includes(name)) return name; // played in the engine (evaluate.js)
  if (isPolicyFile(name)) {
    // a saved policy (npx valley-farm train), or its model (valley-farm export, torch's export)
    const { readFile } = await import('node:fs/promises');
    const { algorithms, loadPolicy } = await import('../learn/index.js');
    const json = name.endsWith('.onnx')
      ? (await (await import('./export.mjs')).onnxModule()).onnxToPolicy(await readFile(name))
      : JSON.parse(await readFile(name, 'utf8'));
    // how the policy picks its actions: one of its learner's actModes (loadPolicy names an unknown algo)
    const modes = algorithms[json?.algo]?.actModes;
    if (act && modes && !modes.includes(act)) {
      const can = Object.keys(algorithms).filter((a) => algorithms[a].actModes.includes(act));
      throw new Error(
        `a ${json.algo} policy can act ${modes.map((m) => `--${m}`).join(' or ')} only; --${act} is for ${can.join(', ')} policies`,
      );
    }
    if (act && modes?.length > 1) json.act = act;
    const policy = await loadPolicy(json);
    if (policy.env !== env) throw new Error(`${name} is a policy for ${policy.env}, not ${env}`);
    return policy;
  }
  const mod = await import(pathToFileURL(resolve(name)).href);
  let agent = typeof mod.act === 'function' ? { act: mod.act, reset: mod.reset } : mod.default;
  if (typeof agent === 'function' && typeof agent.act !== 'function') agent = await agent(env);
  if (!agent || typeof agent.act !== 'function')
    throw new Error(
      `${name} exports no act(observation, info): export a function act, a default { act }, or a default function returning one`,
    );
  return agent;
}

/** An error the agent's own code threw (not the protocol's): its message, and where in the agent's file. */
class AgentError extends Error {}

/**
 * `agent` with its actions counted: `illegal` of `actions` were illegal where it played them
 * (the env plays one as a wait; info.legal, which the agent is given, tells them apart). An
 * error thrown by the agent comes out as an AgentError.
 */
function counted(agent, env) {
  const names = envSpecs[env].actions;
  const tally = { actions: 0, illegal: 0 };
  const count = (a, legal) => {
    const i = typeof a === 'string' ? names.indexOf(a) : a;
    tally.actions++;
    if (Number.isInteger(i) && legal?.[i] === 0) tally.illegal++;
    return a;
  };
  const where = (err) => {
    const at = /\((file:[^)]*)\)|at (file:\S*)/.exec(String(err?.stack))?.slice(1).find(Boolean);
    return new AgentError(`${String(err?.message ?? err).slice(0, 200)}${at ? ` (at ${at})` : ''}`);
  };
  const wrapped = {
    act(observation, info) {
      let a;
      try {
        a = agent.act(observation, info);
      } catch (err) {
        throw where(err);
      }
      return a && typeof a.then === 'function'
        ? a.then(
            (x) => count(x, info.legal),
            (err) => Promise.reject(where(err)),
          )
        : count(a, info.legal);
    },
    reset: agent.reset && (() => agent.reset()),
  };
  return { agent: wrapped, tally };
}

// (-0.001 would show as -0.00)
const fmt = (x) => (Number.isFinite(x) ? (Math.abs(x) < 0.005 ? 0 : x).toFixed(2) : '–');

export async function main(argv) {
  if (wantsHelp(argv)) {
    process.stdout.write(help());
    return 0;
  }
  let opts;
  try {
    opts = parse(argv);
    if (opts.learner !== undefined) await registerLearnerFile(opts.learner, '--learner');
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`valley-farm eval: ${err.message}\nusage: ${USAGE}\n(valley-farm eval --help lists every option)`);
    return 2;
  }
  if (opts.runs) {
    const { evaluateRuns, runsText } = await import('./evalRuns.mjs');
    let r;
    try {
      r = await evaluateRuns(opts.runs, { env: opts.env, split: opts.split, act: opts.act });
    } catch (err) {
      console.error(`valley-farm eval --runs: ${err.message}`);
      return 2;
    }
    console.log(opts.json ? JSON.stringify(r) : runsText(r));
    return 0;
  }
  const runs = opts.agentName === 'random' ? engineSpec.protocol.randomRuns : 1;
  let agent;
  try {
    agent = await loadAgent(opts.agentName, opts.env, opts.act);
  } catch (err) {
    console.error(`valley-farm eval: cannot load the agent: ${err.message}`);
    return 2;
  }
  // the agent's actions, and how many were illegal (a built-in agent plays legal ones, in the engine)
  let tally = null;
  if (typeof agent !== 'string') ({ agent, tally } = counted(agent, opts.env));
  let r;
  try {
    r = await evaluate(agent, { env: opts.env, split: opts.split, seeds: opts.seeds, episodes: opts.episodes });
  } catch (err) {
    const said = String(err.message).replace(/^valley-farm: evaluate: /, '');
    console.error(`valley-farm eval: ${err instanceof AgentError ? `the agent threw: ${said}` : said}`);
    return 2;
  }
  const seedsText = opts.split ? `${opts.split} split` : `seeds ${r.seeds[0]}…${r.seeds.at(-1)}`;
  if (opts.json) {
    console.log(
      JSON.stringify({
        env: r.env,
        split: opts.split ?? null,
        episodes: r.seeds.length,
        runsPerSeed: runs,
        act: opts.act,
        mean: r.mean,
        stderr: r.stderr,
        ci95: r.ci95,
        normalized: r.normalized?.mean ?? null,
        reference: r.reference ?? null,
        actions: tally?.actions ?? null,
        illegalActions: tally?.illegal ?? null,
        seeds: r.seeds,
        returns: r.returns,
      }),
    );
    return 0;
  }
  console.log(`${opts.agentName}${opts.act ? ` (${opts.act})` : ''} on ${r.env}, ${seedsText}, ${r.seeds.length} seeds\n`);
  console.log('| agent | mean return | ± stderr | 95 % interval | normalised |');
  console.log('|---|---:|---:|---|---:|');
  console.log(
    `| ${opts.agentName} | ${fmt(r.mean)} | ${fmt(r.stderr)} | ${fmt(r.ci95[0])} – ${fmt(r.ci95[1])} | ${r.normalized ? fmt(r.normalized.mean) : '–'} |`,
  );
  if (r.reference) {
    for (const [name, value, norm] of [
      ['random', r.reference.random, 0],
      ['heuristic', r.reference.heuristic, null],
      ['best known', r.reference.bestKnown, 1],
    ]) {
      console.log(`| (${name}) | ${fmt(value)} | | | ${norm === null ? '' : fmt(norm)} |`);
    }
  } else console.log('\n(these seeds have no reference returns: the normalised score is kept for the test and validation splits)');
  if (tally)
    console.log(
      `\nillegal actions: ${tally.illegal.toLocaleString('en')} of ${tally.actions.toLocaleString('en')} (${((100 * tally.illegal) / Math.max(1, tally.actions)).toFixed(1)} %; the env plays each as a wait)`,
    );
  if (runs > 1)
    console.log(
      `\nrandom is scored as the reference row is: each seed's return is the mean of ${runs} random plays (agent seeds 1 … ${runs}).`,
    );
  return 0;
}
