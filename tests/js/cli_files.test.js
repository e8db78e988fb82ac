// The command line's files cannot hurt the user: a checkpoint is data (its paths are never
// obeyed, every field is checked before anything is opened), an output that exists is replaced
// only with --force, no two outputs are one file, a write that fails loses no run, and a
// finished run can be extended from the checkpoint it keeps.
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkCheckpoint, checkTrainRecord } from '../../wasm/learn/checkpointCheck.js';
import { algorithms, loadPolicy } from '../../wasm/learn/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cliPath = `${root}wasm/cli/index.mjs`;
const dir = mkdtempSync(join(tmpdir(), 'vf-files-'));
const cli = (...args) => spawnSync(process.execPath, [cliPath, ...args], { encoding: 'utf8', cwd: dir });
const V = 'ValleyFarm-v0';
/** A folder of its own for one case. */
const folder = (name) => {
  const f = join(dir, name);
  mkdirSync(f);
  return f;
};
const NO_STACK = /\n\s+at /;
/** A file's bytes and modification time: what a write would change. */
const fingerprint = (file) => [readFileSync(file, 'utf8'), statSync(file).mtimeMs];
/** A policy's weights as one list, in the order the learner core keeps them (its params). */
const flat = (policy) => policy.weights.flatMap((w) => w.values);

// A small PPO run, with a checkpoint at each of its 2 rollouts of 8 envs x 64 steps.
const R = 8 * 64;
const tiny = [
  '--env',
  V,
  '--algo',
  'ppo',
  '--imitate',
  '0',
  '--num-envs',
  '8',
  '--n-steps',
  '64',
  '--threads',
  '1',
  '--eval-episodes',
  '2',
];
let base; // its checkpoint at the end (parsed)
let baseCurve; // its curve.csv

beforeAll(() => {
  const r = cli('train', ...tiny, '--steps', String(2 * R), '--checkpoint-every', String(R), '--out', 'base.json', '--log', 'base.csv');
  if (r.status !== 0) throw new Error(r.stderr);
  base = JSON.parse(readFileSync(join(dir, 'base.json.ckpt'), 'utf8'));
  baseCurve = readFileSync(join(dir, 'base.csv'), 'utf8');
}, 120_000);

/** Writes a copy of the base checkpoint, changed by `change`, as FOLDER/run.json.ckpt beside a decoy file; returns both paths. */
function forged(name, change) {
  const f = folder(name);
  const ckpt = structuredClone(base);
  change(ckpt, f);
  const file = join(f, 'run.json.ckpt');
  writeFileSync(file, JSON.stringify(ckpt));
  const decoy = join(f, 'decoy.txt');
  writeFileSync(decoy, 'not yours to write\n');
  return { f, file, decoy };
}

