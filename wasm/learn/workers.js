// workers.js — the shards of a PPO run that play in other threads: a worker_threads Worker in
// Node, a Web Worker in a browser (shardWorker.js runs each), with the same methods as a
// local Shard (ppo.js), each returning a promise. Calls and answers are plain messages; the
// shards send each other their gradients as Float32Arrays through MessageChannels of their
// own (connectShards), not through the thread that started them.

/** The most workers a run may ask for, and how many it gets when it asks for 0. */
export const WORKERS_MAX = 16;
export const DEFAULT_WORKERS_MAX = 8; // past this, the exchange of every minibatch's gradient costs more than a core adds

function cores() {
  const fromNavigator = globalThis.navigator?.hardwareConcurrency;
  if (Number.isInteger(fromNavigator) && fromNavigator > 0) return fromNavigator;
  const os = globalThis.process?.getBuiltinModule?.('node:os');
  return os?.availableParallelism?.() ?? 1;
}

/** One worker per core, at most DEFAULT_WORKERS_MAX. */
export function defaultWorkers() {
  return Math.max(1, Math.min(DEFAULT_WORKERS_MAX, cores()));
}

const isNode = Boolean(globalThis.process?.versions?.node) && typeof globalThis.WorkerGlobalScope === 'undefined';

async function startWorker() {
  if (isNode) {
    const { Worker } = await import(/* @vite-ignore */ `node:${'worker_threads'}`);
    const w = new Worker(new URL('./shardWorker.js', import.meta.url));
    return {
      post: (msg, transfer) => w.postMessage(msg, transfer),
      listen: (onMessage, onError) => {
        w.on('message', onMessage);
        w.on('error', onError);
        w.on('exit', (code) => code !== 0 && onError(new Error(`a PPO worker exited with code ${code}`)));
      },
      stop: () => w.terminate(),
      unref: () => w.unref(),
    };
  }
  const w = new Worker(new URL('./shardWorker.js', import.meta.url), { type: 'module' });
  return {
    post: (msg, transfer) => w.postMessage(msg, transfer),
    listen: (onMessage, onError) => {
      w.onmessage = (e) => onMessage(e.data);
      w.onerror = (e) => {
        e.preventDefault?.();
        onError(new Error(e.message || 'a PPO worker failed to start'));
      };
    },
    stop: () => w.terminate(),
    unref: () => {},
  };
}

/** A shard in a worker: the methods the coordinator calls (ppo.js), as promises. */
class RemoteShard {
  #worker;
  #pending = new Map();
  #next = 0;
  #failed = null;
  onEpisode = null;

  constructor(worker) {
    this.#worker = worker;
    worker.listen(
      (msg) => {
        if (msg.type === 'episode') return this.onEpisode?.();
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

  /** Calls the shard's method; `transfer`: what the arguments hand over (MessagePorts). */
  call(method, args = [], transfer = []) {
    if (this.#failed) return Promise.reject(this.#failed);
    return new Promise((resolve, reject) => {
      const id = this.#next++;
      this.#pending.set(id, { resolve, reject });
      this.#worker.post({ id, method, args }, transfer);
    });
  }

  train = (plan, options) => this.call('train', [plan, options]);
  learn = (options) => this.call('learn', [options]);
  connect = (ports) => this.call('connect', [ports], ports.filter(Boolean));
  setState = (state) => this.call('setState', [state]);
  rngState = () => this.call('rngState');
  setRngState = (state) => this.call('setRngState', [state]);
  plan = (from, to, onEpisode) => {
    this.onEpisode = onEpisode;
    return this.call('plan', [from, to]);
  };

  dispose() {
    this.#worker.stop();
  }
}

/** Shards 1 .. count − 1 of a run ({ env, config, seed }), each in its own worker. */
export async function spawnShards(run, count) {
  const shards = [];
  try {
    for (let index = 1; index < count; index++) {
      const shard = new RemoteShard(await startWorker());
      shards.push(shard);
    }
    await Promise.all(shards.map((s, j) => s.call('create', [{ ...run, index: j + 1, count }])));
    return shards;
  } catch (err) {
    for (const s of shards) s.dispose();
    throw new Error(`valley-farm/learn: could not start ${count - 1} PPO worker(s): ${err.message}`, { cause: err });
  }
}

/**
 * Connects every two shards (the local one first, then the workers') with a MessageChannel
 * of their own, over which they exchange gradients (Shard.connect in ppo.js).
 */
export async function connectShards(shards) {
  const ports = shards.map(() => shards.map(() => null)); // ports[i][j]: shard i's end towards j
  for (let i = 0; i < shards.length; i++)
    for (let j = i + 1; j < shards.length; j++) {
      const channel = new MessageChannel();
      ports[i][j] = channel.port1;
      ports[j][i] = channel.port2;
    }
  await Promise.all(shards.map((s, i) => s.connect(ports[i])));
}
