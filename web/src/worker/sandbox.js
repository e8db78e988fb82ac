// sandbox.js — what runs inside the agent worker, apart from the worker plumbing so that it
// can be tested in Node. The visitor's code defines act(observation, info) and optionally
// reset(); this compiles it once and answers three messages:
//   { type: 'load', code }            -> { type: 'loaded' }         | { type: 'error', phase: 'load', message }
//   { type: 'reset', id }             -> { type: 'done', id }       | { type: 'error', phase: 'reset', id, message }
//   { type: 'act', id, observation, info } -> { type: 'action', id, action } | { type: 'error', phase: 'act', id, message }
// The page checks the action and enforces the time limit (it terminates the worker).
import { cut } from '../model/cut.js';

export function createSandbox() {
  let agent = null;

  function compile(code) {
    if (typeof code !== 'string' || code.trim() === '')
      throw new Error('The editor is empty: write a function act(observation, info) that returns an action.');
    // eslint-disable-next-line no-new-func
    const factory = new Function(
      `"use strict";\n${code}\n;return { act: typeof act === 'function' ? act : null, reset: typeof reset === 'function' ? reset : null };`,
    );
    const made = factory();
    if (!made.act)
      throw new Error(
        'Your code must define a function act(observation, info) that returns an action (a number or a name such as "north").',
      );
    return made;
  }

  const failure = (phase, id, err) => ({ type: 'error', phase, id, message: errorText(err) });

  async function handle(msg) {
    if (msg?.type === 'load') {
      try {
        agent = compile(msg.code);
        return { type: 'loaded' };
      } catch (err) {
        agent = null;
        return failure('load', undefined, err);
      }
    }
    if (!agent) return failure(msg?.phase ?? msg?.type, msg?.id, new Error('No agent loaded'));
    if (msg.type === 'reset') {
      try {
        await agent.reset?.();
        return { type: 'done', id: msg.id };
      } catch (err) {
        return failure('reset', msg.id, err);
      }
    }
    if (msg.type === 'act') {
      try {
        const action = await agent.act(msg.observation, msg.info);
        return { type: 'action', id: msg.id, action: typeof action === 'number' || typeof action === 'string' ? action : String(action) };
      } catch (err) {
        return failure('act', msg.id, err);
      }
    }
    return failure('message', msg?.id, new Error(`Unknown message type ${JSON.stringify(msg?.type)}`));
  }

  return { handle };
}

/** "TypeError: x is undefined (line 3)" from any thrown value, cut (cut.js). */
export function errorText(err) {
  if (!(err instanceof Error)) {
    let text;
    try {
      text = JSON.stringify(err);
    } catch {
      text = String(typeof err);
    }
    return `threw ${cut(text)}`;
  }
  const line = /<anonymous>:(\d+):(\d+)/.exec(typeof err.stack === 'string' ? err.stack : '');
  // new Function adds two lines of its own before the code, plus our "use strict" line
  const where = line ? ` (line ${Number(line[1]) - 3})` : '';
  return `${cut(err.name, 100)}: ${cut(err.message)}${where}`;
}
