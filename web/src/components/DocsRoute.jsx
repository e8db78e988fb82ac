// DocsRoute.jsx — where the documentation plugs in: web/src/docs/index.jsx, loaded on the
// first #/docs… address (its own chunk, so the game does not wait for it) and rendered with
// { path, app }.
import { useEffect, useState } from 'preact/hooks';

export function DocsRoute({ path, app }) {
  const [Docs, setDocs] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    import('../docs/index.jsx').then((m) => setDocs(() => m.default ?? m.Docs)).catch((err) => setError(err.message));
  }, []);
  if (Docs) return <Docs path={path} app={app} />;
  return (
    <section class="panel docs-placeholder">
      <h2>Docs</h2>
      <p>{error ? `The docs could not load: ${error}` : 'Loading the docs…'}</p>
      <p>
        <a href="#/">Back to the game</a>
      </p>
    </section>
  );
}
