// MarkdownPage.jsx — the docs' own pages written in Markdown (docs/speed.md,
// docs/architecture.md, docs/write-a-learner.md, and the narrative sections of docs/benchmark.md), converted at build
// time by web/markdownPlugin.mjs (docsPage): one text, read the same on GitHub and here.
import speed from '../../../../docs/speed.md';
import architecture from '../../../../docs/architecture.md';
import benchmark from '../../../../docs/benchmark.md';
import writeALearner from '../../../../docs/write-a-learner.md';
import { Section, Toc } from '../components/Section.jsx';

/** The converted pages, by slug. */
export const MARKDOWN_PAGES = { speed, architecture, benchmark, 'write-a-learner': writeALearner };

/** A converted page's sections for the route and the contents: [id, title] and [id, title, 3] for an h3. */
export const markdownSections = (page) =>
  page.sections.flatMap((s) => [[s.id, s.title], ...s.sections.map((sub) => [sub.id, sub.title, 3])]);

const Html = ({ blocks }) => blocks.map((b) => <div class="docs-md" dangerouslySetInnerHTML={{ __html: b.html }} />);

/** Sections of a converted page (all of them, or those whose ids are listed), each linkable on `page`. */
export function MarkdownSections({ page, only = null, slug = page.slug }) {
  return page.sections
    .filter((s) => !only || only.includes(s.id))
    .map((s) => (
      <Section page={slug} id={s.id} title={s.title}>
        <Html blocks={s.blocks} />
        {s.sections.map((sub) => (
          <Section page={slug} id={sub.id} title={sub.title} level={3}>
            <Html blocks={sub.blocks} />
          </Section>
        ))}
      </Section>
    ));
}

/** A whole converted page. */
export function MarkdownPage({ page }) {
  return (
    <article class="docs-page" data-page={page.slug}>
      <h1>{page.title}</h1>
      <Toc page={page.slug} sections={markdownSections(page)} />
      <Html blocks={page.lead} />
      <MarkdownSections page={page} />
    </article>
  );
}
