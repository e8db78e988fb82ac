// Agent.jsx — the farmer the visitor (or an agent) moves: a token with a straw hat, and in
// the backwards farm an arrow on the side it faces.
const FACING_ANGLE = [0, 180, 90, 270]; // north, south, east, west

export function Agent({ x, y, facing, size = 32 }) {
  return (
    <g class="agent" transform={`translate(${x * size + size / 2} ${y * size + size / 2})`} aria-hidden="true">
      {facing !== undefined && (
        <path class={`facing facing-${facing}`} d="M-5-11L0-16.5 5-11z" transform={`rotate(${FACING_ANGLE[facing]})`} />
      )}
      <circle class="agent-ring" r={10.5} />
      <path class="hat-brim" d="M-9-3.5h18" />
      <path class="hat" d="M-5.5-3.5q0-6 5.5-6t5.5 6z" />
      <circle class="eye" cx={-2.6} cy={1} r={1} />
      <circle class="eye" cx={2.6} cy={1} r={1} />
      <path class="mouth" d="M-2.6 4.4q2.6 2 5.2 0" />
    </g>
  );
}
