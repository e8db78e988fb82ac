// The rules exist once, in docs/rules/<slug>-farm.md: a farm's docs page is that Markdown,
// converted at build time by web/markdownPlugin.mjs (rulesPage), with the live widgets its
// `<!-- widget: NAME -->` lines name. These tests hold the page to the file, the markers to
// the widgets, and the conversion to its rules for links and raw HTML.
import { afterEach, describe, it, expect } from 'vitest';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { envIds } from 'valley-farm';
import { rulesPage, headingId } from '../../web/markdownPlugin.mjs';
import { Docs } from '../../web/src/docs/index.jsx';
import { RulesDoc, rulesPageOf } from '../../web/src/docs/pages/EnvPage.jsx';
import { widgetNames } from '../../web/src/docs/components/DocWidget.jsx';
import { widgets } from '../../web/src/docs/model/widgets.js';
import { farms, farmFor } from '../../web/src/model/farms/index.js';
import { quietIframes } from './quietIframes.js';

const RAW = import.meta.glob('../../docs/rules/*.md', { query: '?raw', import: 'default', eager: true });
const fileOf = (id) => `${farmFor(id).slug}-farm.md`;
const raw = (id) => RAW[`../../docs/rules/${fileOf(id)}`];
const squash = (s) => s.replace(/\s+/g, ' ').trim();

quietIframes(); // the docs' live farms are iframes, which happy-dom does not load

const shown = [];
async function show(node) {
  const host = document.createElement('div');
  document.body.replaceChildren(host);
  await act(async () => render(node, host));
  shown.push(host);
  return host;
}

// Each page is unmounted after its test: a live widget still loading (a farm, the engine) would
// otherwise render once the test file's document is gone, an unhandled error on a loaded machine.
afterEach(() => {
  for (const host of shown.splice(0)) render(null, host);
});

