// LabPage.jsx — the Lab (#/lab): train a learner in a Web Worker, watch its learning curve
// against the reference returns, evaluate it on the test split beside the heuristic, download
// it, load one, and play it on the game page; a run kept from an earlier visit is offered back.
// The state is the model's (labModel.js); this file renders it and sends the visitor's intents.
import { useEffect, useState } from 'preact/hooks';
import baselines from '../../../wasm/data/baselines.json';
import { loadPolicy, settingsText } from '../learn.js';
import { useModel } from '../components/useModel.js';
import { envIds, envMeta } from '../model/envMeta.js';
import { referenceRun } from '../model/referenceRuns.js';
import { formatReturn } from '../model/session.js';
import { policyAgent, readPolicyFile } from '../model/policyAgent.js';
import { cut, errorMessage } from '../model/cut.js';
import { NumberField } from './NumberField.jsx';
import { algos, labQuery, learnerOverrides, learnerSettings, sharedLab } from './labModel.js';
import { formatSigned, mb, memoryEstimate, statusText, verdict } from './labText.js';
import { LearningCurve } from './LearningCurve.jsx';
import { YourLearner, download, learnerFileName } from './YourLearner.jsx';
import { TEMPLATE_TITLES } from './templateNames.js';

export { DOTS, LINE_POINTS, LearningCurve } from './LearningCurve.jsx';

/** The memory a run of the settings will take (memoryEstimate's `m`), or why they cannot run (`code`: the visitor's learner, estimated as its template). */
function MemoryLine({ m, code }) {
  return (
    <p class="lab-memory" data-testid="lab-memory" data-bytes={m.bytes ?? ''} role={m.refused ? 'alert' : undefined}>
      {m.error
        ? `These settings cannot run: ${m.error}`
        : m.refused
          ? `Start is off: ${m.refused}${code ? `; your learner is estimated as the ${code.template} it started from` : ''}.`
          : `Memory: about ${mb(m.bytes)} for this run (an estimate, ${m.threads} thread${m.threads === 1 ? '' : 's'} included${
              code ? `; your learner is estimated as the ${code.template} it started from` : ''
            }).`}
    </p>
  );
}

/** Which policy an evaluation scored: where its run was. */
function when(e) {
  if (e.cloning && !e.steps) return "the policy as it cloned the planner's play (before any step of its own)";
  return `the policy after ${e.steps === null ? 'an unknown number of' : e.steps.toLocaleString('en')} steps`;
}

/** The last evaluation: the steps it was taken at, the heuristic on the same seeds, and whether training has moved on since. */
export function Evaluation({ lab }) {
  const e = lab.evaluation;
  const stale = lab.evaluationStale;
  const interval = ([a, b]) => `${formatReturn(a)} – ${formatReturn(b)}`;
  return (
    <div class="lab-evaluation" data-testid="lab-evaluation" data-stale={String(stale)}>
      <p>
        Test split, {e.episodes.toLocaleString('en')} seeds, {when(e)}: mean return {formatReturn(e.mean)} (95 % interval {interval(e.ci95)}
        ), normalised score {e.normalized === null ? '–' : e.normalized.toFixed(3)}.
      </p>
      {e.heuristic && e.paired && (
        <p data-testid="lab-evaluation-heuristic">
          The heuristic on the same seeds: {formatReturn(e.heuristic.mean)} ({interval(e.heuristic.ci95)}). Policy − heuristic, paired by
          seed: {formatSigned(e.paired.mean)} (95 % interval {formatSigned(e.paired.ci95[0])} to {formatSigned(e.paired.ci95[1])}):{' '}
          {verdict(e.paired.ci95)}.
        </p>
      )}
      {stale && (
        <p class="lab-stale">
          Stale: training has gone on since
          {lab.progress?.steps > (e.steps ?? 0) ? `, to ${lab.progress.steps.toLocaleString('en')} steps` : ''}. Evaluate again to score the
          policy as it is now.
        </p>
      )}
    </div>
  );
}

