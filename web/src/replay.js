// replay.js — an episode is its env id, its seed and its actions. This module reads and
// writes that record as a JSON file and as a share link, and rejects anything malformed
// with a message that says what is wrong and what is allowed (ReplayError). It never
// touches an env: the session checks a parsed record by replaying it.
//
// JSON file:  { "format": "valley-farm-replay", "version": 1, "env": <an env id>,
//               "seed": 42, "actions": [0, 4, 11], "return": 0.5 }
//   format, version and return are optional on import; actions may also be names ("plant").
//   A seed above 2^53 − 1 is written as a decimal string ("18446744073709551615").
//
// Share link: #replay=1.V.42.04b — four parts joined by dots: the link version (1), the env
//   code (its adapter's letter: V valley, B backwards), the seed in decimal, and one
//   character per action: its id in base 36 (0–9, then a = 10, b = 11). URL-safe as is.
import { envIds, envSpecs } from 'valley-farm';
import { farms } from './model/farms/index.js';

export const REPLAY_FORMAT = 'valley-farm-replay';
export const REPLAY_VERSION = 1;
export const LINK_VERSION = '1';
/** Share-link letter -> env id, from the farm adapters (V, B). */
export const ENV_CODES = Object.fromEntries(farms.map((f) => [f.code, f.id]));
export const MAX_SEED = (1n << 64n) - 1n;

export class ReplayError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ReplayError';
  }
}

const SEED_RULE = `a whole number from 0 to ${MAX_SEED}`;

function show(value) {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return String(value);
}

/**
 * A seed from a number, a BigInt or a decimal string: a Number when it is at most
 * 2^53 − 1, else a BigInt. Throws ReplayError naming `what` for anything else.
 */
export function parseSeed(value, what = 'seed') {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === 'bigint' && value >= 0n && value <= MAX_SEED) return normalSeed(value);
  if (typeof value === 'string' && /^\d{1,20}$/.test(value)) {
    const big = BigInt(value);
    if (big <= MAX_SEED) return normalSeed(big);
  }
  throw new ReplayError(`The ${what} is ${show(value)}; a seed must be ${SEED_RULE}.`);
}

const normalSeed = (big) => (big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big);

/** The seed as JSON can hold it exactly: a number, or a decimal string above 2^53 − 1. */
export const seedForJson = (seed) => (typeof seed === 'bigint' ? String(seed) : seed);

function specOf(env, specs, ids, where) {
  if (typeof env === 'string' && Object.hasOwn(specs, env)) return specs[env];
  const allowed = ids.join(', ');
  if (env === undefined) throw new ReplayError(`${where} has no "env"; it must name the farm: ${allowed}.`);
  throw new ReplayError(`${where}: env ${show(env)} is not a farm of this page; allowed: ${allowed}.`);
}

function checkLength(actions, spec, where) {
  if (actions.length > spec.horizon) {
    throw new ReplayError(`${where} has ${actions.length} actions, but a ${spec.id} episode ends after ${spec.horizon}.`);
  }
}

/**
 * Checks a plain object (a parsed JSON replay) and returns { env, seed, actions } with
 * actions as integer ids. Throws ReplayError for the first problem found.
 */
export function validateReplay(data, specs = envSpecs, ids = envIds) {
  const where = 'The replay';
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new ReplayError(
      `${where} must be a JSON object like {"env": "${envIds[0]}", "seed": 42, "actions": [0, 4, 11]}; got ${show(data)}.`,
    );
  }
  if (data.format !== undefined && data.format !== REPLAY_FORMAT) {
    throw new ReplayError(`${where}'s "format" is ${show(data.format)}; a replay file says "${REPLAY_FORMAT}" (or leaves it out).`);
  }
  if (data.version !== undefined && data.version !== REPLAY_VERSION) {
    throw new ReplayError(`${where}'s "version" is ${show(data.version)}; this page reads version ${REPLAY_VERSION}.`);
  }
  const spec = specOf(data.env, specs, ids, where);
  if (data.seed === undefined) throw new ReplayError(`${where} has no "seed"; it must be ${SEED_RULE}.`);
  const seed = parseSeed(data.seed, `replay's "seed"`);
  if (!Array.isArray(data.actions)) {
    throw new ReplayError(`${where}'s "actions" is ${show(data.actions)}; it must be a list of action ids or names, e.g. [0, 4, 11].`);
  }
  checkLength(data.actions, spec, where);
  const n = spec.actions.length;
  const actions = data.actions.map((a, i) => {
    if (Number.isInteger(a) && a >= 0 && a < n) return a;
    if (typeof a === 'string' && spec.actions.includes(a)) return spec.actions.indexOf(a);
    throw new ReplayError(
      `${where}'s actions[${i}] is ${show(a)}; ${spec.id} actions are integers 0 … ${n - 1} or names (${spec.actions.join(', ')}).`,
    );
  });
  return { env: spec.id, seed, actions };
}

