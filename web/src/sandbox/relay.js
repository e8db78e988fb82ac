// relay.js — the sandbox's middle Worker, between its frame and the visitor's code.
//
// Whatever a Worker posts is copied (deserialised) on the thread of whoever made it, before
// any code of ours there can look at it. If the frame made the visitor's Worker, a 100 MB
// string posted by the visitor's code would be copied on the frame's thread, which in a
// browser that keeps a sandboxed frame in the page's process is the page's own thread: a
// freeze of a few hundred ms to seconds. So the frame makes this relay, and the relay makes
// the visitor's Worker as a nested Worker: every message and error of the visitor's code
// is copied here, off the page's thread, and only a copy within the message limits
// (relayCopy) goes on to the frame. Removing the frame stops the relay, and with it the
// visitor's Worker and every Worker that one started.
//
//   frame -> relay:  { type: 'relay:start', source, engine? }   then  { type: 'relay:post', data }
//   relay -> frame:  { type: 'relay:message', data }            or    { type: 'relay:error', message }
import { bounded, cut, MAX_ERROR_CHARS } from '../model/cut.js';
import { MAX_ENTRIES, MAX_MESSAGE_CHARS, tooBig } from '../model/messages.js';

/** The Worker names the sandbox's script reads to know which part it plays. */
export const RELAY_NAME = 'valley-farm relay';
export const AGENT_NAME = 'valley-farm code';
/** Where the learner runner (sandbox-learner.js, learnerEntry.js) leaves its API in the code Worker. */
export const LEARNER_RUNNER = 'valley-farm learner runner';
/** The type of the message the visitor's Worker posts first, once started (sandboxedWorker.js `ready`). */
export const SANDBOX_UP = 'sandbox:up';

// at most this many top-level fields survive when even a bounded copy is over the limits
const MAX_FIELDS = 20;

/**
 * What the relay forwards of one message from the visitor's Worker: the message itself when
 * it is within the message limits (messages.js tooBig, which sizes before it walks), else a
 * copy cut to them (cut.js bounded: every string cut, the whole copy within the limits, and
 * given up as soon as it would pass them), else only its top-level plain fields (its type,
 * id, phase, message, cut), with `refused` saying why. Beside the message it was handed, the
 * relay never holds more than the limits' worth of copy.
 */
export function relayCopy(data) {
  const why = tooBig(data);
  if (!why) return data;
  const copy = bounded(data, { chars: MAX_MESSAGE_CHARS, entries: MAX_ENTRIES });
  if (copy) return copy.value;
  const flat = { refused: `the message was ${why}; the sandbox relays at most the message limits` };
  if (data !== null && typeof data === 'object' && !Array.isArray(data))
    for (const k of Object.keys(data).slice(0, MAX_FIELDS)) {
      const v = data[k];
      if (v === null || typeof v !== 'object') flat[cut(k, 100)] = typeof v === 'string' ? cut(v, MAX_ERROR_CHARS) : v;
    }
  return flat;
}

/** Runs the relay in this Worker (`scope`: its global): starts the visitor's Worker and relays both ways. */
export function relayMain(scope) {
  let code = null; // the visitor's Worker
  const toFrame = (msg) => scope.postMessage(msg);
  scope.onmessage = ({ data }) => {
    if (data?.type === 'relay:start' && !code && typeof data.source === 'string') {
      const url = URL.createObjectURL(new Blob([data.source], { type: 'text/javascript' }));
      code = new Worker(url, { name: AGENT_NAME });
      URL.revokeObjectURL(url);
      code.onmessage = (e) => toFrame({ type: 'relay:message', data: relayCopy(e.data) });
      code.onmessageerror = () => toFrame({ type: 'relay:error', message: 'the worker posted a message that could not be read' });
      code.onerror = (e) => {
        e.preventDefault(); // handled here: it does not go on to the frame as an error of the relay's own
        toFrame({ type: 'relay:error', message: cut(e.message || 'unknown error') });
      };
      if (data.engine) code.postMessage({ type: 'engine', bytes: data.engine }, [data.engine]);
    } else if (data?.type === 'relay:post' && code) {
      code.postMessage(data.data);
    }
  };
}
