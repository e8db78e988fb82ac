// @vitest-environment node
// (Node, not happy-dom: the test runs the trainer in worker_threads, a module the page's
// environment stands in for with a browser stub)
// The Lab's training loop (trainer.js, the body of its Worker) in a real thread, driven by the
// Lab's model: Pause and Stop take effect within a second in every phase, cloning included,
// counted by the CPU time this process uses; a learner that ignores trainFor's `until` is
// ended with its thread by Stop, and what it last kept stays; a run kept in storage is offered
// back after a "reload" (a new model over the same storage) and resumes from its checkpoint.
// The learner is tests/web/fixtures/slowCloner.js, registered through registerLearner.
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { envIds } from '../../wasm/index.js';
import { CHECKPOINT_VERSION, algorithms, createLearner, registerLearner } from '../../wasm/learn/index.js';
import { LabModel, STOP_GRACE_MS } from '../../web/src/lab/labModel.js';
import { Trainer } from '../../web/src/lab/trainer.js';
import { MAX_POLICY_CHARS } from '../../web/src/lab/runRecord.js';
import baselines from '../../wasm/data/baselines.json';
import { learner as slowCloner } from './fixtures/slowCloner.js';

const V = envIds[0];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
/** The CPU seconds this process (the test and the trainer's thread) uses over the next `ms`. */
async function cpuOver(ms) {
  const before = cpuSeconds();
  await sleep(ms);
  return cpuSeconds() - before;
}
/** Waits until `ok()` (generously: a busy machine is slow, and the CPU counts are what is claimed). */
async function until(ok, what, ms = 30_000) {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}
// an idle second: the test's own timers and the thread's idle loop, far under a busy core
const IDLE_CPU = 0.15;

const threads = [];
/** The Lab's training Worker as a Node thread (trainerThread.js), shaped as the model uses a Web Worker. */
function threadWorker(workerData = {}) {
  const thread = new Worker(join(import.meta.dirname, 'fixtures/trainerThread.js'), { workerData }); // a path: happy-dom's URL is not Node's
  threads.push(thread);
  const w = {
    onmessage: null,
    onerror: null,
    terminated: false,
    postMessage: (msg) => thread.postMessage(msg),
    terminate() {
      w.terminated = true;
      thread.terminate();
    },
  };
  thread.on('message', (data) => w.onmessage?.({ data }));
  thread.on('error', (e) => w.onerror?.(e));
  return w;
}

/** A store of runs in memory, shaped as runStore.js's (records copied in and out, as IndexedDB does). */
function memoryStore() {
  const records = new Map();
  return {
    records,
    list: async () => [...records.values()].map((r) => structuredClone(r)),
    put: async (r) => void records.set(r.id, structuredClone(r)),
    remove: async (id) => void records.delete(id),
  };
}

/** Web Locks in memory: `others` are held by other tabs. */
function memoryLocks(others = []) {
  const held = new Set(others);
  return {
    held,
    query: async () => ({ held: [...held].map((name) => ({ name })) }),
    request(name, options, callback) {
      if (held.has(name)) return Promise.resolve(options.ifAvailable ? callback(null) : undefined);
      held.add(name);
      return Promise.resolve(callback({ name })).finally(() => held.delete(name));
    },
  };
}

function lab({ workerData, ...options } = {}) {
  let worker = null;
  const model = new LabModel({
    createWorker: () => (worker = threadWorker(workerData)),
    ...options,
  });
  Object.defineProperty(model, 'thread', { get: () => worker });
  return model;
}

const run = (settings) => ({ env: V, algo: 'slow-cloner', seed: 1, steps: 10_000_000, ...settings });

beforeAll(() => {
  if (!algorithms['slow-cloner']) registerLearner(slowCloner);
});

afterEach(async () => {
  await Promise.all(threads.splice(0).map((t) => t.terminate()));
});

