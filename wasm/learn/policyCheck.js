// policyCheck.js — a saved policy checked as data, before anything is built from it.
//
// A policy can come from anyone (a file, a message to the page), so loadPolicy first checks
// every part of it: here its envelope (format, version, env and algorithm), then its learner's
// own checkPolicy (registry.js) its settings within the ranges a learner may use and its
// numbers (a ppo policy's weights the count and shapes its settings imply, a tabular-q
// policy's rows one value per action, every value finite). Only then does a network exist:
// building one before knowing its size let a few bytes of JSON ask for a huge one. An error
// names the path of the bad value (weights[2].values[17]) and what is allowed there.
import { envSpecs } from '../index.js';
import { POLICY_FORMAT, isObject } from './policyFile.js';
import { learnerOf } from './registry.js';

/**
 * Throws a clear error unless `json` is a policy this package can load, within the limits a
 * learner of its algorithm has (a network of at most MAX_WEIGHTS, limits.js).
 */
export function checkPolicyJSON(json) {
  if (!isObject(json) || json.format !== POLICY_FORMAT)
    throw new TypeError(`valley-farm/learn: not a valley-farm policy (its "format" must be "${POLICY_FORMAT}")`);
  if (json.version !== 1)
    throw new Error(`valley-farm/learn: policy version ${String(json.version).slice(0, 10)}; this package reads version 1`);
  if (typeof json.env !== 'string' || !Object.hasOwn(envSpecs, json.env))
    throw new Error(`valley-farm/learn: the policy's env ${JSON.stringify(String(json.env)).slice(0, 40)} is unknown`);
  learnerOf(json.algo, ' in the policy').checkPolicy(json);
}
