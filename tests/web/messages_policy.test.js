// The postMessage interface is safe by default: any page may frame this one, so without an
// opt-in a message can only read and play, an origin allow-list restricts who may talk to it
// (and who hears back), and oversized or flooding messages are refused without breaking
// the game or delaying a status request.
import { describe, expect, it, vi } from 'vitest';
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
  it('a 100 MB message is refused with an error reply at the cost of a 100 KB one: sized, never read through', async () => {
    const h = fakeHandle();
    const policy = parsePolicy('?allow=code');
    const big = call(1, 'setAgent', [{ code: 'x'.repeat(1e8) }]);
    const control = call(2, 'setAgent', [{ code: 'x'.repeat(1e5) }]); // also over the limit
    // the fastest of five answers of each, alternated (a slow moment of a busy machine hits one
    // answer, not all five); reading 100 MB through would cost the big one a thousand times more
    const fastest = { big: Infinity, control: Infinity };
    for (let i = 0; i < 5; i++)
      for (const [name, message] of Object.entries({ big, control })) {
        const t0 = performance.now();
        const r = await answer(h, message, policy);
        fastest[name] = Math.min(fastest[name], performance.now() - t0);
        expect(r.ok).toBe(false);
        expect(r.error).toMatch(new RegExp(`at most ${MAX_MESSAGE_CHARS} characters`));
      }
    expect(fastest.big, `control: ${fastest.control} ms`).toBeLessThan(10 * fastest.control + 20);
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

  it('a flood of 10,000 steps, each handed over as a task of its own as a browser does: a status request is answered before any step, the excess refused as busy', async () => {
    const { win, replies, send } = fakeWindow();
    const calls = [];
    let stepsAtStatus = null;
    const h = {
      envIds: ['ValleyFarm-v0'],
      // synchronous, as the page's step is (the game's step and the render after it)
      step: () => calls.push('step') && { reward: 0 },
      status: () => {
        stepsAtStatus = calls.length;
        return { step: calls.length };
      },
    };
    installMessages(win, h, session);
    for (let i = 0; i < 10_000; i++) setTimeout(() => send(call(i, 'step', ['wait'])));
    setTimeout(() => send(call('s', 'status')));
    await vi.waitFor(() => expect(replies).toHaveLength(10_001), { timeout: 20_000, interval: 50 });
    expect(replies.find((r) => r.body.id === 's')?.body).toMatchObject({ ok: true });
    // answered in the event that brought it, before the steps queued ahead of it ran
    expect(stepsAtStatus).toBe(0);
    const busy = replies.filter((r) => !r.body.ok && /^Busy: 256 messages are waiting/.test(r.body.error));
    expect(busy).toHaveLength(10_000 - MAX_PENDING);
    expect(calls).toHaveLength(MAX_PENDING);
    // the steps taken are the first MAX_PENDING sent, answered in order
    expect(replies.filter((r) => r.body.ok && r.body.id !== 's').map((r) => r.body.id)).toEqual([...Array(MAX_PENDING).keys()]);
  });

  it('queued calls are answered one at a time, in order, even when one takes a while', async () => {
    const { win, replies, send } = fakeWindow();
    const log = [];
    const h = {
      envIds: ['ValleyFarm-v0'],
      status: () => ({ step: 0 }),
      step: async () => {
        log.push('step starts');
        await new Promise((r) => setTimeout(r, 30));
        log.push('step ends');
      },
      setAgent: async () => log.push('setAgent'),
    };
    installMessages(win, h, session);
    send(call(1, 'step', ['wait']));
    send(call(2, 'setAgent', ['random']));
    send(call(3, 'status'));
    await vi.waitFor(() => expect(replies).toHaveLength(3));
    expect(replies.map((r) => r.body.id)).toEqual([3, 1, 2]);
    expect(log).toEqual(['step starts', 'step ends', 'setAgent']);
  });
});
