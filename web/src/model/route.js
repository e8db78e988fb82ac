// route.js — the page's address is its URL fragment:
//   #/ or nothing      the game
//   #/docs, #/docs/…   the documentation (web/src/docs, when present)
//   #/lab, #/lab?…     the Lab: train an agent (web/src/lab; the query is its settings)
//   #replay=<data>     the game, opening a shared replay (data: see replay.js)
export function parseHash(hash) {
  const h = String(hash ?? '').replace(/^#/, '');
  if (h.startsWith('replay=')) return { page: 'game', replay: h.slice('replay='.length) };
  if (h === '/docs' || h.startsWith('/docs/')) return { page: 'docs', path: h.slice('/docs'.length) || '/' };
  if (h === '/lab' || h.startsWith('/lab?')) return { page: 'lab', query: h.slice('/lab'.length).replace(/^\?/, '') };
  return { page: 'game' };
}
