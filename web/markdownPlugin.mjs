// markdownPlugin.mjs — the farms' rules (docs/rules/<slug>-farm.md) as docs pages, converted
// by marked at build time so the page ships HTML and no Markdown parser. Importing a rules
// file gives { slug, title, lead, sections }: its docs page (the farm adapter's slug), the
// h1's text, the blocks before the first h2, and one section per h2 (its h3s as subsections,
// deeper headings stay in the HTML), each with the id GitHub gives the heading, so an
// anchor means the same on GitHub and on the page. A block is { html } or { widget }: a line
// `<!-- widget: NAME -->` (invisible on GitHub) places the page's live widget NAME there.
//
// Links: `#the-map` and `backwards-farm.md#one-step` become the docs routes of those pages and
// sections (#/docs/valley/the-map); web links stay. Anything else is a build error, as is raw
// HTML other than a widget marker, so the Markdown reads the same on GitHub and on the page.
//
// The docs' own pages (docs/<slug>.md: speed.md, architecture.md, benchmark.md) convert the
// same way (docsPage), without widgets: their links to another such page or a rules page
// become its route, and a link to a file of the repository (../wasm/evaluate.js,
// results/README.md) shows as its text, marked as a path, since the site has no copy of it.
import { Marked, Renderer } from 'marked';

const RULES_FILE = /(^|\/)docs\/rules\/([^/?]+\.md)$/;
const DOCS_FILE = /(^|\/)docs\/([a-z][a-z0-9-]*)\.md$/;
/** The docs' own pages the site shows, by file (docs/<slug>.md is #/docs/<slug>). */
export const DOCS_PAGES = ['speed', 'architecture', 'benchmark', 'write-a-learner'];
const REPO = 'repo:'; // a link to a repository file, shown as a path
const MARKER = /^<!--\s*widget:\s*([a-z0-9-]+)\s*-->$/;
// the markers around generated text (a table a script writes): kept out of the page
const GENERATED = /^<!--\s*[a-z0-9-]+:(start|end)\s*-->$/;

/** The docs page of a rules file: valley-farm.md is the page of the farm whose slug is valley. */
export function rulesSlug(file) {
  const m = /^([a-z0-9-]+)-farm\.md$/.exec(file);
  if (!m)
    throw new Error(
      `docs/rules/${file}: a rules file is named <slug>-farm.md after its farm's docs page (valley-farm.md is #/docs/valley)`,
    );
  return m[1];
}

/** The id GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens. */
export const headingId = (text) =>
  text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

const plain = (tokens) => tokens.map((t) => (t.tokens ? plain(t.tokens) : (t.text ?? ''))).join('');

// Tables in the docs' own style (docs.css), each in a wrapper that scrolls on a phone; a
// link to a repository file as its text, marked as a path.
const renderer = {
  table(token) {
    const html = Renderer.prototype.table.call(this, token);
    return `<div class="docs-table-wrap">${html.replace('<table>', '<table class="docs-table">')}</div>\n`;
  },
  link(token) {
    if (!token.href.startsWith(REPO)) return Renderer.prototype.link.call(this, token);
    return `<span class="docs-repo-path" title="${token.href.slice(REPO.length)} in the repository">${this.parser.parseInline(token.tokens)}</span>`;
  },
};

/**
 * One rules file's Markdown as a docs page (see the top of this file). `file` is its name in
 * docs/rules/, which gives its page; errors name the file and what is allowed.
 */
