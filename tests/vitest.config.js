// One Vitest run, three projects (as Preact's own config does):
//   js       the JS API over the WebAssembly build, in Node            tests/js
//   web      the page's model and components, in happy-dom             tests/web
//   browser  end to end in Debian's Chromium via playwright-core       tests/browser
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import preact from '@preact/preset-vite';
import { packageAliases } from '../web/aliases.mjs';
import { markdownPlugin } from '../web/markdownPlugin.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root,
  test: {
    projects: [
      {
        test: { name: 'js', include: ['tests/js/**/*.test.js'], environment: 'node', testTimeout: 60_000 },
      },
      {
        plugins: [preact(), markdownPlugin()], // as web/vite.config.js: the docs import docs/rules/*.md
        resolve: { alias: packageAliases(root) },
        test: { name: 'web', include: ['tests/web/**/*.test.{js,jsx}'], environment: 'happy-dom', testTimeout: 30_000 },
      },
      {
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.js'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
