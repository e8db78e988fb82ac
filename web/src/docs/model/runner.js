// runner.js — runs one docs example or tutorial agent in a fresh Web Worker with a time
// limit. Past the limit the worker is terminated and the run fails with a message saying so.
export const EXAMPLE_TIME_LIMIT_MS = 3000;
export const AGENT_TIME_LIMIT_MS = 15000;

const defaultWorker = () => new Worker(new URL('../worker/docsWorker.js', import.meta.url), { type: 'module' });

/**
 * Posts `message` to a new worker; onMessage gets every intermediate message ({ type: 'log' }
 * or { type: 'episode' }). Resolves to the final { type: 'done', … } or { type: 'error',
 * message } (a time-out or a worker failure is an error too).
 */
export function runInWorker(message, { onMessage = () => {}, timeLimitMs = EXAMPLE_TIME_LIMIT_MS, createWorker = defaultWorker } = {}) {
  return new Promise((resolve) => {
    let worker;
    const finish = (result) => {
      clearTimeout(timer);
      worker?.terminate();
      resolve(result);
    };
    const timer = setTimeout(
      () => finish({ type: 'error', message: `Stopped after ${timeLimitMs / 1000} s: the code ran too long (an endless loop?)` }),
      timeLimitMs,
    );
    try {
      worker = createWorker();
    } catch (err) {
      finish({ type: 'error', message: `Could not start the worker: ${err.message}` });
      return;
    }
    worker.onmessage = ({ data }) => {
      if (data.type === 'done' || data.type === 'error') finish(data);
      else onMessage(data);
    };
    worker.onerror = (e) => {
      e.preventDefault?.();
      finish({ type: 'error', message: `The worker failed: ${e.message ?? 'unknown error'}` });
    };
    worker.postMessage(message);
  });
}
