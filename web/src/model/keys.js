// keys.js — the keyboard, as a pure mapping from a keydown event to an intent:
//   arrows / WASD        move (north, south, east, west)
//   the verb's key       that verb (shown on its button: P plant, G gift, I insult, …)
//   Space                wait
//   N                    new episode (reset)
//   [ and ]              replay: step back / step forward
// Keys typed into a text field, and Space/Enter on a focused button, belong to that
// control; keys with Ctrl, Alt or Meta belong to the browser.
import { actionForKey } from './envMeta.js';

const TEXT_FIELDS = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

/** The intent of a keydown event, or null: { type: 'act', action } | { type: 'reset' } | { type: 'replay', delta }. */
export function keyIntent(envId, event) {
  if (!envId || event.ctrlKey || event.altKey || event.metaKey) return null;
  const target = event.target;
  if (target && (TEXT_FIELDS.has(target.tagName) || target.isContentEditable)) return null;
  const onButton = target && (target.tagName === 'BUTTON' || target.tagName === 'A' || target.getAttribute?.('role') === 'button');
  if (onButton && (event.key === ' ' || event.key === 'Enter')) return null;
  if (event.key === '[') return { type: 'replay', delta: -1 };
  if (event.key === ']') return { type: 'replay', delta: 1 };
  if (event.key === 'n' || event.key === 'N') return { type: 'reset' };
  const action = actionForKey(envId, event.key);
  return action >= 0 ? { type: 'act', action } : null;
}