describe('Pause and Stop during a long cloning (a learner that honours until)', () => {
  it('Pause stops the CPU within a second of cloning, and Stop frees the learner without ending its Worker', async () => {
    const m = lab();
    m.settings = run({ cloneMs: 120_000 });
    m.start();
    await until(() => m.progress?.imitation?.phase === 'cloning' && m.progress.imitation.done >= 5, 'the cloning');
    expect(m.hasPolicy).toBe(true); // cloning's network counts once cloning trains it
    const before = cpuSeconds();
    m.pause();
    expect(m.state).toBe('pausing');
    await until(() => m.state === 'paused', 'the Worker to say it paused');
    // what it spent after the pause: the rest of a slice (SLICE_MS of cloning) and keeping the run
    expect(cpuSeconds() - before).toBeLessThan(0.6);
    expect(await cpuOver(1000)).toBeLessThan(IDLE_CPU);
    const done = m.progress.imitation.done;
    m.resume();
    await until(() => m.progress.imitation.done > done + 3, 'the cloning to go on');
    m.stop();
    expect(m.state).toBe('stopping');
    await until(() => m.state === 'stopped', 'the Worker to say it stopped');
    await sleep(STOP_GRACE_MS);
    expect(m.thread.terminated).toBe(false); // it stopped of itself: the Worker (and its policy) stay
    expect(m.note).toBeNull();
    expect(await cpuOver(1000)).toBeLessThan(IDLE_CPU);
  });
});

describe('a learner that ignores until', () => {
  it('Pause waits, saying so, while the learner is in its long call; Stop ends its Worker and the CPU within a second', async () => {
    const m = lab();
    m.settings = run({ cloneMs: 120_000, honoursUntil: 0 });
    m.start();
    await until(() => m.progress?.imitation?.done >= 5, 'the cloning');
    m.pause();
    await sleep(1000);
    expect(m.state).toBe('pausing'); // not "paused" while a core burns
    const stopAt = Date.now();
    m.stop();
    await until(() => m.state === 'stopped', 'Stop');
    expect(Date.now() - stopAt).toBeLessThan(STOP_GRACE_MS + 4500); // half a second and the thread's end, generously: the machine may be busy
    expect(m.thread.terminated).toBe(true);
    expect(m.note).toMatch(/did not stop within 0.5 s of Stop .*its Worker was ended: it had kept no policy yet/);
    await sleep(200); // the thread's termination
    expect(await cpuOver(1000)).toBeLessThan(IDLE_CPU);
  });

  it('a learner stuck in a long call after it kept its policy: Stop ends it, and the curve and that policy stay to evaluate and download', async () => {
    const stall = new Int32Array(new SharedArrayBuffer(4));
    const m = lab({ workerData: { keep: { first: 100, every: 60_000 }, stall: stall.buffer } });
    m.settings = run({ cloneMs: 0, stallMs: 120_000, steps: 1_000_000_000 });
    m.start();
    await until(() => m.kept?.policy && m.curve.length > 0, 'the first keep and a point of the curve');
    Atomics.store(stall, 0, 1); // the learner's next call is stuck
    await until(() => Atomics.load(stall, 0) === 2, 'the learner to be stuck');
    await sleep(300);
    m.stop();
    await until(() => m.state === 'stopped', 'Stop');
    expect(m.thread.terminated).toBe(true);
    const kept = m.kept.steps;
    expect(m.note).toMatch(new RegExp(`the curve and the policy it last kept \\(at ${kept.toLocaleString('en')} steps\\) stay`));
    expect(m.curve.length).toBeGreaterThan(0);
    expect(m.hasPolicy).toBe(true);
    const file = await m.policyFile();
    expect(JSON.parse(file.text).run).toMatchObject({ steps: kept, where: 'lab', seed: 1 });
    expect(file.name).toContain(`-slow-cloner-seed1-${kept}steps-`);
    // evaluated in a new Worker that holds the kept policy
    const e = await m.evaluate();
    expect(e).toMatchObject({ steps: kept, episodes: 1000, split: 'test' });
    expect(m.state).toBe('stopped');
  });
});

