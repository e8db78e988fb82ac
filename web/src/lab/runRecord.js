// runRecord.js — what the Lab keeps of a run in the browser's storage (runStore.js), so that a
// reload or a closed tab does not throw it away, and the check of what it reads back. Storage
// is the site's own, but a record is still read as data, like any file: every field is checked
// for type, size and range before the Lab shows or uses any of it; its policy is checked by
// loadPolicy and its checkpoint by the learner's restore, both in a Worker, before they run.
//
// A record (version 1):
//   { format: RECORD_FORMAT, version: 1, id, savedAt (ms since 1970),
//     state: 'running' | 'pausing' | 'paused' | 'stopping' | 'stopped' | 'done',
//     settings: the run's (env, algo, seed, steps and the learner's, as a share link has them),
//     steps: how far it had trained, curve: [[steps, meanReturn], …],
//     policy: the policy file's text or null, checkpoint: the learner's checkpoint as text or null,
//     code: for a run of the visitor's own learner, { template, text } (the source it ran),
//           else null (absent in records kept before runs kept their code) }
import { MAX_POLICY_FILE_BYTES } from '../model/policyFile.js';
import { labQuery, parseLabQuery } from './labQuery.js';
import { MAX_LEARNER_CHARS } from './learnerStore.js';
import { TEMPLATES } from './templateNames.js';

export const RECORD_FORMAT = 'valley-farm-lab-run';
/** The longest policy a record holds: the largest policy file the page loads. */
export const MAX_POLICY_CHARS = MAX_POLICY_FILE_BYTES;
/** The longest checkpoint: a network of limits.js's MAX_WEIGHTS with Adam's two moments, as JSON. */
export const MAX_CHECKPOINT_CHARS = 256e6;
/** The points of a curve a run keeps (the model thins its curve to these; the plot draws fewer). */
export const MAX_CURVE_POINTS = 10_000;
export const LIVE_STATES = Object.freeze(['running', 'pausing', 'paused', 'stopping']);
/** The states a kept run may have (an 'interrupted' one is kept as 'paused'). */
export const RECORD_STATES = Object.freeze([...LIVE_STATES, 'stopped', 'done']);
const ID = /^[\w-]{1,64}$/;

/**
 * A run's network has learnt something (its progress says so): cloning's planning is over, or
 * it has played steps. Before that, a policy is its first random weights: not kept, not offered.
 */
export const trained = (p) => Boolean(p && (p.steps > 0 || p.imitation?.phase === 'cloning' || p.imitation?.samples > 0));

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A record of the run the model shows (see the file comment). */
export function makeRecord({ id, state, settings, steps, curve, policy, checkpoint, code = null, savedAt }) {
  return {
    format: RECORD_FORMAT,
    version: 1,
    id,
    savedAt,
    state,
    settings,
    steps,
    curve: curve.map((p) => [p.steps, p.meanReturn]),
    policy,
    checkpoint,
    code: code && { template: code.template, text: code.text },
  };
}

/**
 * The record as the model uses it ({ id, savedAt, state, settings, steps, curve: [{ steps,
 * meanReturn }], policy, checkpoint, code }), or an Error saying what in it is wrong.
 */
export function readRecord(r) {
  const bad = (what) => new Error(`the kept run is damaged: ${what}`);
  if (!isObject(r) || r.format !== RECORD_FORMAT) return bad(`it is not a Lab run (its "format" must be "${RECORD_FORMAT}")`);
  if (r.version !== 1) return bad('its version must be 1');
  if (typeof r.id !== 'string' || !ID.test(r.id)) return bad('its id must be 1 to 64 letters, digits, _ or -');
  if (!Number.isFinite(r.savedAt)) return bad('savedAt must be a time');
  if (!RECORD_STATES.includes(r.state)) return bad(`its state must be one of ${RECORD_STATES.join(', ')}`);
  if (!isObject(r.settings) || !Object.values(r.settings).every((v) => typeof v === 'number' || typeof v === 'string'))
    return bad('its settings must be an object of numbers and names');
  // the settings as a share link would carry them: the same checks, the same values back
  const { settings, errors } = parseLabQuery(labQuery(r.settings));
  if (errors.length || labQuery(settings) !== labQuery(r.settings))
    return bad(`its settings: ${errors.join('; ') || 'not a run the Lab makes'}`);
  if (!Number.isSafeInteger(r.steps) || r.steps < 0) return bad('steps must be a whole number');
  if (!Array.isArray(r.curve) || r.curve.length > MAX_CURVE_POINTS)
    return bad(`its curve must be a list of at most ${MAX_CURVE_POINTS} points`);
  let last = 0;
  for (const p of r.curve) {
    if (!Array.isArray(p) || p.length !== 2 || !Number.isSafeInteger(p[0]) || p[0] < last || !Number.isFinite(p[1]))
      return bad('each point of its curve must be [steps, mean return], the steps growing');
    last = p[0];
  }
  for (const [key, max] of [
    ['policy', MAX_POLICY_CHARS],
    ['checkpoint', MAX_CHECKPOINT_CHARS],
  ])
    if (r[key] !== null && (typeof r[key] !== 'string' || r[key].length > max))
      return bad(`its ${key} must be text of at most ${max} characters, or null`);
  const code = r.code ?? null;
  // the source of the visitor's learner that made the run: shown, and run only in the sandbox when the visitor resumes the run
  if (
    code !== null &&
    (!isObject(code) ||
      !TEMPLATES.includes(code.template) ||
      code.template !== settings.algo ||
      typeof code.text !== 'string' ||
      code.text.length > MAX_LEARNER_CHARS)
  )
    return bad(
      `its code must be null or { template: its learner, one of ${TEMPLATES.join(', ')}, text: at most ${MAX_LEARNER_CHARS.toLocaleString('en')} characters }`,
    );
  return {
    id: r.id,
    savedAt: r.savedAt,
    state: r.state,
    settings,
    steps: r.steps,
    curve: r.curve.map(([steps, meanReturn]) => ({ steps, meanReturn })),
    policy: r.policy,
    checkpoint: r.checkpoint,
    code: code && { template: code.template, text: code.text },
  };
}
