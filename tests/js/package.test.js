// The package as npm would publish it (package.json "files" and "exports"): packed,
// unpacked into a fresh project's node_modules, and imported by its name.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'valley-farm-pack-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const readme = readFileSync(join(root, 'README.md'), 'utf8');
const quickStart = [...readme.slice(readme.indexOf('## Node quick start')).matchAll(/```js\n([\s\S]*?)```/g)][0][1];

it('npm pack ships the engine, the types, the agents, the protocol, the learners and nothing else', () => {
  const [{ files }] = JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }),
  );
  const paths = files.map((f) => f.path).sort();
  expect(paths).toEqual(
    [
      'LICENSE',
      'README.md',
      'core/include/valley_farm.h',
      'package.json',
      'wasm/index.d.ts',
      'wasm/farm_types.d.ts',
      'wasm/errors.js',
      'wasm/index.js',
      'wasm/engine.js',
      'wasm/env.js',
      'wasm/vec.js',
      'wasm/seeds.js',
      'wasm/features.js',
      'wasm/observations.js',
      'wasm/rng.js',
      'wasm/spaces.js',
      'wasm/specs.js',
      'wasm/engine_spec.js',
      'wasm/valley_farm.wasm',
      'wasm/agents/index.d.ts',
      'wasm/agents/index.js',
      'wasm/evaluate.js',
      'wasm/aggregate.js',
      'wasm/evaluate.d.ts',
      'wasm/splits.js',
      'wasm/standalone.js',
      'wasm/splits.d.ts',
      'wasm/data/best-known.json',
      'wasm/data/baselines.json',
      'wasm/data/onnx-rules.json',
      'wasm/cli/args.mjs',
      'wasm/cli/index.mjs',
      'wasm/cli/progress.mjs',
      'wasm/cli/eval.mjs',
      'wasm/cli/outputs.mjs',
      'wasm/cli/evalRuns.mjs',
      'wasm/cli/learnerFile.mjs',
      'wasm/cli/train.mjs',
      'wasm/cli/export.mjs',
      'wasm/learn/cloning.js',
      'wasm/learn/checkpointCheck.js',
      'wasm/learn/core.js',
      'wasm/learn/dqn.js',
      'wasm/learn/encode.js',
      'wasm/learn/exchange.js',
      'wasm/learn/frames.js',
      'wasm/learn/imitate.js',
      'wasm/learn/index.d.ts',
      'wasm/learn/index.js',
      'wasm/learn/kit.js',
      'wasm/learn/learner.wasm',
      'wasm/learn/limits.js',
      'wasm/learn/memory.js',
      'wasm/learn/netPolicy.js',
      'wasm/learn/onnx.js',
      'wasm/learn/onnx.d.ts',
      'wasm/learn/packedTable.js',
      'wasm/learn/perception.js',
      'wasm/learn/policyCheck.js',
      'wasm/learn/policyFile.js',
      'wasm/learn/ppo.js',
      'wasm/learn/progress.js',
      'wasm/learn/registry.js',
      'wasm/learn/reinforce.js',
      'wasm/learn/run.js',
      'wasm/learn/seenEnvs.js',
      'wasm/learn/sequences.js',
      'wasm/learn/settings.js',
      'wasm/learn/tabularQ.js',
      'wasm/learn/threadWorker.js',
      'wasm/learn/threads.js',
    ].sort(),
  );
});

it("the README's Node quick start, pasted into a fresh project after installing the packed package, prints both agents' returns", () => {
  const [{ filename }] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', dir], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  );
  const project = join(dir, 'project');
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'fresh', version: '1.0.0', type: 'module' }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', join(dir, filename)], { cwd: project, stdio: 'ignore' });
  writeFileSync(join(project, 'quickstart.mjs'), quickStart);
  const out = execFileSync(process.execPath, ['quickstart.mjs'], { cwd: project, encoding: 'utf8' });
  const mean = (name) => Number(out.match(new RegExp(`${name}\\s+mean return (\\d+\\.\\d+) over seeds 1-20`))[1]);
  expect(mean('heuristic')).toBeGreaterThan(mean('random') + 5);
  // the command line comes with the package: npx valley-farm eval
  const evalOut = execFileSync(
    'npx',
    ['--no-install', 'valley-farm', 'eval', 'heuristic', '--env', 'BackwardsValleyFarm-v0', '--episodes', '5', '--json'],
    { cwd: project, encoding: 'utf8' },
  );
  expect(JSON.parse(evalOut).returns).toHaveLength(5);
  // ONNX needs the optional peer onnx-proto, which a plain install leaves out: said with the fix
  const fixture = JSON.parse(readFileSync(join(root, 'tests/js/fixtures/ppo-policies-624fbe8.json'), 'utf8'));
  writeFileSync(join(project, 'p.json'), JSON.stringify(fixture['ValleyFarm-v0'].policy));
  const exported = spawnSync('npx', ['--no-install', 'valley-farm', 'export', 'p.json', '--onnx', 'p.onnx'], {
    cwd: project,
    encoding: 'utf8',
  });
  expect(exported.status).toBe(2);
  expect(exported.stderr).toMatch(/needs the onnx-proto package beside valley-farm: npm install onnx-proto/);
  // and its help, which reads the package's own version
  expect(execFileSync('npx', ['--no-install', 'valley-farm', 'train', '--help'], { cwd: project, encoding: 'utf8' })).toMatch(/--num-envs/);
});

it('the README says how to install the package today: npm pack in a checkout, then npm install of the file it writes', () => {
  const [{ filename }] = JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }),
  );
  const install = readme.slice(readme.indexOf('## Install'), readme.indexOf('## Node quick start'));
  expect(install).toMatch(/^npm pack\b/m);
  expect(install).toContain(`npm install ../valley-farm/${filename}`);
});

it('a missing engine file is an error that names the file and the fix', () => {
  const installed = join(dir, 'broken/node_modules/valley-farm');
  mkdirSync(join(installed, 'wasm'), { recursive: true });
  for (const f of [
    'package.json',
    'wasm/index.js',
    'wasm/engine.js',
    'wasm/env.js',
    'wasm/vec.js',
    'wasm/seeds.js',
    'wasm/features.js',
    'wasm/observations.js',
    'wasm/specs.js',
    'wasm/engine_spec.js',
    'wasm/spaces.js',
    'wasm/rng.js',
    'wasm/standalone.js',
    'wasm/errors.js',
  ])
    writeFileSync(join(installed, f), readFileSync(join(root, f)));
  const run = () =>
    execFileSync(process.execPath, ['--input-type=module', '-e', "import { make } from 'valley-farm'; await make('ValleyFarm-v0');"], {
      cwd: join(dir, 'broken'),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  expect(run).toThrow(/valley_farm\.wasm is missing.*npm run build:wasm.*reinstall valley-farm/s);
  writeFileSync(join(installed, 'wasm/valley_farm.wasm'), '<!doctype html>');
  expect(run).toThrow(/is not a WebAssembly module/);
});
