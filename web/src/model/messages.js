// messages.js — the postMessage interface for a page that embeds this one in an iframe
// (documented in web/README.md). The parent sends
//   { type: 'valley-farm', id, method, args: [...] }
// and gets back, from the iframe,
//   { type: 'valley-farm', id, ok: true, result }  or  { type: 'valley-farm', id, ok: false, error }
// for the methods listed in METHODS (the console handle's, restricted to plain data). Unprompted,
// the iframe posts
//   { type: 'valley-farm', event: 'ready', envIds }          when the game can be played
//   { type: 'valley-farm', event: 'episode', env, seed, actions, ret }  at each episode's end
//
// Safe by default. Any page can frame this one, so a message is a stranger's input:
//  - without opt-in, messages only read and play (every method of METHODS); running code (setAgent
//    with { code }) needs `allow=code` in the iframe URL's query (and even then the code
//    runs in a sandbox with an opaque origin: web/src/sandbox/);
//  - `origin=https://a.example,https://b.example` in the query restricts which parent
//    origins may send messages; replies and events then go only to those origins;
//  - a message must be small (MAX_MESSAGE_CHARS of strings, MAX_DEPTH deep, MAX_ARGS args),
//    and at most MAX_PENDING may wait: beyond that each is refused at once with an error
//    reply. Reads (READ_METHODS) never wait behind a flood of steps.
import { cut, listed, MAX_ERROR_CHARS } from './cut.js';
import { yieldToBrowser } from './schedule.js';

export const MESSAGE_TYPE = 'valley-farm';
export const READ_METHODS = [
  'state',
  'observation',
  'legalActions',
  'actionNames',
  'status',
  'render',
  'runnerStats',
  'means',
  'replay',
  'shareLink',
];
export const METHODS = [
  'make',
  'reset',
  'step',
  'state',
  'observation',
  'legalActions',
  'actionNames',
  'status',
  'render',
  'setAgent',
  'run',
  'play',
  'pause',
  'setSpeed',
  'runnerStats',
  'means',
  'replay',
  'loadReplay',
  'replayStep',
  'shareLink',
  'setView',
];
export const MAX_MESSAGE_CHARS = 64 * 1024; // all strings of one message together (a setAgent's code)
export const MAX_DEPTH = 8;
export const MAX_ARGS = 4;
export const MAX_PENDING = 256;
export const MAX_ENTRIES = 10_000; // array items and object keys of one message together
const MAX_ID_CHARS = 100;

/**
 * The embedding policy from the iframe URL's query string: { origins: [...] | null (any),
 * allowCode, errors }. A malformed origin is an error and allows nothing (fail closed).
 */
export function parsePolicy(search = '') {
  const q = new URLSearchParams(search);
  const errors = [];
  let origins = null;
  const raw = q.getAll('origin').flatMap((v) => v.split(','));
  if (raw.length) {
    origins = [];
    for (const o of raw) {
      let ok = false;
      try {
        ok = new URL(o).origin === o && o !== 'null';
      } catch {
        ok = false;
      }
      if (ok) origins.push(o);
      else
        errors.push(`origin ${cut(JSON.stringify(o), 80)} is not an origin such as https://docs.example (scheme, host and port, no path)`);
    }
  }
  const allow = q.getAll('allow').flatMap((v) => v.split(','));
  for (const a of allow) if (a !== 'code') errors.push(`allow=${cut(a, 40)} is unknown; the only opt-in is allow=code`);
  return { origins, allowCode: allow.includes('code'), errors };
}

/**
 * Whether `value` stays within the message limits (strings, depth, entries); a reason if not.
 * Binary data (a typed array, a DataView, an ArrayBuffer) is sized by its byteLength, one
 * byte for one character, and never walked: listing the keys of a 400 MB Float64Array alone
 * would hold the page for seconds.
 */
export function tooBig(value) {
  let chars = 0;
  let entries = 0;
  const walk = (v, depth) => {
    if (depth > MAX_DEPTH) return `nested deeper than ${MAX_DEPTH}`;
    if (typeof v === 'string') {
      chars += v.length;
      return chars > MAX_MESSAGE_CHARS ? `longer than ${MAX_MESSAGE_CHARS} characters` : null;
    }
    if (v === null || typeof v !== 'object') return null;
    const bytes = binaryBytes(v);
    if (bytes !== null) {
      chars += bytes;
      return chars > MAX_MESSAGE_CHARS
        ? `longer than ${MAX_MESSAGE_CHARS} characters (its ${bytes} bytes of binary data count one character each)`
        : null;
    }
    // their entries are not keys, so their size would pass unseen; no method takes one
    if (v instanceof Map || v instanceof Set) return `carrying a ${v instanceof Map ? 'Map' : 'Set'}; a message carries plain data`;
    // an array's length is known without listing its keys (a sparse one may claim 2^32 - 1)
    if (Array.isArray(v) && entries + v.length > MAX_ENTRIES) return `more than ${MAX_ENTRIES} entries`;
    const keys = Object.keys(v);
    entries += keys.length;
    if (entries > MAX_ENTRIES) return `more than ${MAX_ENTRIES} entries`;
    for (const k of keys) {
      chars += k.length;
      const why = walk(v[k], depth + 1);
      if (why) return why;
    }
    return chars > MAX_MESSAGE_CHARS ? `longer than ${MAX_MESSAGE_CHARS} characters` : null;
  };
  return walk(value, 0);
}

