// policyWorker.js — parses and checks one saved policy off the page's thread (policyInput.js):
// { file } or { json } in; { ok: true, policy } (its weights' buffers moved, not copied) or
// { ok: false, error } out. Our own code, shipped with the site; it runs nothing it is sent.
import { checkedPolicy } from '../model/policyInput.js';
import { errorMessage } from '../model/cut.js';

self.onmessage = async ({ data }) => {
  try {
    const { policy, transfer } = await checkedPolicy(data);
    self.postMessage({ ok: true, policy }, transfer);
  } catch (err) {
    self.postMessage({ ok: false, error: errorMessage(err) });
  }
};
