// vite.config.js — the page (web/) as a Vite + Preact app. `base: './'` keeps every URL in
// the static build relative, so dist/ works from any folder of any static host.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';
import { packageAliases } from './aliases.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root: here,
  base: './',
  plugins: [preact()],
  resolve: { alias: packageAliases(root) },
  worker: { format: 'es' },
  server: { host: 'localhost', fs: { allow: [root] } },
  preview: { host: 'localhost' },
  build: { outDir: `${root}dist`, emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 1000 },
});
