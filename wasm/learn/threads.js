// threads.js — a learner's run on every core: its threads, each hosting some of the run's
// shards (exchange.js), one in the calling thread and the others in worker_threads Workers
// (Node) or Web Workers (a browser), all running the same code of the learner's module: its
// `thread(ctx)` export, which returns the methods the coordinator calls. Calls and answers are
// plain messages; the threads send each other their numbers through MessageChannels of their
// own (exchange.js: thread 0's to each other thread), never through the coordinator's calls.
//
// The shards, not the threads, fix what a run computes: a seeded run gives the same bits on 1,
// 2 or 8 threads, and only its speed follows the machine.
import { Exchange, shardRange } from './exchange.js';
import { foldSeed, seededRandom } from '../rng.js';

/** Shard `shard` of `shards`' envs of a run's numEnvs: [from, from + n), as even as can be. */
export function shardEnvs(shard, shards, numEnvs) {
  const from = Math.floor((shard * numEnvs) / shards);
  return { from, n: Math.floor(((shard + 1) * numEnvs) / shards) - from };
}

/** Shard `shard`'s own generator for a run seeded `seed` (its actions, its minibatches' order). */
export const shardRandom = (seed, shard) => seededRandom(shard === 0 ? seed : foldSeed(seed * 1_000_003 + shard));

/** The most threads a run may ask for (a browser tab past this gains nothing but memory). */
export const THREADS_MAX = 16;

/** One thread per core of this machine, at most `most`. */
export function defaultThreads(most) {
  const fromNavigator = globalThis.navigator?.hardwareConcurrency;
  const os = globalThis.process?.getBuiltinModule?.('node:os');
  const cores = Number.isInteger(fromNavigator) && fromNavigator > 0 ? fromNavigator : (os?.availableParallelism?.() ?? 1);
  return Math.max(1, Math.min(most, cores));
}

const isNode = Boolean(globalThis.process?.versions?.node) && typeof globalThis.WorkerGlobalScope === 'undefined';

async function startModuleWorker() {
  if (isNode) {
    const { Worker } = await import(/* @vite-ignore */ `node:${'worker_threads'}`);
    const w = new Worker(new URL('./threadWorker.js', import.meta.url));
    return {
      post: (msg, transfer) => w.postMessage(msg, transfer),
      listen: (onMessage, onError) => {
        w.on('message', onMessage);
        w.on('error', onError);
        w.on('exit', (code) => code !== 0 && onError(new Error(`a learner's thread exited with code ${code}`)));
      },
      stop: () => w.terminate(),
    };
  }
  const w = new Worker(new URL('./threadWorker.js', import.meta.url), { type: 'module' });
  return {
    post: (msg, transfer) => w.postMessage(msg, transfer),
    listen: (onMessage, onError) => {
      w.onmessage = (e) => onMessage(e.data);
      w.onerror = (e) => {
        e.preventDefault?.();
        onError(new Error(e.message || "a learner's thread failed to start"));
      };
    },
    stop: () => w.terminate(),
  };
}

let startWorker = startModuleWorker;

/**
 * Starts a run's other threads with `start` instead of the package's threadWorker.js: an async
 * function returning { post(msg, transfer), listen(onMessage, onError), stop() } for a Worker
 * that answers serveThread's messages. For code where the package's module URL cannot start a
 * Worker: the Lab's sandbox (web/src/sandbox/learnerBox.js) starts its threads from its own
 * script. null: the package's Workers again.
 */
export function useThreadStarter(start) {
  if (start !== null && typeof start !== 'function') throw new TypeError('valley-farm/learn: useThreadStarter takes a function or null');
  startWorker = start ?? startModuleWorker;
}

/**
 * A thread's side of the calls threads.js makes (threadWorker.js in the package, the Lab's
 * sandbox's threads): `post(msg)` answers, `learnerOf(which)` finds the learner ({ name, url }
 * as startThreads sends it), `describe(err)` an error's text (default: its message). Returns
 * answer(message) for each message from the coordinator: { id, method, args } -> { id, result }
 * or { id, error }; 'create' builds the thread.
 */
export function serveThread({ post, learnerOf, describe = (err) => String(err?.message ?? err) }) {
  let thread = null;
  return async function answer({ id, method, args }) {
    try {
      if (method === 'create') {
        const [which, runArgs, where] = args;
        const learner = await learnerOf(which);
        if (typeof learner?.thread !== 'function') throw new Error(`no learner ${String(which.name).slice(0, 40)} with threads here`);
        thread = await makeThread(learner, runArgs, { ...where, note: (note) => post({ type: 'note', note }) });
        return post({ id, result: null });
      }
      const result = await thread[method](...args);
      post({ id, result: result ?? null });
    } catch (err) {
      post({ id, error: String(describe(err)).slice(0, 2000) });
    }
  };
}

