// entry.js — the code sandbox: one script (built to sandbox.js by web/sandboxPlugin.mjs) that
// runs in three places. (A visitor's learner needs a script of its own too, loaded only then:
// learnerEntry.js.)
//
//  1. In sandbox.html, loaded in an <iframe sandbox="allow-scripts"> (no allow-same-origin),
//     so its origin is opaque: it cannot read the site's storage or cookies, and its
//     requests to the site carry no credentials and their responses are unreadable.
//     There it waits for the page's 'sandbox:start' (this script's own text, and the
//     engine's bytes when examples need it), starts the relay Worker from that text and
//     passes messages between the page and the relay.
//  2. In the relay Worker (named RELAY_NAME, same opaque origin): it starts the visitor's
//     Worker nested in itself, so that what the visitor's code posts is copied on the relay's
//     thread, never the page's, and forwards a copy within the message limits (relay.js).
//  3. In the visitor's Worker (nested in the relay): it runs the visitor's code. Agent
//     messages (load / reset / act, web/src/worker/sandbox.js) and docs messages (example /
//     agent, web/src/docs/worker/runExample.js) are answered as the old same-origin workers did,
//     and the Lab's messages for a visitor's learner ('learner:*') run it: the first,
//     'learner:start', carries the learner runner's text (sandbox-learner.js, learnerEntry.js),
//     which this Worker loads then, so that agents and examples never load the learners.
//
// The page (web/src/model/sandboxedWorker.js) enforces every time limit and output cap: it
// removes the iframe, and with it the relay and every Worker under it, whenever it wants.
import { useEngineBytes } from 'valley-farm';
import { createSandbox } from '../worker/sandbox.js';
import { cut } from '../model/cut.js';
import { runAgent, runExample } from '../docs/worker/runExample.js';
import { LEARNER_RUNNER, RELAY_NAME, relayMain, SANDBOX_UP } from './relay.js';

const inWorker = typeof WorkerGlobalScope !== 'undefined' && globalThis instanceof WorkerGlobalScope;
if (inWorker && self.name === RELAY_NAME) relayMain(self);
else if (inWorker) workerMain();
else if (typeof window !== 'undefined' && window.parent !== window) frameMain();

function workerMain() {
  const agents = createSandbox();
  const post = (msg) => self.postMessage(msg);
  let engine = null;
  let learner = null; // the visitor's learner's coordinator, once 'learner:start' has loaded the runner
  self.onmessage = async ({ data }) => {
    if (data?.type === 'engine') return useEngineBytes((engine = data.bytes));
    if (typeof data?.type === 'string' && data.type.startsWith('learner:')) {
      if (!learner) {
        try {
          learner = loadLearnerRunner(data, post, engine);
        } catch (err) {
          return post({ type: 'error', message: cut(String(err?.message ?? err)) });
        }
      }
      return learner(data);
    }
    if (data?.type === 'example') return post(await runExample(data.code, post));
    if (data?.type === 'agent') return post(await runAgent(data, post));
    return post(await agents.handle(data));
  };
  post({ type: SANDBOX_UP }); // started: the page's time limits on the code count from here
}

/**
 * The coordinator of a visitor's learner, from the learner runner whose text 'learner:start'
 * carries (`runner`): loaded into this Worker, handed the engine's bytes for its own copy of
 * the engine; the run's threads start from the same text.
 */
function loadLearnerRunner(data, post, engine) {
  if (data.type !== 'learner:start' || typeof data.runner !== 'string')
    throw new Error("your learner did not start: the sandbox's first learner message is 'learner:start' with the runner's text");
  if (!engine) throw new Error('your learner did not start: the sandbox was started without the engine');
  const url = URL.createObjectURL(new Blob([data.runner], { type: 'text/javascript' }));
  try {
    importScripts(url);
  } finally {
    URL.revokeObjectURL(url);
  }
  const runner = self[LEARNER_RUNNER];
  runner.useEngineBytes(engine);
  return runner.learnerCoordinator({ post, source: () => data.runner, engineBytes: () => engine });
}

function frameMain() {
  let relay = null;
  const toPage = (msg) => window.parent.postMessage(msg, '*'); // the page checks the source
  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    const data = event.data;
    if (data?.type === 'sandbox:start' && !relay && typeof data.source === 'string') {
      const url = URL.createObjectURL(new Blob([data.source], { type: 'text/javascript' }));
      relay = new Worker(url, { name: RELAY_NAME });
      URL.revokeObjectURL(url);
      // the relay has already cut what the visitor's code posted (relay.js): it passes on as it is
      relay.onmessage = ({ data: msg }) => {
        if (msg?.type === 'relay:message') toPage({ type: 'sandbox:message', data: msg.data });
        else if (msg?.type === 'relay:error') toPage({ type: 'sandbox:error', message: msg.message });
      };
      relay.onerror = (e) => {
        e.preventDefault();
        toPage({ type: 'sandbox:error', message: cut(e.message || 'unknown error') });
      };
      relay.postMessage({ type: 'relay:start', source: data.source, engine: data.engine }, data.engine ? [data.engine] : []);
    } else if (data?.type === 'sandbox:post' && relay) {
      relay.postMessage({ type: 'relay:post', data: data.data });
    }
  });
  toPage({ type: 'sandbox:ready' });
}
