// policyFile.js — the size rule of a policy file, in a file of its own: the page checks it before
// it reads a file or starts the policy Worker, and the Worker checks it again (policyInput.js).
import { cut } from './cut.js';

export const MAX_POLICY_FILE_BYTES = 20e6;

/** A policy file (a File or Blob) too large to read: the error, or null. */
export function fileTooBig(file) {
  if (file?.size <= MAX_POLICY_FILE_BYTES) return null;
  return `${cut(file?.name ?? 'the file', 100)} has ${file?.size} bytes; a policy file is at most ${MAX_POLICY_FILE_BYTES / 1e6} MB.`;
}
