// A sandboxed worker (web/src/model/sandboxedWorker.js) says when it has started: its `ready`
// resolves on the sandbox's own first message, before the visitor's code can run, so the time
// limits on that code count from there; a sandbox that never starts fails after its own limit.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSandboxedWorker, SANDBOX_START_LIMIT_MS } from '../../web/src/model/sandboxedWorker.js';
import { SANDBOX_UP } from '../../web/src/sandbox/relay.js';

/** The sandbox's frame posting `data` to the page, as sandbox/entry.js does. */
const fromFrame = (data) => {
  const frame = document.querySelector('iframe[title="code sandbox"]');
  window.dispatchEvent(new MessageEvent('message', { data, source: frame.contentWindow }));
};

afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

describe('a sandboxed worker', () => {
  it("is ready at the sandbox's first message, which it keeps to itself; the same message later, from the visitor's code, is dropped", async () => {
    const worker = createSandboxedWorker();
    const got = [];
    worker.onmessage = ({ data }) => got.push(data);
    let ready = false;
    worker.ready.then(() => (ready = true));
    fromFrame({ type: 'sandbox:message', data: { type: 'note', n: 1 } });
    await Promise.resolve();
    expect(ready).toBe(false);
    fromFrame({ type: 'sandbox:message', data: { type: SANDBOX_UP } });
    await Promise.resolve();
    expect(ready).toBe(true);
    fromFrame({ type: 'sandbox:message', data: { type: SANDBOX_UP } });
    fromFrame({ type: 'sandbox:message', data: { type: 'note', n: 2 } });
    expect(got).toEqual([
      { type: 'note', n: 1 },
      { type: 'note', n: 2 },
    ]);
    worker.terminate();
  });

  it(`that has not started within ${SANDBOX_START_LIMIT_MS / 1000} s fails with an error saying so`, async () => {
    vi.useFakeTimers();
    const worker = createSandboxedWorker();
    const errors = [];
    worker.onerror = (e) => errors.push(e.message);
    await vi.advanceTimersByTimeAsync(SANDBOX_START_LIMIT_MS - 1);
    expect(errors).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(errors).toEqual([`the code sandbox did not start within ${SANDBOX_START_LIMIT_MS / 1000} s`]);
    worker.terminate();
  });

  it('that has started is held to no start limit', async () => {
    vi.useFakeTimers();
    const worker = createSandboxedWorker();
    const errors = [];
    worker.onerror = (e) => errors.push(e.message);
    fromFrame({ type: 'sandbox:message', data: { type: SANDBOX_UP } });
    await vi.advanceTimersByTimeAsync(2 * SANDBOX_START_LIMIT_MS);
    expect(errors).toEqual([]);
    worker.terminate();
  });
});
