// Budgets for everything that crosses into the page from outside it (issue 34): text is cut
// with a marker, message sizes never walk binary data, a link's lists are capped, one
// planner runs at a time and gives up in time, and a code agent that does not play has no
// worker. The Chromium side of the same rules is tests/browser/budgets.test.js.
import { describe, expect, it, vi, afterEach } from 'vitest';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { bounded, cut, listed, MAX_ERROR_CHARS, MAX_LISTED } from '../../web/src/model/cut.js';
import { createSandbox, errorText } from '../../web/src/worker/sandbox.js';
import { answer, tooBig, MAX_ENTRIES } from '../../web/src/model/messages.js';
import { DEFAULTS, parseLabQuery, MAX_LAB_QUERY_CHARS } from '../../web/src/lab/labModel.js';
import { Session } from '../../web/src/model/session.js';
import { Runner } from '../../web/src/model/runner.js';
import { WorkerAgent } from '../../web/src/model/workerAgent.js';
import { FarmApp } from '../../web/src/model/app.js';
import { App } from '../../web/src/components/App.jsx';

afterEach(() => vi.restoreAllMocks());

describe('text from outside the page is cut with a marker', () => {
  it('cut keeps a short text whole and cuts a long one, saying how much was left out', () => {
    expect(cut('boom')).toBe('boom');
    expect(cut('x'.repeat(10_000))).toBe(`${'x'.repeat(MAX_ERROR_CHARS)}… (9500 more characters)`);
  });

  it('a text cut twice (in the sandbox, then on the page) counts everything left out', () => {
    const once = cut('y'.repeat(1e6), 4000);
    expect(cut(`load: ${once}`, 500)).toBe(`load: ${'y'.repeat(494)}… (999506 more characters)`);
  });

  it('a value that is not text is named by its kind, not stringified', () => {
    const loud = { toString: () => 'z'.repeat(1e7) };
    expect(cut(loud)).toBe('(an object)');
    expect(cut(Array(1e6).fill('w'))).toBe('(an array)');
    expect(cut(undefined)).toBe('undefined');
  });

  it('a list of problems names the first few and counts the rest', () => {
    const items = Array.from({ length: 1000 }, (_, i) => `problem ${i}`);
    expect(listed(items)).toBe(`${items.slice(0, MAX_LISTED).join('; ')}; and ${1000 - MAX_LISTED} more`);
  });

  it("the sandbox's load error of a 100 MB message is a few hundred characters, with its marker", async () => {
    const reply = await createSandbox().handle({ type: 'load', code: "throw new Error('x'.repeat(1e8));" });
    expect(reply.message).toMatch(/^Error: x{500}… \(99999500 more characters\) \(line 1\)$/);
    const named = new Error('short');
    named.name = 'N'.repeat(1e6);
    expect(errorText(named).length).toBeLessThan(300);
    expect(errorText(Array(1e6).fill('v')).length).toBeLessThan(600);
  });

  it('a worker reply of 100 MB (the code can post its own) is cut by the page before it is kept', async () => {
    const worker = {
      postMessage: (msg) =>
        queueMicrotask(() => worker.onmessage({ data: { type: 'error', phase: msg.type, id: msg.id, message: 'm'.repeat(1e8) } })),
      terminate() {},
    };
    const agent = new WorkerAgent('function act() {}', { createWorker: () => worker });
    const err = await agent.load().catch((e) => e);
    expect(err.message).toMatch(/^m{500}… \(99999500 more characters\)$/);
  });

  it('the sandbox relays a bounded copy of whatever its worker posts', () => {
    const roomy = { chars: 1e6, entries: 1e6 };
    const { value: copy } = bounded(
      {
        type: 'log',
        text: 't'.repeat(1e7),
        many: Array(1e6).fill(1),
        deep: [[[[[[[['bottom']]]]]]]],
        ['__proto__']: 'p',
      },
      roomy,
    );
    expect(copy.text.length).toBeLessThan(4100);
    expect(copy.many.length).toBe(10_000);
    expect(JSON.stringify(copy.deep)).not.toContain('bottom');
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(bounded(new Float64Array(10), roomy)).toEqual({ value: null });
  });

  it('a bounded copy that would pass its budget for the whole copy is given up: null', () => {
    expect(bounded(['a'.repeat(30), 'b'.repeat(30)], { chars: 59, entries: 10 })).toBeNull();
    expect(bounded(['a'.repeat(30), 'b'.repeat(30)], { chars: 60, entries: 10 })).toEqual({ value: ['a'.repeat(30), 'b'.repeat(30)] });
    expect(bounded({ a: [1, 2], b: 3 }, { chars: 10, entries: 3 })).toBeNull(); // 2 keys and 2 items
    expect(bounded({ a: [1, 2], b: 3 }, { chars: 10, entries: 4 })).toEqual({ value: { a: [1, 2], b: 3 } });
  });

  it("the page's status line keeps at most a few thousand characters of what it is told", async () => {
    const session = new Session();
    session.notify('error', `Could not open it. ${'q'.repeat(1e7)}`);
    expect(session.message.text.length).toBeLessThan(4100);
    expect(session.message.text).toMatch(/more characters\)$/);
  });
});

