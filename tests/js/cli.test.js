// The `valley-farm` command as a user meets it: help on every command, options parsed the
// usual ways with clear refusals, outputs checked before training, progress that keeps its
// validation lines, and records (policy "run", curve) that say how a result was made.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { algorithms, loadPolicy, runDefaultsOf, settingFlag } from '../../wasm/learn/index.js';
import { ProgressLine, evaluationsLeft, secondsLeft } from '../../wasm/cli/progress.mjs';
import baselines from '../../wasm/data/baselines.json' with { type: 'json' };
import pkg from '../../package.json' with { type: 'json' };

const root = fileURLToPath(new URL('../..', import.meta.url));
const V = 'ValleyFarm-v0';
const B = 'BackwardsValleyFarm-v0';
const cli = (...args) => spawnSync(process.execPath, [`${root}wasm/cli/index.mjs`, ...args], { encoding: 'utf8', cwd: tmp() });
let dir = null;
const tmp = () => (dir ??= mkdtempSync(join(tmpdir(), 'vf-cli-')));

describe('help', () => {
  it('every command answers -h and --help with exit 0, and `help` lists the commands', () => {
    for (const args of [
      ['train', '--help'],
      ['train', '-h'],
      ['eval', '--help'],
      ['eval', '-h'],
      ['help'],
      ['help', 'train'],
      ['--help'],
    ]) {
      const r = cli(...args);
      expect(r.status, args.join(' ')).toBe(0);
      expect(r.stdout, args.join(' ')).toMatch(/usage: valley-farm/);
    }
    expect(cli('help').stdout).toMatch(/eval[\s\S]*train/);
    expect(cli('help', 'frobnicate').status).toBe(2);
  });

  it('train --help lists every learner setting with its default and meaning, from algorithms[algo]', () => {
    const text = cli('train', '--help').stdout;
    for (const [algo, { defaults, docs }] of Object.entries(algorithms)) {
      const section = text.slice(text.indexOf(`${algo} settings`));
      const followsRun = runDefaultsOf(algorithms[algo], 1);
      for (const [name, d] of Object.entries(defaults)) {
        const line = section.split('\n').find((l) => l.trimStart().startsWith(`${settingFlag(name)} `));
        expect(line, `${algo} ${name}`).toBeDefined();
        // a setting that follows the run's length (PPO's anneal) defaults to --steps
        expect(line).toContain(
          Object.hasOwn(followsRun, name) ? "(default the run's --steps)" : `(default ${Array.isArray(d) ? d.join(',') : d})`,
        );
        expect(line).toContain(docs[name]);
      }
    }
    for (const flag of ['--env', '--algo', '--steps', '--seed', '--out', '--log', '--log-format', '--eval-every'])
      expect(text).toContain(flag);
  });
});

describe('parsing', () => {
  it('--key=value works like --key value', () => {
    const r = cli('eval', 'heuristic', `--env=${V}`, '--episodes=3', '--json');
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).episodes).toBe(3);
  });

  it('an unknown flag is called unknown, with or without a value; a known one without its value needs one', () => {
    const lone = cli('train', '--env', V, '--frobnicate');
    expect(lone.status).toBe(2);
    expect(lone.stderr).toMatch(/unknown option --frobnicate/);
    expect(lone.stderr).not.toMatch(/needs a value/);
    expect(cli('eval', 'heuristic', '--env', V, '--frobnicate').stderr).toMatch(/unknown option --frobnicate/);
    expect(cli('eval', 'heuristic', '--env').stderr).toMatch(/--env needs a value/);
    expect(cli('eval', 'heuristic', '--env', V, '--json=yes').stderr).toMatch(/--json takes no value/);
  });

  it('a missing or unwritable --out or --log is refused before training, with exit 2 and no stack trace', () => {
    for (const args of [
      ['--out', '/nonexistent/dir/p.json'],
      ['--log', '/nonexistent/dir/curve.csv'],
      ['--out', tmp()],
    ]) {
      // 1e9 steps would take hours: the refusal must come first
      const r = cli('train', '--env', V, '--steps', '1e9', ...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`${args[0]} .* cannot be written: (the folder .* does not exist|.* is a folder)`));
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });
});

describe('progress', () => {
  /** A stream that keeps what is written. */
  const sink = (tty) => ({
    text: '',
    isTTY: tty,
    write(s) {
      this.text += s;
    },
  });

  it('in a terminal the progress line is rewritten and cleared whole, and a validation line stays on its own line', () => {
    const stream = sink(true);
    const screen = new ProgressLine({ stream });
    screen.update('steps 1,000 / 2,000  a long progress line');
    screen.note('validation at 1,000 steps: mean return 3.00');
    screen.update('steps 2,000 / 2,000');
    screen.done();
    const CLEAR = '\r\x1b[2K';
    expect(stream.text).toBe(
      `${CLEAR}steps 1,000 / 2,000  a long progress line${CLEAR}validation at 1,000 steps: mean return 3.00\nsteps 1,000 / 2,000  a long progress line${CLEAR}steps 2,000 / 2,000${CLEAR}`,
    );
  });

  it('outside a terminal a progress line is printed every `every` seconds, and kept lines as they come', () => {
    const stream = sink(false);
    let t = 0;
    const screen = new ProgressLine({ stream, every: 10, now: () => t });
    for (t = 0; t <= 25_000; t += 5_000) screen.update(`at ${t / 1000} s`);
    screen.note('validation');
    expect(stream.text).toBe('at 0 s\nat 10 s\nat 20 s\nvalidation\n');
  });

  it('the time left counts the validation runs to come and never goes negative', () => {
    expect(secondsLeft({ steps: 500, total: 1000, stepsPerSec: 100, evalsLeft: 2, evalSeconds: 6, evalsDone: 3 })).toBe(5 + 4);
    expect(secondsLeft({ steps: 1200, total: 1000, stepsPerSec: 100, evalsLeft: 0, evalSeconds: 6, evalsDone: 3 })).toBe(0);
    expect(evaluationsLeft(200, 1000, 100)).toBe(9); // at 200, 300, … 900, then at the end
    expect(evaluationsLeft(1000, 1000, 100)).toBe(1);
  });
});

