// The README's examples are code users paste: they must run as printed.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const readme = readFileSync(`${root}README.md`, 'utf8');

function codeAfter(heading, nth = 0) {
  const section = readme.slice(readme.indexOf(heading));
  const blocks = [...section.matchAll(/```js\n([\s\S]*?)```/g)];
  return blocks[nth][1];
}

function runModule(code) {
  const absolute = code.replaceAll("'./wasm/index.js'", `'${root}wasm/index.js'`);
  return execFileSync(process.execPath, ['--input-type=module', '-e', absolute], { encoding: 'utf8', cwd: root });
}

it('the Node quick start is at most ten lines of code and prints a return', () => {
  const code = codeAfter('## Node quick start');
  const lines = code.split('\n').filter((l) => l.trim() && !l.trim().startsWith('//'));
  expect(lines.length).toBeLessThanOrEqual(10);
  expect(runModule(code)).toMatch(/^return: \d+(\.\d+)?\n$/);
});

it('the vector env example runs', () => {
  const code = codeAfter('## Node quick start', 1);
  expect(() => runModule(`${code}\nif (rewards.length !== 1024 || terminated.length !== 1024 || observations.length !== 1024 * 55) throw new Error('shape');`)).not.toThrow();
});
