// learnerWorker.js — the Lab's Worker for a visitor's learner ("Your learner"): an object that
// speaks trainWorker.js's messages (trainer.js), so the Lab's model drives it as it drives a
// built-in learner's, while the visitor's code runs only in the code sandbox (an opaque origin,
// Workers under the relay: web/src/sandbox/learnerBox.js).
//
//  - start, pause, resume, stop go to the sandbox. A Pause that the learner does not obey
//    within ANSWER_MS (an endless loop) ends the sandbox, and with it every Worker of the run;
//    the page is told, and keeps the curve. A Stop not obeyed within ANSWER_MS is the Lab's to
//    end (labModel.js: it ends this object, and the sandbox with it).
//  - A run that says nothing for SILENT_MS while it trains (its Trainer reports about every
//    250 ms) has stopped answering: a Worker of the run out of memory (plain arrays and objects,
//    which no guard counts, past what the browser lets a Worker hold: Chromium then ends that
//    Worker without a word), or a step that never returns. The sandbox is ended, with every
//    Worker of the run, and the page is told; the curve stays.
//  - A checkpoint the sandbox hands back (in parts, after the policy's) is kept as text of at
//    most MAX_CHECKPOINT_CHARS, never read here: only a sandbox running the same code is
//    handed it again, to resume the run (start's `checkpoint`), and the visitor's learner checks it.
//  - A policy the sandbox hands back (in parts: learnerBox.js) is text of at most
//    MAX_POLICY_CHARS, JSON, and a policy of the template's learner (checkPolicyJSON with the
//    template's algo: the same network file the built-in learner writes) before the page keeps
//    it or builds anything from it. From then on it is the template's policy (its algo the
//    template's, not the visitor's name): the Lab keeps, downloads and plays it as a built-in
//    learner's, and Evaluate runs it in the site's own Lab Worker (trainWorker.js).
import { checkPolicyJSON } from 'valley-farm/learn';
import { createSandboxedWorker, learnerRunnerScript } from '../model/sandboxedWorker.js';
import { cut } from '../model/cut.js';
import { MAX_CHECKPOINT_CHARS, MAX_POLICY_CHARS } from './runRecord.js';

/** How long the sandbox has to say it paused (or, labModel.js, stopped) before it is ended. */
export const ANSWER_MS = 1_000;
/** How long a training run may say nothing before the Lab takes it as gone and ends its sandbox. */
export const SILENT_MS = 30_000;

/**
 * The checked policy text of a visitor's learner as the template's learner reads it: throws a
 * clear error unless `text` is such a policy.
 */
export function checkVisitorPolicy(text, template) {
  if (typeof text !== 'string' || text.length > MAX_POLICY_CHARS)
    throw new Error(`your learner's policy is too big: at most ${MAX_POLICY_CHARS} characters of JSON`);
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error("your learner's policy is not JSON");
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw new Error("your learner's policy is not a JSON object");
  const asTemplate = { ...json, algo: template };
  try {
    checkPolicyJSON(asTemplate);
  } catch (err) {
    throw new Error(`your learner's policy is not a ${template} policy file: ${cut(err.message)}`);
  }
  return { text, asTemplate: JSON.stringify(asTemplate) };
}

/**
 * A Worker-like object ({ postMessage, onmessage, onerror, terminate }) for a run of the
 * visitor's learner: `code` its module's text, `template` the built-in learner whose policy
 * files it writes ('reinforce', 'ppo', 'dqn'), `coreUrl` learner.wasm's URL.
 * makeSandbox / makeTrusted: the sandboxed Worker and the site's Lab Worker (tests give fakes).
 */
