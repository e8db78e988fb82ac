// workerAgent.js — an agent whose act() runs the visitor's code in a sandboxed Web Worker. Every call
// has a time limit; past it the worker is terminated (so an endless loop costs the page
// nothing) and the call fails with a message saying so. Errors thrown by the code come back
// as failed calls with the code's own message. While the agent does not play (paused, or
// another agent chosen) its worker is stopped, with every Worker the code started in it, and
// the next call starts it again from the code.
import { createSandboxedWorker } from './sandboxedWorker.js';
import { cut, errorMessage } from './cut.js';
export const ACT_TIME_LIMIT_MS = 1000;
export const LOAD_TIME_LIMIT_MS = 3000;

// The visitor's code runs in the sandbox's opaque origin (sandboxedWorker.js).
const defaultWorker = () => createSandboxedWorker();

export class WorkerAgent {
  constructor(code, { createWorker = defaultWorker, timeLimitMs = ACT_TIME_LIMIT_MS, loadTimeLimitMs = LOAD_TIME_LIMIT_MS } = {}) {
    this.code = code;
    this.createWorker = createWorker;
    this.timeLimitMs = timeLimitMs;
    this.loadTimeLimitMs = loadTimeLimitMs;
    this.worker = null;
    this.pending = new Map(); // id -> { resolve, reject, timer }
    this.nextId = 1;
    this.dead = null; // why the worker was stopped for good
    this.loaded = false; // the code compiled once: a suspended agent may start again
  }

  /** Starts the worker and compiles the code; rejects with the compile error. */
  async load() {
    this.worker?.terminate();
    this.worker = this.createWorker();
    this.worker.onmessage = (e) => this.#answer(e.data);
    this.worker.onerror = (e) => {
      e.preventDefault?.();
      this.#failAll(`the worker failed: ${errorMessage(e.message ?? 'unknown error')}`);
    };
    await this.#call({ type: 'load', code: this.code }, this.loadTimeLimitMs, 'load');
    this.loaded = true;
  }

  async reset() {
    await this.#resume();
    return this.#call({ type: 'reset' }, this.timeLimitMs, 'reset');
  }

  async act(observation, info) {
    await this.#resume();
    const reply = await this.#call({ type: 'act', observation, info }, this.timeLimitMs, 'act');
    return reply.action;
  }

  /**
   * Stops the worker, and with it every Worker the code started, until the next call; true
   * when one was running. Calls in flight fail (the runner drops them: it paused).
   */
  suspend() {
    if (this.dead || !this.worker) return false;
    this.worker.terminate();
    this.worker = null;
    this.#failAll('paused');
    return true;
  }

  /** A suspended agent starts its worker again from the code (its top level runs again). */
  async #resume() {
    if (!this.worker && !this.dead && this.loaded) await this.load();
  }

  terminate(reason = 'stopped') {
    this.dead ??= reason;
    this.worker?.terminate();
    this.worker = null;
    this.#failAll(reason);
  }

  #call(msg, limit, phase) {
    if (this.dead || !this.worker)
      return Promise.reject(new Error(`the agent is ${this.dead ?? 'not loaded'}; press Run code to start it again`));
    const id = msg.type === 'load' ? 0 : this.nextId++;
    const worker = this.worker;
    return new Promise((resolve, reject) => {
      const call = { resolve, reject, timer: null };
      this.pending.set(id, call);
      worker.postMessage({ ...msg, id });
      // the clock starts once the worker has started (a sandbox's start is not the code's time)
      Promise.resolve(worker.ready).then(() => {
        if (this.pending.get(id) !== call || this.worker !== worker) return; // answered, or stopped, meanwhile
        call.timer = setTimeout(() => {
          this.terminate(`stopped after ${phase}() ran for more than ${limit / 1000} s (an endless loop?)`);
        }, limit);
      });
    });
  }

  #answer(reply) {
    const id = reply.type === 'loaded' || reply.phase === 'load' ? 0 : reply.id;
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    clearTimeout(p.timer);
    // the worker runs the visitor's code, which may post any reply of its own: cut what is shown
    if (reply.type === 'error')
      p.reject(new Error(reply.phase === 'load' ? cut(reply.message) : `${cut(reply.phase, 20)}() failed: ${cut(reply.message)}`));
    else p.resolve(reply);
  }

  #failAll(reason) {
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(new Error(reason));
    }
    this.pending.clear();
  }
}
