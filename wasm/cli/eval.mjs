// eval.mjs — `npx valley-farm eval AGENT --env ENV [--split test|validation] [--episodes N] [--json]`
// Evaluates an agent with the protocol (wasm/evaluate.js) and prints a table, or JSON.
// AGENT: a built-in agent ('heuristic', 'random'), a saved policy (.json, from `valley-farm
// train`), or a module file exporting act(observation,
// info) (and optionally reset()), a default { act, reset }, or a default function that
// returns one.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createAgent } from '../agents/index.js';
import { envIds } from '../index.js';
import { evaluate } from '../evaluate.js';
import { SPLITS } from '../splits.js';

const USAGE =
  'usage: valley-farm eval AGENT --env ENV [--split test|validation] [--episodes N] [--json]\n  AGENT: heuristic, random, a policy .json, or a .mjs/.js file exporting act(observation, info)';

function parse(argv) {
  const opts = { json: false };
  const positional = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') opts.json = true;
    else if (a === '--env' || a === '--split' || a === '--episodes') {
      if (argv[i + 1] === undefined) throw new Error(`${a} needs a value`);
      opts[a.slice(2)] = argv[++i];
    } else if (a.startsWith('--')) throw new Error(`unknown option ${a.slice(0, 40)}`);
    else positional.push(a);
  }
  if (positional.length !== 1) throw new Error('name one agent');
  if (!envIds.includes(opts.env)) throw new Error(`--env must be one of ${envIds.join(', ')}`);
  if (opts.split !== undefined && !['test', 'validation'].includes(opts.split)) throw new Error('--split must be test or validation');
  if (opts.episodes !== undefined) {
    const n = Number(opts.episodes);
    const split = opts.split ?? 'test';
    const most = SPLITS[split].count; // an evaluation plays each seed of the split once
    if (!Number.isInteger(n) || n < 1 || n > most)
      throw new Error(
        `--episodes must be a whole number from 1 to ${most} (the ${split} split's seeds), got ${String(opts.episodes).slice(0, 40)}`,
      );
    opts.episodes = n;
  }
  return { agentName: positional[0], ...opts };
}

async function loadAgent(name, env) {
  if (name === 'heuristic' || name === 'random') return createAgent(name, env, { seed: 1 });
  if (name.endsWith('.json')) {
    // a saved policy (npx valley-farm train)
    const { readFile } = await import('node:fs/promises');
    const { loadPolicy } = await import('../learn/index.js');
    const policy = await loadPolicy(JSON.parse(await readFile(name, 'utf8')));
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

const fmt = (x) => (Number.isFinite(x) ? x.toFixed(2) : '–');

export async function main(argv) {
  let opts;
  try {
    opts = parse(argv);
  } catch (err) {
    console.error(`valley-farm eval: ${err.message}\n${USAGE}`);
    return 2;
  }
  let agent;
  try {
    agent = await loadAgent(opts.agentName, opts.env);
  } catch (err) {
    console.error(`valley-farm eval: cannot load the agent: ${err.message}`);
    return 2;
  }
  const r = await evaluate(agent, { env: opts.env, split: opts.split ?? 'test', episodes: opts.episodes });
  if (opts.json) {
    console.log(
      JSON.stringify({
        env: r.env,
        split: opts.split ?? 'test',
        episodes: r.seeds.length,
        mean: r.mean,
        stderr: r.stderr,
        ci95: r.ci95,
        normalized: r.normalized?.mean ?? null,
        reference: r.reference ?? null,
        returns: r.returns,
      }),
    );
    return 0;
  }
  console.log(`${opts.agentName} on ${r.env}, ${opts.split ?? 'test'} split, ${r.seeds.length} seeds\n`);
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
  }
  return 0;
}
