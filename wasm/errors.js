// errors.js — what the package's errors share: how a value is shown (never more than a
// line of it) and the unknown-env-id error. Each error says what was wrong and what is
// allowed.
import { envIds, envSpecs } from './specs.js';

// Errors say what they got, but never echo more than a line of it.
export function describe(value) {
  const text = describeFull(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function describeFull(value) {
  if (typeof value === 'string') return `'${value.length > 100 ? value.slice(0, 100) : value}'`;
  if (typeof value === 'bigint') return `${value}n`;
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'object') return `a ${value.constructor?.name ?? 'object'}`;
  return String(value);
}

/** envSpecs[id], or an Error listing the env ids. */
export function specFor(id) {
  const spec = typeof id === 'string' && Object.hasOwn(envSpecs, id) ? envSpecs[id] : null;
  if (!spec) {
    throw new Error(`valley-farm: unknown env id ${describe(id)}; the env ids are ${envIds.map((i) => `'${i}'`).join(', ')}`);
  }
  return spec;
}

/** Throws unless `options` is undefined or an object whose keys are all in `known`. */
export function checkOptions(where, options, known) {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(
      `valley-farm: ${where} takes an options object (${known.length ? known.join(', ') : 'no options yet'}), got ${describe(options)}`,
    );
  }
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new TypeError(
        `valley-farm: ${where} has no option ${describe(key)}; the options are ${known.length ? known.join(', ') : '(none)'}`,
      );
    }
  }
  return options;
}

/** A reset's `options` (Gymnasium's reset(seed, options)): these envs take none yet, so only {} or nothing. */
export function checkResetOptions(where, options) {
  if (options === undefined || options === null) return;
  if (typeof options !== 'object' || Array.isArray(options) || Object.keys(options).length > 0)
    throw new TypeError(
      `valley-farm: ${where}: these envs take no reset options yet (options may be {} or left out), got ${describe(options)}`,
    );
}

// Gymnasium's env.metadata and env.spec, in this package's camelCase, shared by env.js and vec.js
export const METADATA = Object.freeze({ renderModes: Object.freeze(['ansi']) });
const registrations = {};
/**
 * env.spec: the id and maxEpisodeSteps, null as in the Python package: Gymnasium's
 * max_episode_steps is the step at which a TimeLimit wrapper truncates an episode, and these
 * farms never truncate one (the rules end every episode at the horizon, envSpecs[id].horizon:
 * terminated, not truncated). docs/python.md says why.
 */
export const specOf = (spec) => (registrations[spec.id] ??= Object.freeze({ id: spec.id, maxEpisodeSteps: null }));
