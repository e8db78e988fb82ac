// messages.js — the postMessage interface for a page that embeds this one in an iframe
// (documented in web/README.md). The parent sends
//   { type: 'valley-farm', id, method, args: [...] }
// and gets back, from the iframe,
//   { type: 'valley-farm', id, ok: true, result }  or  { type: 'valley-farm', id, ok: false, error }
// for the methods listed in METHODS (the console handle's, restricted to plain data: an
// agent is 'heuristic', 'random' or { code }). Unprompted, the iframe posts
//   { type: 'valley-farm', event: 'ready', envIds }          when the game can be played
//   { type: 'valley-farm', event: 'episode', env, seed, actions, ret }  at each episode's end
export const MESSAGE_TYPE = 'valley-farm';
export const METHODS = [
  'make', 'reset', 'step', 'state', 'observation', 'legalActions', 'actionNames', 'status', 'render',
  'setAgent', 'run', 'play', 'pause', 'setSpeed', 'runnerStats', 'means',
  'replay', 'loadReplay', 'replayStep', 'shareLink', 'setView',
];

/** Answers one message; resolves with the reply object (or null when not for us). */
export async function answer(handle, data) {
  if (!data || data.type !== MESSAGE_TYPE || !('method' in data)) return null; // events and replies are not calls
  const { id, method } = data;
  const args = Array.isArray(data.args) ? data.args : [];
  if (!METHODS.includes(method)) {
    return { type: MESSAGE_TYPE, id, ok: false, error: `Unknown method ${JSON.stringify(method)}; the methods are ${METHODS.join(', ')}` };
  }
  if (method === 'setAgent' && typeof args[0] !== 'string' && typeof args[0]?.code !== 'string') {
    return { type: MESSAGE_TYPE, id, ok: false, error: "Through postMessage an agent is 'heuristic', 'random' or { code: 'function act(obs) { … }' }" };
  }
  try {
    const result = await handle[method](...args);
    return { type: MESSAGE_TYPE, id, ok: true, result: plain(result) };
  } catch (err) {
    return { type: MESSAGE_TYPE, id, ok: false, error: err.message };
  }
}

// What structured clone can carry: drop functions (none of the methods return any today).
const plain = (value) => (value === undefined ? null : value);

/** Listens for messages on `win` and replies to their source; announces readiness to the parent. */
export function installMessages(win, handle, session) {
  win.addEventListener('message', async (event) => {
    const reply = await answer(handle, event.data);
    if (reply && event.source) event.source.postMessage(reply, event.origin === 'null' || !event.origin ? '*' : event.origin);
  });
  const parent = win.parent && win.parent !== win ? win.parent : null;
  if (parent) {
    parent.postMessage({ type: MESSAGE_TYPE, event: 'ready', envIds: handle.envIds }, '*');
    session.onEpisodeEnd((record) => parent.postMessage({ type: MESSAGE_TYPE, event: 'episode', ...record }, '*'));
  }
}
