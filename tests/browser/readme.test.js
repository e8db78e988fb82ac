// The README's browser quick start, as printed, in a page next to the repository's files
// served by a plain static server: the package must load its .wasm with no bundler.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { repositorySuite, root } from './page.js';

const readme = readFileSync(join(root, 'README.md'), 'utf8');
const example = readme.slice(readme.indexOf('## Browser quick start')).match(/```html\n([\s\S]*?)```/)[1];

const suite = repositorySuite({ '/example.html': example }); // the page, beside the repository's files

it('the browser quick start shows the map of the backwards farm', async () => {
  const page = await suite.browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(`${suite.server.url}example.html`);
  await page.waitForFunction(() => document.getElementById('farm')?.textContent.length > 0);
  const text = await page.textContent('#farm');
  expect(
    text
      .split('\n')
      .slice(0, 10)
      .every((row) => row.length === 10),
  ).toBe(true);
  expect(text).toMatch(/step 1\/40/);
  expect(errors).toEqual([]);
});
