// runner.js — runs one docs example or tutorial agent in a fresh sandboxed Web Worker with a time
// limit. Past the limit the worker is terminated and the run fails with a message saying so.
import { createSandboxedWorker } from '../../model/sandboxedWorker.js';
import { cut } from '../../model/cut.js';
export const EXAMPLE_TIME_LIMIT_MS = 3000;
export const AGENT_TIME_LIMIT_MS = 15000;

// What a run may print (the code is the reader's, so the page trusts none of it): a line is
// cut at MAX_LINE_CHARS, and past MAX_LINES lines or MAX_OUTPUT_CHARS characters in all the
// worker is stopped with a message. Checked here, on the page side, because code in the
// worker can post messages of its own.
export const MAX_LINES = 1000;
export const MAX_LINE_CHARS = 2000;
export const MAX_OUTPUT_CHARS = 200_000;
export const MAX_MESSAGE_CHARS = 2000; // an error message from the worker

// Examples are editable, so they run in the sandbox's opaque origin, with the engine.
const defaultWorker = () => createSandboxedWorker({ engine: true });

/**
 * Posts `message` to a new worker; onMessage gets every intermediate message ({ type: 'log' }
 * or { type: 'episode' }). Resolves to the final { type: 'done', … } or { type: 'error',
 * message } (a time-out or a worker failure is an error too).
 */
export function runInWorker(message, { onMessage = () => {}, timeLimitMs = EXAMPLE_TIME_LIMIT_MS, createWorker = defaultWorker } = {}) {
  return new Promise((resolve) => {
    let worker;
    let timer;
    let finished = false;
    const finish = (result) => {
      finished = true;
      clearTimeout(timer);
      worker?.terminate();
      resolve(result);
    };
    try {
      worker = createWorker();
    } catch (err) {
      finish({ type: 'error', message: `Could not start the worker: ${err.message}` });
      return;
    }
    // the clock starts once the worker has started (a sandbox's start is not the code's time)
    Promise.resolve(worker.ready).then(() => {
      if (finished) return;
      timer = setTimeout(
        () => finish({ type: 'error', message: `Stopped after ${timeLimitMs / 1000} s: the code ran too long (an endless loop?)` }),
        timeLimitMs,
      );
    });
    let lines = 0;
    let chars = 0;
    worker.onmessage = ({ data }) => {
      if (data === null || typeof data !== 'object') return; // not one of the worker's messages
      if (data.type === 'done') finish({ ...data, type: 'done' });
      else if (data.type === 'error') finish({ type: 'error', message: cut(data.message, MAX_MESSAGE_CHARS) });
      else if (data.type === 'log') {
        const text = cut(data.text, MAX_LINE_CHARS);
        lines++;
        chars += text.length;
        if (lines > MAX_LINES || chars > MAX_OUTPUT_CHARS) {
          finish({
            type: 'error',
            message: `Stopped: the output passed ${lines > MAX_LINES ? `${MAX_LINES} lines` : `${MAX_OUTPUT_CHARS} characters`}, the most one run may print`,
          });
        } else onMessage({ type: 'log', text });
      } else onMessage(data);
    };
    worker.onerror = (e) => {
      e.preventDefault?.();
      finish({ type: 'error', message: `The worker failed: ${e.message ?? 'unknown error'}` });
    };
    worker.postMessage(message);
  });
}
