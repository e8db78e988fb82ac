// Section.jsx — a docs section with a linkable id, the page's table of contents, and the
// docs link (an address in the page's #/docs/… fragment: #/docs/<page>/<section>).
import { farms } from '../../model/farms/index.js';
export const sectionId = (page, id) => `docs-${page}-${id}`;
export const docHref = (to) => `#/docs${to === '/' ? '' : to}`;

export function DocLink({ to, children }) {
  return <a href={docHref(to)}>{children}</a>;
}

/** A section headed by an h2 (an h3 for a subsection: level 3). */
/** A link to each farm's rules page (at its `section`, when given), by the farm's slug: "valley, backwards". */
export function FarmLinks({ section }) {
  return farms.map((f, i) => (
    <>
      {i ? ', ' : ''}
      <DocLink to={`/${f.slug}${section ? `/${section}` : ''}`}>{f.slug}</DocLink>
    </>
  ));
}

export function Section({ page, id, title, level = 2, children }) {
  const H = level === 3 ? 'h3' : 'h2';
  return (
    <section id={sectionId(page, id)} class="docs-section" aria-labelledby={`${sectionId(page, id)}-h`}>
      <H id={`${sectionId(page, id)}-h`}>
        {title}{' '}
        <a class="docs-anchor" href={docHref(`/${page}/${id}`)} aria-label={`Link to ${title}`}>
          #
        </a>
      </H>
      {children}
    </section>
  );
}

/** The table of contents: [id, title] per section, [id, title, 3] for a subsection. */
export function Toc({ page, sections }) {
  return (
    <nav class="docs-toc" aria-label="On this page">
      <ul>
        {sections.map(([id, title, level]) => (
          <li class={level === 3 ? 'docs-toc-sub' : undefined}>
            <a href={docHref(`/${page}/${id}`)}>{title}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
