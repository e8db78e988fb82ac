// The Lab's model: settings from a share link (parsed strictly), and the conversation with
// the training worker (here a fake one that answers like trainWorker.js).
import { describe, expect, it, vi } from 'vitest';
import {
  DEFAULTS,
  LabModel,
  PROGRESS_RENDER_MS,
  STOP_GRACE_MS,
  labQuery,
  learnerSettings,
  parseLabQuery,
  sharedLab,
} from '../../web/src/lab/labModel.js';
import { algorithms } from '../../wasm/learn/index.js';

function fakeWorker() {
  const w = {
    sent: [],
    onmessage: null,
    postMessage(msg) {
      w.sent.push(msg);
      queueMicrotask(() => {
        const reply = (data) => w.onmessage({ data });
        if (msg.type === 'start') {
          reply({ type: 'progress', progress: { steps: 20000, episodes: 10, meanReturn: 3, stepsPerSec: 1e5, losses: {} } });
          reply({ type: 'progress', progress: { steps: 40000, episodes: 20, meanReturn: 5, stepsPerSec: 1e5, losses: {} } });
        }
        if (msg.type === 'pause')
          reply({ type: 'paused', progress: { steps: 40000, episodes: 20, meanReturn: 5, stepsPerSec: 1e5, losses: {} } });
        if (msg.type === 'stop')
          reply({ type: 'stopped', progress: { steps: 40000, episodes: 20, meanReturn: 5, stepsPerSec: 1e5, losses: {} } });
        if (msg.type === 'evaluate')
          reply({ type: 'evaluation', result: { steps: 40000, mean: 6, ci95: [5, 7], normalized: 0.1, episodes: 1000, split: 'test' } });
        if (msg.type === 'policy') reply({ type: 'policy', text: '{"format":"valley-farm-policy"}', steps: 40000 });
      });
    },
    terminate() {
      w.terminated = true;
    },
  };
  return w;
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('the Lab', () => {
  it('a share link sets the settings, and bad values fall back with a message', () => {
    expect(parseLabQuery(labQuery({ env: 'ValleyFarm-v0', algo: 'ppo', seed: 7, steps: 50000 })).settings).toEqual({
      env: 'ValleyFarm-v0',
      algo: 'ppo',
      seed: 7,
      steps: 50000,
    });
    const bad = parseLabQuery('env=CartPole&algo=a2c&seed=-1&steps=0x10');
    expect(bad.settings).toEqual(DEFAULTS);
    expect(bad.errors).toHaveLength(4);
  });

  it("the learner's settings are the package's numeric ones; a link carries those that differ, and a bad one is named with what is allowed", () => {
    const names = learnerSettings('ppo').map((x) => x.name);
    expect(names).toEqual(Object.keys(algorithms.ppo.defaults).filter((k) => k !== 'hidden'));
    expect(learnerSettings('ppo').find((x) => x.name === 'imitate')).toMatchObject({
      default: algorithms.ppo.defaults.imitate,
      doc: algorithms.ppo.docs.imitate,
    });
    // anneal follows the run: its default is the run's steps
    expect(learnerSettings('ppo', 50000).find((x) => x.name === 'anneal').default).toBe(50000);
    expect(learnerSettings('ppo').find((x) => x.name === 'anneal').default).toBe(algorithms.ppo.defaults.anneal);
    const s = { env: 'ValleyFarm-v0', algo: 'ppo', seed: 7, steps: 50000, history: 4, imitate: 600, learningRate: 3e-4 };
    expect(labQuery(s)).toBe('env=ValleyFarm-v0&algo=ppo&seed=7&steps=50000&history=4&imitate=600&learningRate=0.0003');
    expect(parseLabQuery(labQuery(s))).toEqual({ settings: s, errors: [] });
    const bad = parseLabQuery('algo=ppo&lr=1&history=four');
    expect(bad.settings).toEqual({ ...DEFAULTS, algo: 'ppo' });
    expect(bad.errors).toEqual([`lr is not a setting of ppo (its settings are ${names.join(', ')})`, 'history must be a number such as 1']);
    // tabular-q has no history
    expect(parseLabQuery('algo=tabular-q&history=4').errors[0]).toMatch(/^history is not a setting of tabular-q/);
  });

  it('a link that names a setting at its default reads as one that does not name it (so its reference curve is found)', () => {
    const atDefault = parseLabQuery(`env=ValleyFarm-v0&algo=ppo&history=1&memory=0&imitate=${algorithms.ppo.defaults.imitate}`);
    expect(atDefault).toEqual({ settings: { ...DEFAULTS, env: 'ValleyFarm-v0', algo: 'ppo', memory: 0 }, errors: [] });
  });

  it("a learner setting back at its default, or cleared, leaves the link; another learner drops the old one's settings", () => {
    const lab = new LabModel({ createWorker: fakeWorker });
    lab.set('algo', 'ppo');
    lab.set('history', 4);
    lab.set('epochs', 3); // the default
    expect(lab.settings).toEqual({ ...DEFAULTS, algo: 'ppo', history: 4 });
    lab.set('history', null);
    expect(lab.settings).toEqual({ ...DEFAULTS, algo: 'ppo' });
    lab.set('history', 2);
    lab.set('algo', 'tabular-q');
    expect(lab.settings).toEqual({ ...DEFAULTS, algo: 'tabular-q' });
  });

  it("start draws the curve from the worker's progress; pause, evaluate and the policy go through the worker", async () => {
    const worker = fakeWorker();
    const lab = new LabModel({ createWorker: () => worker });
    lab.start();
    expect(worker.sent[0]).toEqual({ type: 'start', settings: DEFAULTS });
    await flush();
    expect(lab.curve).toEqual([
      { steps: 20000, meanReturn: 3 },
      { steps: 40000, meanReturn: 5 },
    ]);
    lab.pause();
    expect(lab.state).toBe('pausing'); // until the worker says its learner has stopped
    expect(worker.sent.at(-1)).toEqual({ type: 'pause' });
    await flush();
    expect(lab.state).toBe('paused');
    expect(await lab.evaluate()).toMatchObject({ mean: 6, normalized: 0.1, steps: 40000 });
    expect(lab.evaluation.mean).toBe(6);
    expect(await lab.policyFile()).toMatchObject({ text: '{"format":"valley-farm-policy"}' });
    lab.dispose();
    expect(worker.terminated).toBe(true);
  });

  it('a progress report alone re-renders the page at most once a PROGRESS_RENDER_MS, showing the last when the time is up; any other change at once', () => {
    vi.useFakeTimers(); // Date.now (the model's clock) and setTimeout
    try {
      const worker = { postMessage() {}, terminate() {} }; // the test speaks for it
      const lab = new LabModel({ createWorker: () => worker });
      let renders = 0;
      let shown = null;
      lab.subscribe((m) => {
        renders++;
        shown = m.progress?.steps ?? null;
      });
      const report = (steps) =>
        worker.onmessage({ data: { type: 'progress', progress: { steps, episodes: 1, meanReturn: 1, stepsPerSec: 1e5, losses: {} } } });
      lab.start(); // a change: told at once
      expect(renders).toBe(1);
      vi.advanceTimersByTime(100);
      report(4096);
      vi.advanceTimersByTime(100);
      report(8192);
      expect(renders).toBe(1); // within PROGRESS_RENDER_MS of the start's
      expect(lab.progress.steps).toBe(8192); // the model holds it at once
      vi.advanceTimersByTime(PROGRESS_RENDER_MS - 201);
      expect(renders).toBe(1);
      vi.advanceTimersByTime(1);
      expect([renders, shown]).toEqual([2, 8192]); // the last report, once the time is up
      vi.advanceTimersByTime(PROGRESS_RENDER_MS);
      report(12288); // a second since the page was last told: at once
      expect([renders, shown]).toEqual([3, 12288]);
      report(16384);
      expect(renders).toBe(3);
      lab.pause(); // any other change: at once, with the progress it holds
      expect([renders, shown, lab.state]).toEqual([4, 16384, 'pausing']);
      vi.advanceTimersByTime(2 * PROGRESS_RENDER_MS);
      expect(renders).toBe(4); // nothing left to tell
    } finally {
      vi.useRealTimers();
    }
  });

  it('Stop ends the run but keeps the worker and its policy: evaluate, download and play still work', async () => {
    const worker = fakeWorker();
    const lab = new LabModel({ createWorker: () => worker });
    lab.start();
    await flush();
    lab.stop();
    expect(lab.state).toBe('stopping');
    expect(worker.sent.at(-1)).toEqual({ type: 'stop' });
    await flush();
    expect(lab.state).toBe('stopped');
    await new Promise((r) => setTimeout(r, STOP_GRACE_MS + 50));
    expect(worker.terminated).toBeUndefined();
    expect(lab.hasPolicy).toBe(true);
    // the worker's own 'done' after a stop leaves the state saying the run was stopped
    worker.onmessage({ data: { type: 'done', progress: { steps: 40000, episodes: 20, meanReturn: 5, stepsPerSec: 1e5, losses: {} } } });
    expect(lab.state).toBe('stopped');
    expect(await lab.evaluate()).toMatchObject({ mean: 6 });
    expect((await lab.policyFile()).text).toBe('{"format":"valley-farm-policy"}');
    expect(lab.policyTitle()).toBe(`Your trained policy (${DEFAULTS.algo}, 40,000 steps)`);
  });

  it('the settings are kept in storage and come back on the first visit without a link; a link wins, but not over a run going on', async () => {
    const kept = new Map();
    const storage = { getItem: (k) => kept.get(k) ?? null, setItem: (k, v) => kept.set(k, String(v)) };
    const first = new LabModel({ createWorker: fakeWorker, storage });
    first.adopt('');
    first.set('algo', 'ppo');
    first.set('history', 4);
    first.set('steps', 50000);
    const next = new LabModel({ createWorker: fakeWorker, storage }); // a reload
    next.adopt('');
    expect(next.settings).toEqual({ ...DEFAULTS, algo: 'ppo', history: 4, steps: 50000 });
    next.adopt(''); // back from the docs: what the model has stays
    expect(next.settings.history).toBe(4);
    expect(next.adopt('env=ValleyFarm-v0&algo=tabular-q')).toBeNull();
    expect(next.settings).toEqual({ ...DEFAULTS, env: 'ValleyFarm-v0', algo: 'tabular-q' });
    next.start();
    expect(next.adopt('algo=ppo')).toMatch(/A run is going/);
    expect(next.settings.algo).toBe('tabular-q');
    // storage that throws (refused) keeps nothing and breaks nothing
    const refusing = new LabModel({
      storage: {
        getItem: () => {
          throw new Error('no');
        },
        setItem: () => {
          throw new Error('no');
        },
      },
    });
    expect(refusing.adopt('')).toBeNull();
    refusing.set('seed', 3);
    expect(refusing.settings.seed).toBe(3);
  });

  it('sharedLab is one model for the page, so leaving the Lab does not end its run', () => {
    expect(sharedLab()).toBe(sharedLab());
  });

  it('a worker error stops the run and says why', async () => {
    const worker = fakeWorker();
    const lab = new LabModel({ createWorker: () => worker });
    lab.start();
    worker.onmessage({ data: { type: 'error', message: 'x'.repeat(10_000) } });
    expect(lab.state).toBe('error');
    expect(lab.error).toMatch(/^x{500}… \(9500 more characters\)$/);
  });
});
