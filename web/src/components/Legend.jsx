// Legend.jsx — every tile kind and entity state of the current farm, drawn exactly as on
// the board, with its words.
import { Tile } from './tiles/Tile.jsx';
import { Agent } from './Agent.jsx';
import { cellLabel, stateKey } from '../model/labels.js';
import { farmFor } from '../model/farms/index.js';

function Swatch({ children }) {
  return (
    <svg class="swatch" viewBox="0 0 32 32" aria-hidden="true">
      {children}
    </svg>
  );
}

export function Legend({ envId }) {
  const farm = farmFor(envId);
  const facing = farm.faces ? 0 : undefined;
  return (
    <details class="legend panel" open>
      <summary>Legend</summary>
      <ul class="legend-list">
        <li>
          <Swatch>
            <rect class="bg bg-ground" width="32" height="32" />
            <Agent x={0} y={0} facing={facing} />
          </Swatch>
          <span>You{facing !== undefined ? ' (the arrow shows where you face)' : ''}</span>
        </li>
        {farm.legendSamples().map((d) => (
          <li data-state={stateKey(d)}>
            <Swatch>
              <Tile d={d} />
            </Swatch>
            <span>{cellLabel(d)}</span>
          </li>
        ))}
        <li>
          <Swatch>
            <Tile d={{ kind: 'ground' }} />
            <rect class="fog" width="32" height="32" />
          </Swatch>
          <span>Greyed: last seen (agent's-eyes view)</span>
        </li>
      </ul>
    </details>
  );
}
