// ProfilePlot.jsx — a performance profile (rliable's score distribution): for each normalised
// score τ, the fraction of a learner's runs scoring above it, a line per learner with its 95 %
// bootstrap band. An SVG for the eye, with a description for screen readers and the numbers
// as a table beside it (in a <details>), so nothing is only in the picture.

const W = 420;
const H = 220;
const PAD = { l: 38, r: 12, t: 10, b: 34 };
/** τ values the table alternative lists (the plot draws every τ of the summary). */
const TABLE_STEP = 0.1;

const pct = (x) => `${Math.round(x * 100)} %`;

/**
 * taus: the τ grid; series: [{ name, runs, fraction, low, high }] (arrays over taus);
 * title: what the plot is of (a farm and a budget).
 */
export function ProfilePlot({ taus, series, title, id }) {
  const top = taus.at(-1);
  const x = (t) => PAD.l + ((W - PAD.l - PAD.r) * t) / top;
  const y = (f) => H - PAD.b - (H - PAD.t - PAD.b) * f;
  const line = (values) => values.map((f, i) => `${i ? 'L' : 'M'}${x(taus[i]).toFixed(1)} ${y(f).toFixed(1)}`).join('');
  const band = (s) =>
    `${line(s.high)}${s.low
      .map((f, i) => [i, f])
      .reverse()
      .map(([i, f]) => `L${x(taus[i]).toFixed(1)} ${y(f).toFixed(1)}`)
      .join('')}Z`;
  // where each learner's profile falls through one half: the median run's score, for the description
  const half = (s) => {
    const i = s.fraction.findIndex((f) => f < 0.5);
    return i < 0 ? `above ${top}` : i === 0 ? 'below 0' : `about ${taus[i].toFixed(2)}`;
  };
  const described = series.map((s) => `${s.name} (${s.runs} runs): half its runs score above ${half(s)}`).join('; ');
  const rows = taus.map((t, i) => [t, i]).filter(([t]) => Math.abs(t / TABLE_STEP - Math.round(t / TABLE_STEP)) < 1e-9);
  return (
    <figure class="plot profile-plot" data-profile={id}>
      <p class="profile-title">{title}</p>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${id}-title ${id}-desc`}>
        <title id={`${id}-title`}>Performance profile, {title}</title>
        <desc id={`${id}-desc`}>
          Fraction of runs with a normalised score above τ, for τ from 0 to {top}. {described}.
        </desc>
        <path class="axis" d={`M${PAD.l} ${PAD.t}V${H - PAD.b}H${W - PAD.r}`} />
        {[0, 0.5, 1].map((f) => (
          <text class="tick" x={PAD.l - 4} y={y(f) + 3} text-anchor="end">
            {f}
          </text>
        ))}
        {[0, 0.25, 0.5, 0.75, 1]
          .filter((t) => t <= top)
          .map((t) => (
            <text class="tick" x={x(t)} y={H - PAD.b + 11} text-anchor="middle">
              {t}
            </text>
          ))}
        <path class="guide-ceiling" d={`M${x(1)} ${PAD.t}V${H - PAD.b}`} />
        <text class="tick" x={(PAD.l + W - PAD.r) / 2} y={H - 4} text-anchor="middle">
          normalised score τ (1: the best known play)
        </text>
        {series.map((s, k) => (
          <g class={`profile profile-${k}`} data-learner={s.name}>
            <path class="band" d={band(s)} />
            <path class="line" d={line(s.fraction)} />
          </g>
        ))}
      </svg>
      <figcaption>
        {series.map((s, k) => (
          <span class={`profile-key profile-${k}`}>
            <span class="swatch" aria-hidden="true" /> {s.name}, {s.runs} runs
          </span>
        ))}
        Shaded: the 95 % stratified bootstrap band.
      </figcaption>
      <details class="profile-numbers">
        <summary>The plot's numbers</summary>
        <table class="docs-table" data-table={`profile-${id}`}>
          <caption>Fraction of runs above τ (95 % band), {title}</caption>
          <thead>
            <tr>
              <th scope="col">τ</th>
              {series.map((s) => (
                <th scope="col">{s.name}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map(([t, i]) => (
              <tr>
                <th scope="row">{t.toFixed(1)}</th>
                {series.map((s) => (
                  <td>
                    {pct(s.fraction[i])} ({pct(s.low[i])} – {pct(s.high[i])})
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
