// threadWorker.js — one thread of a learner's run in a Worker (threads.js starts it): it finds
// the learner (a built-in one by name in the registry, another by its module's URL), builds its
// thread(ctx) and answers the coordinator's calls { id, method, args } with { id, result } or
// { id, error }. Numbers between threads do not pass here: the threads send them to each other
// (exchange.js). The answering is serveThread's (threads.js), which the Lab's sandbox shares.
import { serveThread } from './threads.js';

const inNode = Boolean(globalThis.process?.versions?.node) && typeof globalThis.WorkerGlobalScope === 'undefined';
let post = (msg, transfer) => self.postMessage(msg, transfer);

/** The learner's declaration: the registry's, or the `learner` export of the module at `url`. */
async function learnerOf({ name, url }) {
  if (url) return (await import(/* @vite-ignore */ url)).learner;
  const { algorithms } = await import('./registry.js');
  return algorithms[name];
}

const answer = serveThread({ post: (msg) => post(msg), learnerOf });

// No top-level await: in the site's build this script is an entry beside the page's
// (web/workerChunksPlugin.mjs), and one await at the top of any module turns off Rolldown's
// merging of chunks for the whole build, cutting the game's first load into small pieces.
// A worker_threads port keeps the messages that come before its listener.
if (inNode)
  import(/* @vite-ignore */ `node:${'worker_threads'}`).then(({ parentPort }) => {
    post = (msg, transfer) => parentPort.postMessage(msg, transfer);
    parentPort.on('message', answer);
  });
else self.onmessage = (e) => answer(e.data);
