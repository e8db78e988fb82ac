// shardWorker.js — one shard of a PPO run in its own thread (workers.js starts it): it builds
// the Shard of ppo.js and answers the coordinator's calls { id, method, args } with
// { id, result } or { id, error }. Gradients do not pass here: the shards send them to each
// other (connectShards in workers.js).
import { Shard } from './ppo.js';

const inNode = Boolean(globalThis.process?.versions?.node) && typeof globalThis.WorkerGlobalScope === 'undefined';
let post = (msg, transfer) => self.postMessage(msg, transfer);
let shard = null;

async function answer({ id, method, args }) {
  try {
    if (method === 'create') {
      shard = await Shard.create(args[0]);
      return post({ id, result: null });
    }
    if (method === 'plan') {
      const result = await shard.plan(args[0], args[1], () => post({ type: 'episode' }));
      return post({ id, result });
    }
    const result = await shard[method](...args);
    post({ id, result: result ?? null });
  } catch (err) {
    post({ id, error: String(err?.message ?? err).slice(0, 2000) });
  }
}

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
