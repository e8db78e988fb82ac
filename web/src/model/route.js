// route.js — the page's address is its URL fragment:
//   #/ or nothing      the game
//   #/docs, #/docs/…   the documentation (web/src/docs, when present)
//   #replay=<data>     the game, opening a shared replay (data: see replay.js)
export function parseHash(hash) {
  const h = String(hash ?? '').replace(/^#/, '');
  if (h.startsWith('replay=')) return { page: 'game', replay: h.slice('replay='.length) };
  if (h === '/docs' || h.startsWith('/docs/')) return { page: 'docs', path: h.slice('/docs'.length) || '/' };
  return { page: 'game' };
}
