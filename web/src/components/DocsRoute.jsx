// DocsRoute.jsx — where the documentation plugs in. When web/src/docs/index.jsx exists,
// its default export (or `Docs`) is rendered with { path, app } for any #/docs… address;
// until then, a placeholder. import.meta.glob finds the module at build time, so the page
// builds with or without it.
import { useEffect, useState } from 'preact/hooks';

const docsModules = import.meta.glob('../docs/index.jsx');
const loadDocs = docsModules['../docs/index.jsx'];

export function DocsRoute({ path, app }) {
  const [Docs, setDocs] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    if (!loadDocs) return;
    loadDocs()
      .then((m) => setDocs(() => m.default ?? m.Docs))
      .catch((err) => setError(err.message));
  }, []);
  if (Docs) return <Docs path={path} app={app} />;
  return (
    <section class="panel docs-placeholder">
      <h2>Docs</h2>
      <p>{error ? `The docs could not load: ${error}` : loadDocs ? 'Loading the docs…' : 'The documentation is on its way.'}</p>
      <p><a href="#/">Back to the game</a></p>
    </section>
  );
}
