// policyFile.js — the pieces every learner's check of a saved policy shares (policyCheck.js
// checks the envelope, then hands the file to its learner's checkPolicy).
import { shown } from './limits.js';

/** What every policy file's "format" is. */
export const POLICY_FORMAT = 'valley-farm-policy';

/** The error for the value at `path`: what is allowed there, and what it was (`got`, as text). */
export const bad = (path, wanted, got) => new TypeError(`valley-farm/learn: the policy's ${path} must be ${wanted}, got ${got}`);

export const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

// numbers come as a JSON array, or as a Float32Array from a check done before (the page checks
// a file in a Worker, which hands the weights back as Float32Arrays: no copy of a list on the way)
export const isNumberList = (v) => Array.isArray(v) || v instanceof Float32Array;

/** Throws unless every element of `values` (at `path`) is a finite number. */
export function checkNumbers(values, path) {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== 'number' || !Number.isFinite(v)) throw bad(`${path}[${i}]`, 'a finite number', shown(v));
  }
}
