// agentWorker.js — the Web Worker that runs the visitor's agent code (see sandbox.js for
// the messages). Code here cannot touch the page; an endless loop only blocks this worker,
// which the page terminates after its time limit.
import { createSandbox } from './sandbox.js';

const sandbox = createSandbox();
self.onmessage = async (event) => {
  self.postMessage(await sandbox.handle(event.data));
};
