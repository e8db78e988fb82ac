// workerChunksPlugin.mjs — the site's Workers built as entries of the page's own build, so
// they import the page's chunks (the engine's JS, the learners, TensorFlow.js, the data)
// instead of a copy of each.
//
// Vite builds each `new Worker(new URL('./w.js', import.meta.url))` on its own, bundling
// again everything the Worker imports (https://github.com/vitejs/vite/issues/16719). For
// the scripts listed here, this plugin instead emits the script as a chunk of the main
// build and points the URL at that chunk; Vite's worker plugin then no longer sees its
// pattern. The Workers must be module Workers ({ type: 'module' }): they import chunks.
//
// Three things keep this safe and the page as light as before:
// - a Worker's chunk keeps its signature (no exports), so Rolldown never moves a module
//   that others import into it: no one else runs a Worker's top-level code;
// - what the page's first load and a Worker both run (the engine's JS) goes into one chunk
//   of its own, which both import; left to itself, Rolldown cuts it into several;
// - Vite's preload helper, which a chunk calls around each dynamic import, reads `document`
//   as soon as it is given files to preload: `resolveDependencies` (for
//   build.modulePreload) gives it none in every chunk a Worker reaches; the page then
//   fetches such a chunk's lazy imports once it has the chunk.
// A top-level await in any module turns off Rolldown's merging of chunks for the whole
// build (wasm/learn/shardWorker.js says so where it matters).
import { dirname, resolve } from 'node:path';

const urlRE = /\bnew\s+URL\s*\(\s*(['"])([^'"]+)\1\s*,\s*import\.meta\.url\s*\)/g;

/** `workers`: the absolute paths of the Worker scripts to build with the page. */
export function workerChunksPlugin(workers) {
  const scripts = new Set(workers);
  const referenceIds = new Map(); // script -> the reference of its emitted chunk
  const inWorkers = new Set(); // the chunks (file names) some listed Worker may load
  const shared = new Set(); // the modules the page's first load and a Worker both run
  return {
    name: 'valley-farm-worker-chunks',
    apply: 'build',
    enforce: 'pre', // before Vite's worker plugin, which would bundle the script on its own
    transform(code, id) {
      if (!code.includes('import.meta.url')) return null;
      let changed = false;
      const out = code.replace(urlRE, (match, _quote, relative) => {
        const script = resolve(dirname(id.split('?')[0]), relative);
        if (!scripts.has(script)) return match;
        if (!referenceIds.has(script)) referenceIds.set(script, this.emitFile({ type: 'chunk', id: script, preserveSignature: 'strict' }));
        changed = true;
        return `new URL(import.meta.ROLLUP_FILE_URL_${referenceIds.get(script)}, import.meta.url)`;
      });
      return changed ? { code: out, map: null } : null;
    },
    // the modules of `shared` (found in buildEnd) into one chunk
    config: () => ({
      build: { rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'shared', test: (id) => shared.has(id) }] } } } },
    }),
    buildEnd() {
      const reach = (from, dynamic, into = new Set()) => {
        const stack = [...from];
        while (stack.length) {
          const id = stack.pop();
          if (into.has(id)) continue;
          into.add(id);
          const info = this.getModuleInfo(id);
          stack.push(...(info?.importedIds ?? []), ...(dynamic ? (info?.dynamicallyImportedIds ?? []) : []));
        }
        return into;
      };
      const ids = [...this.getModuleIds()];
      const pageEntries = ids.filter((id) => this.getModuleInfo(id)?.isEntry && !scripts.has(id));
      const inAWorker = reach(
        [...scripts].filter((id) => this.getModuleInfo(id)),
        true,
      );
      // what the page's entry imports statically (its first load) and a Worker may run
      shared.clear();
      for (const id of reach(pageEntries, false)) if (inAWorker.has(id)) shared.add(id);
    },
    generateBundle: {
      order: 'pre', // before Vite's import analysis asks resolveDependencies
      handler(_options, bundle) {
        inWorkers.clear();
        const visit = (file) => {
          const chunk = bundle[file];
          if (inWorkers.has(file) || chunk?.type !== 'chunk') return;
          inWorkers.add(file);
          for (const next of [...chunk.imports, ...chunk.dynamicImports]) visit(next);
        };
        for (const ref of referenceIds.values()) visit(this.getFileName(ref));
      },
    },
    /** For build.modulePreload.resolveDependencies: no preloads from a chunk a Worker may run. */
    resolveDependencies: (_file, deps, { hostId, hostType }) => (hostType === 'js' && inWorkers.has(hostId) ? [] : deps),
  };
}
