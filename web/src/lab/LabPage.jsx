// LabPage.jsx — the Lab (#/lab): train a learner in a Web Worker, watch its learning curve
// against the reference returns, evaluate it on the test split, download it, load one, and
// play it on the game page.
import { useEffect, useState } from 'preact/hooks';
import baselines from '../../../wasm/data/baselines.json';
import { loadPolicy, settingsText } from '../learn.js';
import { useModel } from '../components/useModel.js';
import { envIds, envMeta } from '../model/envMeta.js';
import { referenceRun } from '../model/referenceRuns.js';
import { formatReturn } from '../model/session.js';
import { policyAgent, readPolicyFile } from '../model/policyAgent.js';
import { cut, errorMessage } from '../model/cut.js';
import { evenly } from '../model/evenly.js';
import { ALGOS, labQuery, learnerOverrides, learnerSettings, sharedLab } from './labModel.js';

const W = 560;
const H = 220;
const PAD = { l: 40, r: 10, t: 10, b: 22 };
// A run reports a point at each slice of its training (trainWorker.js: thousands in a long
// run), and the page draws the curve again at each: at most LINE_POINTS of them as the line
// (about one a unit of the plot's width W) and DOTS as dots, evenly spaced, the first and
// last always among them.
export const LINE_POINTS = 500;
export const DOTS = 100;

/**
 * Mean return against env steps, with the reference agents' test means as dashed lines and,
 * when there is one, the committed reference run of the same learner (its validation return,
 * as far as this run's steps go).
 */
export function LearningCurve({ curve, references, total, run = null }) {
  const shown = run ? run.curve.filter((p) => p.steps <= total) : [];
  const top = Math.max(1, ...curve.map((p) => p.meanReturn), ...references.map((r) => r.value), ...shown.map((p) => p.validation)) * 1.05;
  const x = (s) => PAD.l + ((W - PAD.l - PAD.r) * s) / Math.max(total, 1);
  const y = (v) => H - PAD.b - ((H - PAD.t - PAD.b) * v) / top;
  const last = curve.at(-1);
  const label = last
    ? `Mean return of the last 100 training episodes: ${formatReturn(last.meanReturn)} after ${last.steps.toLocaleString('en')} steps`
    : 'No episode finished yet';
  return (
    <figure class="plot lab-curve">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label}>
        <path class="axis" d={`M${PAD.l} ${PAD.t}V${H - PAD.b}H${W - PAD.r}`} />
        <text class="tick" x={PAD.l - 4} y={PAD.t + 4} text-anchor="end">
          {formatReturn(top)}
        </text>
        <text class="tick" x={PAD.l - 4} y={H - PAD.b} text-anchor="end">
          0
        </text>
        <text class="tick" x={W - PAD.r} y={H - 6} text-anchor="end">
          {total.toLocaleString('en')} env steps
        </text>
        {references.map((r) => (
          <g class={`guide guide-${r.name.replace(/\W+/g, '-')}`}>
            <path d={`M${PAD.l} ${y(r.value)}H${W - PAD.r}`} />
            <text x={PAD.l + 3} y={y(r.value) - 2}>
              {r.name} {formatReturn(r.value)}
            </text>
          </g>
        ))}
        {shown.length > 0 && (
          <g class="reference-run" data-points={shown.length}>
            <polyline points={shown.map((p) => `${x(p.steps)},${y(p.validation)}`).join(' ')} />
            {shown.map((p) => (
              <circle cx={x(p.steps)} cy={y(p.validation)} r="2">
                <title>{`reference run, ${p.steps.toLocaleString('en')} steps: validation return ${formatReturn(p.validation)}`}</title>
              </circle>
            ))}
          </g>
        )}
        {curve.length > 1 && (
          <polyline
            class="mean"
            data-points={curve.length}
            points={evenly(curve, LINE_POINTS)
              .map((p) => `${x(p.steps)},${y(p.meanReturn)}`)
              .join(' ')}
          />
        )}
        {evenly(curve, DOTS).map((p) => (
          <circle class="dot" cx={x(p.steps)} cy={y(p.meanReturn)} r="2">
            <title>{`${p.steps.toLocaleString('en')} steps: ${formatReturn(p.meanReturn)}`}</title>
          </circle>
        ))}
      </svg>
      <figcaption>
        {label}
        {shown.length > 0 && (
          <>
            . Grey: the reference run's validation return (<code>{run.command}</code>, {run.steps.toLocaleString('en')} steps
            {shown.length < run.curve.length ? `, shown up to ${total.toLocaleString('en')}` : ''}).
          </>
        )}
      </figcaption>
    </figure>
  );
}

