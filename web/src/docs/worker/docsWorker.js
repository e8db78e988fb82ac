// docsWorker.js — the Web Worker that runs the docs' editable examples and tutorial agents
// (see runExample.js). One worker per run: the page terminates it after its time limit, so
// an endless loop costs the page nothing.
import { runExample, runAgent } from './runExample.js';

self.onmessage = async ({ data }) => {
  const post = (msg) => self.postMessage(msg);
  const final = data.type === 'agent' ? await runAgent(data, post) : await runExample(data.code, post);
  post(final);
};
