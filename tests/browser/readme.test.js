// The README's browser quick start, as printed, in a page next to the repository's files
// served by a plain static server: the package must load its .wasm with no bundler.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join, normalize } from 'node:path';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launch, root } from './page.js';

const readme = readFileSync(join(root, 'README.md'), 'utf8');
const example = readme.slice(readme.indexOf('## Browser quick start')).match(/```html\n([\s\S]*?)```/)[1];
const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };

let server;
let browser;

beforeAll(async () => {
  // a static file server (only what the example needs: the page and the files beside it)
  server = createServer(async (req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    if (path === '/example.html') return res.writeHead(200, { 'content-type': 'text/html' }).end(example);
    if (path === '/favicon.ico') return res.writeHead(204).end(); // the browser asks; not a failure
    const file = normalize(join(root, path));
    if (!file.startsWith(root)) return res.writeHead(403).end();
    let body;
    try {
      body = await readFile(file);
    } catch {
      return res.writeHead(404).end();
    }
    res.writeHead(200, { 'content-type': types[path.slice(path.lastIndexOf('.'))] ?? 'application/octet-stream' }).end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server.close(resolve));
});

it('the browser quick start shows the map of the backwards farm', async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(`http://127.0.0.1:${server.address().port}/example.html`);
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
