// The Lab's run, beyond the loop (lab_trainer.test.js): what enables Evaluate, when an
// evaluation is stale, Start asking before it ends a run that is not over, what is kept in
// storage and how a damaged or forged record is read back (a clear message, never used),
// storage the browser refuses (a note, never an error), the policy's file name, and how the
// status line words its numbers and the cloning's time left.
import { describe, expect, it } from 'vitest';
import { LabModel, MAX_KEPT_RUNS, policyFileName } from '../../web/src/lab/labModel.js';
import { MAX_CURVE_POINTS, MAX_POLICY_CHARS, makeRecord, readRecord, trained } from '../../web/src/lab/runRecord.js';
import { NO_STORAGE, openRunStore } from '../../web/src/lab/runStore.js';
import { formatDuration, formatValue, memoryEstimate, remainingSeconds, statusText } from '../../web/src/lab/labText.js';
import { DEFAULTS } from '../../web/src/lab/labQuery.js';
import { estimateMemory, MEMORY_BUDGET, THREAD_BYTES } from '../../wasm/learn/index.js';

const flush = () => new Promise((r) => setTimeout(r, 0));
const progress = (p) => ({ steps: 0, episodes: 0, meanReturn: null, stepsPerSec: 0, losses: {}, ...p });

/** A worker that answers nothing by itself: the test posts its replies (reply(data)). */
function silentWorker() {
  const w = { sent: [], onmessage: null, postMessage: (m) => w.sent.push(m), terminate: () => (w.terminated = true) };
  w.reply = (data) => w.onmessage({ data });
  return w;
}

function memoryStore(records = []) {
  const kept = new Map(records.map((r) => [r.id, r]));
  return {
    kept,
    list: async () => [...kept.values()].map((r) => structuredClone(r)),
    put: async (r) => void kept.set(r.id, structuredClone(r)),
    remove: async (id) => void kept.delete(id),
  };
}

const record = (over = {}) => ({
  ...makeRecord({
    id: 'r1',
    state: 'paused',
    settings: { ...DEFAULTS, algo: 'tabular-q', steps: 100000 },
    steps: 8192,
    curve: [
      { steps: 4096, meanReturn: 1 },
      { steps: 8192, meanReturn: 2 },
    ],
    policy: '{"format":"valley-farm-policy"}',
    checkpoint: null,
    savedAt: 1000,
  }),
  ...over,
});

