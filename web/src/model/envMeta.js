// envMeta.js — the API's envSpecs beside the page's farm adapters (farms/), and what
// keys and action names mean in any farm. Keys are matched on KeyboardEvent.key
// (case-insensitive); moves also answer to the arrow keys.
import { envIds, envSpecs } from 'valley-farm';
import { farms } from './farms/index.js';

export { envIds, envSpecs };

export const MOVE_KEYS = {
  ArrowUp: 'north',
  w: 'north',
  ArrowDown: 'south',
  s: 'south',
  ArrowRight: 'east',
  d: 'east',
  ArrowLeft: 'west',
  a: 'west',
};

/** Per env id: its adapter (title, short, blurb, actions: { key, hint }, …). */
export const envMeta = Object.fromEntries(farms.map((f) => [f.id, f]));

/** The action id a keyboard key means in this env, or -1. */
export function actionForKey(envId, key) {
  const spec = envSpecs[envId];
  const meta = envMeta[envId];
  if (!spec || typeof key !== 'string') return -1;
  const move = MOVE_KEYS[key] ?? MOVE_KEYS[key.toLowerCase()];
  if (move) return spec.actions.indexOf(move);
  const wanted = key === ' ' || key === 'Spacebar' ? 'SPACE' : key.toUpperCase();
  return spec.actions.findIndex((name) => meta.actions[name].key.toUpperCase() === wanted);
}

/** The action id for a number or an action name ('plant'), or -1 when it is neither. */
export function actionId(envId, action) {
  const spec = envSpecs[envId];
  if (typeof action === 'string') return spec.actions.indexOf(action);
  if (Number.isInteger(action) && action >= 0 && action < spec.actions.length) return action;
  return -1;
}

/** "an integer 0 … 11 or a name (north, south, …)": for error messages. */
export function allowedActions(envId) {
  const names = envSpecs[envId].actions;
  return `an integer 0 … ${names.length - 1} or an action name (${names.join(', ')})`;
}

/** The move action ids by direction: [north, south, east, west] = [0, 1, 2, 3] in both farms. */
export const DIRS = [
  { dx: 0, dy: -1 },
  { dx: 0, dy: 1 },
  { dx: 1, dy: 0 },
  { dx: -1, dy: 0 },
];
