// The command line's small messages: a mistyped option or agent gets the nearest names, a
// value that is not a number is echoed, an agent's bad action ends in one line and exit 2,
// and eval counts the actions an agent played that were illegal.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { envSpecs, make } from '../../wasm/index.js';
import { splitSeeds } from '../../wasm/splits.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'vf-messages-'));
const cli = (...args) => spawnSync(process.execPath, [`${root}wasm/cli/index.mjs`, ...args], { encoding: 'utf8', cwd: dir });
const V = 'ValleyFarm-v0';
const NO_STACK = /\n\s+at /;

it('a mistyped command suggests the nearest one, a swap of two letters among the near ones', () => {
  const r = cli('trian');
  expect(r.status).toBe(2);
  expect(r.stderr).toMatch(/^valley-farm: unknown command 'trian' \(did you mean train\?\)/);
  expect(cli('help', 'evl').stderr).toMatch(/no command 'evl' \(did you mean eval\?\)/);
  expect(cli('frobnicate').stderr).not.toMatch(/did you mean/);
});

describe('train', () => {
  it('an unknown option suggests the nearest names: --step for --steps, --num-env for --num-envs', () => {
    const r = cli('train', '--env', V, '--step', '5');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unknown option --step;.* did you mean --steps\?/);
    expect(cli('train', '--env', V, '--algo', 'ppo', '--num-env', '8').stderr).toMatch(/did you mean --num-envs\?/);
    expect(cli('train', '--env', V, '--frobnicate').stderr).not.toMatch(/did you mean/); // nothing is near it
  });

  it('a setting that is not a number is echoed in its error, with what is allowed', () => {
    const r = cli('train', '--env', V, '--algo', 'ppo', '--learning-rate', 'abc');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--learning-rate must be a number above 0 and at most 1, got abc/);
    expect(cli('train', '--env', V, '--algo', 'ppo', '--hidden', '64,big').stderr).toMatch(
      /--hidden must be an array of 1 to 4 layer sizes, each a whole number from 1 to 512, comma-separated, got 64,big/,
    );
    expect(cli('train', '--env', V, '--alpha', '').stderr).toMatch(/--alpha must be a number .*, got $/m);
  });
});

describe('eval', () => {
  it('a mistyped agent name suggests the built-in agents', () => {
    const r = cli('eval', 'heuristc', '--env', V);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /no agent heuristc: did you mean heuristic\? AGENT is a built-in agent \(heuristic, random\), a policy \.json or a \.mjs\/\.js file/,
    );
  });

  it("an agent's bad action ends in the command's one-line error and exit 2; so does an agent that throws, with where", () => {
    writeFileSync(join(dir, 'bad.mjs'), 'export const act = (o, info) => (info.step === 3 ? 99 : 0);\n');
    const r = cli('eval', 'bad.mjs', '--env', V, '--episodes', '2');
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      'valley-farm eval: on seed 1000000, step 3, act() returned 99; it must return an integer 0 … 11 or an action name\n',
    );
    writeFileSync(
      join(dir, 'throws.mjs'),
      'export function act(o, info) {\n  if (info.step === 2) throw new Error("boom");\n  return 0;\n}\n',
    );
    const thrown = cli('eval', 'throws.mjs', '--env', V, '--episodes', '2');
    expect(thrown.status).toBe(2);
    expect(thrown.stderr).toMatch(/^valley-farm eval: the agent threw: boom \(at file:.*throws\.mjs:2:\d+\)\n$/);
    expect(thrown.stderr).not.toMatch(NO_STACK);
  });

  it('eval reports how many of the actions the agent played were illegal, as the engine counts them', async () => {
    // always harvest: legal only where a crop is ripe
    writeFileSync(join(dir, 'harvest.mjs'), "export const act = () => 'harvest';\n");
    const r = cli('eval', 'harvest.mjs', '--env', V, '--episodes', '3', '--json');
    expect(r.status, r.stderr).toBe(0);
    const got = JSON.parse(r.stdout);
    const env = await make(V);
    let actions = 0;
    let illegal = 0;
    for (const seed of splitSeeds('test').slice(0, 3)) {
      env.reset({ seed });
      for (let done = false; !done;) {
        const step = env.step(envSpecs[V].actions.indexOf('harvest'));
        actions++;
        if (!step.info.actionWasLegal) illegal++;
        done = step.terminated || step.truncated;
      }
    }
    env.close();
    expect(illegal).toBeGreaterThan(0);
    expect([got.actions, got.illegalActions]).toEqual([actions, illegal]);
    expect(cli('eval', 'harvest.mjs', '--env', V, '--episodes', '3').stdout).toMatch(
      new RegExp(`illegal actions: ${illegal} of ${actions} \\(\\d+\\.\\d %; the env plays each as a wait\\)`),
    );
  });
});
