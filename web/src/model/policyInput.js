// policyInput.js — a saved policy from a stranger (a file, a message), parsed and checked as
// data: what the policy Worker (web/src/worker/policyWorker.js) runs, off the page's thread.
// Parsing a 20 MB file and checking its million numbers holds a thread for a second or more;
// on the page's thread that is a frozen tab. The answer carries a ppo policy's weights as
// Float32Arrays (what the learner core keeps anyway), which move back to the page without
// a copy; the page then only builds the network from it (policyAgent.js).
import { checkPolicyJSON } from 'valley-farm/learn';
import { cut, errorMessage } from './cut.js';
import { fileTooBig } from './policyFile.js';

/**
 * `{ file }` (a File or Blob, refused by its size before it is read) or `{ json }` (parsed, as
 * a message carries it), checked by valley-farm/learn's checkPolicyJSON. Resolves with
 * `{ policy, transfer }`: the policy with its numbers as Float32Arrays, and their buffers.
 * Throws an error that says what was wrong.
 */
export async function checkedPolicy({ file, json }) {
  if (file !== undefined) {
    const big = fileTooBig(file);
    if (big) throw new Error(big);
    const text = await file.text();
    try {
      json = JSON.parse(text);
    } catch (err) {
      throw new Error(`${cut(file.name ?? 'the file', 100)} is not JSON: ${errorMessage(err)}`);
    }
  }
  checkPolicyJSON(json);
  const transfer = [];
  const floats = (values) => {
    const f = Float32Array.from(values);
    transfer.push(f.buffer);
    return f;
  };
  // a ppo policy's weights, a few large lists; a tabular-q table's rows stay lists (a Float32Array
  // each would make hundreds of thousands of buffers to move)
  const policy = json.algo === 'ppo' ? { ...json, weights: json.weights.map((w) => ({ ...w, values: floats(w.values) })) } : json;
  return { policy, transfer };
}
