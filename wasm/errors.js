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
