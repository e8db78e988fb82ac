// The runner plays whole episodes with an agent and stops with a clear message when an
// agent misbehaves; the worker sandbox compiles the visitor's code and reports its errors.
import { afterEach, describe, it, expect, vi } from 'vitest';
import { Session } from '../../web/src/model/session.js';
import { Runner } from '../../web/src/model/runner.js';
import { createSandbox, errorText } from '../../web/src/worker/sandbox.js';
import { LOAD_TIME_LIMIT_MS, WorkerAgent } from '../../web/src/model/workerAgent.js';

async function setup(id = 'ValleyFarm-v0') {
  const session = new Session();
  await session.open(id, { seed: 1 });
  return { session, runner: new Runner(session) };
}

describe('runner', () => {
  it('plays the asked number of whole episodes and records their returns', async () => {
    const { runner } = await setup('BackwardsValleyFarm-v0');
    const returns = await runner.run({ episodes: 3 });
    expect(returns).toHaveLength(3);
    expect(runner.totalEpisodes).toBe(3);
    expect(returns.every((r) => r > 0)).toBe(true);
    expect(runner.playing).toBe(false);
  });

  it('shows episodes/s as episodes over the time played, not a half-second window that holds 0 or 1 of them', async () => {
    const session = new Session();
    await session.open('BackwardsValleyFarm-v0', { seed: 1 });
    let t = 0; // a clock the agent moves: each step takes 100 ms, an episode of 40 steps 4 s
    const runner = new Runner(session, { now: () => t });
    const shown = [];
    runner.setCustomAgent({
      act: () => {
        t += 100;
        shown.push(runner.episodesPerSecond);
        return 0;
      },
    });
    await runner.run({ episodes: 3, speed: Infinity });
    expect(Math.max(...shown)).toBeLessThanOrEqual(0.26);
    expect(shown.at(-1)).toBeGreaterThan(0.15); // two episodes in about 12 s
  });

  it('takes action names from custom agents, and async ones', async () => {
    const { runner, session } = await setup();
    runner.setCustomAgent({ act: async () => 'wait' });
    await runner.stepOnce();
    expect(session.actions).toEqual([11]);
    expect(session.lastBy).toBe('custom');
  });

  it("gives the agent the episode's info with the legal mask, as evaluate() does (learned policies were trained with it)", async () => {
    const { runner, session } = await setup();
    const seen = [];
    runner.setCustomAgent({
      act: (o, info) => {
        seen.push({ step: info.step, seed: info.seed, legal: Array.from(info.legal) });
        return 'wait';
      },
    });
    const legalAtStart = Array.from(session.env.legalActions());
    await runner.stepOnce();
    await runner.stepOnce();
    expect(seen[0]).toEqual({ step: 0, seed: 1, legal: legalAtStart });
    expect(seen[1].step).toBe(1);
    expect(seen[1].legal).toHaveLength(12);
  });

  it('stops and says why when an agent returns something that is not an action', async () => {
    const { runner, session } = await setup();
    runner.setCustomAgent({ act: () => undefined });
    await expect(runner.run({ episodes: 1 })).rejects.toThrow(/act\(\) returned undefined/);
    expect(runner.playing).toBe(false);
    expect(runner.error).toMatch(
      /act\(\) returned undefined \(did you forget `return`\?\); it must return an integer 0 … 11 or an action name/,
    );
    expect(session.actions).toEqual([]);
  });

  it('stops and shows the message when an agent throws', async () => {
    const { runner } = await setup();
    runner.setCustomAgent({
      act: () => {
        throw new Error('boom');
      },
    });
    await expect(runner.run({ episodes: 1 })).rejects.toThrow('Your agent (custom): boom');
    expect(runner.error).toBe('Your agent (custom): boom');
  });
});

