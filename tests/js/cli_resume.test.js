// A run that dies keeps what it trained: `valley-farm train --checkpoint-every N` saves the
// run beside its policy, and `--resume` continues a killed run to exactly the policy and the
// curve the unbroken run gives; a bad checkpoint is refused with what was wrong.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cliPath = `${root}wasm/cli/index.mjs`;
const dir = mkdtempSync(join(tmpdir(), 'vf-resume-'));
const cli = (...args) => spawnSync(process.execPath, [cliPath, ...args], { encoding: 'utf8', cwd: dir });
const run = (name) => [
  'train',
  '--env',
  'BackwardsValleyFarm-v0',
  '--algo',
  'ppo',
  '--steps',
  '65536',
  '--num-envs',
  '8',
  '--n-steps',
  '16',
  '--memory',
  '1',
  '--imitate',
  '0',
  '--threads',
  '2',
  '--checkpoint-every',
  '4096',
  '--eval-every',
  '32768',
  '--eval-episodes',
  '5',
  '--out',
  join(dir, `${name}.json`),
  '--log',
  join(dir, `${name}.csv`),
];
const curve = (name) =>
  readFileSync(join(dir, `${name}.csv`), 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.split(',').filter((_, i) => i !== 1 && i !== 2)); // all but the two times

describe('checkpoints', () => {
  it('a run killed after a checkpoint and resumed on another number of threads gives the same policy and curve as the unbroken run', async () => {
    expect(cli(...run('whole')).status).toBe(0);
    expect(existsSync(join(dir, 'whole.json.ckpt'))).toBe(true); // a finished run keeps its checkpoint (to be extended)

    const child = spawn(process.execPath, [cliPath, ...run('broken')], { cwd: dir, stdio: 'ignore' });
    const ckpt = join(dir, 'broken.json.ckpt');
    const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    for (let i = 0; i < 3000 && !existsSync(ckpt); i++) await new Promise((r) => setTimeout(r, 10));
    child.kill('SIGKILL');
    expect((await exited).signal).toBe('SIGKILL'); // killed mid-run, not finished
    const saved = JSON.parse(readFileSync(ckpt, 'utf8'));
    expect(saved.state.steps).toBeLessThan(65536);

    const resumed = cli('train', '--resume', ckpt, '--threads', '1'); // on another number of threads: the same bits
    expect(resumed.status).toBe(0);
    expect(resumed.stdout + resumed.stderr).toMatch(/resumed at [\d,]+ steps/);
    const whole = JSON.parse(readFileSync(join(dir, 'whole.json'), 'utf8'));
    const broken = JSON.parse(readFileSync(join(dir, 'broken.json'), 'utf8'));
    expect(broken.weights).toEqual(whole.weights);
    expect(curve('broken')).toEqual(curve('whole'));
  }, 120_000);

  it('--resume refuses a missing file and a file that is no checkpoint', () => {
    const missing = cli('train', '--resume', join(dir, 'nope.ckpt'));
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/--resume .*nope\.ckpt: no such file/);
    writeFileSync(join(dir, 'policy.ckpt'), JSON.stringify({ format: 'valley-farm-policy' }));
    const policy = cli('train', '--resume', join(dir, 'policy.ckpt'));
    expect(policy.status).toBe(2);
    expect(policy.stderr).toMatch(/--resume .*policy\.ckpt: not a checkpoint \(its "format" must be "valley-farm-checkpoint"\)/);
  });

  it('--checkpoint-every takes a time: the run is saved once that much time has passed', async () => {
    const out = join(dir, 'timed.json');
    const args = ['train', '--env', 'ValleyFarm-v0', '--algo', 'ppo', '--imitate', '0', '--num-envs', '8', '--n-steps', '16'];
    const child = spawn(process.execPath, [cliPath, ...args, '--steps', '1e8', '--checkpoint-every', '1s', '--out', out], {
      cwd: dir,
      stdio: 'ignore',
    });
    const ckpt = `${out}.ckpt`;
    for (let i = 0; i < 6000 && !existsSync(ckpt); i++) await new Promise((r) => setTimeout(r, 10));
    child.kill('SIGKILL');
    const saved = JSON.parse(readFileSync(ckpt, 'utf8'));
    expect(saved.state.steps).toBeGreaterThan(0); // between two calls of the learner, once a second had passed
    expect(saved.state.steps % 128).toBe(0); // whole rollouts of 8 envs x 16 steps
    expect([saved.cli.checkpointEvery, saved.cli.checkpointSeconds]).toEqual([0, 1]);
    expect(saved.cli.argv).toContain('1s');
    const bad = cli(...args, '--checkpoint-every', '10x');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/or a time such as 90s, 10m or 1h/);
  }, 90_000);

  it('--checkpoint-every is for ppo runs, and a whole number', () => {
    const tab = cli('train', '--env', 'ValleyFarm-v0', '--checkpoint-every', '1000');
    expect(tab.status).toBe(2);
    expect(tab.stderr).toMatch(/--checkpoint-every saves ppo runs/);
    const bad = cli('train', '--env', 'ValleyFarm-v0', '--algo', 'ppo', '--checkpoint-every', '2.5');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--checkpoint-every must be a whole number/);
  });
});
