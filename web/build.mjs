// build.mjs — `npm run build`: a static copy of the site in dist/ (relative paths only, so
// any static host, or a sub-folder of one, serves it).
import { buildWasm } from '../wasm/build.mjs';
import { ensureNodeModules, root, say } from '../tools/setup.mjs';
import { writeReadmeSizes } from './sizes.mjs';

export async function buildSite() {
  ensureNodeModules();
  const { build } = await import('vite');
  say('Building the page (Vite) into dist/');
  await build({ configFile: `${root}web/vite.config.js`, logLevel: 'warn' });
  writeReadmeSizes(`${root}dist`, `${root}web/README.md`); // the README's weight is the build's
  console.log(`dist/ is ready: serve it with any static file server`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    ensureNodeModules();
    buildWasm();
    await buildSite();
  } catch (err) {
    console.error(`\n[valley-farm] build failed: ${err.message}`);
    process.exit(1);
  }
}