/** A run kept from an earlier visit that was going when its page closed: resume it, keep its policy, or let it go. */
export function KeptRun({ lab }) {
  const r = lab.run;
  return (
    <div class="lab-kept" data-testid="lab-kept" role="region" aria-label="A run kept from an earlier visit">
      <p>
        This run ({r.algo} on {envMeta[r.env]?.title ?? r.env}, seed {r.seed}) was still going when its page was closed, at{' '}
        {lab.kept.steps.toLocaleString('en')} of {r.steps.toLocaleString('en')} steps.{' '}
        {lab.resumable
          ? 'It can go on from where it was kept.'
          : `It cannot go on: its learner kept no checkpoint of it${lab.kept.policy ? ', but its policy is kept' : ''}.`}
      </p>
      <div class="lab-buttons">
        {lab.resumable && (
          <button type="button" class="primary" onClick={() => lab.resumeKept()}>
            Resume the run
          </button>
        )}
        {lab.kept.policy && (
          <button type="button" onClick={() => lab.keepPolicy()}>
            Keep its policy
          </button>
        )}
        <button type="button" onClick={() => lab.discard()}>
          Discard it
        </button>
      </div>
    </div>
  );
}

/** The source of the visitor's learner that made the run shown (kept with it: runRecord.js), to read or download. */
export function RunCode({ code }) {
  return (
    <details class="lab-run-code" data-testid="lab-run-code">
      <summary>This run was made by your learner from the {TEMPLATE_TITLES[code.template]} template: its code</summary>
      <div class="lab-buttons">
        <button type="button" onClick={() => download({ name: learnerFileName(code), text: code.text, type: 'text/javascript' })}>
          Download its .js
        </button>
      </div>
      <pre class="lab-code-text">{code.text}</pre>
    </details>
  );
}