/** The text of the page's headings, without their "#" link. */
const headings = (host, sel) => [...host.querySelectorAll(sel)].map((h) => squash(h.textContent.replace(/#$/, '')));

describe('every farm has its rules file, and every rules file a farm', () => {
  it('docs/rules holds exactly one <slug>-farm.md per farm adapter', () => {
    expect(
      Object.keys(RAW)
        .map((p) => p.split('/').pop())
        .sort(),
    ).toEqual(farms.map((f) => `${f.slug}-farm.md`).sort());
  });
});

describe.each(envIds)('the %s docs page', (id) => {
  it('is its rules file converted by rulesPage, nothing added or left out', () => {
    expect(rulesPageOf(id)).toEqual(rulesPage(raw(id), fileOf(id)));
  });

  it('shows every heading of the rules file, in order, as its title, sections and subsections', async () => {
    const host = await show(<Docs path={`/${farmFor(id).slug}`} />);
    const md = [...raw(id).matchAll(/^(#{1,3}) (.+)$/gm)].map((m) => [m[1].length, m[2]]);
    expect(headings(host, '.docs-page h1')).toEqual(md.filter(([d]) => d === 1).map(([, t]) => t));
    expect(headings(host, '.docs-page h2, .docs-page h3')).toEqual(md.filter(([d]) => d > 1).map(([, t]) => t));
    // each heading is a section the route knows, with GitHub's id for it
    for (const [, title] of md.filter(([d]) => d > 1))
      expect(host.querySelector(`#docs-${farmFor(id).slug}-${headingId(title)}`), title).not.toBeNull();
  });

  it("shows every row of the rules file's tables", async () => {
    const host = await show(<Docs path={`/${farmFor(id).slug}`} />);
    const text = squash(host.textContent);
    const rows = raw(id)
      .split('\n')
      .filter((l) => l.startsWith('|') && !/^\|[-: |]+\|$/.test(l));
    expect(rows.length).toBeGreaterThan(30);
    for (const row of rows) {
      const cells = row
        .split('|')
        .slice(1, -1)
        .map((c) => squash(c.replace(/`/g, '')));
      for (const c of cells) expect(text, row).toContain(c);
    }
  });

  it('changes when a sentence of the rules file changes (through the same conversion)', async () => {
    const before = raw(id);
    // a line of plain prose (no Markdown in it), which the page shows as it is
    const sentence = before.split('\n').find((l) => /^[A-Z][^`[\]*|#<_]{40,}$/.test(l));
    expect(squash((await show(<RulesDoc envId={id} page={rulesPage(before, fileOf(id))} />)).textContent)).toContain(sentence);
    const changed = before.replace(sentence, 'A sentence the docs page has only if it renders this file.');
    const host = await show(<RulesDoc envId={id} page={rulesPage(changed, fileOf(id))} />);
    expect(host.textContent).toContain('A sentence the docs page has only if it renders this file.');
    expect(host.textContent).not.toContain(sentence);
  });

  it('places a widget for every marker, each one a widget the page has', async () => {
    const markers = [...raw(id).matchAll(/^<!-- widget: ([a-z0-9-]+) -->$/gm)].map((m) => m[1]);
    expect(markers.length).toBeGreaterThan(3);
    for (const name of markers) expect(widgetNames, name).toContain(name);
    const host = await show(<Docs path={`/${farmFor(id).slug}`} />);
    const placed = host.querySelectorAll('.docs-widget, [data-table]:not(.docs-widget [data-table])');
    expect(placed.length).toBe(markers.length);
    expect(host.querySelector('.docs-error')).toBeNull();
  });
});

it('every rule widget is placed on some rules page', () => {
  const placed = Object.values(RAW).flatMap((md) => [...md.matchAll(/^<!-- widget: ([a-z0-9-]+) -->$/gm)].map((m) => m[1]));
  expect(Object.keys(widgets).filter((w) => !placed.includes(w))).toEqual([]);
});

describe('rulesPage, the conversion', () => {
  const page = (md, file = 'valley-farm.md') => rulesPage(md, file);
  const html = (p) =>
    p.sections
      .flatMap((s) => [...s.blocks, ...s.sections.flatMap((x) => x.blocks)])
      .map((b) => b.html ?? '')
      .join('');

  it('turns links to a heading or to another rules page into docs routes, and keeps web links', () => {
    const p = page(
      '# T\n\n## The map\n\nSee [the map](#the-map), [a step](backwards-farm.md#one-step), [it](backwards-farm.md) and [C](https://example.org/c).\n',
    );
    const out = html(p);
    expect(out).toContain('href="#/docs/valley/the-map"');
    expect(out).toContain('href="#/docs/backwards/one-step"');
    expect(out).toContain('href="#/docs/backwards"');
    expect(out).toContain('href="https://example.org/c"');
  });

  it('gives each heading the id GitHub gives it', () => {
    expect(headingId('What each step did: events')).toBe('what-each-step-did-events');
    expect(page('# T\n\n## Villagers and the market\n\n### Why an action is illegal\n').sections[0]).toMatchObject({
      id: 'villagers-and-the-market',
      sections: [{ id: 'why-an-action-is-illegal', title: 'Why an action is illegal' }],
    });
  });

  it('rejects what the docs pages cannot show, saying what is allowed', () => {
    expect(() => page('# T\n\n## A\n\n[x](#nowhere)\n')).toThrow(
      /valley-farm\.md: the link "#nowhere" names no heading of this file; its headings are #a/,
    );
    expect(() => page('# T\n\n## A\n\n[x](../../core/src/valley.c)\n')).toThrow(
      /goes nowhere the docs pages can follow; link to a web address/,
    );
    expect(() => page('# T\n\n<div>x</div>\n')).toThrow(/raw HTML is not allowed .*<!-- widget: NAME -->/);
    expect(() => page('# T\n\nSome <b>bold</b>.\n')).toThrow(/raw HTML is not allowed/);
    expect(() => page('# T\n\nA widget <!-- widget: layout --> inside a sentence.\n')).toThrow(/a widget marker on a line of its own/);
    expect(() => page('## A\n')).toThrow(/must start with a "# " heading/);
    expect(() => page('# T\n\n## A\n\n## A\n')).toThrow(/two headings have the id #a/);
    expect(() => page('# T\n', 'valley.md')).toThrow(/docs\/rules\/valley\.md: a rules file is named <slug>-farm\.md/);
  });

  it('splits at widget markers, in place', () => {
    const p = page('# T\n\nLead.\n\n## A\n\nBefore.\n\n<!-- widget: layout -->\n\nAfter.\n');
    expect(p.lead).toEqual([{ html: '<p>Lead.</p>' }]);
    expect(p.sections[0].blocks).toEqual([{ html: '<p>Before.</p>' }, { widget: 'layout' }, { html: '<p>After.</p>' }]);
  });
});