describe('a run kept in storage', () => {
  it('is offered back after a reload, resumes from its checkpoint with its curve, and trains to its end', async () => {
    const store = memoryStore();
    const locks = memoryLocks();
    const first = lab({ runs: Promise.resolve({ store, note: null }), locks });
    await first.recover();
    first.settings = run({ cloneMs: 300, steps: 400_000 });
    first.start();
    await until(() => first.curve.length >= 3, 'a few points of the curve');
    first.pause();
    await until(() => first.state === 'paused' && first.kept?.checkpoint, 'the paused run to be kept');
    await sleep(50); // the store's write
    const [record] = store.records.values();
    expect(record).toMatchObject({ state: 'paused', steps: first.kept.steps, settings: first.run });
    const curve = first.curve.slice();
    first.dispose(); // the tab closes: its Worker and its lock go
    locks.held.clear();

    const second = lab({ runs: Promise.resolve({ store, note: null }), locks });
    await second.recover();
    expect(second.note).toBeNull();
    expect(second.state).toBe('interrupted');
    expect(second.resumable).toBe(true);
    expect(second.curve).toEqual(curve);
    expect(second.hasPolicy).toBe(true); // before it resumes: its kept policy
    let resumedAt;
    second.subscribe((m) => (resumedAt ??= m.progress?.steps));
    second.resumeKept();
    await until(() => resumedAt !== undefined, 'the resumed run to start');
    expect(resumedAt).toBe(record.steps); // from its checkpoint, not from 0
    await until(() => second.state === 'done', 'the run to end', 60_000);
    expect(second.progress.steps).toBeGreaterThanOrEqual(400_000);
    expect(second.curve.slice(0, 3)).toEqual(curve.slice(0, 3));
  });

  it('held by another tab, it is left to that tab', async () => {
    const store = memoryStore();
    await store.put({
      format: 'valley-farm-lab-run',
      version: 1,
      id: 'a1',
      savedAt: 1,
      state: 'paused',
      settings: run({}),
      steps: 0,
      curve: [],
      policy: null,
      checkpoint: null,
    });
    const m = lab({ runs: Promise.resolve({ store, note: null }), locks: memoryLocks(['valley-farm-lab-run:a1']) });
    await m.recover();
    expect(m.state).toBe('idle');
    expect(store.records.has('a1')).toBe(true);
  });
});