// A replay is at most a horizon of actions: its file is a few KB and its link under 100
// characters. Anything far larger is refused before it is read or parsed, so a 50 MB file
// or a link of a million actions costs the page nothing.
export const MAX_REPLAY_FILE_CHARS = 64 * 1024;
export const MAX_LINK_CHARS = 2048;

/** Parses the text of a replay file. */
export function parseReplayJson(text, specs = envSpecs, ids = envIds) {
  if (typeof text === 'string' && text.length > MAX_REPLAY_FILE_CHARS) {
    throw new ReplayError(
      `The replay file has ${text.length} characters; a replay file is at most ${MAX_REPLAY_FILE_CHARS} (a whole episode takes about 2,000).`,
    );
  }
  if (typeof text !== 'string' || text.trim() === '') throw new ReplayError('The replay file is empty.');
  let data;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new ReplayError(`The replay file is not valid JSON (${err.message}).`);
  }
  return validateReplay(data, specs, ids);
}

/** The JSON text of a record (pretty, one action per element). */
export function encodeReplayJson({ env, seed, actions, ret }) {
  const out = { format: REPLAY_FORMAT, version: REPLAY_VERSION, env, seed: seedForJson(seed), actions: [...actions] };
  if (typeof ret === 'number') out.return = Math.round(ret * 1e6) / 1e6;
  const names = envSpecs[env]?.actions;
  if (names) out.actionNames = actions.map((a) => names[a]);
  return JSON.stringify(out, null, 1).replace(/\[\n([^\]]*)\]/g, (_, body) => `[${body.replace(/\n\s*/g, ' ').trim()}]`);
}

/** The data part of a share link (what follows "#replay="). */
export function encodeShareData({ env, seed, actions }) {
  const code = Object.keys(ENV_CODES).find((c) => ENV_CODES[c] === env);
  if (!code) throw new ReplayError(`No share-link code for env ${show(env)}.`);
  return `${LINK_VERSION}.${code}.${String(seed)}.${actions.map((a) => a.toString(36)).join('')}`;
}

/** Decodes the data part of a share link into { env, seed, actions }. */
export function decodeShareData(raw, specs = envSpecs) {
  let data = raw ?? '';
  if (typeof data !== 'string') throw new ReplayError('The share link is not text.');
  if (data.length > MAX_LINK_CHARS) {
    throw new ReplayError(
      `The share link's replay has ${data.length} characters; a share link is at most ${MAX_LINK_CHARS} (a whole episode takes under 100).`,
    );
  }
  try {
    data = decodeURIComponent(data);
  } catch {
    throw new ReplayError('The share link is garbled (bad %-escapes); copy the whole link again.');
  }
  data = data.trim();
  const example = 'it should look like #replay=1.V.42.04b (version . env . seed . actions)';
  if (data === '') throw new ReplayError(`The share link has no replay after "#replay="; ${example}.`);
  const parts = data.split('.');
  if (parts.length !== 4) throw new ReplayError(`The share link's replay ${show(data)} has ${parts.length} part(s), not 4; ${example}.`);
  const [version, code, seedText, actionText] = parts;
  if (version !== LINK_VERSION)
    throw new ReplayError(`The share link is version ${show(version)}; this page reads version ${LINK_VERSION} links.`);
  const env = ENV_CODES[code];
  if (!env || !specs[env]) {
    const allowed = Object.entries(ENV_CODES)
      .map(([c, id]) => `${c} (${id})`)
      .join(', ');
    throw new ReplayError(`The share link's env code ${show(code)} is unknown; allowed: ${allowed}.`);
  }
  const spec = specs[env];
  const seed = parseSeed(seedText, "share link's seed");
  const n = spec.actions.length;
  const alphabet = Array.from({ length: n }, (_, i) => i.toString(36));
  const actions = [...actionText].map((ch, i) => {
    const a = alphabet.indexOf(ch);
    if (a < 0) {
      throw new ReplayError(
        `Action ${i + 1} of the share link is ${show(ch)}; ${env} actions are written ${alphabet[0]}–9, ${alphabet.slice(10).join(', ')} (one character each).`,
      );
    }
    return a;
  });
  checkLength(actions, spec, 'The share link');
  return { env, seed, actions };
}

/** A full share URL for a record, given the page's URL (any fragment is replaced). */
export function shareUrl(record, pageUrl) {
  return `${String(pageUrl).split('#')[0]}#replay=${encodeShareData(record)}`;
}
