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
  const absolute = code
    .replaceAll("'./wasm/index.js'", `'${root}wasm/index.js'`)
    .replaceAll("from 'valley-farm'", `from '${root}wasm/index.js'`);
  return execFileSync(process.execPath, ['--input-type=module', '-e', absolute], { encoding: 'utf8', cwd: root });
}

// The Node quick start runs from a packed, installed package: tests/js/package.test.js.

it('the vector env example prints what its comments say it prints', () => {
  const code = codeAfter('## Node quick start', 1);
  // each console.log line ends with `// prints TEXT`, or `// prints TEXT — a note`
  const promised = [...code.matchAll(/console\.log\(.*\/\/ prints (.*?)(?: — .*)?$/gm)].map((m) => m[1]);
  expect(promised).toHaveLength(2);
  expect(runModule(code)).toBe(promised.map((line) => `${line}\n`).join(''));
});
