// A learner of your own is one file: REINFORCE's, copied out of the package as a visitor's
// download would be (its imports from 'valley-farm/learn', its own name, its file's URL for its
// threads), is registered from that one file and trains on the learner core, on several
// threads, through createLearner and through `valley-farm train --algo ./file.js`, to the same
// weights as the built-in REINFORCE; `valley-farm eval --learner` plays its policy.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { createLearner, registerLearner } from '../../wasm/learn/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const B = 'BackwardsValleyFarm-v0';
// inside the package, so that 'valley-farm/learn' resolves to it (as it does in a project that installed it)
const dir = join(root, 'tests/js/.own-learner');
mkdirSync(dir, { recursive: true });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** reinforce.js as a file of one's own: its kit imported from the package, another name. */
function ownCopy(name) {
  const source = readFileSync(join(root, 'wasm/learn/reinforce.js'), 'utf8');
  const own = source
    .replace("from './kit.js';", "from 'valley-farm/learn';")
    .replace("name: 'reinforce',", `name: '${name}',`)
    .replace("title: 'REINFORCE',", `title: 'My REINFORCE', url: import.meta.url,`);
  expect(own).not.toContain("'./"); // nothing but the package
  const file = join(dir, `${name}.js`);
  writeFileSync(file, own);
  return file;
}

const weightsHash = (weights) => {
  const hash = createHash('sha256');
  for (const w of weights) hash.update(new Uint8Array(new Float32Array(w.values).buffer));
  return hash.digest('hex');
};
const settings = { env: B, seed: 5, numEnvs: 12, minibatch: 100 };

describe('a learner of your own, in one file', () => {
  it('registers from its file and trains on two threads to the weights the built-in REINFORCE gives', async () => {
    const { learner } = await import(pathToFileURL(ownCopy('my-reinforce')).href);
    registerLearner(learner);
    const trained = {};
    for (const algo of ['reinforce', 'my-reinforce']) {
      const l = await createLearner({ ...settings, algo, threads: 2 });
      await l.trainFor(12 * 40 * 2);
      const json = l.policy().toJSON();
      expect(json.algo).toBe(algo);
      trained[algo] = weightsHash(json.weights);
      l.dispose();
    }
    expect(trained['my-reinforce']).toBe(trained.reinforce);
  }, 120_000);

  it('trains from the command line (train --algo ./file.js), and eval --learner plays its policy', () => {
    const file = ownCopy('cli-reinforce');
    const cli = (...args) => spawnSync(process.execPath, [join(root, 'wasm/cli/index.mjs'), ...args], { encoding: 'utf8', cwd: dir });
    const out = join(dir, 'policy.json');
    const t = cli(
      'train',
      '--env',
      B,
      '--algo',
      file,
      '--steps',
      String(12 * 40 * 2),
      '--num-envs',
      '12',
      '--threads',
      '2',
      '--eval-episodes',
      '2',
      '--out',
      out,
    );
    expect(t.status, t.stderr).toBe(0);
    const policy = JSON.parse(readFileSync(out, 'utf8'));
    expect(policy.algo).toBe('cli-reinforce');
    expect(policy.run.command).toContain(file); // the run's record names the file
    const e = cli('eval', out, '--env', B, '--episodes', '3', '--learner', file, '--json');
    expect(e.status, e.stderr).toBe(0);
    expect(JSON.parse(e.stdout).episodes).toBe(3);
    const bad = cli('train', '--env', B, '--algo', join(dir, 'missing.js'));
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--algo .*missing\.js: no such file/);
    writeFileSync(join(dir, 'none.js'), 'export const x = 1;');
    const none = cli('train', '--env', B, '--algo', join(dir, 'none.js'));
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/--algo .*none\.js: the module exports no learner/);
  }, 180_000);
});
