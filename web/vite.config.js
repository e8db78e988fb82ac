// vite.config.js — the page (web/) as a Vite + Preact app. `base: './'` keeps every URL in
// the static build relative, so dist/ works from any folder of any static host.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';
import { packageAliases } from './aliases.mjs';
import { sandboxPlugin } from './sandboxPlugin.mjs';
import { workerChunksPlugin } from './workerChunksPlugin.mjs';
import { markdownPlugin } from './markdownPlugin.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));

// The built site's Content Security Policy: only the site's own scripts (no inline script,
// no eval: visitors' code runs in sandbox.html, which has a policy of its own), the engine
// compiled from the site's .wasm, styles from the site (and style attributes, which Preact
// sets), images from the site and data: URLs (the favicon), the sandbox frame from the site.
// Added at build time only: Vite's dev server injects scripts of its own.
export const CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
].join('; ');

const cspPlugin = {
  name: 'valley-farm-csp',
  apply: 'build',
  transformIndexHtml: (html) =>
    html.replace(
      '<meta charset="utf-8" />',
      `<meta charset="utf-8" />\n    <meta http-equiv="Content-Security-Policy" content="${CSP}" />`,
    ),
};
// The engine the page plays with (valley_farm_play.wasm) is fetched by the page's script
// (main.jsx), so without a hint its download waits until that script has run; a preload
// starts it beside the script (the first key press waits for both).
const preloadEnginePlugin = {
  name: 'valley-farm-preload-engine',
  apply: 'build',
  transformIndexHtml: (html, { bundle }) => {
    const engine = Object.keys(bundle ?? {}).find((file) => /(^|\/)valley_farm_play-[\w-]+\.wasm$/.test(file));
    if (!engine) return html;
    return [
      {
        tag: 'link',
        attrs: { rel: 'preload', href: `./${engine}`, as: 'fetch', type: 'application/wasm', crossorigin: '' },
        injectTo: 'head',
      },
    ];
  },
};
const root = fileURLToPath(new URL('..', import.meta.url));
// The site's Workers (the Lab's train worker, the learners' threads that it starts, the par's
// planner, the policy check), built with the page: they import its chunks, so the engine's JS,
// the learners and the data are each in dist/ once (workerChunksPlugin.mjs)
const workerChunks = workerChunksPlugin([
  `${here}src/lab/trainWorker.js`,
  `${root}wasm/learn/threadWorker.js`,
  `${here}src/worker/planWorker.js`,
  `${here}src/worker/policyWorker.js`,
]);

export default defineConfig({
  root: here,
  base: './',
  plugins: [preact(), markdownPlugin(), sandboxPlugin(root), cspPlugin, preloadEnginePlugin, workerChunks],
  resolve: { alias: packageAliases(root) },
  worker: { format: 'es' },
  server: { host: 'localhost', fs: { allow: [root] } },
  preview: { host: 'localhost' },
  // the manifest says which files the page loads first (tests/browser/bundle.test.js weighs them)
  build: {
    outDir: `${root}dist`,
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 1000,
    manifest: true,
    modulePreload: { resolveDependencies: workerChunks.resolveDependencies },
  },
});
