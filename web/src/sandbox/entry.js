// entry.js — the code sandbox: one script (built to sandbox.js by web/sandboxPlugin.mjs) that
// runs in two places.
//
//  1. In sandbox.html, loaded in an <iframe sandbox="allow-scripts"> (no allow-same-origin),
//     so its origin is opaque: it cannot read the site's storage or cookies, and its
//     requests to the site carry no credentials and their responses are unreadable.
//     There it waits for the page's 'sandbox:start' (this script's own text, and the
//     engine's bytes when examples need it), starts a Worker from that text and relays
//     messages between the page and the Worker.
//  2. In that Worker (same opaque origin): it runs the visitor's code. Agent messages
//     (load / reset / act, web/src/worker/sandbox.js) and docs messages (example / agent,
//     web/src/docs/worker/runExample.js) are answered as the old same-origin workers did.
//
// The page (web/src/model/sandboxedWorker.js) enforces every time limit and output cap: it
// removes the iframe, and with it the Worker, whenever it wants.
import { useEngineBytes } from 'valley-farm';
import { createSandbox } from '../worker/sandbox.js';
import { bounded, cut } from '../model/cut.js';
import { runAgent, runExample } from '../docs/worker/runExample.js';

const inWorker = typeof WorkerGlobalScope !== 'undefined' && globalThis instanceof WorkerGlobalScope;
if (inWorker) workerMain();
else if (typeof window !== 'undefined' && window.parent !== window) frameMain();

function workerMain() {
  const agents = createSandbox();
  const post = (msg) => self.postMessage(msg);
  self.onmessage = async ({ data }) => {
    if (data?.type === 'engine') return useEngineBytes(data.bytes);
    if (data?.type === 'example') return post(await runExample(data.code, post));
    if (data?.type === 'agent') return post(await runAgent(data, post));
    return post(await agents.handle(data));
  };
}

function frameMain() {
  let worker = null;
  const toPage = (msg) => window.parent.postMessage(msg, '*'); // the page checks the source
  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    const data = event.data;
    if (data?.type === 'sandbox:start' && !worker && typeof data.source === 'string') {
      const url = URL.createObjectURL(new Blob([data.source], { type: 'text/javascript' }));
      worker = new Worker(url);
      URL.revokeObjectURL(url);
      // the visitor's code shares the worker with ours and may post anything: only a bounded copy goes on
      worker.onmessage = (e) => toPage({ type: 'sandbox:message', data: bounded(e.data) });
      worker.onerror = (e) => {
        e.preventDefault();
        toPage({ type: 'sandbox:error', message: cut(e.message ?? 'unknown error') });
      };
      if (data.engine) worker.postMessage({ type: 'engine', bytes: data.engine }, [data.engine]);
    } else if (data?.type === 'sandbox:post' && worker) {
      worker.postMessage(data.data);
    }
  });
  toPage({ type: 'sandbox:ready' });
}
