// The postMessage interface is safe by default: any page may frame this one, so without an
// opt-in a message can only read and play, an origin allow-list restricts who may talk to it
// (and who hears back), and oversized or flooding messages are refused without breaking
// the game or delaying a status request.
import { describe, expect, it } from 'vitest';
import { answer, installMessages, MAX_MESSAGE_CHARS, MAX_PENDING, parsePolicy } from '../../web/src/model/messages.js';

/** A handle that records calls; step takes `stepMs` (a slow game). */
function fakeHandle(stepMs = 0) {
  const calls = [];
  return {
    calls,
    envIds: ['ValleyFarm-v0'],
    status: () => ({ step: calls.filter((c) => c === 'step').length }),
    step: async () => {
      calls.push('step');
      if (stepMs) await new Promise((r) => setTimeout(r, stepMs));
      return { reward: 0 };
    },
    setAgent: async (agent) => {
      calls.push(typeof agent === 'string' ? agent : 'code');
    },
  };
}

/** A window with a parent and a message event source that records replies. */
function fakeWindow(search = '') {
  const win = new EventTarget();
  win.location = { search };
  const toParent = [];
  win.parent = { postMessage: (body, target) => toParent.push({ body, target }) };
  const replies = [];
  const source = { postMessage: (body, target) => replies.push({ body, target }) };
  const send = (data, origin = 'https://docs.example') => {
    const e = new Event('message');
    Object.assign(e, { data, origin, source });
    win.dispatchEvent(e);
  };
  return { win, toParent, replies, send };
}

const session = { onEpisodeEnd() {} };
const settle = (ms = 5) => new Promise((r) => setTimeout(r, ms));
const call = (id, method, args = []) => ({ type: 'valley-farm', id, method, args });

describe('embedding policy', () => {
  it('without opt-in a message may play but not run code', async () => {
    const h = fakeHandle();
    expect((await answer(h, call(1, 'setAgent', [{ code: 'function act() { return 0; }' }]))).error).toMatch(/allow=code/);
    expect(await answer(h, call(2, 'setAgent', ['random']))).toMatchObject({ ok: true });
    expect(h.calls).toEqual(['random']);
  });

  it('allow=code in the iframe URL opts in to running code', async () => {
    const h = fakeHandle();
    const policy = parsePolicy('?allow=code');
    expect(await answer(h, call(1, 'setAgent', [{ code: 'function act() { return 0; }' }]), policy)).toMatchObject({ ok: true });
    expect(h.calls).toEqual(['code']);
  });

  it('origin= restricts who may send messages; replies and events go only to that origin', async () => {
    const { win, replies, toParent, send } = fakeWindow('?origin=https://docs.example');
    installMessages(win, fakeHandle(), session);
    send(call(1, 'status'), 'https://evil.example');
    send(call(2, 'status'), 'https://docs.example');
    await settle();
    expect(replies.map((r) => r.body.id)).toEqual([2]);
    expect(replies[0].target).toBe('https://docs.example');
    expect(toParent.map((p) => p.target)).toEqual(['https://docs.example']);
  });

  it('a malformed origin allows nothing (fail closed) and is reported', () => {
    const policy = parsePolicy('?origin=https://docs.example/path&allow=everything');
    expect(policy.origins).toEqual([]);
    expect(policy.errors.join(' ')).toMatch(/not an origin.*allow=everything is unknown/s);
  });
});

describe('message limits', () => {
  it('a 10 MB message is refused quickly with an error reply', async () => {
    const h = fakeHandle();
    const t0 = performance.now();
    const r = await answer(h, call(1, 'setAgent', [{ code: 'x'.repeat(10e6) }]), parsePolicy('?allow=code'));
    expect(performance.now() - t0).toBeLessThan(200);
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(new RegExp(`at most ${MAX_MESSAGE_CHARS} characters`));
    expect(h.calls).toEqual([]);
  });

  it('deep or cyclic arguments and bad ids are refused, not crashed on', async () => {
    const h = fakeHandle();
    const cyclic = {};
    cyclic.self = cyclic;
    expect((await answer(h, call(1, 'step', [cyclic]))).error).toMatch(/nested deeper/);
    expect((await answer(h, { type: 'valley-farm', id: 'i'.repeat(1e6), method: 'status' })).id).toBeNull();
    expect((await answer(h, call(3, 'step', [1, 2, 3, 4, 5]))).error).toMatch(/at most 4/);
  });

  it('a flood of 10,000 steps: a status request is answered at once, and the excess is refused as busy', async () => {
    const { win, replies, send } = fakeWindow();
    const h = fakeHandle(1);
    installMessages(win, h, session);
    for (let i = 0; i < 10_000; i++) send(call(i, 'step', ['wait']));
    send(call('s', 'status'));
    await settle(20);
    const status = replies.find((r) => r.body.id === 's');
    expect(status?.body.ok).toBe(true);
    const busy = replies.filter((r) => !r.body.ok && /Busy/.test(r.body.error));
    expect(busy.length).toBe(10_000 - MAX_PENDING - 1); // one being answered, MAX_PENDING waiting
    expect(h.calls.length).toBeLessThanOrEqual(MAX_PENDING + 1);
  });
});
