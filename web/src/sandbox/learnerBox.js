// learnerBox.js — a visitor's learner in the code sandbox (the Lab's "Your learner"): its module
// (source text) trains through the same learner API as the built-in learners, in the sandbox's
// Workers, never at the site's origin (entry.js says where each part runs).
//
//  - The coordinator is the sandbox's code Worker (under the relay). The page sends it
//      { type: 'learner:start', core, code, settings, checkpoint? }  learner.wasm's bytes, the
//                                                       module's text, the run's settings
//                                                       (trainer.js's), a kept run's checkpoint
//    (with `runner`, the learner runner's text, which entry.js loads before it calls this)
//    and then trainer.js's messages as 'learner:pause' | 'learner:resume' | 'learner:stop' |
//    'learner:policy'. It imports the module (its imports of 'valley-farm/learn' pointed at
//    the runner's own copy of the package), registers its `learner` and runs trainer.js's
//    Trainer on it. What the Trainer posts goes out as it is, but for a policy's and a
//    checkpoint's text, which go in parts of PART_CHARS (within the relay's message limits)
//    before the message that names their count: { type: 'learner:part', text } ... then
//    { type: 'kept', ..., policy: { parts: n }, checkpoint: { parts: m } } (the policy's first).
//  - The run's other threads are Workers the coordinator starts from the runner's text (named
//    THREAD_NAME, nested under it, so removing the sandbox's frame ends them too); each gets
//    the engine's and the core's bytes and the module's text, and answers threads.js's calls
//    (serveThread).
//
// Each Worker of the run is held to the learner budget (allocationGuard.js: the counting
// constructors put in its global scope before the visitor's module is imported, and the learner
// core's allocations asked of the same guard), so the visitor's text runs as it was written.
//
// An error thrown by the visitor's code names its line in their source: a runtime error's
// stack names the module's blob: URL with line and column; a syntax error, which a module's
// import reports without a place, is found again by parsing the text as a classic script in a
// Worker of its own, whose error event has the line (syntaxLine).
import * as learn from 'valley-farm/learn';
import { useEngineBytes } from 'valley-farm';
import { Trainer } from '../lab/trainer.js';
import { MAX_ERROR_CHARS, cut } from '../model/cut.js';
import { installGuard } from './allocationGuard.js';

export const THREAD_NAME = 'valley-farm learner thread';
/** A policy's text leaves the sandbox in parts of at most this many characters (the relay passes 64 Ki). */
export const PART_CHARS = 60_000;
const KIT = Symbol.for('valley-farm/learn');
const SYNTAX_CHECK_MS = 5_000;
// the Worker constructor as it was before the guard (installGuard) made the global one refuse:
// the run's threads and the syntax check are this file's Workers, not the visitor's
const OwnWorker = globalThis.Worker;

const blobUrl = (text) => URL.createObjectURL(new Blob([text], { type: 'text/javascript' }));

/**
 * The module's text with its imports of 'valley-farm/learn' (static and dynamic) pointed at
 * `kitUrl`; nothing else changes, so its lines stay where the visitor wrote them.
 */
export function pointImports(code, kitUrl) {
  return code.replace(/(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])valley-farm\/learn\2/g, (_, lead, q) => `${lead}${q}${kitUrl}${q}`);
}

/**
 * The line and column where `err` was thrown in the module at `url` (its stack's first frame
 * there), or null.
 */
export function placeIn(err, url) {
  const stack = typeof err?.stack === 'string' ? err.stack : '';
  const at = stack.indexOf(`${url}:`);
  if (at < 0) return null;
  const m = /^:(\d+):(\d+)/.exec(stack.slice(at + url.length));
  return m ? { line: Number(m[1]), column: Number(m[2]) } : null;
}

/**
 * The text of a module parsed as a classic script's function body, for finding a syntax
 * error's line: import declarations blanked (spaces, newlines kept), `export` dropped from
 * declarations, `export default` made an expression. Lines and columns stay the visitor's.
 */