describe('sandbox', () => {
  it('compiles act() and answers with its action', async () => {
    const box = createSandbox();
    expect(await box.handle({ type: 'load', code: 'let n = 0; function act(o) { n++; return o.stepsLeft > 5 ? "north" : 3; }' })).toEqual({
      type: 'loaded',
    });
    expect(await box.handle({ type: 'act', id: 4, observation: { stepsLeft: 9 } })).toEqual({ type: 'action', id: 4, action: 'north' });
    expect(await box.handle({ type: 'reset', id: 5 })).toEqual({ type: 'done', id: 5 });
  });

  it('reports a syntax error, a missing act and an empty editor', async () => {
    const box = createSandbox();
    expect((await box.handle({ type: 'load', code: 'function act( {' })).message).toMatch(/^SyntaxError/);
    expect((await box.handle({ type: 'load', code: 'function step() {}' })).message).toMatch(
      /must define a function act\(observation, info\)/,
    );
    expect((await box.handle({ type: 'load', code: '  ' })).message).toMatch(/The editor is empty/);
  });

  it('reports an error thrown by act, with its line', async () => {
    const box = createSandbox();
    await box.handle({ type: 'load', code: 'function act(o) {\n  return o.view.length;\n}' });
    const reply = await box.handle({ type: 'act', id: 1, observation: {} });
    expect(reply).toMatchObject({ type: 'error', phase: 'act', id: 1 });
    expect(reply.message).toMatch(/^TypeError: .*undefined/);
  });

  it('turns a thrown non-error into words', () => {
    expect(errorText('nope')).toBe('threw "nope"');
  });
});

describe('worker agent', () => {
  // A fake worker that runs the sandbox in-process, or never answers (an endless loop).
  function fakeWorker({ hang = false } = {}) {
    const box = createSandbox();
    const w = {
      terminated: false,
      postMessage(msg) {
        if (hang && msg.type === 'act') return;
        box.handle(msg).then((reply) => w.onmessage?.({ data: reply }));
      },
      terminate() {
        w.terminated = true;
      },
    };
    return w;
  }

  it('runs act through the worker messages', async () => {
    const agent = new WorkerAgent('function act() { return 2; }', { createWorker: () => fakeWorker() });
    await agent.load();
    expect(await agent.act({}, {})).toBe(2);
  });

  it('terminates a worker that does not answer in time and says so', async () => {
    let worker;
    const agent = new WorkerAgent('function act() { for (;;); }', {
      createWorker: () => (worker = fakeWorker({ hang: true })),
      timeLimitMs: 50,
    });
    await agent.load();
    await expect(agent.act({}, {})).rejects.toThrow(/stopped after act\(\) ran for more than 0.05 s \(an endless loop\?\)/);
    expect(worker.terminated).toBe(true);
  });

  it('rejects a load with the compile error', async () => {
    const agent = new WorkerAgent('nothing here', { createWorker: () => fakeWorker() });
    await expect(agent.load()).rejects.toThrow(/^SyntaxError: Unexpected identifier/);
  });

  describe('the load limit counts from when the worker has started, not from when it was asked for', () => {
    // a worker whose start (a sandbox's frame and Workers) takes `startMs`; it answers the load
    // `loadMs` after it has started, or never
    function slowStart(startMs, loadMs = null) {
      const w = { terminated: false, terminate: () => (w.terminated = true) };
      w.ready = new Promise((resolve) => setTimeout(resolve, startMs));
      w.postMessage = (msg) => {
        if (msg.type === 'load' && loadMs !== null)
          w.ready.then(() => setTimeout(() => w.onmessage?.({ data: { type: 'loaded' } }), loadMs));
      };
      return w;
    }
    afterEach(() => vi.useRealTimers());

    it(`a start of 10 s then a load of ${LOAD_TIME_LIMIT_MS - 100} ms loads`, async () => {
      vi.useFakeTimers();
      const agent = new WorkerAgent('function act() {}', { createWorker: () => slowStart(10_000, LOAD_TIME_LIMIT_MS - 100) });
      const loaded = agent.load();
      await vi.advanceTimersByTimeAsync(10_000 + LOAD_TIME_LIMIT_MS - 100);
      await expect(loaded).resolves.toBeUndefined();
      expect(agent.dead).toBeNull();
    });

    it(`a load that has not answered ${LOAD_TIME_LIMIT_MS} ms after the start is stopped`, async () => {
      vi.useFakeTimers();
      let worker;
      const agent = new WorkerAgent('function act() {}', { createWorker: () => (worker = slowStart(10_000)) });
      const loaded = agent.load();
      loaded.catch(() => {});
      await vi.advanceTimersByTimeAsync(10_000 + LOAD_TIME_LIMIT_MS - 1);
      expect(worker.terminated).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await expect(loaded).rejects.toThrow(/stopped after load\(\) ran for more than 3 s/);
      expect(worker.terminated).toBe(true);
    });
  });
});
