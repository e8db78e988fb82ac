// The site's weight, on the build (dist/, built when older than its sources): the game's
// first load within its budget and free of what only the Lab and the docs need, each
// dependency bundled once, and web/README.md's numbers the build's own (web/sizes.mjs).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, it, expect } from 'vitest';
import { ensureBuilt, root } from './page.js';
import { BUDGETS, firstLoadFiles, measure, readmeSection, kb, START, END } from '../../web/sizes.mjs';

const dist = join(root, 'dist');
let sizes;
beforeAll(async () => {
  await ensureBuilt();
  sizes = measure(dist);
});

// A string each dependency's code carries once, whatever the minifier does to its names.
const DEPENDENCIES = {
  "the engine's JS (valley-farm)": 'vfw_step_explained',
  'the learners (valley-farm/learn)': 'weight of the entropy bonus',
  'the best-known data': 'valley-farm-best-known',
  'the baselines data': 'valley-farm-baselines',
  'the docs': 'docs-page',
};
// The editor of a visitor's learner shows the learners' files as text (web/src/lab/
// learnerTemplates.js, a chunk of its own): their source, not a second copy of their code.
const TEMPLATES_CHUNK = /^assets\/learnerTemplates-[\w-]+\.js$/;
const js = (file) => (file.endsWith('.js') || file.endsWith('.html') ? readFileSync(join(dist, file), 'utf8') : '');
const holding = (files, signature) => files.filter((f) => !TEMPLATES_CHUNK.test(f) && js(f).includes(signature));
const assets = () => readdirSync(join(dist, 'assets')).map((f) => `assets/${f}`);
// a chunk and every chunk it imports statically (or, with `dynamic`, at all): what a Worker
// runs when it starts (or may ever run)
function withImports(file, { dynamic = false } = {}, into = new Set()) {
  if (into.has(file)) return [...into];
  into.add(file);
  const imports = dynamic
    ? /\bimport\s*\(?\s*["'`]\.\/([^"'`]+\.js)["'`]|\bfrom\s*["'`]\.\/([^"'`]+\.js)["'`]/g
    : /(?:\bfrom|\bimport)\s*["'`]\.\/([^"'`]+\.js)["'`]/g;
  for (const [, a, b] of js(file).matchAll(imports)) withImports(`assets/${a ?? b}`, { dynamic }, into);
  return [...into];
}
const workerFile = (name) => assets().find((f) => new RegExp(`^assets/${name}-[\\w-]+\\.js$`).test(f));

describe('weight', () => {
  it(`the game's first load is at most ${kb(BUDGETS.firstLoad)} gzipped (HTML, JS, CSS and the engine's .wasm)`, () => {
    const files = sizes.firstLoad.files.map((f) => `${f.file} ${kb(f.gzip)}`).join(', ');
    expect(sizes.firstLoad.gzip, files).toBeLessThanOrEqual(BUDGETS.firstLoad);
    expect(sizes.firstLoad.files.some((f) => f.file.endsWith('.wasm'))).toBe(true); // the engine is weighed
  });

  it("the first load's engine is the one without the planner; the full engine (with it) is still built, for the par's Worker", () => {
    const engines = firstLoadFiles(dist).filter((f) => f.endsWith('.wasm'));
    expect(engines).toEqual([expect.stringMatching(/^assets\/valley_farm_play-.*\.wasm$/)]);
    const exportsPlanner = (file) => readFileSync(join(dist, file)).includes('vf_plan_beam');
    expect(exportsPlanner(engines[0])).toBe(false);
    const [full] = assets().filter((f) => /^assets\/valley_farm-.*\.wasm$/.test(f));
    expect(exportsPlanner(full)).toBe(true);
  });

  it('the first load carries neither TensorFlow.js, the learners, the data (best-known, baselines) nor the docs', () => {
    const first = firstLoadFiles(dist);
    const carried = Object.entries(DEPENDENCIES)
      .filter(([name]) => name !== "the engine's JS (valley-farm)")
      .filter(([, signature]) => holding(first, signature).length > 0)
      .map(([name]) => name);
    expect(carried).toEqual([]);
  });

  it("the page's build bundles each dependency once", () => {
    const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
    const pageFiles = [...new Set(Object.values(manifest).map((c) => c.file))].filter((f) => f.endsWith('.js'));
    const twice = Object.entries(DEPENDENCIES)
      .map(([name, signature]) => [name, holding(pageFiles, signature)])
      .filter(([, files]) => files.length > 1);
    expect(twice).toEqual([]);
  });

  it("the par's planner worker loads the engine only: no TensorFlow.js, learners or data", () => {
    const loaded = withImports(workerFile('planWorker'));
    expect(holding(loaded, DEPENDENCIES["the engine's JS (valley-farm)"])).not.toEqual([]);
    const carried = Object.entries(DEPENDENCIES)
      .filter(([name]) => name !== "the engine's JS (valley-farm)")
      .filter(([, signature]) => holding(loaded, signature).length > 0);
    expect(carried).toEqual([]);
  });

  it("the Lab's train worker, the learners' threads and the policy check's Worker run the page's own chunk of the learners", () => {
    const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
    const pageChunks = new Set();
    const visit = (key) => {
      if (pageChunks.has(manifest[key].file)) return;
      pageChunks.add(manifest[key].file);
      for (const next of [...(manifest[key].imports ?? []), ...(manifest[key].dynamicImports ?? [])]) visit(next);
    };
    visit('index.html');
    for (const name of ['trainWorker', 'threadWorker', 'policyWorker']) {
      const worker = workerFile(name);
      const learners = holding(withImports(worker, { dynamic: name === 'threadWorker' }), DEPENDENCIES['the learners (valley-farm/learn)']);
      expect(learners, name).toEqual([expect.any(String)]);
      expect(pageChunks.has(learners[0]), `${name} runs ${learners[0]}`).toBe(true);
    }
  });

  it("no chunk a Worker may run asks Vite's preload helper for files (the helper reads document, which a Worker lacks)", () => {
    for (const name of ['trainWorker', 'threadWorker', 'planWorker']) {
      const runs = withImports(workerFile(name), { dynamic: true });
      expect(runs.length, name).toBeGreaterThan(1);
      expect(holding(runs, '__vite__mapDeps'), name).toEqual([]);
    }
  });

  // Vite builds a Worker on its own, bundling again all it imports; web/workerChunksPlugin.mjs
  // builds the site's Workers with the page instead. sandbox.html's scripts are the one
  // exception: classic scripts (they run with an opaque origin, web/sandboxPlugin.mjs) that
  // cannot import the site's modules, so they carry what they run of their own.
  it('in all of dist/, each dependency is bundled once (the sandbox has its own engine, the learner runner its learners)', () => {
    const files = assets();
    const twice = Object.entries(DEPENDENCIES)
      .map(([name, signature]) => `${name}: ${holding(files, signature).join(', ')}`)
      .filter((line) => line.includes(','));
    expect(twice).toEqual([]);
    // the one file left out above: the templates' text, in a chunk of its own (the Lab page's chunk does not carry it)
    const templates = assets().filter((f) => TEMPLATES_CHUNK.test(f));
    expect(templates).toHaveLength(1);
    expect(js(templates[0])).toContain(DEPENDENCIES['the learners (valley-farm/learn)']);
    const carried = (file) =>
      Object.entries(DEPENDENCIES)
        .filter(([, signature]) => js(file).includes(signature))
        .map(([name]) => name);
    expect(carried('sandbox.js')).toEqual(["the engine's JS (valley-farm)"]);
    // the learner runner runs the Lab's Trainer, which evaluates against the reference data
    expect(carried('sandbox-learner.js')).toEqual([
      "the engine's JS (valley-farm)",
      'the learners (valley-farm/learn)',
      'the best-known data',
      'the baselines data',
    ]);
  });

  // every code agent and docs example loads sandbox.js; only a visitor's learner in the Lab
  // loads the learners, in a script of its own (web/sandboxPlugin.mjs)
  it(`the code sandbox's script (sandbox.js) is at most ${kb(BUDGETS.sandbox)} gzipped, without the learners`, () => {
    const gzip = gzipSync(readFileSync(join(dist, 'sandbox.js'))).length;
    expect(gzip).toBeLessThanOrEqual(BUDGETS.sandbox);
    expect(js('sandbox.js')).not.toContain(DEPENDENCIES['the learners (valley-farm/learn)']);
  });

  it("web/README.md's sizes are the build's (npm run build rewrites them)", () => {
    const readme = readFileSync(join(root, 'web/README.md'), 'utf8');
    const section = readme.slice(readme.indexOf(START), readme.indexOf(END) + END.length);
    expect(section, 'web/README.md has stale sizes: run `npm run build` (node web/build.mjs), which rewrites them').toBe(
      readmeSection(sizes),
    );
  });
});
