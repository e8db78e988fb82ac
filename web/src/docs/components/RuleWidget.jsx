// RuleWidget.jsx — one live rule: the real engine in a prepared situation (its own env),
// buttons for the relevant actions, Reset, the board and the facts that show the rule.
import { useEffect, useState } from 'preact/hooks';
import { Board } from '../../components/Board.jsx';
import { useModel } from '../../components/useModel.js';
import { WidgetModel } from '../model/widget.js';
import { widgets } from '../model/widgets.js';
import { ObservationView } from './ObservationView.jsx';
import { farmFor } from '../../model/farms/index.js';

function Loaded({ id, model, config }) {
  useModel(model);
  const facing = farmFor(model.envId).facing(model.state.agent);
  const titleId = `w-${id}-title`;
  return (
    <figure class="docs-widget" data-widget={id} aria-labelledby={titleId}>
      <figcaption id={titleId} class="docs-widget-title">
        Try it: {config.title}
      </figcaption>
      <p class="docs-widget-try">{config.tryThis}</p>
      <div class="docs-widget-body">
        <div class="docs-widget-board">
          <Board
            cells={model.cells}
            pos={model.state.agent}
            facing={facing}
            view="world"
            title={`${config.title}: the farm, seed ${model.situation.seed}`}
          />
        </div>
        <div class="docs-widget-side">
          <div class="docs-widget-buttons" role="group" aria-label={`Actions for: ${config.title}`}>
            {config.buttons.map(({ action, times = 1 }) => (
              <button
                type="button"
                class="docs-btn"
                data-action={action}
                data-times={times}
                disabled={model.done}
                onClick={() => model.act(action, times)}
              >
                {times > 1 ? `${action} × ${times}` : action}
              </button>
            ))}
            <button type="button" class="docs-btn docs-btn-reset" data-action="reset" onClick={() => model.reset()}>
              Reset
            </button>
          </div>
          <dl class="docs-facts" aria-live="polite">
            {config.facts(model).map(([key, label, value]) => (
              <div class="docs-fact" data-fact={key}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
          {model.done && <p class="docs-widget-done">Episode over (terminated). Press Reset.</p>}
        </div>
      </div>
      {config.showObservation && <ObservationView envId={model.envId} observation={model.observation} />}
      <p class="docs-widget-seed">
        Seed {String(model.situation.seed)}
        {model.situation.prefix.length ? `, after ${model.situation.prefix.join(', ')}` : ', right after reset'}.
      </p>
    </figure>
  );
}

export function RuleWidget({ id }) {
  const config = widgets[id];
  const [model, setModel] = useState(null);
  useEffect(() => {
    const m = new WidgetModel(config.situation);
    let alive = true;
    m.start().then(() => alive && setModel(m));
    return () => {
      alive = false;
      m.close();
    };
  }, [id]);
  if (!model) return <p class="docs-widget docs-widget-loading">Loading the widget…</p>;
  if (model.error)
    return (
      <p class="docs-widget docs-error" role="alert">
        The widget could not start: {model.error}
      </p>
    );
  return <Loaded id={id} model={model} config={config} />;
}
