// LazyRoute.jsx — a part of the site in a chunk of its own (the docs, the Lab), loaded on
// its first address so that the game's first load does not carry it; a placeholder says
// what is loading (or why it could not).
import { useEffect, useState } from 'preact/hooks';

/** load() resolves with the component to render with the other props; title names it ("docs"). */
export function LazyRoute({ load, title, ...props }) {
  const [Page, setPage] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    load()
      .then((component) => setPage(() => component))
      .catch((err) => setError(err.message));
  }, []);
  if (Page) return <Page {...props} />;
  return (
    <section class="panel docs-placeholder">
      <h2>{title}</h2>
      <p>{error ? `The ${title} could not load: ${error}` : `Loading the ${title}…`}</p>
      <p>
        <a href="#/">Back to the game</a>
      </p>
    </section>
  );
}
