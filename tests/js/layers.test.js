// The repository's layers, by what imports what: tools/ (the machine's setup) at the bottom;
// the product, wasm/ (the package) and web/ (the page and its tools), above it; scripts/ (the
// data-making scripts: best-known, baselines, reference runs) on top of the package. So the
// product never reaches up into scripts/, and scripts/ never into the page (web/src/), whose
// code is for a browser; what both need lives in wasm/.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const CODE = /\.(m?js|jsx|cjs|ts)$/;
const SKIP = new Set(['node_modules', 'dist', 'build']);

/** Every code file under `folder` (repository-relative paths). */
function codeFiles(folder) {
  const out = [];
  const walk = (dir) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP.has(entry.name)) walk(path);
      } else if (CODE.test(entry.name)) out.push(path);
    }
  };
  walk(folder);
  return out;
}

// `import … from '…'`, `export … from '…'`, `import '…'` and `import('…')`
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"\n]+)['"]/g;

/** What a file imports: its specifiers as written. */
const specifiersOf = (file) => [...readFileSync(join(root, file), 'utf8').matchAll(SPECIFIER)].map((m) => m[1]);

/** The repository-relative paths a file imports by a relative specifier. */
const importsOf = (file) =>
  specifiersOf(file)
    .filter((s) => s.startsWith('.'))
    .map((s) => relative(root, resolve(root, dirname(file), s)));

/** "file -> import" for every import of a file under `from` that lands under one of `banned`. */
function crossings(from, banned) {
  return codeFiles(from).flatMap((file) =>
    importsOf(file)
      .filter((target) => banned.some((b) => target === b || target.startsWith(`${b}/`)))
      .map((target) => `${file} -> ${target}`),
  );
}

describe('layers', () => {
  it('finds the imports it checks (the scan sees a known one)', () => {
    expect(importsOf('scripts/baselines.mjs')).toContain('wasm/evaluate.js');
    expect(importsOf('wasm/learn/index.js')).toContain('wasm/learn/registry.js');
  });

  it('no file of the product (wasm/, web/) imports from scripts/', () => {
    expect([...crossings('wasm', ['scripts']), ...crossings('web', ['scripts'])]).toEqual([]);
  });

  it('no file under scripts/ imports from the page (web/src/)', () => {
    expect(crossings('scripts', ['web/src'])).toEqual([]);
  });

  it("tools/ (the machine's setup, run before node_modules exists) imports only Node's built-ins", () => {
    const files = codeFiles('tools');
    expect(files).toContain('tools/setup.mjs');
    expect(
      files.flatMap((f) =>
        specifiersOf(f)
          .filter((s) => !s.startsWith('node:'))
          .map((s) => `${f} -> ${s}`),
      ),
    ).toEqual([]);
  });

  it('the package (wasm/) imports nothing from the page (web/) or the tests', () => {
    expect(crossings('wasm', ['web', 'tests'])).toEqual([]);
  });
});
