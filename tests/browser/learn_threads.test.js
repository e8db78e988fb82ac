// A learner's threads in Chromium, where each Worker's clock (performance.now()) starts when the
// Worker does, not with the page: a slice's `until` must mean the same moment on every thread.
// (In Node all threads share the process's clock, so only a browser can tell.) The page imports
// the package's own files from a plain static server, as the README's browser quick start does.
import { expect, it } from 'vitest';
import { repositorySuite } from './page.js';

// the page: a PPO run of two threads, sliced at once (run in the page, not in page.evaluate,
// whose function Vitest would rewrite)
const PAGE = `<!doctype html><title>threads</title><script type="module">
import { createLearner } from '/wasm/learn/index.js';
window.slicedAtOnce = async () => {
  // its second thread starts at createLearner: that thread's clock runs behind the page's by as much
  await new Promise((r) => setTimeout(r, Math.max(0, 1500 - performance.now())));
  const learner = await createLearner({ env: 'ValleyFarm-v0', algo: 'ppo', seed: 1, threads: 2, imitate: 4000 });
  try {
    // a slice whose time is up: each thread plays the one episode a call always plays, and
    // stops; the next call reports, as it starts, what the first played
    await learner.trainFor(1, { until: performance.now() });
    return (await learner.trainFor(1, { until: performance.now() })).imitation;
  } finally {
    learner.dispose();
  }
};
</script>`;

const suite = repositorySuite({ '/threads.html': PAGE });

it("a slice of PPO's planning ends at its `until` on a thread started seconds after the page, as on the page's own", async () => {
  const page = await suite.browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${suite.server.url}threads.html`);
  await page.waitForFunction(() => typeof window.slicedAtOnce === 'function');
  const imitation = await page.evaluate(() => window.slicedAtOnce());
  expect(imitation).toMatchObject({ phase: 'planning', done: 2 });
  expect(errors).toEqual([]);
});