/** A thread in a Worker: its methods as promises (`call`), and its progress notes (onNote). */
class RemoteThread {
  #worker;
  #pending = new Map();
  #next = 0;
  #failed = null;
  onNote = null;

  constructor(worker) {
    this.#worker = worker;
    worker.listen(
      (msg) => {
        if (msg.type === 'note') return this.onNote?.(msg.note);
        const call = this.#pending.get(msg.id);
        this.#pending.delete(msg.id);
        if (msg.error) call?.reject(new Error(msg.error));
        else call?.resolve(msg.result);
      },
      (err) => {
        this.#failed = err;
        for (const call of this.#pending.values()) call.reject(err);
        this.#pending.clear();
      },
    );
  }

  /** Calls the thread's method; `transfer`: what the arguments hand over (MessagePorts). */
  call(method, args = [], transfer = []) {
    if (this.#failed) return Promise.reject(this.#failed);
    return new Promise((resolve, reject) => {
      const id = this.#next++;
      this.#pending.set(id, { resolve, reject });
      this.#worker.post({ id, method, args }, transfer);
    });
  }

  dispose() {
    this.#worker.stop();
  }
}

/**
 * Builds thread `thread` of a run in this thread: the learner's thread(ctx) with ctx = { ...args,
 * thread, threads, shards, first, end, exchange: (net) => an Exchange of net's gradients over
 * these ports, note(message) to the coordinator's onNote }.
 */
export async function makeThread(learner, args, { thread, threads, shards, ports, note }) {
  const ctx = {
    ...args,
    ...shardRange(thread, threads, shards),
    thread,
    threads,
    shards,
    exchange: (net) => new Exchange({ shards, thread, threads, ports, net }),
    note: note ?? (() => {}),
  };
  return learner.thread(ctx);
}

/**
 * Starts a run's threads: `learner` (its registry declaration: name, and `url` for a learner
 * from outside the package), args (plain data: env, config, seed…), `shards` and `threads`.
 * Returns { local (thread 0's methods, here), all(method, ...args) (every thread's, in thread
 * order, thread 0's started last so the others work meanwhile), onNote(fn), dispose() }.
 */
export async function startThreads(learner, args, { shards, threads }) {
  if (!Number.isInteger(threads) || threads < 1 || threads > Math.min(THREADS_MAX, shards))
    throw new RangeError(
      `valley-farm/learn: threads must be a whole number from 1 to ${Math.min(THREADS_MAX, shards)} (the run's shards), got ${String(threads).slice(0, 20)}`,
    );
  const remote = [];
  let local = null;
  let onNote = null;
  try {
    for (let t = 1; t < threads; t++) remote.push(new RemoteThread(await startWorker()));
    // ports[i][j]: i's end towards j, between thread 0 and each other (exchange.js's star)
    const ports = Array.from({ length: threads }, () => new Array(threads).fill(null));
    for (let j = 1; j < threads; j++) {
      const channel = new MessageChannel();
      ports[0][j] = channel.port1;
      ports[j][0] = channel.port2;
    }
    const which = learner.url ? { url: learner.url, name: learner.name } : { name: learner.name };
    const made = remote.map((r, j) => {
      const t = j + 1;
      const own = ports[t].filter(Boolean);
      r.onNote = (n) => onNote?.(n, t);
      return r.call('create', [which, args, { thread: t, threads, shards, ports: ports[t] }], own);
    });
    local = await makeThread(learner, args, { thread: 0, threads, shards, ports: ports[0], note: (n) => onNote?.(n, 0) });
    await Promise.all(made);
  } catch (err) {
    for (const r of remote) r.dispose();
    local?.dispose?.();
    throw new Error(`valley-farm/learn: could not start ${threads} thread(s) for ${learner.name}: ${err.message}`, { cause: err });
  }
  return {
    local,
    threads,
    onNote(fn) {
      onNote = fn;
    },
    /** fn's method on every thread, in parallel; the results in thread order; one failure fails the call at once. */
    all(method, ...callArgs) {
      const others = remote.map((r) => r.call(method, callArgs));
      let mine;
      try {
        mine = Promise.resolve(local[method](...callArgs));
      } catch (err) {
        mine = Promise.reject(err);
      }
      return Promise.all([mine, ...others]);
    },
    dispose() {
      for (const r of remote) r.dispose();
      local.dispose?.();
    },
  };
}