describe('a message is sized by rule, never walked element by element', () => {
  it('typed arrays and ArrayBuffers are sized by byteLength, without listing their keys', () => {
    const keys = vi.spyOn(Object, 'keys');
    expect(tooBig({ args: [new Float64Array(5e7)] })).toMatch(/400000000 bytes of binary data/);
    expect(tooBig([new ArrayBuffer(1e6)])).toMatch(/1000000 bytes of binary data/);
    expect(tooBig([new DataView(new ArrayBuffer(1e5))])).toMatch(/100000 bytes/);
    expect(keys.mock.calls.some(([v]) => ArrayBuffer.isView(v) || v instanceof ArrayBuffer)).toBe(false);
    expect(tooBig({ small: new Uint8Array(16) })).toBeNull();
  });

  it('an array is refused by its length, so a sparse one claiming 2^32 - 1 items is not walked', () => {
    const keys = vi.spyOn(Object, 'keys');
    expect(tooBig([new Array(2 ** 32 - 1)])).toBe(`more than ${MAX_ENTRIES} entries`);
    expect(keys.mock.calls.some(([v]) => Array.isArray(v) && v.length === 2 ** 32 - 1)).toBe(false);
  });

  it('a Map or Set, whose entries are not keys, is refused rather than passed on unsized', () => {
    expect(tooBig({ args: [new Map([[1, 'x'.repeat(1e6)]])] })).toMatch(/carrying a Map/);
    expect(tooBig([new Set([1])])).toMatch(/carrying a Set/);
  });

  it('a 1.5e8-element Uint8Array gets an error reply', async () => {
    const handle = { step: vi.fn() };
    const reply = await answer(handle, { type: 'valley-farm', id: 1, method: 'step', args: [new Uint8Array(1.5e8)] });
    expect(reply).toMatchObject({ id: 1, ok: false });
    expect(reply.error).toMatch(/^Message refused: it is longer than 65536 characters \(its 150000000 bytes of binary data/);
    expect(handle.step).not.toHaveBeenCalled();
  });
});

describe("a Lab link's lists are capped", () => {
  it('a 2 MB link with a million unknown settings gives one short message', () => {
    const { settings, errors } = parseLabQuery('x&'.repeat(1e6));
    expect(errors).toEqual([`the link's settings are 2000000 characters; a Lab link carries at most ${MAX_LAB_QUERY_CHARS}`]);
    expect(settings.algo).toBe(DEFAULTS.algo); // the defaults, untouched
  });

  it('a link within the length names at most a few of its problems and counts the rest', () => {
    const { errors } = parseLabQuery(Array.from({ length: 300 }, (_, i) => `k${i}=1`).join('&'));
    expect(errors).toHaveLength(MAX_LISTED + 1);
    expect(errors[0]).toMatch(new RegExp(`^k0 is not a setting of ${DEFAULTS.algo}`));
    expect(errors.at(-1)).toBe(`and ${300 - MAX_LISTED} more`);
  });
});

describe('one planner at a time, for a limited time', () => {
  const memoryStorage = () => ({ getItem: () => null, setItem() {} });
  async function startApp(options) {
    const app = new FarmApp({ storage: memoryStorage(), ...options });
    app.measure = async () => {};
    const host = document.createElement('div');
    document.body.replaceChildren(host);
    await act(async () => {
      render(<App app={app} />, host);
      await app.start('');
    });
    return { app, host };
  }

  it('a newer map stops the plan of the older one', async () => {
    const signals = [];
    const planMap = vi.fn((envId, seed, settings, { signal }) => {
      signals.push({ seed, signal });
      return new Promise(() => {}); // a map that takes forever to plan
    });
    const { app } = await startApp({ planMap });
    for (const seed of [424242, 424243, 424244]) {
      await act(() => app.newEpisode(seed));
      await vi.waitFor(() => expect(signals.at(-1)?.seed).toBe(seed), { timeout: 20_000 });
    }
    expect(signals.map((s) => s.signal.aborted)).toEqual([...signals.slice(0, -1).map(() => true), false]);
  });

  it('a par that does not arrive in time says so, and its planner is stopped', async () => {
    let signal;
    const planMap = (envId, seed, settings, options) => {
      signal = options.signal;
      return new Promise(() => {});
    };
    const { app, host } = await startApp({ planMap, planTimeLimitMs: 50 });
    await act(() => app.newEpisode(424242));
    await vi.waitFor(() => expect(app.par?.status).toBe('none'), { timeout: 20_000 });
    await act(async () => {});
    expect(signal.aborted).toBe(true);
    expect(host.querySelector('[data-testid="par"]').textContent).toMatch(/the planner took more than 0.05 s on this map and was stopped/);
  });
});

describe('a code agent that does not play has no worker', () => {
  /** A fake sandbox worker that runs the agent in-process and records what became of it. */
  function fakeWorkers() {
    const made = [];
    const createWorker = () => {
      const box = createSandbox();
      const w = {
        terminated: false,
        postMessage: (msg) => box.handle(msg).then((reply) => !w.terminated && w.onmessage?.({ data: reply })),
        terminate: () => (w.terminated = true),
      };
      made.push(w);
      return w;
    };
    return { made, createWorker };
  }

  async function setup() {
    const session = new Session();
    await session.open('ValleyFarm-v0', { seed: 1 });
    const runner = new Runner(session);
    const workers = fakeWorkers();
    const agent = new WorkerAgent('let resets = 0; function reset() { resets++; } function act() { return "wait"; }', workers);
    await agent.load();
    runner.setCustomAgent(agent, 'your code');
    return { session, runner, agent, workers };
  }

  it('pause() terminates its worker; Play starts a new one from the code and plays on without an error', async () => {
    const { runner, workers } = await setup();
    runner.setSpeed(1000);
    runner.play();
    await vi.waitFor(() => expect(runner.totalSteps).toBeGreaterThan(2));
    runner.pause();
    expect(workers.made.map((w) => w.terminated)).toEqual([true]);
    const played = runner.totalSteps;
    runner.play();
    await vi.waitFor(() => expect(runner.totalSteps).toBeGreaterThan(played + 2));
    runner.pause();
    expect(runner.error).toBeNull();
    expect(workers.made.map((w) => w.terminated)).toEqual([true, true]);
  });

  it("choosing a built-in agent terminates the code agent's worker; choosing it again starts one", async () => {
    const { session, runner, workers } = await setup();
    await runner.stepOnce();
    runner.setAgent('heuristic');
    expect(workers.made.every((w) => w.terminated)).toBe(true);
    runner.setAgent('custom');
    await runner.stepOnce();
    expect(workers.made).toHaveLength(2);
    expect(workers.made[1].terminated).toBe(false);
    expect(session.lastBy).toBe('your code');
  });
});
