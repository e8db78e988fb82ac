// LearningCurve.jsx — the Lab's plot: a run's mean training return against env steps, the
// reference agents' test means as dashed lines, and the committed reference run of the same
// learner. The reference lines are named in a margin right of the plot, where no curve goes,
// each label moved apart from its neighbours as far as it takes to be read.
import { formatReturn } from '../model/session.js';
import { evenly } from '../model/evenly.js';

export const W = 560;
export const H = 220;
// the right margin holds the reference lines' labels (the longest, "view-limited 12.44", at the guides' font size)
export const PAD = { l: 40, r: 84, t: 10, b: 22 };
export const LABEL_GAP = 8; // the least distance between two labels' baselines (their font is 7 units high)
// A run reports a point at each slice of its training (trainer.js: thousands in a long run),
// and the page draws the curve again at each: at most LINE_POINTS of them as the line (about
// one a unit of the plot's width W) and DOTS as dots, evenly spaced, the first and last always
// among them.
export const LINE_POINTS = 500;
export const DOTS = 100;

/**
 * The labels' baselines for lines at heights `ys` (in the SVG's units, in any order): each
 * at its line (a little below, so its middle is level with it), then moved apart to at least
 * LABEL_GAP from the next, within [top, bottom]. Returns them in the order of `ys`.
 */
export function labelPositions(ys, top, bottom) {
  const order = ys.map((y, i) => ({ y: y + 2.5, i })).sort((a, b) => a.y - b.y);
  for (let k = 1; k < order.length; k++) order[k].y = Math.max(order[k].y, order[k - 1].y + LABEL_GAP);
  const over = (order.at(-1)?.y ?? bottom) - bottom;
  if (over > 0) for (const o of order) o.y -= over; // pushed past the bottom: the whole column moves up
  for (let k = 0; k < order.length; k++) order[k].y = Math.max(order[k].y, top + k * LABEL_GAP);
  const out = [];
  for (const o of order) out[o.i] = o.y;
  return out;
}

/**
 * Mean return against env steps, with the reference agents' test means as dashed lines and,
 * when there is one, the committed reference run of the same learner (its validation return,
 * as far as this run's steps go).
 */
export function LearningCurve({ curve, references, total, run = null }) {
  const shown = run ? run.curve.filter((p) => p.steps <= total) : [];
  const top = Math.max(1, ...curve.map((p) => p.meanReturn), ...references.map((r) => r.value), ...shown.map((p) => p.validation)) * 1.05;
  const right = W - PAD.r;
  const x = (s) => PAD.l + ((right - PAD.l) * s) / Math.max(total, 1);
  const y = (v) => H - PAD.b - ((H - PAD.t - PAD.b) * v) / top;
  const labels = labelPositions(
    references.map((r) => y(r.value)),
    PAD.t + 4,
    H - PAD.b,
  );
  const last = curve.at(-1);
  const label = last
    ? `Mean return of the last 100 training episodes: ${formatReturn(last.meanReturn)} after ${last.steps.toLocaleString('en')} steps`
    : 'No episode finished yet';
  return (
    <figure class="plot lab-curve">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label}>
        <path class="axis" d={`M${PAD.l} ${PAD.t}V${H - PAD.b}H${right}`} />
        <text class="tick" x={PAD.l - 4} y={PAD.t + 4} text-anchor="end">
          {formatReturn(top)}
        </text>
        <text class="tick" x={PAD.l - 4} y={H - PAD.b} text-anchor="end">
          0
        </text>
        <text class="tick" x={right} y={H - 6} text-anchor="end">
          {total.toLocaleString('en')} env steps
        </text>
        {references.map((r, i) => (
          <g class={`guide guide-${r.name.replace(/\W+/g, '-')}`}>
            <path d={`M${PAD.l} ${y(r.value)}H${right}`} />
            <text x={right + 4} y={labels[i]}>
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