describe('a checkpoint is data', () => {
  it("a checkpoint's record of its paths is never obeyed: a resumed run writes beside the checkpoint, and no other file changes", () => {
    const { f, file, decoy } = forged('paths', (c, f) => {
      // the record says the run wrote to the decoy and to an absolute path outside its folder
      c.cli.argv = [...c.cli.argv.slice(0, c.cli.argv.indexOf('--out')), '--out', join(f, 'decoy.txt'), '--log', join(dir, 'outside.csv')];
    });
    const before = fingerprint(decoy);
    const r = spawnSync(process.execPath, [cliPath, 'train', '--resume', file], { encoding: 'utf8', cwd: folder('elsewhere') });
    expect(r.status, r.stderr).toBe(0);
    expect(fingerprint(decoy)).toEqual(before);
    expect(existsSync(join(dir, 'outside.csv'))).toBe(false);
    expect(readdirSync(f).sort()).toEqual(['decoy.txt', 'run.csv', 'run.json', 'run.json.ckpt']);
    expect(readdirSync(join(dir, 'elsewhere'))).toEqual([]);
    // the checkpoint holds the curve so far: the file beside it is the whole curve
    expect(readFileSync(join(f, 'run.csv'), 'utf8')).toBe(baseCurve);
    expect(flat(JSON.parse(readFileSync(join(f, 'run.json'), 'utf8')))).toEqual(base.state.params);
  });

  it('a bad field is named in the error, with what is allowed there (every field, checked as data)', () => {
    const count = base.state.params.length;
    // Adam steps of 2 rollouts: 3 epochs of one minibatch each (the rollout of 512 fits in one of 1024)
    const adam = 2 * 3 * Math.ceil(R / 1024);
    const episodes = base.state.stats.episodes;
    const cases = [
      [
        (c) => (c.state.steps = 1024.5),
        /the checkpoint's state\.steps must be a whole number from 0 to 1000000000000, a multiple of 512 \(a rollout's numEnvs × nSteps\), got 1024\.5/,
      ],
      [(c) => (c.state.steps = 2 * R + 8), /state\.steps must be .*a multiple of 512 .*got 1032/],
      [(c) => (c.state.adamSteps = 2 ** 31 - 1), new RegExp(`state\\.adamSteps must be a whole number from 0 to ${adam}, got 2147483647`)],
      [(c) => (c.state.adamSteps = adam + 1), new RegExp(`state\\.adamSteps must be a whole number from 0 to ${adam}, got ${adam + 1}`)],
      [
        (c) => (c.state.stats.recent = new Array(1e5).fill(1)),
        new RegExp(`state\\.stats\\.recent must be an array of ${Math.min(100, episodes)} returns .*got 100000`),
      ],
      [(c) => (c.state.stats.recent[0] = null), /state\.stats\.recent\[0\] must be a finite number, got null/],
      [(c) => c.state.params.pop(), new RegExp(`state\\.params must be an array of ${count} numbers, got ${count - 1}`)],
      [(c) => (c.state.params[5] = 3.5e38), /state\.params\[5\] must be a number within ±3\.4e38, got 3\.5e\+38/],
      [
        (c) => (c.state.moments[count + 3] = -1),
        new RegExp(`state\\.moments\\[${count + 3}\\] must be a number from 0 to 3\\.4e38, got -1`),
      ],
      [(c) => c.state.shards.push(c.state.shards[0]), /state\.shards must be an array of 8 records \(one a shard\), got 9/],
      [(c) => (c.state.shards[3].rng = -1), /state\.shards\[3\]\.rng must be a whole number from 0 to 4294967295, got -1/],
      [(c) => c.state.shards[0].envs.pop(), /state\.shards\[0\]\.envs must be an array of 1 records \(one an env\), got 0/],
      [
        (c) => (c.state.shards[1].envs[0].seed = '1e400'),
        /state\.shards\[1\]\.envs\[0\]\.seed must be a seed from 0 to 2\^64 − 1, in decimal digits, got "1e400"/,
      ],
      [(c) => (c.state.shards[1].envs[0].seed = String(2n ** 64n)), /state\.shards\[1\]\.envs\[0\]\.seed must be a seed from 0 to 2\^64/],
      [
        (c) => (c.state.shards[2].envs[0].actions = [0, 12]),
        /state\.shards\[2\]\.envs\[0\]\.actions\[1\] must be a whole number from 0 to 11, got 12/,
      ],
      [
        (c) => (c.state.shards[2].envs[0].actions = new Array(50).fill(0)),
        /state\.shards\[2\]\.envs\[0\]\.actions must be the actions of an episode in progress \(fewer than 50\)/,
      ],
      [(c) => (c.state.learningRate = 5), /state\.learningRate must be a number from 0 to 0\.001, got 5/],
      [
        (c) => (c.state.restarted = 100),
        /state\.restarted must be a whole number from 0 to 0, got 100/, // restartEvery 0: its envs never restart
      ],
      [(c) => (c.state.stats.episodes = 1e9), /state\.stats\.episodes must be a whole number from 0 to 1024, got 1000000000/],
      [
        (c) => (c.state.stats.startMs = 0),
        /state\.stats has a field "startMs" of no use; its fields are updates, episodes, recent, losses, elapsedMs, imitation/,
      ],
      [(c) => (c.state.stats.losses.value = 'x'), /state\.stats\.losses\.value must be a finite number \(or null\), got "x"/],
      [
        (c) => (c.state.stats.imitation = { episodes: 1 }),
        /state\.stats\.imitation must be absent \(the run cloned no planner episodes: imitate 0\)/,
      ],
      [(c) => delete c.state.shards, /the checkpoint's state has no shards/],
      [(c) => (c.format = 'valley-farm-policy'), /not a checkpoint \(its "format" must be "valley-farm-checkpoint"\)/],
      [
        (c) => (c.version = 1),
        /the checkpoint's version must be 2 \(the version this package reads; a run saved by an earlier valley-farm resumes with that version\), got 1/,
      ],
      [
        (c) => (c.env = c.config.env = 'CartPole-v1'),
        /the checkpoint's env must be one of ValleyFarm-v0, BackwardsValleyFarm-v0, got "CartPole-v1"/,
      ],
      [(c) => (c.algo = c.config.algo = 'tabular-q'), /the checkpoint's algo must be a learner whose runs resume: ppo, got "tabular-q"/],
      [(c) => (c.seed = c.config.seed = 1.5), /the checkpoint's seed must be a whole number from 0 to 2147483648, got 1\.5/],
      [(c) => (c.config.seed = 2), /the checkpoint's config\.seed must be the checkpoint's seed, 1, got 2/],
      [(c) => (c.config.numEnvs = 0), /ppo checkpoint's setting numEnvs must be a whole number from 1 to 1024, got 0/],
      [(c) => delete c.config.gamma, /the checkpoint's config has no gamma/],
      [(c) => (c.config.hidden = [32, 32]), /state\.params must be an array of \d+ numbers/], // the state must fit the settings
      [(c) => (c.config.shards = 4), /state\.shards must be an array of 4 records/],
      [(c) => (c.cli.steps = 100), /the checkpoint's cli\.steps must be a whole number from 1024 to 1000000000000, got 100/],
      [(c) => (c.cli.nextEval = 7), /cli\.nextEval must be a whole number from 103 to 1127, a multiple of 103 \(evalEvery\), got 7/],
      [(c) => (c.cli.checkpointEvery = -1), /cli\.checkpointEvery must be a whole number from 0 to 1000000000000, got -1/],
      [(c) => (c.cli.checkpointSeconds = 5), /cli\.checkpointEvery must be a number of steps, or 0 with checkpointSeconds a time, got 512/],
      [(c) => (c.cli.logFormat = 'xml'), /cli\.logFormat must be "csv" or "jsonl", got "xml"/],
      [(c) => (c.cli.trainMs = -1), /cli\.trainMs must be a number from 0 to 10000000000000, got -1/],
      [(c) => (c.cli.evalEpisodes = 1e6), /cli\.evalEpisodes must be a whole number from 1 to 200, got 1000000/],
      [(c) => (c.cli.argv = 'rm -rf /'), /cli\.argv must be the command it was started with \(an array of strings\)/],
      [(c) => (c.cli.curve = 5), /cli\.curve must be the learning curve so far/],
      [(c) => (c.cli.out = '/etc/passwd'), /the checkpoint's cli has a field "out" of no use/],
    ];
    const check = (c) => {
      checkCheckpoint(c, algorithms);
      checkTrainRecord(c, algorithms);
    };
    expect(() => check(structuredClone(base))).not.toThrow();
    for (const [change, message] of cases) {
      const c = structuredClone(base);
      change(c);
      expect(() => check(c), String(change)).toThrow(message);
    }
  });

  it('the command refuses a bad checkpoint before it opens any file, naming the field, with no stack trace', () => {
    for (const [name, change, field] of [
      ['fraction', (c) => (c.state.steps = 1024.5), /state\.steps must be a whole number/],
      ['adam', (c) => (c.state.adamSteps = 2 ** 31 - 1), /state\.adamSteps must be a whole number from 0 to 6/],
      ['recent', (c) => (c.state.stats.recent = new Array(1e5).fill(0)), /state\.stats\.recent must be an array of/],
      ['eval', (c) => (c.cli.nextEval = 7), /cli\.nextEval must be/],
    ]) {
      const { f, file, decoy } = forged(`bad-${name}`, (c, f) => {
        change(c);
        c.cli.argv.push('--log', join(f, 'decoy.txt')); // a forger's wish: ignored, and refused anyway
      });
      const before = fingerprint(decoy);
      const r = cli('train', '--resume', file);
      expect(r.status, name).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^valley-farm train: --resume .*run\\.json\\.ckpt: the checkpoint's ${field.source}`));
      expect(r.stderr).not.toMatch(NO_STACK);
      expect(fingerprint(decoy)).toEqual(before);
      expect(readdirSync(f).sort()).toEqual(['decoy.txt', 'run.json.ckpt']);
    }
  });

  it("a resumed run whose curve file is gone writes the whole curve again from the checkpoint's, and another file is not taken for it", () => {
    const { f, file } = forged('no-log', () => {});
    const r = cli('train', '--resume', file, '--steps', String(3 * R));
    expect(r.status, r.stderr).toBe(0);
    const rows = readFileSync(join(f, 'run.csv'), 'utf8');
    expect(rows.startsWith(baseCurve)).toBe(true);
    expect(rows.trim().split('\n').at(-1)).toMatch(new RegExp(`^${3 * R},`));
    // a --log that is some other file is not this run's curve: refused without --force, untouched
    const other = join(f, 'other.csv');
    writeFileSync(other, 'steps,mine\n1,2\n');
    const before = fingerprint(other);
    const refused = cli('train', '--resume', file, '--out', join(f, 'again.json'), '--log', other);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/--log .*other\.csv exists: give --force to replace it, or name another file/);
    expect(fingerprint(other)).toEqual(before);
  });

  it('--resume takes only the options that make sense for a resumed run, and says which', () => {
    const { file } = forged('options', () => {});
    const r = cli('train', '--resume', file, '--env', V);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /--env cannot be given with --resume: a resumed run keeps its checkpoint's options and settings; --resume takes only --steps, --out, --log, --progress-every, --threads, --workers, --force/,
    );
    expect(cli('train', '--resume', file, '--learning-rate', '0.1').stderr).toMatch(/--learning-rate cannot be given with --resume/);
    expect(cli('train', '--resume', file, '--steps', '512').stderr).toMatch(
      /--steps 512: the checkpoint has trained 1024 steps already; give at least that many \(more extends the run\)/,
    );
    expect(cli('train', '--resume', file, '--threads', '0').stderr).toMatch(/--threads must be a whole number from 1 to 16, got 0/);
  });
});

describe('outputs that cannot destroy work', () => {
  const quick = ['train', '--env', V, '--steps', '200', '--eval-episodes', '1'];
  const never = ['train', '--env', V, '--steps', '1e9']; // hours of training: a refusal must come first

  it('--out refuses a file that exists without --force, and leaves it as it was; --force replaces it', () => {
    const f = folder('exists');
    const out = join(f, 'policy.json');
    writeFileSync(out, '{"the":"seven-minute run"}');
    const before = fingerprint(out);
    const r = cli(...never, '--out', out);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--out .*policy\.json exists: give --force to replace it, or name another file/);
    expect(r.stderr).not.toMatch(NO_STACK);
    expect(fingerprint(out)).toEqual(before);
    const log = join(f, 'curve.csv');
    writeFileSync(log, 'a curve\n');
    expect(cli(...never, '--out', join(f, 'new.json'), '--log', log).stderr).toMatch(/--log .*curve\.csv exists: give --force/);
    expect(readFileSync(log, 'utf8')).toBe('a curve\n');
    const forced = cli(...quick, '--out', out, '--log', log, '--force');
    expect(forced.status, forced.stderr).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).format).toBe('valley-farm-policy');
    expect(readdirSync(f).sort()).toEqual(['curve.csv', 'policy.json']); // no temporary file left
  });

  it("a new run refuses to write over an earlier run's checkpoint, and says how to continue it", () => {
    const f = folder('kept');
    writeFileSync(join(f, 'p.json.ckpt'), '{}');
    const r = cli(...never, '--algo', 'ppo', '--checkpoint-every', '1e6', '--out', join(f, 'p.json'));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /the checkpoint \(--out \+ \.ckpt\) .*p\.json\.ckpt exists: give --force .* --resume .*p\.json\.ckpt continues it/,
    );
    expect(readFileSync(join(f, 'p.json.ckpt'), 'utf8')).toBe('{}');
  });

  it('a device, a full disk or a folder that takes no file is refused before training, with a clear error', () => {
    for (const [flag, file, why] of [
      ['--out', '/dev/full', /--out \/dev\/full cannot be written: \/dev\/full is a device, not a file/],
      ['--log', '/dev/full', /--log \/dev\/full cannot be written: \/dev\/full is a device, not a file/],
      ['--out', '/proc/p.json', /--out \/proc\/p\.json cannot be written: /],
    ]) {
      const r = cli(...never, '--out', join(folder(`device-${flag.slice(2)}-${file.length}`), 'p.json'), flag, file);
      expect(r.status, `${flag} ${file}`).toBe(2);
      expect(r.stderr).toMatch(why);
      expect(r.stderr).not.toMatch(NO_STACK);
    }
  });

  it('outputs that are one file under two names are refused: symbolic links, a linked folder, a hard link, the checkpoint', () => {
    const f = folder('aliases');
    const curve = join(f, 'curve.csv');
    writeFileSync(curve, 'the curve\n');
    symlinkSync(curve, join(f, 'link.json'));
    symlinkSync(join(f, 'nowhere'), join(f, 'dangling.json'));
    symlinkSync(f, join(dir, 'aliases-link'));
    linkSync(curve, join(f, 'hard.json'));
    const before = fingerprint(curve);
    for (const [args, message] of [
      [
        ['--out', join(f, 'link.json')],
        /--out .*link\.json is a symbolic link \(to .*curve\.csv\): outputs are written to files, not through links/,
      ],
      [['--out', join(f, 'dangling.json')], /--out .*dangling\.json is a symbolic link \(to .*nowhere\)/],
      [
        ['--out', join(f, 'p.json'), '--log', join(dir, 'aliases-link', 'p.json')],
        /--log and --out name the same file \(.*aliases\/p\.json\)/,
      ],
      [['--out', join(f, 'hard.json'), '--log', curve, '--force'], /--log and --out name the same file/],
      [
        ['--out', join(f, 'q.json'), '--log', join(f, 'q.json.ckpt'), '--algo', 'ppo', '--checkpoint-every', '1e6'],
        /the checkpoint \(--out \+ \.ckpt\) and --log name the same file/,
      ],
    ]) {
      const r = cli(...never, ...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(NO_STACK);
    }
    expect(fingerprint(curve)).toEqual(before);
    expect(existsSync(join(f, 'nowhere'))).toBe(false);
    // a folder reached through a link is fine: it is the file that must be real
    const ok = cli(...quick, '--out', join(dir, 'aliases-link', 'real.json'));
    expect(ok.status, ok.stderr).toBe(0);
    expect(existsSync(join(f, 'real.json'))).toBe(true);
  });

  /** Runs `args` and, once `ready` shows on its stderr, puts a folder where its policy goes: its write fails at the end. */
  function blockedAtTheEnd(args, out, ready) {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [cliPath, ...args], { cwd: dir });
      let stderr = '';
      child.stderr.on('data', (d) => {
        stderr += d;
        if (ready.test(stderr) && !existsSync(out)) mkdirSync(out);
      });
      child.on('exit', (code) => resolve({ code, stderr }));
    });
  }

  it("a policy that cannot be written at the end stays in the run's checkpoint, and the message says how to get it back", async () => {
    const f = folder('blocked');
    const out = join(f, 'p.json');
    // 200 rollouts of 128 steps, a checkpoint after 100: the folder comes while the second 100 train
    const args = ['train', ...tiny, '--n-steps', '16', '--steps', '25600', '--checkpoint-every', '12800', '--eval-every', '25600'];
    const r = await blockedAtTheEnd([...args, '--out', out], out, /checkpoint at/);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(
      /could not write the policy to .*p\.json: a file of that name exists now \(made while the run trained\) \(EEXIST\); the run is saved in .*p\.json\.ckpt \(at 25,600 steps\): valley-farm train --resume .*p\.json\.ckpt --out OTHER\.json writes its policy/,
    );
    expect(r.stderr).not.toMatch(NO_STACK);
    const saved = JSON.parse(readFileSync(`${out}.ckpt`, 'utf8'));
    const again = cli('train', '--resume', `${out}.ckpt`, '--out', join(f, 'q.json'));
    expect(again.status, again.stderr).toBe(0);
    expect(flat(JSON.parse(readFileSync(join(f, 'q.json'), 'utf8')))).toEqual(saved.state.params);
    expect(readdirSync(f).sort()).toEqual(['p.json', 'p.json.ckpt', 'q.json', 'q.json.ckpt']); // no temporary file left
  }, 120_000);

  it('a run with no checkpoint whose policy cannot be written keeps it in the temporary folder, and says where', async () => {
    const f = folder('blocked-q');
    const out = join(f, 'p.json');
    const r = await blockedAtTheEnd(
      ['train', '--env', V, '--steps', '100000', '--eval-episodes', '1', '--progress-every', '0', '--out', out],
      out,
      /^steps /m,
    );
    expect(r.code, r.stderr).toBe(1);
    const rescued = /the policy is saved in (\S+\.json) instead/.exec(r.stderr)?.[1];
    expect(rescued, r.stderr).toBeDefined();
    const policy = await loadPolicy(JSON.parse(readFileSync(rescued, 'utf8')));
    expect([policy.algo, policy.env]).toEqual(['tabular-q', V]);
    rmSync(rescued);
  }, 120_000);
});

