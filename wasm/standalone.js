// standalone.js — loading a standalone Emscripten module (no JS glue of its own), for both of
// the package's modules: the engine (index.js) and the learner core (learn/core.js).

/** Node's fs without a static import, so that browser bundles never see one. */
export async function readLocalFile(url) {
  const fs = globalThis.process?.getBuiltinModule?.('node:fs/promises') ?? (await import(/* @vite-ignore */ `node:${'fs/promises'}`));
  return fs.readFile(url);
}

/**
 * The import object for `module`. The C does no I/O, but a standalone module may still import
 * a few runtime hooks (memory-growth notices, abort). None of them is ever needed, so each
 * gets a stub; an unexpected call fails loudly (naming `who`: 'valley-farm: the engine')
 * instead of silently.
 */
export function stubImports(module, who) {
  const imports = {};
  for (const { module: ns, name, kind } of WebAssembly.Module.imports(module)) {
    if (kind !== 'function') continue;
    imports[ns] ??= {};
    imports[ns][name] =
      name === 'emscripten_notify_memory_growth'
        ? () => {}
        : () => {
            throw new Error(`${who} called ${ns}.${name}, which should never happen`);
          };
  }
  return imports;
}
