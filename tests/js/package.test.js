// The package as npm would publish it (package.json "files" and "exports"): packed,
// unpacked into a fresh project's node_modules, and imported by its name.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'valley-farm-pack-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('the packed package imports by name in a fresh project and plays an episode', () => {
  const [{ filename, files }] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  expect(files.map((f) => f.path).sort()).toEqual(
    ['LICENSE', 'README.md', 'core/include/valley_farm.h', 'package.json', 'wasm/index.d.ts', 'wasm/index.js', 'wasm/specs.js', 'wasm/valley_farm.wasm'].sort(),
  );
  const installed = join(dir, 'project/node_modules/valley-farm');
  mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['-xzf', join(dir, filename), '-C', installed, '--strip-components=1']);
  const script = `
    import { make, envIds } from 'valley-farm';
    const env = await make(envIds[0]);
    env.reset({ seed: 3 });
    let steps = 0;
    while (!env.step(11).terminated) steps++;
    console.log(steps + 1);`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: join(dir, 'project'), encoding: 'utf8' });
  expect(out.trim()).toBe('50');
});
