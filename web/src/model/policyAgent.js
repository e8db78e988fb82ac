// policyAgent.js — a saved policy (the Lab's Download, `npx valley-farm train`) as the
// runner's agent. A policy that comes by message or file is a stranger's data: a file is
// refused by its size before it is read, and a Worker parses it and checks it as data
// (format, settings, every weight: policyInput.js, with valley-farm/learn's checkPolicyJSON)
// before any network exists, so that neither a 20 MB file nor a refused one holds the page's
// thread. The agent frees the policy when the runner replaces it: a network's memory (the
// learner core's network) is not collected, and policies left behind would
// fill it until no policy loads in the tab.
import { fileTooBig } from './policyFile.js';

export { MAX_POLICY_FILE_BYTES } from './policyFile.js';

// far more than the check of the largest file allowed takes, on a busy machine too (a 20 MB
// tabular-q file of 590,000 rows took the Worker over 20 s with 20 processes sharing 2 cores);
// past it the Worker is stopped
export const POLICY_CHECK_TIME_LIMIT_MS = 60_000;

/**
 * `{ file }` or `{ json }` parsed and checked in a Worker (policyWorker.js); resolves with the
 * policy, its numbers in typed arrays, for loadPolicy(policy, { checked: true }). Where there
 * is no Worker (Node, the tests) it is checked here, by the same code.
 */
export async function checkPolicy(input) {
  if (typeof Worker !== 'function') {
    const { checkedPolicy } = await import('./policyInput.js');
    return (await checkedPolicy(input)).policy;
  }
  const worker = new Worker(new URL('../worker/policyWorker.js', import.meta.url), { type: 'module' });
  let timer;
  try {
    return await new Promise((resolve, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the policy check took more than ${POLICY_CHECK_TIME_LIMIT_MS / 1000} s`)),
        POLICY_CHECK_TIME_LIMIT_MS,
      );
      worker.onmessage = ({ data }) => (data?.ok ? resolve(data.policy) : reject(new Error(data?.error ?? 'the policy check stopped')));
      worker.onerror = (e) => reject(new Error(e.message || 'the policy check could not start'));
      worker.postMessage(input);
    });
  } finally {
    clearTimeout(timer);
    worker.terminate();
  }
}

/** A policy from its JSON (parsed, or as a message carries it), checked off the page's thread; the learners load when first needed. */
export async function loadPolicyData(json) {
  const [checked, { loadPolicy }] = await Promise.all([checkPolicy({ json }), import('../learn.js')]);
  return loadPolicy(checked, { checked: true });
}

/** The runner's agent for a loaded policy: it plays the policy, and frees it when replaced. */
export const policyAgent = (policy) => ({ act: (o, info) => policy.act(o, info), terminate: () => policy.dispose?.() });

/**
 * A policy file (a File or Blob) parsed and checked off the page's thread (loadPolicy builds
 * it): too large a file is refused before it is read, and before a Worker starts.
 */
export async function readPolicyFile(file) {
  const big = fileTooBig(file);
  if (big) throw new Error(big);
  return checkPolicy({ file });
}
