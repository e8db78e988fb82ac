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

// The README is a front page (issue 45): short, and every link in it goes somewhere.
const README_BUDGET = 10_500; // bytes: "at most about 10 KB"

it(`the README stays under ${README_BUDGET.toLocaleString('en')} bytes, also with every shipped learner's results (and recurrent PPO's) at every budget`, async () => {
  const { readmeResultsTable, betweenMarkers, RUNS } = await import('../../scripts/results/summary.mjs');
  const { algorithms } = await import('../../wasm/learn/index.js');
  const budgets = JSON.parse(readFileSync(`${root}docs/results/budgets.json`, 'utf8'));
  const baselines = JSON.parse(readFileSync(`${root}wasm/data/baselines.json`, 'utf8'));
  const size = Buffer.byteLength(readme);
  expect(size, `README.md is ${size} bytes: move detail into docs/`).toBeLessThanOrEqual(README_BUDGET);
  // the table as it will be once every learner, and PPO with a recurrent layer, has runs everywhere
  const v = { estimate: 0.666, low: 0.555, high: 0.777 };
  const learners = [
    ...Object.keys(algorithms).map((algo) => ({ learner: algo, algo })),
    { learner: 'ppo-recurrent-32', algo: 'ppo', title: 'PPO, recurrent 32' },
  ];
  const rows = Object.keys(budgets).flatMap((budget) =>
    learners.flatMap((l) => ['ValleyFarm-v0', 'BackwardsValleyFarm-v0'].map((env) => ({ budget, env, ...l, runs: RUNS, iqm: v }))),
  );
  const full = readmeResultsTable({ tracks: [{ track: '2-core', rows }] }, baselines, budgets);
  const grown = size - Buffer.byteLength(betweenMarkers(readme, 'results')) + Buffer.byteLength(full);
  expect(grown, 'with every learner at every budget, the README would outgrow its budget').toBeLessThanOrEqual(README_BUDGET);
});

it('every link and image of the README resolves: a file of the repository, and a heading of it where an anchor is given', async () => {
  const { headingId } = await import('../../web/markdownPlugin.mjs');
  const { existsSync } = await import('node:fs');
  const links = [...readme.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]);
  expect(links.length).toBeGreaterThan(10);
  for (const link of links) {
    if (/^https:\/\//.test(link)) continue; // the web: not reachable from a test
    expect(link, 'a link is https or a path in the repository').not.toMatch(/^[a-z]+:/);
    const [path, anchor] = link.split('#');
    expect(existsSync(`${root}${path}`), `${link}: no such file`).toBe(true);
    if (anchor) {
      const headings = [...readFileSync(`${root}${path}`, 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map((m) => headingId(m[1]));
      expect(headings, `${link}: no such heading`).toContain(anchor);
    }
  }
});

it("every link of the docs' own pages (docs/*.md, docs/results/README.md) resolves to a file, and a heading of it where an anchor is given", async () => {
  const { headingId } = await import('../../web/markdownPlugin.mjs');
  const { existsSync, readdirSync } = await import('node:fs');
  const { dirname, join } = await import('node:path');
  const pages = [
    ...readdirSync(`${root}docs`)
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
    'docs/results/README.md',
  ];
  const headingsOf = (file) => [...readFileSync(file, 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map((m) => headingId(m[1]));
  let checked = 0;
  for (const page of pages) {
    const text = readFileSync(`${root}${page}`, 'utf8');
    for (const [, link] of text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)) {
      if (/^https:\/\//.test(link)) continue;
      const [path, anchor] = link.split('#');
      const file = path ? join(root, dirname(page), path) : `${root}${page}`;
      expect(existsSync(file), `${page}: ${link}: no such file`).toBe(true);
      if (anchor) expect(headingsOf(file), `${page}: ${link}: no such heading`).toContain(anchor);
      checked++;
    }
  }
  expect(checked).toBeGreaterThan(5);
});
