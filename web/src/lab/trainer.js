// trainer.js — the Lab's training loop: the body of its Worker (trainWorker.js hands it the
// Worker's messages; tests run it in Node with learners of their own). It answers the page:
//   { type: 'start', settings, checkpoint? }  a run of createLearner(settings); with a kept
//                                               checkpoint's text, the run goes on from it
//   { type: 'pause' } / { type: 'resume' } / { type: 'stop' }
//   { type: 'load', policy }                  no run: holds a kept policy's text, to evaluate
//                                               and hand it back (after a reload, a stopped Worker)
//   { type: 'evaluate' }                       -> { type: 'evaluation', result } or { type: 'evaluation', error }
//   { type: 'policy' }                         -> { type: 'policy', text, steps } or { type: 'policy', error }
// and tells it:
//   { type: 'started', progress }              the learner exists (restored, if it was given a checkpoint)
//   { type: 'progress', progress }             while it trains (with its threads, for a learner on the core)
//   { type: 'paused' | 'stopped' | 'done', progress }  the loop has left the learner: from
//                                               here on it uses no CPU (a stopped or finished
//                                               run's learner, with its threads, is freed)
//   { type: 'kept', steps, policy, checkpoint } what to keep of the run (the policy's file text
//                                               once it is trained, the learner's checkpoint as
//                                               text; each null where there is none): soon
//                                               after the start, then every KEEP_MS, when the
//                                               cloning ends, and after each of the three above
//   { type: 'error', message }
import { algorithms, createLearner, loadPolicy } from 'valley-farm/learn';
import { evaluate, referenceData, summarize } from 'valley-farm/evaluate';
import { splitSeeds } from 'valley-farm/splits';
import { pairedOverHeuristic } from '../model/timeToHeuristic.js';
import { MAX_CHECKPOINT_CHARS, MAX_POLICY_CHARS, trained } from './runRecord.js';

// Training goes in calls of trainFor that end at about SLICE_MS (its `until`): short enough
// that pause and stop take effect within a second in every phase (a learner returns at the
// first point it can after `until`, cloning included), long enough that what each call costs
// (a progress message, a render of the page, a yield, which browsers clamp to 4 ms) is a small
// share. A call asks for at most `slice` steps, which starts at FIRST_SLICE (a learner trains
// whole rollouts, so a smaller one rounds up) and follows the measured rate: a learner that
// does not look at `until` still returns about every SLICE_MS once it plays steps.
export const FIRST_SLICE = 4096;
export const SLICE_MS = 250;
// What a reload or a closed tab can lose: the run is kept soon after it starts, then every
// KEEP_MS (and at every pause, stop and end).
export const FIRST_KEEP_MS = 5_000;
export const KEEP_MS = 60_000;

// An evaluation plays this many seeds at a time, then lets messages in (a pause or a stop
// is not kept waiting by the 1,000 test episodes).
const EVAL_CHUNK = 50;
const tick = () => new Promise((r) => setTimeout(r, 0));
const cutMessage = (err) => String(err?.message ?? err).slice(0, 500);

export class Trainer {
  /**
   * post(message): to the page. made: what a policy's run record names as its maker
   * ({ package: 'valley-farm@0.1.0' }).
   * keep: when the run is kept ({ first, every } ms; tests keep sooner).
   * describe(err): an error's text for the page (the Lab's sandbox adds where in the visitor's
   * learner it was thrown).
   */
  constructor({ post, made = {}, keep = { first: FIRST_KEEP_MS, every: KEEP_MS }, describe = cutMessage }) {
    this.post = post;
    this.describe = describe;
    this.keepMs = keep;
    this.now = () => performance.now();
    this.made = made;
    this.learner = null;
    this.settings = null; // the run's: { env, algo, seed, steps, ...the learner's }
    this.kept = null; // a policy without a run: { json, policy (loaded when first evaluated) }
    this.want = 'run'; // run | pause | stop: what the page asked for last
    this.looping = false;
    this.nextKeep = 0;
    this.loadError = null; // why the kept policy it was given could not be loaded
    this.loading = null; // the load of that policy, while it goes
  }