export function createLearnerWorker({
  code,
  template,
  coreUrl,
  makeSandbox = () => createSandboxedWorker({ engine: true }),
  makeTrusted = () => new Worker(new URL('./trainWorker.js', import.meta.url), { type: 'module' }),
  runnerScript = learnerRunnerScript,
  answerMs = ANSWER_MS,
  silentMs = SILENT_MS,
}) {
  let box = null;
  let trusted = null;
  let loaded = null; // the policy text the trusted Worker holds
  let latest = null; // the last checked policy { text, asTemplate, steps }
  let parts = [];
  let chars = 0;
  let timer = null;
  let silence = null; // while the run trains: ends the sandbox after silentMs without a word from it
  let ended = false;
  const asks = []; // 'evaluate' | 'policy' asked of the sandbox's run, answered in order
  const worker = {
    onmessage: null,
    onerror: null,
    postMessage(msg) {
      if (ended) return;
      const type = msg?.type;
      if (type === 'start') return start(msg.settings, typeof msg.checkpoint === 'string' ? msg.checkpoint : null);
      if (type === 'stop') return box?.postMessage({ type: 'learner:stop' }); // the Lab ends a run that does not stop (labModel.js)
      if (type === 'pause') {
        box?.postMessage({ type: 'learner:pause' });
        clearTimeout(timer);
        timer = setTimeout(halt, answerMs);
        return;
      }
      if (type === 'resume') {
        if (box) listen();
        return box?.postMessage({ type: 'learner:resume' });
      }
      if (type === 'load') {
        try {
          latest = { ...checkVisitorPolicy(msg.policy, template), steps: null };
        } catch (err) {
          return tell({ type: 'error', message: err.message });
        }
        return;
      }
      if (type === 'evaluate' || type === 'policy') {
        if (box) {
          asks.push(type);
          return box.postMessage({ type: 'learner:policy' });
        }
        return answer(type);
      }
    },
    terminate() {
      ended = true;
      clearTimeout(timer);
      clearTimeout(silence);
      box?.terminate();
      trusted?.terminate();
      box = trusted = null;
    },
  };
  const tell = (data) => worker.onmessage?.({ data });

  async function start(settings, checkpoint) {
    box = makeSandbox();
    box.onerror = (e) => {
      quiet();
      tell({ type: 'error', message: cut(`your learner's sandbox failed: ${e.message ?? 'unknown error'}`) });
    };
    box.onmessage = ({ data }) => {
      if (silence !== null) listen(); // it said something: the silence starts again
      receive(data);
    };
    listen();
    let runner;
    try {
      runner = await runnerScript();
    } catch (err) {
      quiet();
      return tell({ type: 'error', message: cut(err.message) });
    }
    try {
      const r = await fetch(coreUrl);
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      const core = await r.arrayBuffer();
      box?.postMessage({ type: 'learner:start', core, code, settings, runner, checkpoint });
    } catch (err) {
      quiet();
      tell({ type: 'error', message: `could not load the learner core (learner.wasm): ${cut(err.message)}` });
    }
  }

  /** (Re)starts the wait for the run's next word; `quiet()` ends it (the run is not training). */
  function listen() {
    clearTimeout(silence);
    silence = setTimeout(gone, silentMs);
  }
  function quiet() {
    clearTimeout(silence);
    silence = null;
  }

  /** The run said nothing for silentMs while it trained: its sandbox ends, with every Worker of the run. */
  function gone() {
    silence = null;
    if (!box) return;
    box.terminate();
    box = null;
    clearTimeout(timer);
    tell({
      type: 'error',
      message: `your learner stopped answering for ${silentMs / 1000} s while it trained (a Worker of it out of memory: the arrays and objects it keeps past what the browser lets a Worker hold; or a step that never returns), so its Workers were ended; the curve stays`,
    });
  }

  /** The sandbox did not answer Pause in time: it ends, with every Worker of the run. */
  function halt() {
    if (!box) return;
    box.terminate();
    box = null;
    quiet();
    tell({
      type: 'error',
      message: `your learner did not pause within ${answerMs / 1000} s of Pause (an endless loop, or a step that never returns), so its Workers were ended; the curve stays`,
    });
  }

  /** The first `count.parts` parts that came, joined (used up), or null for no count; `what` names the text. */
  function take(count, what) {
    if (count === null || count === undefined) return null;
    const n = count?.parts;
    if (!Number.isInteger(n) || n < 1 || n > parts.length) throw new Error(`your learner's ${what} did not arrive whole`);
    return parts.splice(0, n).join('');
  }

  function policyOf(text, steps) {
    latest = { ...checkVisitorPolicy(text, template), steps };
    return latest;
  }

  function receive(data) {
    if (!data || typeof data !== 'object') return;
    if (data.type === 'learner:part') {
      chars += typeof data.text === 'string' ? data.text.length : 0;
      if (typeof data.text !== 'string' || chars > MAX_POLICY_CHARS + MAX_CHECKPOINT_CHARS) {
        parts = [];
        chars = Infinity; // refused until the next message that counts parts (kept, policy) resets it
        return;
      }
      return void parts.push(data.text);
    }
    try {
      if (data.type === 'kept') {
        const policy = take(data.policy, 'policy');
        const checkpoint = take(data.checkpoint, 'checkpoint');
        if (checkpoint !== null && checkpoint.length > MAX_CHECKPOINT_CHARS)
          throw new Error(`your learner's checkpoint is too big: at most ${MAX_CHECKPOINT_CHARS} characters`);
        const p = policy === null ? null : policyOf(policy, data.steps);
        return tell({ type: 'kept', steps: data.steps, policy: p ? p.asTemplate : null, checkpoint });
      }
      if (data.type === 'policy') {
        const asked = asks.shift() ?? 'policy';
        if (data.error) return tell(asked === 'policy' ? data : { type: 'evaluation', error: data.error });
        policyOf(take({ parts: data.parts }, 'policy'), data.steps);
        return answer(asked);
      }
    } catch (err) {
      return tell({ type: 'error', message: err.message });
    } finally {
      if (data.type === 'kept' || data.type === 'policy') {
        parts = []; // a message's parts all come before it
        chars = 0;
      }
    }
    if (['paused', 'stopped', 'done', 'error'].includes(data.type)) {
      clearTimeout(timer);
      quiet();
    }
    if (['started', 'progress', 'paused', 'stopped', 'done'].includes(data.type)) return tell({ type: data.type, progress: data.progress });
    if (data.type === 'error') return tell({ type: 'error', message: cut(String(data.message)) });
  }

  /** Evaluate or hand back the latest checked policy, in the site's own Lab Worker. */
  function answer(type) {
    if (!latest) {
      const error = 'there is no policy yet: your learner has not kept one';
      return tell(type === 'evaluate' ? { type: 'evaluation', error } : { type: 'policy', error });
    }
    if (type === 'policy') return tell({ type: 'policy', text: latest.asTemplate, steps: latest.steps });
    if (!trusted) {
      trusted = makeTrusted();
      trusted.onmessage = ({ data }) => data?.type === 'evaluation' && tell(data);
      trusted.onerror = (e) => tell({ type: 'evaluation', error: cut(`the evaluation failed: ${e.message ?? 'unknown error'}`) });
    }
    if (loaded !== latest.asTemplate) {
      trusted.postMessage({ type: 'load', policy: latest.asTemplate });
      loaded = latest.asTemplate;
    }
    trusted.postMessage({ type: 'evaluate' });
  }

  return worker;
}