export function LabPage({ app, query = '' }) {
  // the page's one Lab: leaving it (docs, a farm) leaves the run training in its Worker
  const lab = sharedLab();
  useModel(lab);
  const [linkNote, setLinkNote] = useState(null);
  const [codeNote, setCodeNote] = useState(null);
  useEffect(() => {
    setLinkNote(lab.adopt(query));
    setCodeNote(null);
    lab.adoptLearner(query).then(setCodeNote);
  }, [query]);
  const [note, setNote] = useState(null);
  const [confirming, setConfirming] = useState(false);
  const s = lab.settings;
  // the address carries the settings (a reload or a copied link gets them back)
  useEffect(() => {
    const want = `#/lab?${labQuery(s)}`;
    if (location.hash.startsWith('#/lab') && location.hash !== want) history.replaceState(history.state, '', want);
  });
  const shownRun = lab.run ?? s; // the curve's run: the one going or kept, else the settings'
  const references = baselines.table[shownRun.env].map((r) => ({
    // short names: the margin right of the plot holds them (the table's rows say more)
    name: r.agent.startsWith('best') ? 'best known' : r.agent.startsWith('view-limited') ? 'view-limited' : r.agent,
    value: r.mean,
  }));
  const running = lab.state === 'running';
  const live = lab.live;
  const overrides = settingsText(learnerOverrides(s));
  const memory = memoryEstimate(s);

  function start() {
    if (lab.startNeedsConfirm && !confirming) return setConfirming(true);
    setConfirming(false);
    lab.start({ replace: true });
  }

  /** Plays a policy on the game page, where `title` names it (in place of "Your code"). */
  async function use(policyPromise, title, label = 'trained policy') {
    try {
      const policy = await policyPromise;
      if (policy.env !== app.session.envId) await app.switchEnv(policy.env);
      app.runner.setCustomAgent(policyAgent(policy), label, title);
      location.hash = '#/';
    } catch (err) {
      setNote(`Could not use the policy: ${errorMessage(err)}`);
    }
  }

  /** The run's policy, parsed and checked off the page's thread (as a file is), then loaded. */
  const trainedPolicy = () =>
    lab
      .policyFile()
      .then(({ name, text }) => readPolicyFile(new File([text], name, { type: 'application/json' })))
      .then(loadPolicy);

  /** The run's policy as an ONNX model (valley-farm/onnx, loaded only now): a network policy, not a recurrent one. */
  async function downloadOnnx() {
    try {
      const [{ name, text }, { policyToOnnx }] = await Promise.all([lab.policyFile(), import('valley-farm/onnx')]);
      download({ name: name.replace(/\.json$/, '.onnx'), text: policyToOnnx(JSON.parse(text)), type: 'application/octet-stream' });
    } catch (err) {
      setNote(`Could not download the policy as ONNX: ${errorMessage(err)}`);
    }
  }

  async function upload(e) {
    const file = e.currentTarget.files?.[0];
    e.currentTarget.value = '';
    if (!file) return;
    try {
      const json = await readPolicyFile(file); // parsed and checked off the page's thread
      const policy = await loadPolicy(json, { checked: true });
      setNote(`Loaded ${file.name}: ${policy.algo} for ${policy.env}.`);
      const steps = Number.isSafeInteger(json.run?.steps) ? `, ${json.run.steps.toLocaleString('en')} steps` : '';
      await use(Promise.resolve(policy), `Policy ${file.name.slice(0, 60)} (${policy.algo}${steps})`, 'policy file');
    } catch (err) {
      setNote(`${cut(file.name, 100)} is not a policy this page can load: ${errorMessage(err)}`);
    }
  }

  return (
    <main class="lab" data-state={lab.state} data-kept-steps={lab.kept?.steps ?? ''} data-saved-steps={lab.savedSteps ?? ''}>
      <h1>Lab: train an agent in this tab</h1>
      <section class="panel" aria-labelledby="lab-settings">
        <h2 id="lab-settings">Settings</h2>
        <div class="lab-settings">
          <label>
            Farm{' '}
            <select disabled={running} value={s.env} onChange={(e) => lab.set('env', e.currentTarget.value)}>
              {envIds.map((id) => (
                <option value={id}>{envMeta[id].title}</option>
              ))}
            </select>
          </label>
          <label>
            Learner{' '}
            <select
              disabled={running || lab.code !== null}
              title={lab.code ? 'Your learner is open below: go back to the built-in learners to choose another' : undefined}
              value={s.algo}
              onChange={(e) => lab.set('algo', e.currentTarget.value)}
            >
              {algos().map((a) => (
                <option value={a}>{a}</option>
              ))}
            </select>
          </label>
          <label>
            Env steps{' '}
            <NumberField
              min="4096"
              step="4096"
              disabled={running}
              value={s.steps}
              onCommit={(text) => lab.set('steps', Math.max(4096, Math.floor(Number(text) || 4096)))}
            />
          </label>
          <label>
            Seed{' '}
            <NumberField
              min="0"
              disabled={running}
              value={s.seed}
              onCommit={(text) => lab.set('seed', Math.max(0, Math.floor(Number(text) || 0)))}
            />
          </label>
        </div>
        <details class="lab-learner">
          <summary>Learner settings{overrides ? `: ${overrides}` : ' (the defaults)'}</summary>
          <div class="lab-settings">
            {learnerSettings(s.algo, s.steps).map((x) => (
              <label>
                <span class="lab-setting-name">{x.name}</span>{' '}
                <NumberField
                  step="any"
                  min="0"
                  disabled={running}
                  placeholder={String(x.default)}
                  value={s[x.name] ?? ''}
                  onCommit={(text) => lab.set(x.name, text === '' ? null : Number(text))}
                />{' '}
                <small>{x.doc}</small>
              </label>
            ))}
          </div>
        </details>
        {codeNote && (
          <p class="lab-notice" data-testid="lab-code-note" role="status">
            {codeNote}
          </p>
        )}
        <YourLearner lab={lab} settingsQuery={labQuery(s)} />
        <MemoryLine m={memory} code={lab.code} />
        <div class="lab-buttons">
          <button type="button" class="primary" onClick={start} disabled={running || Boolean(memory.refused)}>
            Start
          </button>
          <button
            type="button"
            onClick={() => (lab.state === 'paused' || lab.state === 'pausing' ? lab.resume() : lab.pause())}
            disabled={!['running', 'pausing', 'paused'].includes(lab.state)}
          >
            {lab.state === 'paused' || lab.state === 'pausing' ? 'Resume' : 'Pause'}
          </button>
          <button type="button" onClick={() => lab.stop()} disabled={!live || lab.state === 'stopping'}>
            Stop
          </button>
          <a class="lab-share" href={`#/lab?${labQuery(s)}`}>
            Share link to these settings
          </a>
        </div>
        {confirming && lab.startNeedsConfirm && (
          <div class="lab-confirm" role="alert" data-testid="lab-confirm">
            <p>
              Start a new run? The {lab.state === 'interrupted' ? 'kept' : lab.state} run ends
              {lab.hasPolicy ? ', and its policy with it unless you download it first' : ''}.
            </p>
            <div class="lab-buttons">
              <button type="button" class="primary" onClick={start}>
                End it and start a new run
              </button>
              <button type="button" onClick={() => setConfirming(false)}>
                Keep the {lab.state === 'interrupted' ? 'kept' : lab.state} run
              </button>
            </div>
          </div>
        )}
        <p class="lab-status" data-testid="lab-status" aria-live="polite">
          {statusText(lab, linkNote)}
        </p>
        {lab.state === 'interrupted' && <KeptRun lab={lab} />}
        {lab.runCode && lab.runCode.text !== lab.code?.text && <RunCode code={lab.runCode} />}
        {lab.note && (
          <p class="lab-notice" data-testid="lab-run-note">
            {lab.note}
          </p>
        )}
        {lab.storeNote && (
          <p class="lab-notice" data-testid="lab-store-note">
            {lab.storeNote}
          </p>
        )}
      </section>
      <section class="panel" aria-labelledby="lab-curve">
        <h2 id="lab-curve">Learning curve</h2>
        <LearningCurve
          curve={lab.curve}
          references={references}
          total={shownRun.steps}
          run={referenceRun(shownRun.env, shownRun.algo, learnerOverrides(shownRun), shownRun.steps)}
        />
      </section>
      <section class="panel" aria-labelledby="lab-policy">
        <h2 id="lab-policy">The policy</h2>
        <div class="lab-buttons">
          <button
            type="button"
            disabled={!lab.hasPolicy || lab.evaluating}
            onClick={() => lab.evaluate().catch((err) => setNote(`Could not evaluate the policy: ${errorMessage(err)}`))}
          >
            {lab.evaluating ? 'Evaluating on the test split…' : 'Evaluate on the test split'}
          </button>
          <button
            type="button"
            disabled={!lab.hasPolicy}
            onClick={() => lab.policyFile().then(download, (err) => setNote(`Could not download the policy: ${errorMessage(err)}`))}
          >
            Download
          </button>
          <button
            type="button"
            disabled={!lab.hasPolicy || lab.run?.algo === 'tabular-q'}
            title="the network, from the engine's features to the logits and value, for onnxruntime and Python (docs: Policies as ONNX)"
            onClick={downloadOnnx}
          >
            Download as ONNX
          </button>
          <button type="button" disabled={!lab.hasPolicy} onClick={() => use(trainedPolicy(), lab.policyTitle())}>
            Play it on the game page
          </button>
          <label class="button">
            Load a policy… <input type="file" accept=".json,application/json,.onnx" onChange={upload} hidden />
          </label>
        </div>
        {lab.evaluation && <Evaluation lab={lab} />}
        {note && (
          <p class="lab-note" role="status">
            {note}
          </p>
        )}
      </section>
    </main>
  );
}