  /** The page's message. */
  async handle(data) {
    // a question's failure is its answer's (the run goes on); any other is the run's
    // (after a kept policy given just before has loaded: its messages come one after another)
    const loaded = () => this.loading?.catch(() => {});
    if (data?.type === 'evaluate') return this.#answer('evaluation', async () => (await loaded(), { result: await this.evaluate() }));
    if (data?.type === 'policy') return this.#answer('policy', async () => (await loaded(), this.policyFile()));
    try {
      if (data?.type === 'start') await this.start(data.settings, data.checkpoint ?? null);
      else if (data?.type === 'load') await (this.loading = this.load(data.policy));
      else if (data?.type === 'pause') this.#ask('pause');
      else if (data?.type === 'resume') this.#ask('run');
      else if (data?.type === 'stop') this.#ask('stop');
    } catch (err) {
      this.post({ type: 'error', message: this.describe(err) });
    }
  }

  async #answer(type, answer) {
    try {
      this.post({ type, ...(await answer()) });
    } catch (err) {
      this.post({ type, error: this.describe(err) });
    }
  }

  async start(settings, checkpoint) {
    this.#free();
    this.loadError = null;
    this.want = 'run'; // a pause or stop that comes while the learner is made is heard (#ask)
    const { steps } = settings;
    this.settings = { ...settings };
    let state = null;
    if (checkpoint !== null) {
      if (typeof checkpoint !== 'string' || checkpoint.length > MAX_CHECKPOINT_CHARS)
        throw new Error(`the kept checkpoint is not one: text of at most ${MAX_CHECKPOINT_CHARS} characters is`);
      try {
        state = JSON.parse(checkpoint);
      } catch {
        throw new Error('the kept checkpoint is damaged (not JSON)');
      }
    }
    const learner = await createLearner({ ...settings }); // steps: what PPO's anneal follows
    if (state !== null)
      await learner.restore(state).catch((err) => {
        learner.dispose();
        throw new Error(`the kept checkpoint cannot be resumed: ${cutMessage(err)}`);
      });
    this.learner = learner;
    this.target = steps;
    this.nextKeep = this.now() + this.keepMs.first;
    this.post({ type: 'started', progress: await this.#progress() });
    this.#loop();
  }

  /** Holds a kept policy (its file's text) to evaluate and hand back; no run. */
  async load(text) {
    this.#free();
    this.loadError = null;
    try {
      await this.#load(text);
    } catch (err) {
      this.loadError = cutMessage(err); // what an evaluation or a download of it then answers
      throw err;
    }
  }

  async #load(text) {
    if (typeof text !== 'string' || text.length > MAX_POLICY_CHARS)
      throw new Error(`the kept policy is not one: text of at most ${MAX_POLICY_CHARS} characters is`);
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      throw new Error('the kept policy is damaged (not JSON)');
    }
    const policy = await loadPolicy(json); // checked as data first (checkPolicyJSON)
    this.kept = { json, policy };
    this.settings = { env: json.env, algo: json.algo, ...(json.run?.settings ?? {}) };
  }

  #ask(want) {
    this.want = want;
    if (this.learner && !this.looping) this.#loop(); // paused: the loop answers at once (and resumes, for 'run')
  }

  async #loop() {
    if (this.looping) return;
    this.looping = true;
    let slice = FIRST_SLICE;
    try {
      for (;;) {
        while (this.learner && this.want === 'run' && this.learner.progress().steps < this.target) {
          const t0 = this.now();
          const before = this.learner.progress();
          const progress = await this.learner.trainFor(Math.min(slice, this.target - before.steps), {
            onProgress: (p) => this.post({ type: 'progress', progress: p }),
            until: t0 + SLICE_MS,
          });
          // the next call: SLICE_MS at this call's rate, at most twice as long, from 1 to 256 first slices
          const done = progress.steps - before.steps;
          if (done > 0) {
            const grown = (done / FIRST_SLICE) * Math.min(2, SLICE_MS / Math.max(this.now() - t0, 1));
            slice = FIRST_SLICE * Math.max(1, Math.min(256, Math.round(grown)));
          }
          this.post({ type: 'progress', progress: await this.#progress() });
          const cloned = before.imitation?.phase !== undefined && progress.imitation?.phase === undefined;
          if (cloned || this.now() >= this.nextKeep) await this.#keep();
          await tick(); // let pause, stop and evaluate messages in
        }
        if (!this.learner) return;
        const finished = this.learner.progress().steps >= this.target;
        const end = finished ? 'done' : this.want === 'stop' ? 'stopped' : 'paused';
        this.post({ type: end, progress: await this.#progress() }); // first: the page is told at once
        await this.#keep();
        if (end === 'paused' && this.want === 'pause') return;
        if (end === 'paused') continue; // resumed or stopped while it kept the run
        // the run is over: its learner goes (PPO's worker threads with it); its policy stays
        const json = this.#policyJSON();
        this.#free();
        this.kept = { json, policy: null };
        return;
      }
    } catch (err) {
      this.post({ type: 'error', message: this.describe(err) });
    } finally {
      this.looping = false;
    }
  }

  /** Posts what to keep of the run: the policy's text and a checkpoint (null where the learner gives none). */
  async #keep() {
    const text = trained(this.learner.progress()) ? this.policyFile().text : null;
    let checkpoint = null;
    if (algorithms[this.settings.algo]?.resume) {
      try {
        const state = await this.learner.checkpoint();
        checkpoint = state ? JSON.stringify(state) : null;
      } catch {
        checkpoint = null; // a run that cannot be saved (a learner without resume): its policy is kept
      }
    }
    this.nextKeep = this.now() + this.keepMs.every;
    this.post({ type: 'kept', steps: this.learner.progress().steps, policy: text, checkpoint });
  }

  /** The policy as its file holds it, with the run record `valley-farm train` writes (`where`: 'lab'). */
  #policyJSON() {
    if (!this.learner) return this.kept?.json ?? null;
    const p = this.learner.progress();
    return {
      ...this.learner.policy().toJSON(),
      run: {
        seed: this.settings.seed,
        steps: p.steps,
        seconds: Math.round(p.elapsedMs / 100) / 10,
        package: this.made.package ?? null,
        settings: this.settings,
        date: new Date().toISOString(),
        where: 'lab',
      },
    };
  }

  /** The policy's file: { text, steps } (the steps it was trained for, where known). */
  policyFile() {
    const json = this.#policyJSON();
    if (!json) throw new Error(this.loadError ?? 'there is no policy yet: Start a run');
    return { text: JSON.stringify(json), steps: json.run?.steps ?? null };
  }

  /**
   * The policy on the whole test split, with the heuristic on the same seeds and the paired
   * difference (policy − heuristic) with its 95 % interval; `steps` and `updates`: where the
   * run was when it was taken (`cloning`: in its cloning, before any step of its own). A run's
   * policy is copied first, so the training going on does not change it in the middle of the
   * evaluation.
   */
  async evaluate() {
    let policy;
    let at = { steps: null, updates: null, cloning: false }; // where the run was when the policy was taken
    let own = false;
    if (this.learner) {
      const p = this.learner.progress();
      at = { steps: p.steps, updates: p.updates, cloning: p.imitation?.phase !== undefined };
      policy = await loadPolicy(this.learner.policy().toJSON());
      own = true;
    } else if (this.kept) {
      this.kept.policy ??= await loadPolicy(this.kept.json);
      policy = this.kept.policy;
      at.steps = this.kept.json.run?.steps ?? null;
    } else throw new Error(this.loadError ?? 'there is no policy to evaluate: Start a run');
    try {
      const env = policy.env;
      const seeds = splitSeeds('test');
      const returns = [];
      const normalized = [];
      for (let at = 0; at < seeds.length; at += EVAL_CHUNK) {
        const r = await evaluate(policy, { env, seeds: seeds.slice(at, at + EVAL_CHUNK) });
        returns.push(...r.returns);
        normalized.push(...(r.normalized?.perSeed ?? []));
        await tick();
      }
      const { baselines } = await referenceData();
      const rows = baselines.perSeed[env].test;
      const sameSeeds = rows.length === seeds.length && rows.every((row, i) => row[0] === seeds[i]);
      const heuristic = sameSeeds ? summarize(rows.map((row) => row[2])) : null;
      const paired = sameSeeds ? pairedOverHeuristic(baselines, { env, test: { returns } }) : null;
      const { mean, ci95 } = summarize(returns);
      return {
        ...at,
        split: 'test',
        episodes: returns.length,
        mean,
        ci95,
        normalized: normalized.length === returns.length ? normalized.reduce((a, b) => a + b, 0) / returns.length : null,
        heuristic: heuristic && { mean: heuristic.mean, ci95: heuristic.ci95 },
        paired: paired && { mean: paired.mean, ci95: paired.ci95 },
      };
    } finally {
      if (own) policy.dispose();
    }
  }

  #free() {
    this.learner?.dispose();
    this.learner = null;
    this.kept?.policy?.dispose?.();
    this.kept = null;
  }

  async #progress() {
    return this.learner.progress();
  }
}
