// Board.jsx — the map as an SVG grid: one Tile per cell descriptor, the agent on top, and
// the agent's 5 × 5 window outlined. Each cell is labelled for screen readers (and as a
// tooltip); a click on a cell next to the agent moves there.
import { Tile } from './tiles/Tile.jsx';
import { S } from './tiles/parts.jsx';
import { Agent } from './Agent.jsx';
import { cellLabel, stateKey } from '../model/labels.js';

/** floats: rewards to show rising from their tiles ({ x, y, text, key }); the key restarts the animation. */
export function Board({ cells, pos, facing, view, title, onCell, floats = [] }) {
  const height = cells.length;
  const width = cells[0]?.length ?? 0;
  const isNeighbour = (x, y) => pos && Math.abs(x - pos.x) + Math.abs(y - pos.y) === 1;
  return (
    <svg class={`board view-${view}`} viewBox={`0 0 ${width * S} ${height * S}`} role="group" aria-label={title}>
      {cells.map((row, y) =>
        row.map((d, x) => {
          const label = cellLabel(d);
          const near = isNeighbour(x, y);
          return (
            <g
              class={`cell seen-${d.seen ?? 'now'}${near ? ' neighbour' : ''}`}
              transform={`translate(${x * S} ${y * S})`}
              role="img"
              aria-label={`${label}, x ${x} y ${y}`}
              data-x={x}
              data-y={y}
              data-kind={d.kind}
              data-state={stateKey(d)}
              onClick={near && onCell ? () => onCell(x, y) : undefined}
            >
              <title>{label}</title>
              <Tile d={d} />
              {d.seen === 'past' && <rect class="fog" width={S} height={S} />}
            </g>
          );
        }),
      )}
      {pos && (
        <rect
          class="window-outline"
          x={(pos.x - 2) * S + 1}
          y={(pos.y - 2) * S + 1}
          width={5 * S - 2}
          height={5 * S - 2}
          rx={4}
          aria-hidden="true"
        />
      )}
      {pos && <Agent x={pos.x} y={pos.y} facing={facing} size={S} />}
      {floats.map((f) => (
        <text key={f.key} class="reward-float" x={(f.x + 0.5) * S} y={(f.y + 0.3) * S} text-anchor="middle" aria-hidden="true">
          {f.text}
        </text>
      ))}
    </svg>
  );
}
