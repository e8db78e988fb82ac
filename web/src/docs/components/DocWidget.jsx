// DocWidget.jsx — the live widget a rules page places with `<!-- widget: NAME -->`: a rule
// widget (model/widgets.js, the real engine in a prepared situation) or one of the tables
// generated from the farm's spec (SpecTables.jsx).
import { RuleWidget } from './RuleWidget.jsx';
import { TileTable, ObservationTable, LayoutTable } from './SpecTables.jsx';
import { widgets } from '../model/widgets.js';

const SPEC_WIDGETS = { tiles: TileTable, 'observation-space': ObservationTable, layout: LayoutTable };

/** Every name a marker may use. */
export const widgetNames = [...Object.keys(SPEC_WIDGETS), ...Object.keys(widgets)];

export function DocWidget({ envId, name }) {
  const Table = SPEC_WIDGETS[name];
  if (Table) return <Table envId={envId} />;
  if (widgets[name]) return <RuleWidget id={name} />;
  return (
    <p class="docs-error" role="alert">
      No widget “{name}”; a marker names one of: {widgetNames.join(', ')}.
    </p>
  );
}
