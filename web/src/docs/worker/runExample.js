// runExample.js — what the docs worker does, apart from the worker plumbing so that it can be
// tested in Node: runs an API example (code that may `import … from 'valley-farm'` and use
// top-level await) with console output captured, or plays a reader's agent for N episodes
// with the page's agent sandbox (web/src/worker/sandbox.js) and reports each return.
import * as api from 'valley-farm';
import { createSandbox } from '../../worker/sandbox.js';

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;
const IMPORT_LINE = /^\s*import\s*\{[^}]*\}\s*from\s*['"]valley-farm['"];?\s*$/gm;

/** A value as the output box shows it: JSON-like, typed arrays as lists, errors by message. */
export function show(value, depth = 0) {
  if (typeof value === 'string') return depth ? JSON.stringify(value) : value;
  if (typeof value === 'bigint') return `${value}n`;
  if (value === undefined || value === null || typeof value !== 'object') return String(value);
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (depth > 4) return '…';
  if (ArrayBuffer.isView(value)) {
    const items = Array.from(value.slice(0, 60), (v) => show(v, depth + 1));
    return `${value.constructor.name}(${value.length}) [${items.join(', ')}${value.length > 60 ? ', …' : ''}]`;
  }
  if (Array.isArray(value)) {
    const inner = value.map((v) => show(v, depth + 1));
    const flat = `[${inner.join(', ')}]`;
    const simple = value.every((v) => v === null || typeof v !== 'object');
    return simple || flat.length <= 100 || depth > 0 ? flat : `[\n  ${inner.join(',\n  ')}\n]`;
  }
  const entries = Object.entries(value).map(([k, v]) => `${k}: ${show(v, depth + 1)}`);
  const flat = `{ ${entries.join(', ')} }`;
  return flat.length <= 100 || depth > 0 ? flat : `{\n  ${entries.join(',\n  ')}\n}`;
}

/** The line of the example an error came from, when the stack says. */
function errorLine(err) {
  const m = /<anonymous>:(\d+):\d+/.exec(err?.stack ?? '');
  return m ? ` (line ${Number(m[1]) - 2})` : ''; // AsyncFunction adds 2 lines of its own
}

/**
 * Runs an example; `post` receives { type: 'log', text } for each console line. Resolves to
 * { type: 'done' } or { type: 'error', message }.
 */
export async function runExample(code, post) {
  const log = (...args) => post({ type: 'log', text: args.map((a) => show(a)).join(' ') });
  const fakeConsole = { log, info: log, warn: log, error: log, table: log };
  try {
    const body = String(code).replace(IMPORT_LINE, (line) => `/* ${line.trim()} */`);
    const fn = new AsyncFunction(...Object.keys(api), 'console', body);
    await fn(...Object.values(api), fakeConsole);
    return { type: 'done' };
  } catch (err) {
    return { type: 'error', message: `${err?.name ?? 'Error'}: ${err?.message ?? String(err)}${errorLine(err)}` };
  }
}

/**
 * Plays the agent defined by `code` (act(observation, info), optional reset()) for `episodes`
 * episodes on seeds firstSeed, firstSeed + 1, …; posts { type: 'episode', index, seed, ret }
 * after each. Resolves to { type: 'done', returns } or { type: 'error', message }.
 */
export async function runAgent({ code, envId, episodes = 20, firstSeed = 1 }, post) {
  const sandbox = createSandbox();
  const loaded = await sandbox.handle({ type: 'load', code });
  if (loaded.type === 'error') return { type: 'error', message: loaded.message };
  const env = await api.make(envId);
  const names = env.actionSpace.names;
  const returns = [];
  try {
    for (let k = 0; k < episodes; k++) {
      const seed = firstSeed + k;
      let { observation, info } = env.reset({ seed });
      const r0 = await sandbox.handle({ type: 'reset', id: 0 });
      if (r0.type === 'error') return { type: 'error', message: `reset(): ${r0.message}` };
      let ret = 0;
      for (;;) {
        const reply = await sandbox.handle({ type: 'act', id: 0, observation, info });
        if (reply.type === 'error') return { type: 'error', message: `act(): ${reply.message}` };
        const action = typeof reply.action === 'string' ? names.indexOf(reply.action) : reply.action;
        if (!Number.isInteger(action) || action < 0 || action >= names.length) {
          return {
            type: 'error',
            message: `act() returned ${JSON.stringify(reply.action)}; return an integer 0 … ${names.length - 1} or a name (${names.join(', ')})`,
          };
        }
        const r = env.step(action);
        ret += r.reward;
        if (r.terminated || r.truncated) break;
        observation = r.observation;
        info = r.info;
      }
      returns.push(ret);
      post({ type: 'episode', index: k, seed, ret });
    }
    return { type: 'done', returns };
  } finally {
    env.close();
  }
}
