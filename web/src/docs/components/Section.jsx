// Section.jsx — a docs section with a linkable id, the page's table of contents, and the
// docs link (an address in the page's #/docs/… fragment: #/docs/<page>/<section>).
export const sectionId = (page, id) => `docs-${page}-${id}`;
export const docHref = (to) => `#/docs${to === '/' ? '' : to}`;

export function DocLink({ to, children }) {
  return <a href={docHref(to)}>{children}</a>;
}

export function Section({ page, id, title, children }) {
  return (
    <section id={sectionId(page, id)} class="docs-section" aria-labelledby={`${sectionId(page, id)}-h`}>
      <h2 id={`${sectionId(page, id)}-h`}>
        {title}{' '}
        <a class="docs-anchor" href={docHref(`/${page}/${id}`)} aria-label={`Link to ${title}`}>
          #
        </a>
      </h2>
      {children}
    </section>
  );
}

export function Toc({ page, sections }) {
  return (
    <nav class="docs-toc" aria-label="On this page">
      <ul>
        {sections.map(([id, title]) => (
          <li>
            <a href={docHref(`/${page}/${id}`)}>{title}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
