// policyInput.js — a saved policy from a stranger (a file, a message), parsed and checked as
// data: what the policy Worker (web/src/worker/policyWorker.js) runs, off the page's thread.
// Parsing a 20 MB file and checking its million numbers holds a thread for a second or more;
// on the page's thread that is a frozen tab. The answer carries a policy's numbers in typed
// arrays (a ppo policy's weights as Float32Arrays, what the learner core keeps anyway; a
// tabular-q table packed), which move back to the page without a copy; the page then only
// builds the policy from them (policyAgent.js), without checking them again.
import { envSpecs } from 'valley-farm';
import { checkPolicyJSON, packTable } from 'valley-farm/learn';
import { cut, errorMessage } from './cut.js';
import { fileTooBig } from './policyFile.js';

/**
 * `{ file }` (a File or Blob, refused by its size before it is read) or `{ json }` (parsed, as
 * a message carries it), checked by valley-farm/learn's checkPolicyJSON. An ONNX model (a
 * file named .onnx, or its bytes as `json`: an ArrayBuffer or Uint8Array) is first checked and
 * made a policy by valley-farm/onnx, loaded only then. Resolves with
 * `{ policy, transfer }`: the policy with its numbers in typed arrays, and their buffers.
 * Throws an error that says what was wrong.
 */
export async function checkedPolicy({ file, json }) {
  if (file !== undefined) {
    const big = fileTooBig(file);
    if (big) throw new Error(big);
    if (/\.onnx$/i.test(file.name ?? '')) json = new Uint8Array(await file.arrayBuffer());
  }
  if (json instanceof ArrayBuffer || json instanceof Uint8Array) {
    const { onnxToPolicy } = await import('valley-farm/onnx');
    json = onnxToPolicy(json);
  } else if (file !== undefined) {
    const text = await file.text();
    try {
      json = JSON.parse(text);
    } catch (err) {
      throw new Error(`${cut(file.name ?? 'the file', 100)} is not JSON: ${errorMessage(err)}`);
    }
  }
  checkPolicyJSON(json);
  // its numbers in typed arrays, whose buffers move to the page: a ppo policy's weights, a few
  // large lists, each a Float32Array; a tabular-q table, a list a row, packed into three arrays
  // (valley-farm/learn's packTable: a list a row, or a Float32Array a row, would be hundreds
  // of thousands of objects for the page's thread to copy)
  if (json.algo === 'ppo') {
    const weights = json.weights.map((w) => ({ ...w, values: Float32Array.from(w.values) }));
    return { policy: { ...json, weights }, transfer: weights.map((w) => w.values.buffer) };
  }
  if (json.algo === 'tabular-q') {
    const table = packTable(json.table, envSpecs[json.env].actions.length);
    return { policy: { ...json, table }, transfer: [table.keys.buffer, table.ends.buffer, table.values.buffer] };
  }
  return { policy: json, transfer: [] };
}
