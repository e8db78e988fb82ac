// Whatever the reader's code prints or throws, the page receives a bounded amount of it: a
// 10 M-character line or 20,000 lines cannot freeze the tab. (Checked on the page side:
// code in a worker can post messages of its own, so the runner trusts none of them.)
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  EXAMPLE_TIME_LIMIT_MS,
  MAX_LINE_CHARS,
  MAX_LINES,
  MAX_MESSAGE_CHARS,
  MAX_OUTPUT_CHARS,
  runInWorker,
} from '../../web/src/docs/model/runner.js';

/** A fake worker that posts `messages` as soon as it is started; `delivered` counts them. */
function fakeWorker(messages) {
  let terminated = false;
  const worker = {
    onmessage: null,
    delivered: 0,
    postMessage() {
      queueMicrotask(() => {
        for (const data of messages) {
          if (terminated) return;
          worker.delivered++;
          worker.onmessage({ data });
        }
      });
    },
    terminate() {
      terminated = true;
    },
    get terminated() {
      return terminated;
    },
  };
  return worker;
}

describe('bounded output of docs examples', () => {
  it('a 10 M-character line reaches the page cut to the line cap, with how much was left out', async () => {
    const got = [];
    const worker = fakeWorker([{ type: 'log', text: 'x'.repeat(10e6) }, { type: 'done' }]);
    const result = await runInWorker({}, { createWorker: () => worker, onMessage: (m) => got.push(m) });
    expect(result.type).toBe('done');
    expect(got[0].text.length).toBeLessThan(MAX_LINE_CHARS + 100);
    expect(got[0].text).toMatch(/… \(9998000 more characters\)$/);
  });

  it('20,000 lines stop the worker at the line cap, with a message saying why', async () => {
    const got = [];
    const worker = fakeWorker([...Array.from({ length: 20_000 }, (_, i) => ({ type: 'log', text: `line ${i}` })), { type: 'done' }]);
    const result = await runInWorker({}, { createWorker: () => worker, onMessage: (m) => got.push(m) });
    expect(result.type).toBe('error');
    expect(result.message).toMatch(new RegExp(`passed ${MAX_LINES} lines`));
    expect(got.length).toBe(MAX_LINES);
    expect(worker.terminated).toBe(true);
    expect(worker.delivered).toBe(MAX_LINES + 1); // stopped at the first line past the cap
  });

  it('many long lines stop at the character cap', async () => {
    const worker = fakeWorker(Array.from({ length: 500 }, () => ({ type: 'log', text: 'y'.repeat(1500) })));
    const result = await runInWorker({}, { createWorker: () => worker });
    expect(result.message).toMatch(new RegExp(`passed ${MAX_OUTPUT_CHARS} characters`));
  });

  it('an error message of 10 MB is cut; messages of no known shape are ignored', async () => {
    const worker = fakeWorker([null, 42, { type: 'error', message: 'e'.repeat(10e6) }]);
    const result = await runInWorker({}, { createWorker: () => worker });
    expect(result.type).toBe('error');
    expect(result.message.length).toBeLessThan(MAX_MESSAGE_CHARS + 100);
  });

  describe('the time limit counts from when the worker has started', () => {
    afterEach(() => vi.useRealTimers());

    /** A worker whose start (a sandbox's frame and Workers) takes 10 s, done `doneMs` after it. */
    function slowStart(doneMs) {
      const worker = fakeWorker([]);
      worker.ready = new Promise((resolve) => setTimeout(resolve, 10_000));
      worker.postMessage = () => worker.ready.then(() => setTimeout(() => worker.onmessage({ data: { type: 'done' } }), doneMs));
      return worker;
    }

    it(`a start of 10 s and a run of ${EXAMPLE_TIME_LIMIT_MS - 100} ms is done`, async () => {
      vi.useFakeTimers();
      const result = runInWorker({}, { createWorker: () => slowStart(EXAMPLE_TIME_LIMIT_MS - 100) });
      await vi.advanceTimersByTimeAsync(10_000 + EXAMPLE_TIME_LIMIT_MS);
      expect(await result).toEqual({ type: 'done' });
    });

    it(`a run past ${EXAMPLE_TIME_LIMIT_MS} ms after the start is stopped`, async () => {
      vi.useFakeTimers();
      const result = runInWorker({}, { createWorker: () => slowStart(EXAMPLE_TIME_LIMIT_MS + 100) });
      await vi.advanceTimersByTimeAsync(10_000 + EXAMPLE_TIME_LIMIT_MS + 100);
      expect(await result).toMatchObject({ type: 'error', message: expect.stringMatching(/^Stopped after 3 s/) });
    });
  });
});