export function rulesPage(markdown, file) {
  const slug = rulesSlug(file);
  const fail = (what) => {
    throw new Error(`docs/rules/${file}: ${what}`);
  };
  const elsewhere = (href) => {
    const m = /^([a-z0-9-]+\.md)(?:#([^#]*))?$/.exec(href);
    if (!m)
      fail(
        `the link "${href}" goes nowhere the docs pages can follow; link to a web address, a heading (#the-map) or another rules page (backwards-farm.md#one-step)`,
      );
    return `#/docs/${rulesSlug(m[1])}${m[2] ? `/${m[2]}` : ''}`;
  };
  return convert(markdown, { slug, fail, elsewhere, widgets: true });
}

/**
 * One of the docs' own pages (docs/<slug>.md, a slug of DOCS_PAGES) as a docs page, the same
 * shape as rulesPage's, with no widgets. `file` is its name in docs/.
 */
export function docsPage(markdown, file) {
  const slug = file.replace(/\.md$/, '');
  const fail = (what) => {
    throw new Error(`docs/${file}: ${what}`);
  };
  if (!DOCS_PAGES.includes(slug)) fail(`it is not a page of the site (${DOCS_PAGES.map((p) => `${p}.md`).join(', ')})`);
  const elsewhere = (href) => {
    const [path, anchor] = href.split('#');
    const page = /^([a-z0-9-]+)\.md$/.exec(path)?.[1];
    const rules = /^rules\/([a-z0-9-]+\.md)$/.exec(path)?.[1];
    if (page && DOCS_PAGES.includes(page)) return `#/docs/${page}${anchor ? `/${anchor}` : ''}`;
    if (rules) return `#/docs/${rulesSlug(rules)}${anchor ? `/${anchor}` : ''}`;
    if (/^[\w./-]+$/.test(path) && !path.startsWith('/')) return `${REPO}${path}`;
    return fail(`the link "${href}" goes nowhere; link to a web address, a heading, a docs page or a file of the repository`);
  };
  return convert(markdown, { slug, fail, elsewhere, widgets: false });
}

function convert(markdown, { slug, fail, elsewhere, widgets }) {
  const marked = new Marked({ gfm: true }, { renderer });
  const tokens = marked.lexer(markdown);
  const ids = new Set(tokens.filter((t) => t.type === 'heading' && t.depth >= 2 && t.depth <= 3).map((t) => headingId(plain(t.tokens))));
  const route = (href) => {
    if (/^(https?:|mailto:)/.test(href)) return href;
    const anchor = /^#([^#]*)$/.exec(href)?.[1];
    if (anchor === undefined) return elsewhere(href);
    if (!ids.has(anchor)) fail(`the link "${href}" names no heading of this file; its headings are #${[...ids].join(', #')}`);
    return `#/docs/${slug}/${anchor}`;
  };
  marked.walkTokens(tokens, (t) => {
    if (t.type === 'link') t.href = route(t.href);
    else if (t.type === 'html') {
      const text = t.text.trim();
      if (!(t.block && (widgets ? MARKER : GENERATED).test(text)))
        fail(
          `raw HTML is not allowed (${JSON.stringify(text.slice(0, 40))}); the only HTML is ${widgets ? 'a widget marker on a line of its own: <!-- widget: NAME -->' : 'a marker of generated text on a line of its own: <!-- NAME:start -->'}`,
        );
    }
  });

  if (tokens[0]?.type !== 'heading' || tokens[0].depth !== 1) fail('it must start with a "# " heading, the page title');
  const page = { slug, title: plain(tokens[0].tokens), lead: [], sections: [] };
  let blocks = page.lead;
  let pending = [];
  const flush = () => {
    const html = marked.parser(Object.assign(pending, { links: tokens.links })).trim();
    if (html) blocks.push({ html });
    pending = [];
  };
  for (const t of tokens.slice(1)) {
    if (t.type === 'heading' && t.depth <= 3) {
      flush();
      if (t.depth === 1) fail(`only the first heading is a "# " heading; "${t.text}" needs "## " or "### "`);
      const title = plain(t.tokens);
      const section = { id: headingId(title), title, blocks: [], sections: [] };
      if (t.depth === 2) page.sections.push(section);
      else if (page.sections.length) page.sections.at(-1).sections.push(section);
      else fail(`the "### " heading "${title}" comes before any "## " heading`);
      blocks = section.blocks;
    } else if (t.type === 'html') {
      flush();
      if (widgets) blocks.push({ widget: MARKER.exec(t.text.trim())[1] });
    } else pending.push(t);
  }
  flush();
  const all = page.sections.flatMap((s) => [s, ...s.sections]);
  const twice = all.find((s, i) => all.findIndex((o) => o.id === s.id) !== i);
  if (twice) fail(`two headings have the id #${twice.id}; headings must differ so that each has its own link`);
  return page;
}

/** The Vite plugin: `import page from '…/docs/rules/valley-farm.md'` is rulesPage of that file. */
// (No Node import here: the web tests load this file in happy-dom, where one failed to load
// under a full run.)
export function markdownPlugin() {
  return {
    name: 'valley-farm-rules-markdown',
    transform(source, id) {
      const file = id.split(/[\\/]/).pop();
      if (RULES_FILE.test(id)) return { code: `export default ${JSON.stringify(rulesPage(source, file))};\n`, map: null };
      if (DOCS_FILE.test(id)) return { code: `export default ${JSON.stringify(docsPage(source, file))};\n`, map: null };
      return null;
    },
  };
}
