// The docs' own Markdown pages (docs/speed.md, docs/architecture.md and docs/benchmark.md's
// narrative) on the site: converted by web/markdownPlugin.mjs (docsPage) with nothing added or
// left out, their links turned into docs routes or repository paths, and bad Markdown refused
// with the file and what is allowed.
import { render } from 'preact';
import { describe, expect, it } from 'vitest';
import { DOCS_PAGES, docsPage, headingId } from '../../web/markdownPlugin.mjs';
import { MARKDOWN_PAGES, MarkdownPage } from '../../web/src/docs/pages/MarkdownPage.jsx';

// the files' text as written (?raw: Vite's own reading, past the plugin)
const RAW = import.meta.glob(
  ['../../docs/speed.md', '../../docs/architecture.md', '../../docs/benchmark.md', '../../docs/write-a-learner.md'],
  {
    eager: true,
    query: '?raw',
    import: 'default',
  },
);
const raw = (slug) => RAW[`../../docs/${slug}.md`];

describe.each(DOCS_PAGES)('docs/%s.md', (slug) => {
  it('is its file converted by docsPage, and the page shows every one of its headings in order', () => {
    expect(MARKDOWN_PAGES[slug]).toEqual(docsPage(raw(slug), `${slug}.md`));
    const host = document.createElement('div');
    render(<MarkdownPage page={MARKDOWN_PAGES[slug]} />, host);
    const headings = [...raw(slug).matchAll(/^(#{1,3}) (.+)$/gm)].map((m) => m[2]);
    const shown = [...host.querySelectorAll('h1, h2, h3')].map((h) => h.textContent.replace(/\s*#$/, '').trim());
    expect(shown).toEqual(headings);
  });
});

describe('docsPage, the conversion', () => {
  const page = (body) => docsPage(`# T\n\n## One\n\n${body}\n`, 'speed.md');
  const html = (body) =>
    page(body)
      .sections[0].blocks.map((b) => b.html)
      .join('');

  it('routes links to a heading, another docs page and a rules page; shows a repository file as its path', () => {
    expect(html('[a](#one)')).toContain('href="#/docs/speed/one"');
    expect(html('[b](benchmark.md#how-ppo-learns)')).toContain('href="#/docs/benchmark/how-ppo-learns"');
    expect(html('[c](rules/valley-farm.md#the-map)')).toContain('href="#/docs/valley/the-map"');
    expect(html('[the format](results/README.md)')).toBe(
      '<p><span class="docs-repo-path" title="results/README.md in the repository">the format</span></p>',
    );
    expect(html('[web](https://example.org/x)')).toContain('href="https://example.org/x"');
  });

  it('keeps the markers of generated text out of the page and the table between them in', () => {
    const p = page('<!-- results:start -->\n| a | b |\n|---|---|\n| 1 | 2 |\n<!-- results:end -->');
    const out = p.sections[0].blocks.map((b) => b.html).join('');
    expect(out).toContain('<table class="docs-table">');
    expect(out).not.toContain('<!--');
  });

  it('refuses raw HTML, a widget, a heading link that names no heading, and a file that is not a page of the site', () => {
    expect(() => page('<b>x</b>')).toThrow(/docs\/speed\.md: raw HTML is not allowed .*a marker of generated text/);
    expect(() => page('<!-- widget: map -->')).toThrow(/raw HTML is not allowed/);
    expect(() => page('[x](#nowhere)')).toThrow(/the link "#nowhere" names no heading of this file; its headings are #one/);
    expect(() => docsPage('# X\n', 'python.md')).toThrow(
      /docs\/python\.md: it is not a page of the site \(speed\.md, architecture\.md, benchmark\.md, write-a-learner\.md\)/,
    );
    expect(headingId('How to submit a result')).toBe('how-to-submit-a-result');
  });
});
