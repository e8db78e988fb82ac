// start.mjs — `npm start`: sets up what is missing, builds the engine, and serves the page
// on localhost (Vite's dev server, so edits to web/ show at once), printing the address.
import { buildWasm } from '../wasm/build.mjs';
import { ensureNodeModules, root, say } from '../tools/setup.mjs';

try {
  ensureNodeModules();
  buildWasm();
  const { createServer } = await import('vite');
  say('Starting the page');
  const server = await createServer({ configFile: `${root}web/vite.config.js` });
  await server.listen();
  server.printUrls();
  console.log('Press Ctrl+C to stop.');
} catch (err) {
  console.error(`\n[valley-farm] npm start failed: ${err.message}`);
  process.exit(1);
}
