// The site's weight, on the build (dist/, built when older than its sources): the game's
// first load within its budget and free of what only the Lab and the docs need, each
// dependency bundled once, and web/README.md's numbers the build's own (web/sizes.mjs).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
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
  'TensorFlow.js core': 'is already registered',
  'TensorFlow.js layers': 'tfjs-layers',
  'the learners (valley-farm/learn)': 'weight of the entropy bonus',
  'the best-known data': 'valley-farm-best-known',
  'the baselines data': 'valley-farm-baselines',
  'the docs': 'docs-page',
};
const js = (file) => (file.endsWith('.js') || file.endsWith('.html') ? readFileSync(join(dist, file), 'utf8') : '');
const holding = (files, signature) => files.filter((f) => js(f).includes(signature));
const assets = () => readdirSync(join(dist, 'assets')).map((f) => `assets/${f}`);

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

  it("the par's planner worker carries the engine only: no TensorFlow.js, learners or data", () => {
    const [worker] = assets().filter((f) => /planWorker-.*\.js$/.test(f));
    expect(js(worker)).toContain('vfw_step_explained');
    const carried = Object.entries(DEPENDENCIES).filter(([, signature]) => js(worker).includes(signature));
    expect(carried).toEqual([]);
  });

  // Vite builds each Worker on its own, so what the Lab's train worker (web/src/lab/) and PPO's
  // worker threads (wasm/learn/shardWorker.js, which that worker starts) import is bundled
  // again for each: the learners, the data, and TensorFlow.js in a chunk each loads only for
  // PPO's tfjs setting. The policy Worker (web/src/worker/policyWorker.js), which checks a
  // policy file off the page's thread, carries its own copy of the learners (their check).
  // When the workers share the page's chunks, the list shrinks; any other copy fails here.
  const LAB_WORKER_COPIES = [
    'TensorFlow.js core',
    'TensorFlow.js layers',
    'the learners (valley-farm/learn)',
    'the best-known data',
    'the baselines data',
  ];
  it("in all of dist/, the only dependencies bundled twice are the Lab's train worker's and the policy Worker's own copies", () => {
    const files = [...assets(), 'sandbox.js'];
    const twice = Object.entries(DEPENDENCIES)
      .filter(([, signature]) => holding(files, signature).length > 1)
      .map(([name]) => name);
    expect(twice).toEqual(LAB_WORKER_COPIES);
    for (const name of twice) {
      const copies = holding(files, DEPENDENCIES[name]).filter((f) => !manifestFiles().has(f));
      expect(
        copies.every((f) => /trainWorker-|shardWorker-|policyWorker-|best-known-|baselines-|dist-|Unique_impl-/.test(f)),
        `${name}: ${copies}`,
      ).toBe(true);
    }
  });

  it("web/README.md's sizes are the build's (npm run build rewrites them)", () => {
    const readme = readFileSync(join(root, 'web/README.md'), 'utf8');
    const section = readme.slice(readme.indexOf(START), readme.indexOf(END) + END.length);
    expect(section, 'web/README.md has stale sizes: run `npm run build` (node web/build.mjs), which rewrites them').toBe(
      readmeSection(sizes),
    );
  });
});

function manifestFiles() {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
  return new Set(Object.values(manifest).map((c) => c.file));
}
