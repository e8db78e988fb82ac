// sizes.mjs — the site's weight, measured on the build (dist/ and Vite's manifest of it,
// dist/.vite/manifest.json), gzipped with node:zlib as a static host would serve it:
//   first load  what the game fetches before it can be played: index.html, the entry chunk
//               and every chunk it imports statically, their CSS, and the engine's .wasm it
//               preloads (the docs, the Lab, the data, the par's planner worker and the full
//               engine it plans with load later, on demand)
//   dist        every file of dist/
// `node web/build.mjs` writes these numbers into web/README.md (between the size markers);
// tests/browser/bundle.test.js checks the budgets and that the README's numbers are the build's.
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * The budgets, in bytes gzipped (a KB here is 1,000 bytes). sandbox: the code sandbox's script
 * (sandbox.js), which every code agent and docs example loads: 68 KB when the learners moved
 * out to sandbox-learner.js (190 KB), which only a visitor's learner in the Lab loads.
 */
export const BUDGETS = { firstLoad: 110_000, sandbox: 75_000 };

const gzipped = (bytes) => gzipSync(bytes).length;

function filesUnder(dir, base = dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (e.name === '.vite' ? [] : filesUnder(join(dir, e.name), base)) : [join(dir, e.name).slice(base.length + 1)],
  );
}

/**
 * The first load's files (paths relative to dist/): what index.html names (its script, its
 * stylesheet, the engine it preloads) and every chunk those import statically (the manifest).
 */
export function firstLoadFiles(dist) {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
  const byFile = new Map(Object.values(manifest).map((chunk) => [chunk.file, chunk]));
  const files = new Set(['index.html']);
  const visit = (file) => {
    if (files.has(file)) return;
    files.add(file);
    const chunk = byFile.get(file);
    for (const css of chunk?.css ?? []) files.add(css);
    for (const key of chunk?.imports ?? []) visit(manifest[key].file);
  };
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  for (const [, file] of html.matchAll(/(?:src|href)="\.\/([^"]+)"/g)) visit(file);
  return [...files];
}

/** { firstLoad: { files: [{ file, bytes, gzip }], gzip }, dist: { files, bytes, gzip } } of a built dist/. */
export function measure(dist) {
  const weigh = (file) => {
    const bytes = readFileSync(join(dist, file));
    return { file, bytes: bytes.length, gzip: gzipped(bytes) };
  };
  const first = firstLoadFiles(dist).map(weigh);
  const all = filesUnder(dist).map((file) => ({
    file,
    bytes: statSync(join(dist, file)).size,
    gzip: gzipped(readFileSync(join(dist, file))),
  }));
  const sum = (list, key) => list.reduce((s, f) => s + f[key], 0);
  return {
    firstLoad: { files: first, gzip: sum(first, 'gzip') },
    dist: { files: all.length, bytes: sum(all, 'bytes'), gzip: sum(all, 'gzip') },
  };
}

export const kb = (bytes) => `${Math.round(bytes / 1000).toLocaleString('en')} KB`;
export const START = '<!-- sizes: written by web/build.mjs from dist/ (web/sizes.mjs); do not edit by hand -->';
export const END = '<!-- /sizes -->';

/** The README's lines about the weight, between START and END. */
export function readmeSection(sizes) {
  return [
    START,
    '| | gzipped |',
    '|---|---|',
    `| the game's first load (HTML, JS, CSS and the engine's .wasm) | ${kb(sizes.firstLoad.gzip)} (budget ${kb(BUDGETS.firstLoad)}) |`,
    `| all of \`dist/\` (${sizes.dist.files} files, ${kb(sizes.dist.bytes)} unpacked) | ${kb(sizes.dist.gzip)} |`,
    END,
  ].join('\n');
}

/** Rewrites the section in the README at `path` with the sizes of `dist`. */
export function writeReadmeSizes(dist, path) {
  const text = readFileSync(path, 'utf8');
  const from = text.indexOf(START);
  const to = text.indexOf(END);
  if (from < 0 || to < from) throw new Error(`${path} has no size markers (${START} … ${END})`);
  writeFileSync(path, text.slice(0, from) + readmeSection(measure(dist)) + text.slice(to + END.length));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dist = new URL('../dist', import.meta.url).pathname;
  console.log(readmeSection(measure(dist)));
}
