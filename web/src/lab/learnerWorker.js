// learnerWorker.js — the Lab's Worker for a visitor's learner ("Your learner"): an object that
// speaks trainWorker.js's messages (trainer.js), so the Lab's model drives it as it drives a
// built-in learner's, while the visitor's code runs only in the code sandbox (an opaque origin,
// Workers under the relay: web/src/sandbox/learnerBox.js).
//
//  - start, pause, resume, stop go to the sandbox. A Pause that the learner does not obey
//    within ANSWER_MS (an endless loop) ends the sandbox, and with it every Worker of the run;
//    the page is told, and keeps the curve. A Stop not obeyed within ANSWER_MS is the Lab's to
//    end (labModel.js: it ends this object, and the sandbox with it).
//  - A policy the sandbox hands back (in parts: learnerBox.js) is text of at most
//    MAX_POLICY_CHARS, JSON, and a policy of the template's learner (checkPolicyJSON with the
//    template's algo: the same network file the built-in learner writes) before the page keeps
//    it or builds anything from it. From then on it is the template's policy (its algo the
//    template's, not the visitor's name): the Lab keeps, downloads and plays it as a built-in
//    learner's, and Evaluate runs it in the site's own Lab Worker (trainWorker.js).
import { checkPolicyJSON } from 'valley-farm/learn';
import { createSandboxedWorker, learnerRunnerScript } from '../model/sandboxedWorker.js';
import { cut } from '../model/cut.js';
import { MAX_POLICY_CHARS } from './runRecord.js';

/** How long the sandbox has to say it paused (or, labModel.js, stopped) before it is ended. */
export const ANSWER_MS = 1_000;

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
}) {
  let box = null;
  let trusted = null;
  let loaded = null; // the policy text the trusted Worker holds
  let latest = null; // the last checked policy { text, asTemplate, steps }
  let parts = [];
  let chars = 0;
  let timer = null;
  let ended = false;
  const asks = []; // 'evaluate' | 'policy' asked of the sandbox's run, answered in order
  const worker = {
    onmessage: null,
    onerror: null,
    postMessage(msg) {
      if (ended) return;
      const type = msg?.type;
      if (type === 'start') return start(msg.settings);
      if (type === 'stop') return box?.postMessage({ type: 'learner:stop' }); // the Lab ends a run that does not stop (labModel.js)
      if (type === 'pause') {
        box?.postMessage({ type: 'learner:pause' });
        clearTimeout(timer);
        timer = setTimeout(halt, answerMs);
        return;
      }
      if (type === 'resume') return box?.postMessage({ type: 'learner:resume' });
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
      box?.terminate();
      trusted?.terminate();
      box = trusted = null;
    },
  };
  const tell = (data) => worker.onmessage?.({ data });

  async function start(settings) {
    box = makeSandbox();
    box.onerror = (e) => tell({ type: 'error', message: cut(`your learner's sandbox failed: ${e.message ?? 'unknown error'}`) });
    box.onmessage = ({ data }) => receive(data);
    let runner;
    try {
      runner = await runnerScript();
    } catch (err) {
      return tell({ type: 'error', message: cut(err.message) });
    }
    try {
      const r = await fetch(coreUrl);
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      const core = await r.arrayBuffer();
      box?.postMessage({ type: 'learner:start', core, code, settings, runner });
    } catch (err) {
      tell({ type: 'error', message: `could not load the learner core (learner.wasm): ${cut(err.message)}` });
    }
  }

  /** The sandbox did not answer Pause in time: it ends, with every Worker of the run. */
  function halt() {
    if (!box) return;
    box.terminate();
    box = null;
    tell({
      type: 'error',
      message: `your learner did not pause within ${answerMs / 1000} s of Pause (an endless loop, or a step that never returns), so its Workers were ended; the curve stays`,
    });
  }

  function policyOf(n, steps) {
    const text = parts.join('');
    parts = [];
    chars = 0;
    if (!Number.isInteger(n) || n < 1) throw new Error("your learner's policy did not arrive whole");
    latest = { ...checkVisitorPolicy(text, template), steps };
    return latest;
  }

  function receive(data) {
    if (!data || typeof data !== 'object') return;
    if (data.type === 'learner:part') {
      chars += typeof data.text === 'string' ? data.text.length : 0;
      if (typeof data.text !== 'string' || chars > MAX_POLICY_CHARS) {
        parts = [];
        chars = Infinity; // refused until the next whole policy's count resets it
        return;
      }
      return void parts.push(data.text);
    }
    try {
      if (data.type === 'kept') {
        const p = data.policy ? policyOf(data.policy.parts, data.steps) : null;
        return tell({ type: 'kept', steps: data.steps, policy: p ? p.asTemplate : null, checkpoint: null });
      }
      if (data.type === 'policy') {
        const asked = asks.shift() ?? 'policy';
        if (data.error) return tell(asked === 'policy' ? data : { type: 'evaluation', error: data.error });
        policyOf(data.parts, data.steps);
        return answer(asked);
      }
    } catch (err) {
      chars = 0;
      return tell({ type: 'error', message: err.message });
    }
    if (['paused', 'stopped', 'done', 'error'].includes(data.type)) clearTimeout(timer);
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