describe('a finished run can be extended', () => {
  it('a run of 2 rollouts keeps its checkpoint, and extended to 4 gives the policy of an unbroken run of 4 (the same anneal)', () => {
    const run = [...tiny, '--anneal', '0', '--checkpoint-every', String(R)];
    const f = folder('extend');
    const two = cli('train', ...run, '--steps', String(2 * R), '--out', join(f, 'two.json'));
    expect(two.status, two.stderr).toBe(0);
    const kept = readFileSync(join(f, 'two.json.ckpt'), 'utf8');
    expect(JSON.parse(kept).state.steps).toBe(2 * R);
    const extended = cli('train', '--resume', join(f, 'two.json.ckpt'), '--steps', String(4 * R), '--out', join(f, 'four.json'));
    expect(extended.status, extended.stderr).toBe(0);
    expect(extended.stderr).toMatch(/resumed at 1,024 steps, extended to 2,048/);
    const whole = cli('train', ...run, '--steps', String(4 * R), '--out', join(f, 'whole.json'));
    expect(whole.status, whole.stderr).toBe(0);
    const four = JSON.parse(readFileSync(join(f, 'four.json'), 'utf8'));
    expect(four.run.steps).toBe(4 * R);
    expect(flat(four)).toEqual(flat(JSON.parse(readFileSync(join(f, 'whole.json'), 'utf8'))));
    expect(flat(four)).not.toEqual(flat(JSON.parse(readFileSync(join(f, 'two.json'), 'utf8')))); // it did train on
    // the extension wrote its own checkpoint: the shorter run's is as it was
    expect(readFileSync(join(f, 'two.json.ckpt'), 'utf8')).toBe(kept);
    expect(JSON.parse(readFileSync(join(f, 'four.json.ckpt'), 'utf8')).state.steps).toBe(4 * R);
    // its default output is the shorter run's policy, which it does not replace without --force
    const same = cli('train', '--resume', join(f, 'two.json.ckpt'), '--steps', String(4 * R));
    expect(same.status).toBe(2);
    expect(same.stderr).toMatch(/--out .*two\.json exists: give --force/);
  }, 120_000);
});