/** The byteLength of binary data (typed array, DataView, ArrayBuffer, SharedArrayBuffer), else null. */
function binaryBytes(v) {
  if (ArrayBuffer.isView(v)) return v.byteLength;
  if (v instanceof ArrayBuffer || (typeof SharedArrayBuffer === 'function' && v instanceof SharedArrayBuffer)) return v.byteLength;
  return null;
}

const reply = (id, ok, body) => ({
  type: MESSAGE_TYPE,
  id,
  ok,
  ...(ok ? { result: body } : { error: cut(String(body), MAX_ERROR_CHARS) }),
});

/**
 * Answers one message under `policy` (parsePolicy's; the default allows read and play only);
 * resolves with the reply object, or null when the data is not a call for us.
 */
export async function answer(handle, data, policy = { origins: null, allowCode: false }) {
  if (!data || typeof data !== 'object' || data.type !== MESSAGE_TYPE || !('method' in data)) return null; // events and replies are not calls
  const id = typeof data.id === 'number' || (typeof data.id === 'string' && data.id.length <= MAX_ID_CHARS) ? data.id : null;
  const { method } = data;
  const size = tooBig(data);
  if (size)
    return reply(
      id,
      false,
      `Message refused: it is ${size}; a message may carry at most ${MAX_MESSAGE_CHARS} characters, ${MAX_DEPTH} levels deep`,
    );
  const args = Array.isArray(data.args) ? data.args : [];
  if (args.length > MAX_ARGS) return reply(id, false, `Message refused: ${args.length} args; the methods take at most ${MAX_ARGS}`);
  if (typeof method !== 'string' || !METHODS.includes(method)) {
    return reply(id, false, `Unknown method ${cut(JSON.stringify(method) ?? String(method), 60)}; the methods are ${METHODS.join(', ')}`);
  }
  if (method === 'setAgent') {
    const agent = args[0];
    if (typeof agent !== 'string' && typeof agent?.code !== 'string' && !(agent?.policy && typeof agent.policy === 'object')) {
      return reply(
        id,
        false,
        "Through postMessage an agent is 'heuristic', 'random', { policy } (a saved policy) or { code: 'function act(obs) { … }' }",
      );
    }
    if (typeof agent?.code === 'string' && !policy.allowCode) {
      return reply(
        id,
        false,
        "Running code through postMessage is off: the page that embeds this one must opt in with allow=code in the iframe URL's query (see web/README.md, Embedding)",
      );
    }
  }
  try {
    const result = await handle[method](...args);
    return reply(id, true, plain(result));
  } catch (err) {
    return reply(id, false, err?.message ?? String(err));
  }
}

// What structured clone can carry: drop functions (none of the methods return any today).
const plain = (value) => (value === undefined ? null : value);

/**
 * Listens for messages on `win` under the policy of its URL (or `policy`), replies to their
 * source, and announces readiness and episodes to the parent. Reads are answered at once, in
 * the event that brings them. Other calls wait in one queue (at most MAX_PENDING; past it,
 * a Busy reply) and are answered in order, one per task, each in a task of its own queued
 * behind the messages already waiting.
 *
 * Why never in the event that brings it: a browser hands over each message as a task of its
 * own, so a call answered there (a step, and the page's render after it) runs before the next
 * message is even looked at. A flood of 10,000 steps then keeps a read waiting behind all of
 * them, and no call ever waits in the queue long enough to be refused as busy.
 */
export function installMessages(win, handle, session, policy = parsePolicy(win.location?.search ?? '')) {
  const allowed = (origin) => policy.origins === null || policy.origins.includes(origin);
  const queue = [];
  let answering = false; // a queued call is being answered, or its task is queued
  const send = (event, body) => {
    const target = event.origin === 'null' || !event.origin ? '*' : event.origin;
    try {
      event.source?.postMessage(body, target);
    } catch {
      /* the sender went away */
    }
  };
  async function answerQueue() {
    while (queue.length) {
      // a task of its own: a message to ourselves goes behind the messages the browser has yet
      // to hand over (the same task source), so every one already waiting is looked at first
      await yieldToBrowser();
      const event = queue.shift();
      send(event, await answer(handle, event.data, policy));
    }
    answering = false;
  }
  win.addEventListener('message', async (event) => {
    const data = event.data;
    if (!data || typeof data !== 'object' || data.type !== MESSAGE_TYPE || !('method' in data)) return;
    if (!allowed(event.origin)) return; // not one of the origins the embedding page named: ignored
    if (READ_METHODS.includes(data.method)) {
      send(event, await answer(handle, data, policy));
      return;
    }
    if (queue.length >= MAX_PENDING) {
      const id = typeof data.id === 'number' || typeof data.id === 'string' ? data.id : null;
      send(
        event,
        reply(
          typeof id === 'string' ? cut(id, MAX_ID_CHARS) : id,
          false,
          `Busy: ${MAX_PENDING} messages are waiting; send the next when a reply arrives`,
        ),
      );
      return;
    }
    queue.push(event);
    if (!answering) {
      answering = true;
      answerQueue();
    }
  });
  const parent = win.parent && win.parent !== win ? win.parent : null;
  if (parent) {
    const post = (body) => {
      for (const target of policy.origins ?? ['*']) parent.postMessage(body, target);
    };
    if (policy.errors.length) console.warn(`valley-farm embedding: ${listed(policy.errors)}`);
    post({ type: MESSAGE_TYPE, event: 'ready', envIds: handle.envIds, allowCode: policy.allowCode });
    session.onEpisodeEnd((record) => post({ type: MESSAGE_TYPE, event: 'episode', ...record }));
  }
}