export function asScriptBody(code) {
  const blank = (s) => s.replace(/[^\n]/g, ' ');
  return code
    .replace(/^([ \t]*)import\s*(?:[\w$*{}\s,]+from\s*)?(['"])[^'"\n]*\2\s*;?/gm, blank)
    .replace(/^([ \t]*)export\s*(?:\*|\{[^}]*\})\s*(?:from\s*(['"])[^'"\n]*\2)?\s*;?/gm, blank)
    .replace(/^([ \t]*)export\s+default\b/gm, (m, lead) => `${lead}void${' '.repeat(m.length - lead.length - 4)}`)
    .replace(/^([ \t]*)export\s+(?=(?:const|let|var|function|async|class)\b)/gm, (m, lead) => lead + ' '.repeat(m.length - lead.length))
    .replace(/\bimport\.meta\b/g, 'importxmeta');
}

/** The line of the first syntax error in the module's text (parsed in a Worker, never run), or null. */
function syntaxLine(code) {
  return new Promise((resolve) => {
    const url = blobUrl(`(async function () {${asScriptBody(code)}\n});\npostMessage(null);`);
    const w = new OwnWorker(url);
    const done = (line) => {
      clearTimeout(limit);
      w.terminate();
      URL.revokeObjectURL(url);
      resolve(line);
    };
    const limit = setTimeout(() => done(null), SYNTAX_CHECK_MS);
    w.onmessage = () => done(null);
    w.onerror = (e) => {
      e.preventDefault();
      done(Number.isInteger(e.lineno) && e.lineno > 0 ? { line: e.lineno, column: e.colno } : null);
    };
  });
}

/** An error's text for the page, with where in the visitor's learner it was thrown. */
function describeIn(url) {
  return (err) => {
    const text = String(err?.message ?? err);
    const place = placeIn(err, url);
    return cut(place && !/line \d+ of your learner/.test(text) ? `${text} (line ${place.line} of your learner)` : text, MAX_ERROR_CHARS);
  };
}

/**
 * Imports the visitor's module from its text: { learner, url } (url: the module's blob: URL).
 * First this Worker is held to the learner budget (allocationGuard.js), the learner core's
 * allocations included: from then on all its code, the visitor's and the package's, allocates
 * through the guard.
 */
async function importLearner(code) {
  globalThis[KIT] = learn;
  const guard = installGuard(globalThis, learn.MEMORY_BUDGET);
  learn.useMemoryCheck(guard.reserve);
  const names = Object.keys(learn).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n));
  const kitUrl = blobUrl(`const kit = globalThis[Symbol.for('valley-farm/learn')];\nexport const { ${names.join(', ')} } = kit;\n`);
  const url = blobUrl(pointImports(code, kitUrl));
  let mod;
  try {
    mod = await import(/* @vite-ignore */ url);
  } catch (err) {
    if (err?.name !== 'SyntaxError') throw new Error(describeIn(url)(err));
    const place = await syntaxLine(code);
    throw new SyntaxError(`${cut(String(err.message))}${place ? ` (line ${place.line} of your learner)` : ''}`);
  }
  if (!mod.learner || typeof mod.learner !== 'object')
    throw new Error('your learner module exports no learner: it needs `export const learner = { name, title, ... }`');
  return { learner: mod.learner, url };
}

/** The coordinator: the sandbox's code Worker. source(): the runner's text (for the threads); engineBytes(): the engine's. */
export function learnerCoordinator({ post, source, engineBytes }) {
  let trainer = null;
  let starting = null;
  /** Posts `text` in parts; returns their count ({ parts: n }), or null for no text. */
  const inParts = (text) => {
    if (typeof text !== 'string') return null;
    const n = Math.ceil(text.length / PART_CHARS);
    for (let i = 0; i < n; i++) post({ type: 'learner:part', text: text.slice(i * PART_CHARS, (i + 1) * PART_CHARS) });
    return { parts: n };
  };
  const send = (msg) => {
    // the policy's parts, then the checkpoint's, then the message that counts them
    if (msg?.type === 'kept')
      return post({ type: 'kept', steps: msg.steps, policy: inParts(msg.policy), checkpoint: inParts(msg.checkpoint) });
    if (msg?.type === 'policy' && typeof msg.text === 'string') return post({ type: 'policy', steps: msg.steps, ...inParts(msg.text) });
    post(msg);
  };

  async function start({ core, code, settings, checkpoint = null }) {
    learn.useCoreBytes(core);
    const { learner, url } = await importLearner(code);
    learn.useThreadStarter(async () => {
      const w = new OwnWorker(blobUrl(source()), { name: THREAD_NAME });
      w.postMessage({ type: 'learner:thread', engine: engineBytes().slice(0), core: core.slice(0), code });
      return {
        post: (msg, transfer) => w.postMessage(msg, transfer),
        listen: (onMessage, onError) => {
          w.onmessage = (e) => onMessage(e.data);
          w.onerror = (e) => {
            e.preventDefault();
            onError(new Error(cut(e.message || 'a thread of your learner failed')));
          };
        },
        stop: () => w.terminate(),
      };
    });
    learn.registerLearner(learner);
    trainer = new Trainer({ post: send, made: { package: 'valley-farm (the Lab: your learner)' }, describe: describeIn(url) });
    // a kept run goes on from its checkpoint, which the visitor's learner checks (its restore)
    await trainer.handle({
      type: 'start',
      settings: { ...settings, algo: learner.name },
      checkpoint: typeof checkpoint === 'string' ? checkpoint : null,
    });
  }

  return async function handle(data) {
    const type = String(data?.type ?? '').replace(/^learner:/, '');
    if (type === 'start') {
      if (starting) return post({ type: 'error', message: 'this sandbox runs one learner; the page starts another sandbox for the next' });
      starting = start(data).catch((err) => post({ type: 'error', message: cut(String(err?.message ?? err)) }));
      return starting;
    }
    await starting;
    if (!trainer)
      return post({
        type: type === 'policy' ? 'policy' : 'error',
        error: 'your learner did not start',
        message: 'your learner did not start',
      });
    return trainer.handle({ type });
  };
}

/** A thread of the visitor's run: a Worker named THREAD_NAME started by the coordinator. */
export function learnerThreadMain(scope) {
  const post = (msg) => scope.postMessage(msg);
  let answer = null;
  let ready = null;
  scope.onmessage = async ({ data }) => {
    if (data?.type === 'learner:thread' && !ready) {
      ready = (async () => {
        useEngineBytes(data.engine);
        learn.useCoreBytes(data.core);
        const { learner, url } = await importLearner(data.code);
        answer = learn.serveThread({ post, learnerOf: async () => learner, describe: describeIn(url) });
      })();
      return ready.catch(() => {}); // its failure is each call's answer below
    }
    try {
      await ready;
    } catch (err) {
      return post({ id: data?.id, error: cut(String(err?.message ?? err)) });
    }
    return answer(data);
  };
}
