// Header.jsx — the title, the choice of farm, and the links to the Lab and the docs.
import { envIds, envMeta } from '../model/envMeta.js';

export function Header({ envId, page, onEnv }) {
  return (
    <header class="top">
      <a class="brand" href="#/" aria-label="Valley Farm, the game">
        <svg viewBox="0 0 32 32" aria-hidden="true">
          <rect class="bg bg-ground" width="32" height="32" rx="6" />
          <path class="barn-roof" d="M4 16L16 6l12 10z" />
          <path class="barn-wall" d="M7 15h18v11H7z" />
          <path class="barn-door" d="M13 19h6v7h-6z" />
        </svg>
        <span>Valley Farm</span>
      </a>
      <nav class="env-tabs" aria-label="Farm">
        {envIds.map((id) => (
          <button
            type="button"
            class="tab"
            aria-pressed={page === 'game' && id === envId ? 'true' : 'false'}
            onClick={() => onEnv(id)}
            title={id}
          >
            {envMeta[id].title}
          </button>
        ))}
      </nav>
      <a class="docs-link" href="#/lab" aria-current={page === 'lab' ? 'page' : undefined}>
        Lab
      </a>
      <a class="docs-link" href="#/docs" aria-current={page === 'docs' ? 'page' : undefined}>
        Docs
      </a>
    </header>
  );
}