describe('what a run offers', () => {
  it("Evaluate, Download and Play wait for a trained network: not during cloning's planning; its cloning and its steps count", async () => {
    expect(trained(progress({ imitation: { phase: 'planning', done: 50, total: 100, seconds: 1 } }))).toBe(false);
    expect(trained(progress({ imitation: { phase: 'cloning', done: 0, total: 10, seconds: 9 } }))).toBe(true);
    expect(trained(progress({ imitation: { samples: 5000, seconds: 20 } }))).toBe(true);
    expect(trained(progress({ steps: 4096 }))).toBe(true);
    expect(trained(null)).toBe(false);
    const w = silentWorker();
    const lab = new LabModel({ createWorker: () => w });
    lab.start();
    w.reply({ type: 'progress', progress: progress({ imitation: { phase: 'planning', done: 50, total: 100, seconds: 1 } }) });
    expect(lab.hasPolicy).toBe(false);
    // a policy kept in planning would be the untrained one: the trainer keeps none (null)
    w.reply({ type: 'kept', steps: 0, policy: null, checkpoint: null });
    expect(lab.hasPolicy).toBe(false);
    w.reply({ type: 'progress', progress: progress({ imitation: { phase: 'cloning', done: 1, total: 10, seconds: 5 } }) });
    expect(lab.hasPolicy).toBe(true);
  });

  it('an evaluation that fails says why, and the run goes on', async () => {
    const w = silentWorker();
    const lab = new LabModel({ createWorker: () => w });
    lab.start();
    w.reply({ type: 'progress', progress: progress({ steps: 40000, meanReturn: 3 }) });
    const asked = lab.evaluate();
    w.reply({ type: 'evaluation', error: 'x'.repeat(10_000) });
    await expect(asked).rejects.toThrow(/^x{500}… \(9500 more characters\)$/);
    expect(lab.state).toBe('running');
    expect(lab.evaluating).toBe(false);
  });

  it('an evaluation names the steps it was taken at and is stale once training moves past them', async () => {
    const w = silentWorker();
    const lab = new LabModel({ createWorker: () => w });
    lab.start();
    w.reply({ type: 'progress', progress: progress({ steps: 40000, meanReturn: 3 }) });
    const asked = lab.evaluate();
    expect(lab.evaluating).toBe(true);
    expect(w.sent.at(-1)).toEqual({ type: 'evaluate' });
    w.reply({ type: 'evaluation', result: { steps: 40000, mean: 5, ci95: [4, 6], normalized: 0.2, episodes: 1000, split: 'test' } });
    await asked;
    expect(lab.evaluating).toBe(false);
    expect(lab.evaluationStale).toBe(false);
    w.reply({ type: 'progress', progress: progress({ steps: 81920, meanReturn: 4 }) });
    expect(lab.evaluationStale).toBe(true);
    // during the cloning the steps stay 0: its updates say it has moved on
    lab.evaluation = { steps: 0, updates: 120, cloning: true };
    w.reply({
      type: 'progress',
      progress: progress({ steps: 0, updates: 120, imitation: { phase: 'cloning', done: 2, total: 10, seconds: 9 } }),
    });
    expect(lab.evaluationStale).toBe(false);
    w.reply({
      type: 'progress',
      progress: progress({ steps: 0, updates: 180, imitation: { phase: 'cloning', done: 3, total: 10, seconds: 12 } }),
    });
    expect(lab.evaluationStale).toBe(true);
    lab.pause();
    w.reply({ type: 'paused', progress: progress({ steps: 81920, meanReturn: 4 }) });
    lab.start({ replace: true }); // a new run: no evaluation of the old one stays
    expect(lab.evaluation).toBeNull();
  });

  it('Start asks before it ends a paused run: without { replace: true } the run goes on, untouched', async () => {
    const workers = [];
    const lab = new LabModel({ createWorker: () => workers[workers.push(silentWorker()) - 1] });
    expect(lab.start()).toBe(true);
    workers[0].reply({ type: 'progress', progress: progress({ steps: 40000, meanReturn: 3 }) });
    lab.pause();
    workers[0].reply({ type: 'paused', progress: progress({ steps: 40000, meanReturn: 3 }) });
    expect(lab.startNeedsConfirm).toBe(true);
    expect(lab.start()).toBe(false);
    expect(lab.state).toBe('paused');
    expect(workers).toHaveLength(1);
    expect(workers[0].terminated).toBeUndefined();
    expect(lab.start({ replace: true })).toBe(true);
    expect(workers[0].terminated).toBe(true);
    expect(lab.state).toBe('running');
    expect(lab.curve).toEqual([]);
  });

  it('a curve longer than MAX_CURVE_POINTS is thinned to half of them, its first and last kept', () => {
    const w = silentWorker();
    const lab = new LabModel({ createWorker: () => w });
    lab.start();
    for (let k = 1; k <= MAX_CURVE_POINTS + 1; k++) w.reply({ type: 'progress', progress: progress({ steps: 64 * k, meanReturn: k }) });
    expect(lab.curve).toHaveLength(MAX_CURVE_POINTS / 2);
    expect(lab.curve[0].steps).toBe(64);
    expect(lab.curve.at(-1).steps).toBe(64 * (MAX_CURVE_POINTS + 1));
  });

  it("a policy's file is named by its farm, learner, seed, steps and time, so two never share a name", () => {
    const s = { env: 'BackwardsValleyFarm-v0', algo: 'ppo', seed: 3 };
    const at = new Date(Date.UTC(2025, 10, 27, 17, 33));
    expect(policyFileName(s, 35_000_000, at)).toBe('backwards-ppo-seed3-35000000steps-2025-11-27-1733.json');
    expect(policyFileName({ ...s, env: 'ValleyFarm-v0' }, 8192, at)).toBe('valley-ppo-seed3-8192steps-2025-11-27-1733.json');
    expect(policyFileName(s, 8192, at)).not.toBe(policyFileName(s, 16384, at));
    expect(policyFileName(s, 8192, at)).not.toBe(policyFileName(s, 8192, new Date(at.getTime() + 60_000)));
  });
});

