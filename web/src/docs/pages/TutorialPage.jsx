// TutorialPage.jsx — "Write your first agent": from a random agent to a heuristic. The reader
// edits act(), runs it for N episodes in a sandboxed Web Worker, and sees each return plotted, with the
// built-in heuristic's mean over the same seeds as a guide and earlier runs listed.
import { useState } from 'preact/hooks';
import { make } from 'valley-farm';
import { ReturnsPlot } from '../../components/ReturnsPlot.jsx';
import { createAgent } from 'valley-farm/agents';
import { meanReturn } from '../../model/evaluate.js';
import { runInWorker, AGENT_TIME_LIMIT_MS } from '../model/runner.js';
import { TUTORIAL_STEPS } from '../model/tutorial.js';
import { Section, Toc, DocLink, FarmLinks } from '../components/Section.jsx';
import { defaultFarm } from '../../model/farms/index.js';

export const TUTORIAL_SECTIONS = [
  ['contract', 'The agent contract'],
  ['editor', 'Edit and run'],
  ['next', 'Where next'],
];
const fmt = (x) => String(Math.round(x * 100) / 100);

/** The built-in heuristic's mean return on seeds 1 … n (computed once per farm and n). */
const heuristicCache = new Map();
async function heuristicMean(envId, n) {
  const key = `${envId}:${n}`;
  if (!heuristicCache.has(key)) {
    heuristicCache.set(
      key,
      make(envId).then((env) => {
        const { mean } = meanReturn(env, createAgent('heuristic', envId), { seeds: n, firstSeed: 1 });
        env.close();
        return mean;
      }),
    );
  }
  return heuristicCache.get(key);
}

function Editor() {
  const [envId, setEnvId] = useState(defaultFarm.id);
  const steps = TUTORIAL_STEPS[envId];
  const [stepIndex, setStepIndex] = useState(0);
  const [code, setCode] = useState(steps[0].code);
  const [episodes, setEpisodes] = useState(30);
  const [returns, setReturns] = useState([]);
  const [status, setStatus] = useState(null); // { kind: 'running' | 'done' | 'error', text }
  const [history, setHistory] = useState([]); // { env, label, n, mean }
  const [guide, setGuide] = useState(null);

  const chooseEnv = (id) => {
    setEnvId(id);
    setStepIndex(0);
    setCode(TUTORIAL_STEPS[id][0].code);
    setReturns([]);
    setStatus(null);
    setGuide(null);
  };
  const loadStep = (i) => {
    setStepIndex(i);
    setCode(steps[i].code);
  };

  async function run() {
    const n = Math.max(1, Math.min(200, Math.floor(Number(episodes)) || 1));
    const got = [];
    setReturns([]);
    setStatus({ kind: 'running', text: `running 0 / ${n} episodes…` });
    heuristicMean(envId, n).then((value) => setGuide({ n, value }));
    const result = await runInWorker(
      { type: 'agent', code, envId, episodes: n, firstSeed: 1 },
      {
        timeLimitMs: AGENT_TIME_LIMIT_MS,
        onMessage: (m) => {
          if (m.type !== 'episode') return;
          got.push({ ret: m.ret, seed: m.seed });
          setReturns([...got]);
          setStatus({ kind: 'running', text: `running ${got.length} / ${n} episodes…` });
        },
      },
    );
    if (result.type === 'error') {
      setStatus({ kind: 'error', text: result.message });
      return;
    }
    const mean = result.returns.reduce((a, b) => a + b, 0) / result.returns.length;
    setStatus({ kind: 'done', text: `${n} episodes (seeds 1 … ${n}), mean return ${fmt(mean)}` });
    setHistory((h) => [...h.slice(-9), { env: envId, label: `${steps[stepIndex]?.title ?? 'edited'}`, n, mean }]);
  }

  const guides = guide ? [{ name: 'heuristic', value: guide.value }] : [];
  return (
    <div class="docs-tutorial" data-env={envId}>
      <fieldset class="docs-env-choice">
        <legend>Farm</legend>
        {/* the farms the tutorial has steps for */}
        {Object.keys(TUTORIAL_STEPS).map((id) => (
          <label>
            <input type="radio" name="tutorial-env" value={id} checked={envId === id} onChange={() => chooseEnv(id)} /> {id}
          </label>
        ))}
      </fieldset>
      <ol class="docs-steps">
        {steps.map((s, i) => (
          <li class={i === stepIndex ? 'current' : undefined}>
            <strong>{s.title}</strong> <p>{s.text}</p>
            <button type="button" class="docs-btn" data-step={i} onClick={() => loadStep(i)}>
              Load step {i + 1} into the editor
            </button>
          </li>
        ))}
      </ol>
      <label for="tutorial-code" class="docs-code-label">
        Your agent (editable)
      </label>
      <textarea
        id="tutorial-code"
        class="docs-code-input"
        spellcheck={false}
        rows={Math.min(24, code.split('\n').length + 1)}
        value={code}
        onInput={(e) => setCode(e.currentTarget.value)}
      />
      <div class="docs-code-bar">
        <label>
          Episodes{' '}
          <input type="number" min="1" max="200" value={episodes} onInput={(e) => setEpisodes(e.currentTarget.value)} class="docs-num" />
        </label>
        <button type="button" class="docs-btn docs-run" onClick={run} disabled={status?.kind === 'running'}>
          Run episodes
        </button>
        {status && (
          <span class={`docs-code-status status-${status.kind}`} role="status">
            {status.text}
          </span>
        )}
      </div>
      <ReturnsPlot returns={returns} guides={guides} />
      {guide && (
        <p class="docs-hint">
          Dashed line: the game's built-in heuristic, mean {fmt(guide.value)} on the same {guide.n} seeds.
        </p>
      )}
      {history.length > 0 && (
        <table class="docs-table" data-table="runs">
          <caption>Your runs</caption>
          <thead>
            <tr>
              <th scope="col">farm</th>
              <th scope="col">code</th>
              <th scope="col">episodes</th>
              <th scope="col">mean return</th>
            </tr>
          </thead>
          <tbody>
            {history.map((h) => (
              <tr>
                <td>{h.env}</td>
                <td>{h.label}</td>
                <td>{h.n}</td>
                <td>{fmt(h.mean)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

export function TutorialPage() {
  return (
    <article class="docs-page" data-page="tutorial">
      <h1>Write your first agent</h1>
      <p class="docs-lead">
        Start from a random agent, make it read its observation, then make it plan a little. Each run plays the same seeds, so the returns
        are comparable from one edit to the next.
      </p>
      <Toc page="tutorial" sections={TUTORIAL_SECTIONS} />
      <Section page="tutorial" id="contract" title="The agent contract">
        <p>
          An agent is a function <code>act(observation, info)</code> returning an action: an integer or a name such as <code>'north'</code>.
          It may define <code>reset()</code>, called before each episode. It sees only the observation (
          <FarmLinks section="observation" />
          ), never the hidden state. This is the same contract as the game's agent editor, and the code runs in the same sandbox, in a Web
          Worker: an endless loop is stopped after {AGENT_TIME_LIMIT_MS / 1000} s.
        </p>
      </Section>
      <Section page="tutorial" id="editor" title="Edit and run">
        <Editor />
      </Section>
      <Section page="tutorial" id="next" title="Where next">
        <p>
          The game's built-in heuristics (<code>web/src/agents/</code>) go further: they keep a map of what they have seen and simulate the
          animals they fed. To train at scale, use <DocLink to="/api/makevec">makeVec</DocLink> in Node.
        </p>
      </Section>
    </article>
  );
}
