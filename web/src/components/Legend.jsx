// Legend.jsx — every tile kind and entity state of the current farm, drawn exactly as on
// the board, with its words.
import { Tile } from './tiles/Tile.jsx';
import { Agent } from './Agent.jsx';
import { cellLabel, legendSamples, stateKey } from '../model/labels.js';

function Swatch({ children }) {
  return <svg class="swatch" viewBox="0 0 32 32" aria-hidden="true">{children}</svg>;
}

export function Legend({ envId }) {
  const backwards = envId !== 'ValleyFarm-v0';
  return (
    <details class="legend panel" open>
      <summary>Legend</summary>
      <ul class="legend-list">
        <li>
          <Swatch><rect class="bg bg-ground" width="32" height="32" /><Agent x={0} y={0} facing={backwards ? 0 : undefined} /></Swatch>
          <span>You{backwards ? ' (the arrow shows where you face)' : ''}</span>
        </li>
        {legendSamples(envId).map((d) => (
          <li data-state={stateKey(d)}>
            <Swatch><Tile d={d} /></Swatch>
            <span>{cellLabel(d)}</span>
          </li>
        ))}
        <li>
          <Swatch><Tile d={{ kind: 'ground' }} /><rect class="fog" width="32" height="32" /></Swatch>
          <span>Greyed: last seen (agent's-eyes view)</span>
        </li>
      </ul>
    </details>
  );
}