describe('runs kept in storage', () => {
  it('every state change and every keep of the Worker writes the run: its settings, curve, policy and checkpoint', async () => {
    const store = memoryStore();
    const w = silentWorker();
    const lab = new LabModel({ createWorker: () => w, runs: Promise.resolve({ store, note: null }), now: () => 5000 });
    await lab.recover();
    lab.start();
    w.reply({ type: 'progress', progress: progress({ steps: 4096, meanReturn: 1.5 }) });
    w.reply({ type: 'kept', steps: 4096, policy: '{"p":1}', checkpoint: '{"c":1}' });
    await flush();
    const [kept] = store.kept.values();
    expect(kept).toEqual({
      format: 'valley-farm-lab-run',
      version: 1,
      id: lab.runId,
      savedAt: 5000,
      state: 'running',
      settings: DEFAULTS,
      steps: 4096,
      curve: [[4096, 1.5]],
      policy: '{"p":1}',
      checkpoint: '{"c":1}',
      code: null, // a built-in learner's run
    });
    expect(readRecord(kept)).not.toBeInstanceOf(Error);
    lab.pause();
    w.reply({ type: 'paused', progress: progress({ steps: 4096, meanReturn: 1.5 }) });
    await flush();
    expect(store.kept.get(lab.runId).state).toBe('paused');
  });

  it("the steps the store holds (savedSteps, what a reload finds) follow its write, not the Worker's keep", async () => {
    const pending = [];
    const store = memoryStore();
    const put = store.put;
    store.put = (r) => new Promise((resolve) => pending.push(() => resolve(put(r))));
    const written = async () => {
      for (const finish of pending.splice(0)) finish();
      await flush();
    };
    const w = silentWorker();
    const lab = new LabModel({ createWorker: () => w, runs: Promise.resolve({ store, note: null }), now: () => 5000 });
    await lab.recover();
    lab.start();
    await flush();
    await written(); // any record made at Start
    expect(lab.savedSteps).not.toBe(4096);
    w.reply({ type: 'kept', steps: 4096, policy: '{"p":1}', checkpoint: null });
    await flush();
    expect(lab.kept.steps).toBe(4096);
    expect(pending).toHaveLength(1);
    expect(lab.savedSteps).not.toBe(4096); // kept, not yet written
    await written();
    expect(lab.savedSteps).toBe(4096);
  });

  it('a run that was live when its page closed comes back interrupted, offering its policy; without a checkpoint it cannot resume', async () => {
    const store = memoryStore([record()]);
    const lab = new LabModel({ createWorker: silentWorker, runs: Promise.resolve({ store, note: null }) });
    await lab.recover();
    expect(lab.state).toBe('interrupted');
    expect(lab.resumable).toBe(false);
    expect(lab.hasPolicy).toBe(true);
    expect(lab.curve).toEqual([
      { steps: 4096, meanReturn: 1 },
      { steps: 8192, meanReturn: 2 },
    ]);
    expect(statusText(lab)).toBe('interrupted: the page was closed while this run was going, at 8,192 / 100,000 steps');
    expect(await lab.policyFile()).toEqual({ name: expect.stringMatching(/^backwards-tabular-q-seed1-8192steps-/), text: record().policy });
    lab.keepPolicy();
    expect(lab.state).toBe('stopped');
    await flush();
    expect(store.kept.get('r1').state).toBe('stopped');
    lab.discard();
    await flush();
    expect(store.kept.size).toBe(0);
    expect(lab.state).toBe('idle');
  });

  it(`keeps the newest ${MAX_KEPT_RUNS} runs and offers the newest; a finished one shows as it ended`, async () => {
    const store = memoryStore([1, 2, 3, 4, 5].map((k) => record({ id: `r${k}`, savedAt: k, state: 'done' })));
    const lab = new LabModel({ createWorker: silentWorker, runs: Promise.resolve({ store, note: null }) });
    await lab.recover();
    await flush();
    expect(lab.runId).toBe('r5');
    expect(lab.state).toBe('done');
    expect([...store.kept.keys()].sort()).toEqual(['r3', 'r4', 'r5']);
  });

  it.each([
    ['not a record', 'a string', /not a Lab run/],
    ['another format', { ...record(), format: 'valley-farm-policy' }, /not a Lab run/],
    ['an id with code in it', record({ id: '<img src=x onerror=alert(1)>' }), /its id must be/],
    ['a state it never has', record({ state: 'hacked' }), /its state must be one of/],
    ['settings of another kind', record({ settings: { env: { toString: 'x' } } }), /its settings must be an object of numbers and names/],
    ['settings a link would refuse', record({ settings: { ...DEFAULTS, env: 'CartPole-v1' } }), /its settings: env must be/],
    ['settings smuggled into a value', record({ settings: { ...DEFAULTS, env: 'ValleyFarm-v0&seed=9' } }), /its settings/],
    [
      'a curve going backwards',
      record({
        curve: [
          [8192, 1],
          [4096, 2],
        ],
      }),
      /each point of its curve/,
    ],
    [
      'a curve of a million points',
      record({ curve: Array.from({ length: MAX_CURVE_POINTS + 1 }, (_, k) => [k, 0]) }),
      /at most 10000 points/,
    ],
    ['a policy that is not text', record({ policy: { weights: [] } }), /its policy must be text/],
    ['a policy over the file limit', record({ policy: 'x'.repeat(MAX_POLICY_CHARS + 1) }), /its policy must be text of at most 20000000/],
    ['steps that are not a count', record({ steps: -1 }), /steps must be a whole number/],
  ])('a record with %s is refused with what is wrong', (_, raw, message) => {
    const r = readRecord(raw);
    expect(r).toBeInstanceOf(Error);
    expect(r.message).toMatch(/^the kept run is damaged: /);
    expect(r.message).toMatch(message);
  });

  it('a damaged record is removed with a note, and the next good one is offered', async () => {
    const store = memoryStore([record({ id: 'bad', savedAt: 9, state: 'hacked' }), record({ id: 'good', savedAt: 1 })]);
    const lab = new LabModel({ createWorker: silentWorker, runs: Promise.resolve({ store, note: null }) });
    await lab.recover();
    await flush();
    expect(lab.note).toMatch(/^A run kept from an earlier visit could not be read, and was removed: the kept run is damaged: its state/);
    expect(store.kept.has('bad')).toBe(false);
    expect(lab.runId).toBe('good');
  });

  it('a kept policy that is not a policy gets a clear message when it is used, and leaves the run as it was', async () => {
    const w = silentWorker();
    const store = memoryStore([record({ policy: 'alert(1)' })]);
    const lab = new LabModel({ createWorker: () => w, runs: Promise.resolve({ store, note: null }) });
    await lab.recover();
    const asked = lab.evaluate();
    expect(w.sent).toEqual([{ type: 'load', policy: 'alert(1)' }, { type: 'evaluate' }]);
    w.reply({ type: 'error', message: 'the kept policy is damaged (not JSON)' }); // trainer.js's answer (lab_trainer_load test)
    await expect(asked).rejects.toThrow('the kept policy is damaged (not JSON)');
    expect(lab.state).toBe('interrupted');
    expect(lab.note).toBe('the kept policy is damaged (not JSON)');
  });

  it('storage the browser refuses gives a note, never an error, and runs still train', async () => {
    const none = await openRunStore(undefined);
    expect(none).toEqual({ store: null, note: `${NO_STORAGE}.` });
    const throwing = await openRunStore({
      open() {
        throw Object.assign(new Error('The operation is insecure.'), { name: 'SecurityError' });
      },
    });
    expect(throwing.store).toBeNull();
    expect(throwing.note).toBe(`${NO_STORAGE} (The operation is insecure.).`);
    const refusing = await openRunStore({
      open() {
        const request = { error: new Error('A mutation operation was attempted on a database that did not allow mutations.') };
        setTimeout(() => request.onerror());
        return request;
      },
    });
    expect(refusing.note).toMatch(/^This browser keeps no data for this page here, .*\(A mutation operation/);
    const w = silentWorker();
    const lab = new LabModel({ createWorker: () => w, runs: Promise.resolve(refusing) });
    await lab.recover();
    expect(lab.storeNote).toBe(refusing.note);
    expect(lab.start()).toBe(true);
    w.reply({ type: 'kept', steps: 0, policy: null, checkpoint: null });
    expect(lab.state).toBe('running');
  });

  it('a store that fails a write says so in a note; the run goes on', async () => {
    const store = { ...memoryStore(), put: () => Promise.reject(new Error('QuotaExceededError')) };
    const w = silentWorker();
    const lab = new LabModel({ createWorker: () => w, runs: Promise.resolve({ store, note: null }) });
    await lab.recover();
    lab.start();
    w.reply({ type: 'kept', steps: 4096, policy: '{}', checkpoint: null });
    await flush();
    expect(lab.storeNote).toMatch(/could not be kept in this browser's storage: QuotaExceededError/);
    expect(lab.state).toBe('running');
  });
});

describe('the numbers the Lab shows', () => {
  it('shows a measured value with three significant digits, below 0.001 in powers of ten (a step size of 3e-4 is not 0.000)', () => {
    expect(formatValue(3e-4)).toBe('3e-4');
    expect(formatValue(2.5e-4)).toBe('2.5e-4');
    expect(formatValue(0.00034567)).toBe('3.46e-4');
    expect(formatValue(0.001)).toBe('0.001');
    expect(formatValue(0.0123456)).toBe('0.0123');
    expect(formatValue(-0.00571)).toBe('-0.00571');
    expect(formatValue(12.3456)).toBe('12.3');
    expect(formatValue(4.63)).toBe('4.63');
    expect(formatValue(1234.5)).toBe('1,235');
    expect(formatValue(2048)).toBe('2,048');
    expect(formatValue(0)).toBe('0');
  });

  it('the status line shows an annealed step size and the losses by that rule', () => {
    const lab = {
      state: 'running',
      settings: DEFAULTS,
      run: DEFAULTS,
      live: true,
      progress: progress({
        steps: 20_000_000,
        stepsPerSec: 150000,
        episodes: 100,
        losses: { policy: -0.0057, value: 4.63, entropy: 1.1, learningRate: 4.3e-4 },
      }),
    };
    expect(statusText(lab)).toBe(
      'running: 20,000,000 / 35,000,000 steps, 150,000 steps/s, 100 episodes; policy -0.0057, value 4.63, entropy 1.1, learningRate 4.3e-4',
    );
  });

  it("the cloning shows the time it has left at its phase's rate so far", () => {
    expect(formatDuration(40)).toBe('40 s');
    expect(formatDuration(150)).toBe('3 min');
    expect(formatDuration(7500)).toBe('2 h 5 min');
    const planning = { phase: 'planning', done: 1200, total: 24000, seconds: 20 };
    expect(remainingSeconds(planning, { phase: 'planning', seconds: 0, done: 0 })).toBeCloseTo(380);
    // the cloning phase's rate counts from where it began, not from the planning's start
    const cloning = { phase: 'cloning', done: 4, total: 10, seconds: 100 };
    expect(remainingSeconds(cloning, { phase: 'cloning', seconds: 60, done: 0 })).toBeCloseTo(60);
    expect(remainingSeconds({ ...cloning, done: 0 }, { phase: 'cloning', seconds: 60, done: 0 })).toBeNull();
    const lab = {
      state: 'running',
      settings: DEFAULTS,
      run: DEFAULTS,
      live: true,
      progress: progress({ imitation: planning, threads: 2 }),
      phase: { phase: 'planning', seconds: 0, done: 0 },
    };
    expect(statusText(lab)).toBe(
      "running: cloning the planner's play before the first step of its own: planned 1,200 / 24,000 episodes (20 s; about 6 min left), 2 threads",
    );
    const model = new LabModel({ createWorker: silentWorker });
    model.start();
    model.worker.reply({ type: 'progress', progress: progress({ imitation: { phase: 'cloning', done: 0, total: 10, seconds: 60 } }) });
    model.worker.reply({ type: 'progress', progress: progress({ imitation: { phase: 'cloning', done: 4, total: 10, seconds: 100 } }) });
    expect(statusText(model)).toMatch(/trained on them 4 \/ 10 times \(2 min; about 60 s left\)$/);
  });

  it('the memory estimate counts each thread the run trains on', () => {
    const one = memoryEstimate({ ...DEFAULTS, threads: 1, imitate: 0 });
    const eight = memoryEstimate({ ...DEFAULTS, threads: 8, imitate: 0 });
    expect(one.threads).toBe(1);
    expect(eight.threads).toBe(8);
    expect(eight.bytes - one.bytes).toBeGreaterThanOrEqual(7 * THREAD_BYTES);
    expect(one.bytes).toBe(estimateMemory(DEFAULTS.env, 'ppo', { imitate: 0, anneal: DEFAULTS.steps }, { threads: 1 }));
    // a learner that runs on one thread is counted on one, whatever the link asks
    expect(memoryEstimate({ ...DEFAULTS, algo: 'tabular-q', threads: 8 }).threads).toBe(1);
    expect(memoryEstimate({ ...DEFAULTS, gamma: 5 }).error).toMatch(/gamma must be a number from 0 to 1, got 5/);
    expect(one.refused).toBe(null);
  });

  it('settings whose estimate is above the learner budget are refused before Start, the message naming the estimate and the budget', () => {
    const big = { ...DEFAULTS, algo: 'ppo', numEnvs: 1024, history: 16, imitate: 0, threads: 1 };
    const m = memoryEstimate(big);
    expect(m.bytes).toBeGreaterThan(MEMORY_BUDGET);
    expect(m.refused).toBe(
      `a run of these settings would take about ${Math.round(m.bytes / 2 ** 20).toLocaleString('en')} MB (an estimate, 1 thread included), more than the 1,024 MB a learner may take in this tab: use fewer planner episodes (imitate), fewer envs (numEnvs), shorter rollouts (nSteps), a shorter history (history) or smaller hidden layers (hidden)`,
    );
    const made = [];
    const lab = new LabModel({ createWorker: () => made.push(silentWorker()) && made.at(-1) });
    lab.settings = big;
    expect(lab.start()).toBe(false);
    expect(made).toEqual([]); // no Worker started
    expect(lab.state).toBe('idle');
    expect(lab.note).toBe(`Not started: ${m.refused}.`);
    lab.settings = { ...big, numEnvs: 64 };
    expect(lab.start()).toBe(true);
    expect(made).toHaveLength(1);
  });
});