describe('records', () => {
  it('a policy records its seed, steps, seconds, package version and command, and still loads; the curve carries losses and counts', async () => {
    const out = join(tmp(), 'ppo.json');
    const log = join(tmp(), 'ppo.jsonl');
    const args = [
      'train',
      '--env',
      V,
      '--algo',
      'ppo',
      '--imitate',
      '0',
      '--steps',
      '2048',
      '--num-envs',
      '16',
      '--seed',
      '7',
      '--eval-episodes',
      '3',
    ];
    const r = cli(...args, '--out', out, '--log', log, '--log-format', 'jsonl');
    expect(r.status, r.stderr).toBe(0);
    const json = JSON.parse(readFileSync(out, 'utf8'));
    expect(json.run).toMatchObject({ seed: 7, steps: 2048, package: `valley-farm@${pkg.version}` });
    expect(json.config.anneal).toBe(2048); // no --anneal: the step size falls to 0 over the run's --steps
    expect(json.run.command).toBe(`valley-farm ${[...args, '--out', out, '--log', log, '--log-format', 'jsonl'].join(' ')}`);
    expect(json.run.seconds).toBeGreaterThanOrEqual(json.run.trainSeconds);
    expect((await loadPolicy(json)).algo).toBe('ppo');
    const rows = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.at(-1).steps).toBe(2048);
    for (const k of ['policy_loss', 'value_loss', 'entropy', 'learning_rate', 'episodes', 'seconds', 'train_seconds'])
      expect(Number.isFinite(rows.at(-1)[k]), k).toBe(true);
    expect(rows.at(-1).validation_mean).toEqual(expect.any(Number));
    // outside a terminal, validation results are lines of their own
    expect(r.stderr).toMatch(/^validation at 2,048 steps: mean return /m);
  });

  it('curve.csv names its columns, losses, learning rate and episodes among them', () => {
    const log = join(tmp(), 'curve.csv');
    const r = cli('train', '--env', B, '--steps', '20000', '--out', join(tmp(), 'q.json'), '--log', log, '--eval-episodes', '3');
    expect(r.status, r.stderr).toBe(0);
    const [head, ...rows] = readFileSync(log, 'utf8').trim().split('\n');
    expect(head.split(',')).toEqual(
      expect.arrayContaining(['steps', 'seconds', 'train_seconds', 'episodes', 'policy_loss', 'value_loss', 'entropy', 'learning_rate']),
    );
    expect(rows.length).toBe(10);
    expect(Number(rows.at(-1).split(',')[head.split(',').indexOf('learning_rate')])).toBe(algorithms['tabular-q'].defaults.alpha);
  });
});

describe('eval', () => {
  it('--seeds A..B plays those seeds; --greedy and --sample choose how a saved ppo policy acts', () => {
    const out = join(tmp(), 'g.json');
    expect(
      cli(
        'train',
        '--env',
        V,
        '--algo',
        'ppo',
        '--imitate',
        '0',
        '--steps',
        '1024',
        '--num-envs',
        '16',
        '--eval-episodes',
        '1',
        '--out',
        out,
      ).status,
    ).toBe(0);
    const run = (...flags) => JSON.parse(cli('eval', out, '--env', V, '--seeds', '5..12', '--json', ...flags).stdout);
    const greedy = run('--greedy');
    expect(greedy.seeds).toEqual([5, 6, 7, 8, 9, 10, 11, 12]);
    expect(greedy.act).toBe('greedy');
    expect(run('--sample').act).toBe('sample');
    expect(cli('eval', out, '--env', V, '--greedy', '--sample').status).toBe(2);
    expect(cli('eval', 'heuristic', '--env', V, '--seeds', '1,2,x').stderr).toMatch(
      /--seeds must be a range A\.\.B or a comma-separated list/,
    );
    const q = join(tmp(), 'greedy-only.json');
    if (cli('train', '--env', V, '--steps', '1000', '--out', q).status !== 0) throw new Error('tabular run failed');
    const refused = cli('eval', q, '--env', V, '--sample');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/tabular-q policy can act --greedy only; --sample is for ppo, reinforce policies/);
  });

  it('random scores each seed as the reference row does (the mean of its runs per seed), so it matches that row', () => {
    const r = cli('eval', 'random', '--env', V, '--split', 'validation', '--episodes', '12', '--json');
    expect(r.status, r.stderr).toBe(0);
    const got = JSON.parse(r.stdout);
    expect(got.runsPerSeed).toBe(baselines.randomRuns);
    const reference = baselines.perSeed[V].validation.slice(0, 12).map((row) => row[1]);
    got.returns.forEach((x, i) => expect(x).toBeCloseTo(reference[i], 2));
    expect(cli('eval', 'random', '--env', V, '--episodes', '5').stdout).toMatch(/mean of 16 random plays/);
  });
});
