// trainWorker.js — the Lab's learner, in a Web Worker so the page keeps its frame rate. The
// site's own code (valley-farm/learn); it answers the page's messages:
//   { type: 'start', settings: { env, algo, seed, steps, threads?, ... } } -> progress ..., then done
//   { type: 'pause' } / { type: 'resume' } / { type: 'stop' }
//   { type: 'evaluate', split, episodes }                      -> { type: 'evaluation', result }
//   { type: 'policy' }                                         -> { type: 'policy', json }
// Errors come back as { type: 'error', message }.
import { evaluate } from 'valley-farm/evaluate';
import { createLearner } from '../learn.js';

// Training goes in slices of about SLICE_MS: short enough that pause, stop and evaluate get in
// promptly, long enough that what each slice costs (a progress message, a render of the page, a
// yield, which browsers clamp to 4 ms) is a small share. A slice starts at FIRST_SLICE steps
// (a learner trains whole rollouts, so a smaller slice rounds up) and follows the measured rate.
const FIRST_SLICE = 4096;
const SLICE_MS = 250;
let learner = null;
let target = 0;
let paused = false;
let running = false;
const post = (msg) => self.postMessage(msg);
const tick = () => new Promise((r) => setTimeout(r, 0));

async function loop() {
  if (running) return;
  running = true;
  try {
    let slice = FIRST_SLICE;
    while (learner && !paused && learner.progress().steps < target) {
      const t0 = performance.now();
      const progress = await learner.trainFor(Math.min(slice, target - learner.progress().steps), {
        onProgress: (p) => post({ type: 'progress', progress: p }),
      });
      // the next slice: SLICE_MS at this slice's rate, at most twice as long, from 1 to 256 first slices
      const grown = (slice / FIRST_SLICE) * Math.min(2, SLICE_MS / Math.max(performance.now() - t0, 1));
      slice = FIRST_SLICE * Math.max(1, Math.min(256, Math.round(grown)));
      post({ type: 'progress', progress });
      await tick(); // let pause / stop / evaluate messages in
    }
    if (learner && learner.progress().steps >= target) post({ type: 'done', progress: learner.progress() });
  } catch (err) {
    post({ type: 'error', message: String(err?.message ?? err).slice(0, 500) });
  } finally {
    running = false;
  }
}

self.onmessage = async ({ data }) => {
  try {
    if (data?.type === 'start') {
      learner?.dispose();
      const { steps, ...settings } = data.settings;
      learner = await createLearner({ ...settings, steps }); // steps: what PPO's anneal follows
      target = steps;
      paused = false;
      loop();
    } else if (data?.type === 'pause') paused = true;
    else if (data?.type === 'resume') {
      paused = false;
      loop();
    } else if (data?.type === 'stop') {
      paused = true;
      target = 0;
    } else if (data?.type === 'evaluate' && learner) {
      const r = await evaluate(learner.policy(), { env: learner.env, split: data.split ?? 'test', episodes: data.episodes });
      post({
        type: 'evaluation',
        result: {
          mean: r.mean,
          ci95: r.ci95,
          normalized: r.normalized?.mean ?? null,
          episodes: r.returns.length,
          split: data.split ?? 'test',
        },
      });
    } else if (data?.type === 'policy' && learner) {
      post({ type: 'policy', json: learner.policy().toJSON() });
    }
  } catch (err) {
    post({ type: 'error', message: String(err?.message ?? err).slice(0, 500) });
  }
};
