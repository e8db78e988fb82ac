// policyAgent.js — a saved policy (the Lab's Download, `npx valley-farm train`) as the
// runner's agent. A policy that comes by message or file is a stranger's data: a file is
// refused by its size before it is read, and valley-farm/learn's loadPolicy checks the JSON
// as data (format, settings, every weight) before any network exists. The agent frees the
// policy's tensors when the runner replaces it: TensorFlow.js's memory is not collected, and
// policies left behind would fill it until no policy loads in the tab.
import { cut, errorMessage } from './cut.js';

export const MAX_POLICY_FILE_BYTES = 20e6;

/** A policy from its JSON (parsed, or as a message carries it); the learners load when first needed. */
export async function loadPolicyData(json) {
  const { loadPolicy } = await import('../learn.js');
  return loadPolicy(json);
}

/** The runner's agent for a loaded policy: it plays the policy, and frees it when replaced. */
export const policyAgent = (policy) => ({ act: (o, info) => policy.act(o, info), terminate: () => policy.dispose?.() });

/** A policy file's JSON (a File or Blob): too large a file is refused before it is read. */
export async function readPolicyFile(file) {
  const name = cut(file?.name ?? 'the file', 100);
  if (!(file?.size <= MAX_POLICY_FILE_BYTES))
    throw new Error(`${name} has ${file?.size} bytes; a policy file is at most ${MAX_POLICY_FILE_BYTES / 1e6} MB.`);
  const text = await file.text();
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`${name} is not JSON: ${errorMessage(err)}`);
  }
}
