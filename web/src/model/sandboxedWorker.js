// sandboxedWorker.js — a Worker-like object ({ postMessage, onmessage, onerror, terminate })
// whose code runs inside sandbox.html, in an <iframe sandbox="allow-scripts"> without
// allow-same-origin: an opaque origin, so code the site did not ship (the editor, setAgent
// with code, the docs' examples) never runs with the site's origin. See
// web/src/sandbox/entry.js for the other side. terminate() removes the iframe, which stops
// its Worker however busy it is.
//
// Starting one (a frame, a relay Worker, the Worker that runs the code, each loading the
// sandbox's script) takes a second or more on a busy machine, none of it the code's time. So
// the object's `ready` promise resolves when that Worker has started, before any code of the
// visitor's runs there, and a time limit on the code starts its clock then (workerAgent.js,
// docs/model/runner.js). The start has a limit of its own, SANDBOX_START_LIMIT_MS.
import { engineUrl } from 'valley-farm';
import { cut } from './cut.js';
import { SANDBOX_UP } from '../sandbox/relay.js';

export const SANDBOX_START_LIMIT_MS = 30_000;

const scriptTexts = new Map(); // sandbox.js and sandbox-learner.js, each fetched once (the site's own files, same origin)

const siteUrl = (file) => new URL(file, document.baseURI).href;

/** The text of one of the sandbox's scripts (web/sandboxPlugin.mjs builds them). */
async function siteScript(file) {
  if (!scriptTexts.has(file))
    scriptTexts.set(
      file,
      fetch(siteUrl(file)).then((r) => {
        if (!r.ok) throw new Error(`could not load the code sandbox (${file}: HTTP ${r.status})`);
        return r.text();
      }),
    );
  try {
    return await scriptTexts.get(file);
  } catch (err) {
    scriptTexts.delete(file); // a failed load may be retried
    throw err;
  }
}

const sandboxScript = () => siteScript('sandbox.js');
/** The learner runner's text (learnerEntry.js), which a visitor's learner's 'learner:start' carries. */
export const learnerRunnerScript = () => siteScript('sandbox-learner.js');

async function engineBytes() {
  const r = await fetch(engineUrl());
  if (!r.ok) throw new Error(`could not load the engine for the sandbox (HTTP ${r.status})`);
  return r.arrayBuffer();
}

/** Starts a sandboxed worker; `engine: true` hands it the engine (for code that uses the API). */
export function createSandboxedWorker({ engine = false } = {}) {
  const iframe = document.createElement('iframe');
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.setAttribute('aria-hidden', 'true');
  iframe.title = 'code sandbox';
  iframe.hidden = true;
  iframe.src = siteUrl('sandbox.html');
  const queue = [];
  let started = false;
  let up = false;
  let dead = false;
  let markUp;
  const worker = {
    onmessage: null,
    onerror: null,
    /** Resolves when the sandbox's Worker has started (never, if it fails first: then onerror). */
    ready: new Promise((resolve) => (markUp = resolve)),
    postMessage(msg) {
      if (dead) return;
      if (started) iframe.contentWindow?.postMessage({ type: 'sandbox:post', data: msg }, '*');
      else queue.push(msg);
    },
    terminate() {
      dead = true;
      clearTimeout(startLimit);
      window.removeEventListener('message', onMessage);
      iframe.remove();
    },
  };
  const fail = (message) => worker.onerror?.({ message, preventDefault() {} });
  const startLimit = setTimeout(() => {
    if (!up && !dead) fail(`the code sandbox did not start within ${SANDBOX_START_LIMIT_MS / 1000} s`);
  }, SANDBOX_START_LIMIT_MS);
  async function onMessage(event) {
    if (dead || event.source !== iframe.contentWindow) return; // only our own frame speaks here
    const data = event.data;
    if (data?.type === 'sandbox:ready' && !started) {
      try {
        const [source, bytes] = await Promise.all([sandboxScript(), engine ? engineBytes() : null]);
        if (dead) return;
        iframe.contentWindow.postMessage({ type: 'sandbox:start', source, engine: bytes }, '*', bytes ? [bytes] : []);
        started = true;
        for (const msg of queue.splice(0)) worker.postMessage(msg);
      } catch (err) {
        fail(err.message);
      }
    } else if (data?.type === 'sandbox:message' && data.data?.type === SANDBOX_UP) {
      // the first is the sandbox's own, posted before the visitor's code can run; any later
      // one is the visitor's code pretending, and is dropped
      if (up) return;
      up = true;
      clearTimeout(startLimit);
      markUp();
    } else if (data?.type === 'sandbox:message') {
      worker.onmessage?.({ data: data.data });
    } else if (data?.type === 'sandbox:error') {
      fail(cut(data.message));
    }
  }
  window.addEventListener('message', onMessage);
  document.body.append(iframe);
  return worker;
}
