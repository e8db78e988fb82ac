// ReturnsPlot.jsx — the returns of the run's episodes as dots, with their running mean as
// a line and the built-in agents' measured means as dashed guides. Plain SVG.
import { formatReturn } from '../model/session.js';

const W = 320;
const H = 120;
const PAD = { l: 30, r: 8, t: 8, b: 18 };

export function ReturnsPlot({ returns, guides = [] }) {
  const values = returns.map((r) => r.ret);
  const top = Math.max(1, ...values, ...guides.map((g) => g.value)) * 1.05;
  const n = Math.max(values.length, 2);
  const x = (i) => PAD.l + ((W - PAD.l - PAD.r) * i) / (n - 1);
  const y = (v) => H - PAD.b - ((H - PAD.t - PAD.b) * v) / top;
  let sum = 0;
  const mean = values.map((v, i) => ((sum += v), sum / (i + 1)));
  const label = values.length
    ? `Returns of ${values.length} episodes: last ${formatReturn(values.at(-1))}, mean ${formatReturn(mean.at(-1))}`
    : 'No finished episodes yet';
  return (
    <figure class="plot">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label}>
        <path class="axis" d={`M${PAD.l} ${PAD.t}V${H - PAD.b}H${W - PAD.r}`} />
        <text class="tick" x={PAD.l - 4} y={PAD.t + 4} text-anchor="end">
          {formatReturn(top)}
        </text>
        <text class="tick" x={PAD.l - 4} y={H - PAD.b} text-anchor="end">
          0
        </text>
        <text class="tick" x={W - PAD.r} y={H - 4} text-anchor="end">
          episode {values.length}
        </text>
        {guides.map((g) => (
          <g class={`guide guide-${g.name}`}>
            <path d={`M${PAD.l} ${y(g.value)}H${W - PAD.r}`} />
            <text x={PAD.l + 3} y={y(g.value) - 2}>
              {g.name} {formatReturn(g.value)}
            </text>
          </g>
        ))}
        {values.map((v, i) => (
          <circle class="dot" cx={x(i)} cy={y(v)} r={values.length > 100 ? 1.2 : 2} />
        ))}
        {mean.length > 1 && <polyline class="mean" points={mean.map((m, i) => `${x(i)},${y(m)}`).join(' ')} />}
      </svg>
      <figcaption>{label}</figcaption>
    </figure>
  );
}
