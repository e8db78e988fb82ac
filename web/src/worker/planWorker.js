// planWorker.js — plans one map off the page's thread: { envId, seed, width, prove } in,
// { ok, plan: { actions, bestReturn, upperBound, proven } } or { ok: false, error } out. Our own
// code, shipped with the site; it runs nothing it is sent.
import { make } from 'valley-farm';

self.onmessage = async ({ data }) => {
  try {
    const env = await make(data.envId);
    env.reset({ seed: data.seed });
    const plan = env.plan({ width: data.width, prove: data.prove === true });
    env.close();
    self.postMessage({ ok: true, plan });
  } catch (err) {
    self.postMessage({ ok: false, error: String(err?.message ?? err).slice(0, 300) });
  }
};
