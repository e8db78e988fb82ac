// EnvPage.jsx — one farm's rules page: docs/rules/<slug>-farm.md, the one text of the rules,
// converted to HTML at build time (web/markdownPlugin.mjs), each of its sections linkable, and
// at each `<!-- widget: NAME -->` line the live widget NAME (DocWidget.jsx).
import { envSpecs } from 'valley-farm';
import { farmFor } from '../../model/farms/index.js';
import { DocWidget } from '../components/DocWidget.jsx';
import { Section, Toc, DocLink } from '../components/Section.jsx';

const FILES = import.meta.glob('../../../../docs/rules/*.md', { eager: true, import: 'default' });
const bySlug = new Map(Object.values(FILES).map((page) => [page.slug, page]));

/** The converted rules page of a farm (by its adapter's slug); throws when there is none. */
export function rulesPageOf(envId) {
  const { slug } = farmFor(envId);
  const page = bySlug.get(slug);
  if (!page) throw new Error(`No rules page for ${envId}: write docs/rules/${slug}-farm.md (its farm adapter's slug is ${slug})`);
  return page;
}

/** A rules page's sections for the route and the contents: [id, title] and [id, title, 3] for an h3. */
export const rulesSections = (page) => page.sections.flatMap((s) => [[s.id, s.title], ...s.sections.map((sub) => [sub.id, sub.title, 3])]);

function Blocks({ envId, blocks }) {
  return blocks.map((b, i) =>
    b.widget ? (
      <DocWidget key={`w${i}`} envId={envId} name={b.widget} />
    ) : (
      <div key={`h${i}`} class="docs-md" dangerouslySetInnerHTML={{ __html: b.html }} />
    ),
  );
}

/** A converted rules page (rulesPage() of web/markdownPlugin.mjs) for the farm envId. */
export function RulesDoc({ envId, page }) {
  const spec = envSpecs[envId];
  return (
    <article class="docs-page" data-page={page.slug}>
      <h1>{page.title}</h1>
      <p class="docs-lead">
        {spec.width} × {spec.height} grid, {spec.actions.length} actions, {spec.horizon} steps, a {spec.obsSize}-integer flat observation.{' '}
        <DocLink to="/tutorial">Write an agent for it</DocLink> or <a href="#/">play it in the game</a>.
      </p>
      <Toc page={page.slug} sections={rulesSections(page)} />
      <Blocks envId={envId} blocks={page.lead} />
      {page.sections.map((s) => (
        <Section key={s.id} page={page.slug} id={s.id} title={s.title}>
          <Blocks envId={envId} blocks={s.blocks} />
          {s.sections.map((sub) => (
            <Section key={sub.id} page={page.slug} id={sub.id} title={sub.title} level={3}>
              <Blocks envId={envId} blocks={sub.blocks} />
            </Section>
          ))}
        </Section>
      ))}
    </article>
  );
}

export function EnvPage({ envId }) {
  return <RulesDoc envId={envId} page={rulesPageOf(envId)} />;
}
