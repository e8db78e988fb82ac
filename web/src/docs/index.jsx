// index.jsx — the documentation, rendered by the page's router for every #/docs… address.
// path is what follows "#/docs": "/" (overview), "/valley", "/backwards", "/api",
// "/tutorial", "/embed", "/training", "/write-a-learner", "/benchmark", "/speed", "/architecture", optionally
// followed by "/<section>" to scroll to a section
// (in-page anchors live in the route, since the fragment is the page's address).
import { useEffect } from 'preact/hooks';
import { Overview } from './pages/Overview.jsx';
import { EnvPage, rulesPageOf, rulesSections } from './pages/EnvPage.jsx';
import { ApiPage, API_SECTIONS } from './pages/ApiPage.jsx';
import { TutorialPage, TUTORIAL_SECTIONS } from './pages/TutorialPage.jsx';
import { EmbedPage, EMBED_SECTIONS } from './pages/EmbedPage.jsx';
import { BenchmarkPage, BENCHMARK_SECTIONS } from './pages/BenchmarkPage.jsx';
import { TrainingPage, TRAINING_SECTIONS } from './pages/TrainingPage.jsx';
import { MARKDOWN_PAGES, MarkdownPage, markdownSections } from './pages/MarkdownPage.jsx';
import { docHref, sectionId } from './components/Section.jsx';
import { farms } from '../model/farms/index.js';
import './docs.css';

/** The docs pages: slug -> { title, render, sections }. */
export const PAGES = {
  '': { title: 'Overview', render: () => <Overview />, sections: [] },
  ...Object.fromEntries(
    farms.map((f) => [
      f.slug,
      { title: `${f.short} Farm`, render: () => <EnvPage envId={f.id} />, sections: rulesSections(rulesPageOf(f.id)) },
    ]),
  ),
  api: { title: 'API reference', render: () => <ApiPage />, sections: API_SECTIONS },
  tutorial: { title: 'First agent', render: () => <TutorialPage />, sections: TUTORIAL_SECTIONS },
  embed: { title: 'Embed', render: () => <EmbedPage />, sections: EMBED_SECTIONS },
  training: { title: 'Train an agent', render: () => <TrainingPage />, sections: TRAINING_SECTIONS },
  'write-a-learner': {
    title: 'Write a learner',
    render: () => <MarkdownPage page={MARKDOWN_PAGES['write-a-learner']} />,
    sections: markdownSections(MARKDOWN_PAGES['write-a-learner']),
  },
  benchmark: { title: 'Benchmark', render: () => <BenchmarkPage />, sections: BENCHMARK_SECTIONS },
  speed: { title: 'Speed', render: () => <MarkdownPage page={MARKDOWN_PAGES.speed} />, sections: markdownSections(MARKDOWN_PAGES.speed) },
  architecture: {
    title: 'Architecture',
    render: () => <MarkdownPage page={MARKDOWN_PAGES.architecture} />,
    sections: markdownSections(MARKDOWN_PAGES.architecture),
  },
};

/** "/valley/actions" -> { page: 'valley', section: 'actions' }; page null when unknown. */
export function parseDocsPath(path) {
  const [slug = '', section = null] = String(path ?? '/')
    .replace(/^\/+/, '')
    .split(/[/?]/);
  if (!(slug in PAGES)) return { page: null, slug, section: null };
  const known = section && PAGES[slug].sections.some(([id]) => id === section);
  return { page: slug, section: known ? section : null, badSection: section && !known ? section : null };
}

function Nav({ current }) {
  return (
    <nav class="docs-nav" aria-label="Documentation">
      <ul>
        {Object.entries(PAGES).map(([slug, p]) => (
          <li>
            <a href={docHref(slug ? `/${slug}` : '/')} aria-current={slug === current ? 'page' : undefined}>
              {p.title}
            </a>
          </li>
        ))}
        <li class="docs-nav-game">
          <a href="#/">← The game</a>
        </li>
      </ul>
    </nav>
  );
}

export function Docs({ path = '/' }) {
  const { page, section, slug, badSection } = parseDocsPath(path);
  useEffect(() => {
    if (page !== null && section) document.getElementById(sectionId(page, section))?.scrollIntoView?.();
    else window.scrollTo?.(0, 0);
  }, [path]);
  return (
    <div class="docs">
      <Nav current={page} />
      <main class="docs-main">
        {page === null ? (
          <article class="docs-page" data-page="not-found">
            <h1>No such page</h1>
            <p>
              There is no docs page <code>{slug}</code>. Try the <a href={docHref('/')}>overview</a>.
            </p>
          </article>
        ) : (
          <>
            {badSection && (
              <p class="docs-error" role="alert">
                No section “{badSection}” on this page.
              </p>
            )}
            <div key={page}>{PAGES[page].render()}</div>
          </>
        )}
      </main>
    </div>
  );
}

export default Docs;
