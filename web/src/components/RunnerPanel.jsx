// RunnerPanel.jsx — choose an agent and let it play: play / pause / one step, the speed,
// steps and episodes per second, the built-in agents' measured means, and the returns plot.
import { SPEEDS } from '../model/runner.js';
import { formatReturn } from '../model/session.js';
import { ReturnsPlot } from './ReturnsPlot.jsx';

const speedLabel = (s) => (s === Infinity ? 'as fast as possible' : `${s} step${s === 1 ? '' : 's'}/s`);
const rate = (v) => (v >= 100 ? Math.round(v).toLocaleString('en') : v.toFixed(1));

function Means({ means }) {
  if (!means || means === 'measuring')
    return (
      <p class="means" data-testid="means">
        Loading the reference returns…
      </p>
    );
  if (means.error) return <p class="means">Could not load the reference returns: {means.error}</p>;
  const rows = [
    ['best known', means.bestKnown],
    ['heuristic', means.heuristic],
    ['random', means.random],
  ];
  const top = Math.max(...rows.map(([, m]) => m.mean), 1e-9);
  return (
    <div class="means" data-testid="means">
      <p>
        Mean return on the {means.seeds.toLocaleString('en')} test seeds (<a href="#/docs/benchmark">the benchmark</a>):
      </p>
      {rows.map(([name, m]) => (
        <div class={`mean-row mean-${name.replace(' ', '-')}`}>
          <span class="mean-name">{name}</span>
          <span class="mean-bar" aria-hidden="true">
            <span style={{ width: `${(100 * m.mean) / top}%` }} />
          </span>
          <span class="mean-value" data-mean={name}>
            {formatReturn(m.mean)}
          </span>
        </div>
      ))}
    </div>
  );
}

export function RunnerPanel({ runner, means, customReady }) {
  const speedIndex = SPEEDS.indexOf(runner.speed);
  const runMean = runner.returns.length ? runner.returns.reduce((s, r) => s + r.ret, 0) / runner.returns.length : null;
  const guides =
    means && means.heuristic
      ? [
          { name: 'heuristic', value: means.heuristic.mean },
          { name: 'random', value: means.random.mean },
        ]
      : [];
  return (
    <section class="panel runner" aria-labelledby="runner-title">
      <h2 id="runner-title">Agents</h2>
      <div class="agent-choice" role="radiogroup" aria-label="Agent">
        {[
          ['heuristic', 'Heuristic'],
          ['random', 'Random'],
          ['custom', runner.customTitle ?? 'Your code'],
        ].map(([name, text]) => (
          <label class={name === 'custom' && !customReady ? 'disabled' : ''}>
            <input
              type="radio"
              name="agent"
              value={name}
              checked={runner.agentName === name}
              disabled={name === 'custom' && !customReady}
              onChange={() => runner.setAgent(name)}
            />
            {text}
          </label>
        ))}
      </div>
      <div class="runner-controls">
        {runner.playing ? (
          <button type="button" class="primary" onClick={() => runner.pause()}>
            Pause
          </button>
        ) : (
          <button type="button" class="primary" onClick={() => runner.play()}>
            Play
          </button>
        )}
        <button type="button" onClick={() => runner.stepOnce()} disabled={runner.playing}>
          Step
        </button>
        <label class="speed">
          <span>Speed</span>
          <input
            type="range"
            min="0"
            max={SPEEDS.length - 1}
            step="1"
            value={speedIndex < 0 ? 3 : speedIndex}
            aria-valuetext={speedLabel(runner.speed)}
            onInput={(e) => runner.setSpeed(SPEEDS[Number(e.currentTarget.value)])}
          />
          <output>{speedLabel(runner.speed)}</output>
        </label>
      </div>
      {runner.error && (
        <p class="runner-error" role="alert">
          {runner.error}
        </p>
      )}
      <dl class="stats rates">
        <div class="stat">
          <dt>steps/s</dt>
          <dd data-stat="stepsPerSecond">{rate(runner.stepsPerSecond)}</dd>
        </div>
        <div class="stat">
          <dt>episodes/s</dt>
          <dd data-stat="episodesPerSecond">{rate(runner.episodesPerSecond)}</dd>
        </div>
        <div class="stat">
          <dt>episodes</dt>
          <dd data-stat="episodes">{runner.totalEpisodes}</dd>
        </div>
        <div class="stat">
          <dt>run mean</dt>
          <dd data-stat="runMean">{formatReturn(runMean)}</dd>
        </div>
      </dl>
      <ReturnsPlot returns={runner.returns} guides={guides} />
      <Means means={means} />
      {runner.returns.length > 0 && (
        <button type="button" class="ghost" onClick={() => runner.clearStats()}>
          Clear the plot
        </button>
      )}
    </section>
  );
}