function download(json) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(json)], { type: 'application/json' }));
  const a = Object.assign(document.createElement('a'), { href: url, download: `${json.algo}-${json.env}.json` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** What trains: the learner core and its workers, or TensorFlow.js's backend. */
function engineText(p) {
  if (p.backend === 'core') return ` (learner core, ${p.workers} worker${p.workers === 1 ? '' : 's'})`;
  return p.backend ? ` (TensorFlow.js ${p.backend} backend)` : '';
}

export function LabPage({ app, query = '' }) {
  // the page's one Lab: leaving it (docs, a farm) leaves the run training in its Worker
  const lab = sharedLab();
  useModel(lab);
  const [linkNote, setLinkNote] = useState(null);
  useEffect(() => setLinkNote(lab.adopt(query)), [query]);
  const [note, setNote] = useState(null);
  const s = lab.settings;
  // the address carries the settings (a reload or a copied link gets them back)
  useEffect(() => {
    const want = `#/lab?${labQuery(s)}`;
    if (location.hash.startsWith('#/lab') && location.hash !== want) history.replaceState(history.state, '', want);
  });
  const references = baselines.table[s.env].map((r) => ({
    name: r.agent.split(' ')[0] === 'best' ? 'best known' : r.agent,
    value: r.mean,
  }));
  const running = lab.state === 'running';
  const p = lab.progress;
  const target = (p && lab.run?.steps) || s.steps; // the run's own length, once there is a run
  const overrides = settingsText(learnerOverrides(s));

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
    <main class="lab" data-state={lab.state}>
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
            <select disabled={running} value={s.algo} onChange={(e) => lab.set('algo', e.currentTarget.value)}>
              {ALGOS.map((a) => (
                <option value={a}>{a}</option>
              ))}
            </select>
          </label>
          <label>
            Env steps{' '}
            <input
              type="number"
              min="4096"
              step="4096"
              disabled={running}
              value={s.steps}
              onChange={(e) => lab.set('steps', Math.max(4096, Math.floor(Number(e.currentTarget.value) || 4096)))}
            />
          </label>
          <label>
            Seed{' '}
            <input
              type="number"
              min="0"
              disabled={running}
              value={s.seed}
              onChange={(e) => lab.set('seed', Math.max(0, Math.floor(Number(e.currentTarget.value) || 0)))}
            />
          </label>
        </div>
        <details class="lab-learner">
          <summary>Learner settings{overrides ? `: ${overrides}` : ' (the defaults)'}</summary>
          <div class="lab-settings">
            {learnerSettings(s.algo, s.steps).map((x) => (
              <label>
                <span class="lab-setting-name">{x.name}</span>{' '}
                <input
                  type="number"
                  step="any"
                  min="0"
                  disabled={running}
                  placeholder={String(x.default)}
                  value={s[x.name] ?? ''}
                  onChange={(e) => lab.set(x.name, e.currentTarget.value === '' ? null : Number(e.currentTarget.value))}
                />{' '}
                <small>{x.doc}</small>
              </label>
            ))}
          </div>
        </details>
        <div class="lab-buttons">
          <button type="button" class="primary" onClick={() => lab.start()} disabled={running}>
            Start
          </button>
          <button
            type="button"
            onClick={() => (lab.state === 'paused' ? lab.resume() : lab.pause())}
            disabled={!['running', 'paused'].includes(lab.state)}
          >
            {lab.state === 'paused' ? 'Resume' : 'Pause'}
          </button>
          <button type="button" onClick={() => lab.stop()} disabled={!['running', 'paused'].includes(lab.state)}>
            Stop
          </button>
          <a class="lab-share" href={`#/lab?${labQuery(s)}`}>
            Share link to these settings
          </a>
        </div>
        <p class="lab-status" data-testid="lab-status" aria-live="polite">
          {lab.error
            ? lab.error
            : linkNote && !p
              ? linkNote
              : p
                ? p.imitation?.phase
                  ? `${lab.state}: cloning the planner's play before the first step of its own: ${p.imitation.phase === 'planning' ? 'planned' : 'trained on them'} ${p.imitation.done.toLocaleString('en')} / ${p.imitation.total.toLocaleString('en')} ${p.imitation.phase === 'planning' ? 'episodes' : 'times'} (${Math.round(p.imitation.seconds)} s)${p.workers ? `, ${p.workers} workers` : ''}`
                  : `${lab.state}: ${p.steps.toLocaleString('en')} / ${target.toLocaleString('en')} steps, ${Math.round(p.stepsPerSec).toLocaleString('en')} steps/s${engineText(p)}, ${p.episodes.toLocaleString('en')} episodes; ${Object.entries(
                      p.losses,
                    )
                      .map(([k, v]) => `${k} ${Number.isInteger(v) ? v.toLocaleString('en') : Number(v).toFixed(3)}`)
                      .join(', ')}`
                : lab.state === 'running'
                  ? s.imitate > 0
                    ? `starting: cloning ${s.imitate.toLocaleString('en')} of the planner's episodes before the first step of its own…`
                    : 'starting…'
                  : 'Choose a farm and a learner, then Start.'}
        </p>
      </section>
      <section class="panel" aria-labelledby="lab-curve">
        <h2 id="lab-curve">Learning curve</h2>
        <LearningCurve
          curve={lab.curve}
          references={references}
          total={target}
          run={referenceRun(s.env, s.algo, learnerOverrides(s), s.steps)}
        />
      </section>
      <section class="panel" aria-labelledby="lab-policy">
        <h2 id="lab-policy">The policy</h2>
        <div class="lab-buttons">
          <button type="button" disabled={!lab.hasPolicy} onClick={() => lab.evaluate('test').catch((err) => setNote(err.message))}>
            Evaluate on the test split
          </button>
          <button type="button" disabled={!lab.hasPolicy} onClick={() => lab.policyJson().then(download, (err) => setNote(err.message))}>
            Download
          </button>
          <button type="button" disabled={!lab.hasPolicy} onClick={() => use(lab.policyJson().then(loadPolicy), lab.policyTitle())}>
            Play it on the game page
          </button>
          <label class="button">
            Load a policy… <input type="file" accept=".json,application/json" onChange={upload} hidden />
          </label>
        </div>
        {lab.evaluation && (
          <p data-testid="lab-evaluation">
            Test split, {lab.evaluation.episodes} seeds: mean return {formatReturn(lab.evaluation.mean)} (95 % interval{' '}
            {formatReturn(lab.evaluation.ci95[0])} – {formatReturn(lab.evaluation.ci95[1])}), normalised score{' '}
            {lab.evaluation.normalized === null ? '–' : lab.evaluation.normalized.toFixed(3)}.
          </p>
        )}
        {note && (
          <p class="lab-note" role="status">
            {note}
          </p>
        )}
      </section>
    </main>
  );
}