describe("the trainer's answers (in this thread)", () => {
  /** A Trainer whose messages land in `posted`; next(type) waits for the first of that type. */
  function trainer(options = {}) {
    const posted = [];
    const t = new Trainer({ post: (m) => posted.push(m), ...options });
    t.next = async (type) => {
      await until(() => posted.some((m) => m.type === type), type);
      return posted.splice(
        posted.findIndex((m) => m.type === type),
        1,
      )[0];
    };
    return t;
  }

  it('a kept policy or checkpoint is read as data: text that is not JSON, not a policy or too long gets a clear message', async () => {
    const t = trainer();
    await t.handle({ type: 'load', policy: 'alert(1)' });
    expect((await t.next('error')).message).toBe('the kept policy is damaged (not JSON)');
    await t.handle({ type: 'load', policy: JSON.stringify({ format: 'valley-farm-policy', version: 1, env: V, algo: 'ppo', config: {} }) });
    expect((await t.next('error')).message).toMatch(/^valley-farm\/learn: .*hidden/);
    await t.handle({ type: 'load', policy: 'x'.repeat(MAX_POLICY_CHARS + 1) });
    expect((await t.next('error')).message).toBe(`the kept policy is not one: text of at most ${MAX_POLICY_CHARS} characters is`);
    await t.handle({
      type: 'start',
      settings: run({ cloneMs: 0 }),
      // another run's checkpoint: made with 5 envs, where this run has 4
      checkpoint: JSON.stringify({
        format: 'valley-farm-checkpoint',
        version: CHECKPOINT_VERSION,
        env: V,
        algo: 'slow-cloner',
        seed: 1,
        config: { env: V, algo: 'slow-cloner', seed: 1, numEnvs: 5, cloneMs: 0, honoursUntil: 1, stallMs: 0 },
        state: { steps: 0, cloned: 0, episodes: 0, recent: [] },
      }),
    });
    expect((await t.next('error')).message).toMatch(
      /^the kept checkpoint cannot be resumed: valley-farm\/learn: the checkpoint was made with numEnvs 5, this learner has 4/,
    );
    // a question's failure is its answer: the page's run, if any, goes on
    await t.handle({ type: 'evaluate' });
    expect((await t.next('evaluation')).error).toBe('there is no policy to evaluate: Start a run');
    await t.handle({ type: 'load', policy: '{"format":"valley-farm-policy"' });
    expect((await t.next('error')).message).toBe('the kept policy is damaged (not JSON)');
    await t.handle({ type: 'policy' });
    expect((await t.next('policy')).error).toBe('the kept policy is damaged (not JSON)');
  });

  it('a question right behind a load is answered from the loaded policy (a Worker gets them in order; the load takes time)', async () => {
    const l = await createLearner({ env: V, algo: 'tabular-q', seed: 1, numEnvs: 4 });
    await l.trainFor(1024);
    const text = JSON.stringify(l.policy().toJSON());
    l.dispose?.();
    const t = trainer();
    t.handle({ type: 'load', policy: text }); // not awaited: as the Worker's messages arrive
    t.handle({ type: 'policy' });
    const answer = await t.next('policy');
    expect(answer.error).toBeUndefined();
    expect(JSON.parse(answer.text).algo).toBe('tabular-q');
  });

  it('a stop that comes while a paused run is being kept is heard: the run stops, and its learner is freed', async () => {
    const posted = [];
    const t = new Trainer({
      post(m) {
        posted.push(m);
        if (m.type === 'paused') t.handle({ type: 'stop' }); // the loop is about to keep the run
      },
    });
    await t.handle({ type: 'start', settings: run({ cloneMs: 0 }) });
    await until(() => posted.some((m) => m.type === 'progress'), 'training');
    await t.handle({ type: 'pause' });
    await until(() => posted.some((m) => m.type === 'stopped'), 'the stop');
    expect(posted.filter((m) => m.type === 'kept')).toHaveLength(2); // at the pause, then at the stop
    expect(t.learner).toBeNull();
  });

  it("a policy's file carries the run record valley-farm train writes, with the Lab as where it was made", async () => {
    const t = trainer({ made: { package: 'valley-farm@9.9.9' } });
    const settings = run({ cloneMs: 0, steps: 4096 });
    const before = Date.now();
    await t.handle({ type: 'start', settings });
    await t.next('done');
    await t.handle({ type: 'policy' });
    const { text, steps } = await t.next('policy');
    const json = JSON.parse(text);
    expect(steps).toBe(4096);
    expect(json.run).toEqual({
      seed: 1,
      steps: 4096,
      seconds: expect.any(Number),
      package: 'valley-farm@9.9.9',
      settings,
      date: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      where: 'lab',
    });
    expect(Date.parse(json.run.date)).toBeGreaterThanOrEqual(before - 1000);
    expect(json.format).toBe('valley-farm-policy');
  });

  it('an evaluation is on the whole test split, beside the heuristic on the same seeds, with the paired difference and the steps it was taken at', async () => {
    const t = trainer();
    await t.handle({ type: 'start', settings: run({ cloneMs: 0, steps: 4096 }) });
    await t.next('done');
    await t.handle({ type: 'evaluate' });
    const { result } = await t.next('evaluation');
    expect(result).toMatchObject({ steps: 4096, split: 'test', episodes: 1000 });
    const heuristic = baselines.table[V].find((r) => r.agent === 'heuristic');
    expect(result.heuristic.mean).toBeCloseTo(heuristic.mean, 3); // the published test mean, from the per-seed rows
    expect(result.heuristic.ci95[0]).toBeCloseTo(heuristic.ci95[0], 3);
    expect(result.paired.mean).toBeCloseTo(result.mean - result.heuristic.mean, 9);
    // paired by seed: its interval is not the two means' intervals put together
    expect(result.paired.ci95[1] - result.paired.ci95[0]).toBeGreaterThan(0);
    expect(result.paired.ci95[1]).toBeLessThan(0); // the first legal action every step is far below the heuristic
  });
});
