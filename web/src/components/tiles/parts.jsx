// parts.jsx — drawing pieces shared by several tiles, each in a 32 × 32 box: the tile
// background, a crop at five growth levels, a face with three moods, a food bowl, a paid
// bonus coin. Colours come from class names in style.css; shapes alone tell states apart.
export const S = 32; // the side of a tile in SVG units

export function Bg({ kind }) {
  return <rect class={`bg bg-${kind}`} width={S} height={S} />;
}

/** Grass tufts: the pattern that marks plain ground. */
export function Tufts() {
  return <path class="tuft" d="M6 24l1.5-3 1.5 3M21 10l1.5-3 1.5 3" />;
}

const COLUMNS = [8, 16, 24];

/**
 * A crop bed: 0 bare furrows, 1 seeds, 2 sprouts, 3 tall plants, 4 tall plants with fruit.
 */
export function Crop({ growth }) {
  return (
    <g class={`crop growth-${growth}`}>
      <path class="furrow" d="M3 9.5H29M3 17.5H29M3 25.5H29" />
      {growth === 1 && COLUMNS.map((x) => <ellipse class="seed" cx={x} cy={25} rx={2} ry={1.4} />)}
      {growth === 2 &&
        COLUMNS.map((x) => <path class="leaf" d={`M${x} 26V20M${x} 21c-3 0-4-2-4-4 3 0 4 2 4 4zM${x} 21c3 0 4-2 4-4-3 0-4 2-4 4z`} />)}
      {growth >= 3 &&
        COLUMNS.map((x) => (
          <g>
            <path class="stem" d={`M${x} 27V10`} />
            <path class="leaf" d={`M${x} 20c-4 0-5-3-5-5 4 0 5 3 5 5zM${x} 16c4 0 5-3 5-5-4 0-5 3-5 5z`} />
            {growth === 4 && <circle class="fruit" cx={x} cy={8} r={3.4} />}
          </g>
        ))}
    </g>
  );
}

const MOUTHS = [
  'M-3 3.2q3-2.6 6 0', // frown: wary / hostile
  'M-3 2.4H3', // flat: neutral
  'M-3 1.6q3 3 6 0', // smile: friendly
];

/** A face centred at (cx, cy) with mood 0 (frown, angry brows), 1 (flat) or 2 (smile); undefined draws "?". */
export function Face({ cx, cy, r = 5.5, mood }) {
  return (
    <g class={`face mood-${mood ?? 'unknown'}`} transform={`translate(${cx} ${cy})`}>
      <circle class="skin" r={r} />
      {mood === undefined ? (
        <text class="glyph" y={2.6} text-anchor="middle">
          ?
        </text>
      ) : (
        <>
          <circle class="eye" cx={-2} cy={-1} r={0.9} />
          <circle class="eye" cx={2} cy={-1} r={0.9} />
          {mood === 0 && <path class="brow" d="M-3.4-3.6l2.4 1.2M3.4-3.6l-2.4 1.2" />}
          <path class="mouth" d={MOUTHS[mood]} />
        </>
      )}
    </g>
  );
}

/** A food bowl badge at the top left: empty (hungry), heaped (sated), or "?" (not visible). */
export function Bowl({ sated }) {
  if (sated === undefined) {
    return (
      <g class="badge badge-unknown">
        <circle cx={6} cy={6} r={4.6} />
        <text class="glyph" x={6} y={8.6} text-anchor="middle">
          ?
        </text>
      </g>
    );
  }
  return (
    <g class={`badge bowl ${sated ? 'bowl-full' : 'bowl-empty'}`}>
      {sated && <path class="food" d="M2.5 6q3.5-4.5 7 0z" />}
      <path class="dish" d="M1.5 6h10a5 4 0 0 1-10 0z" />
      {!sated && (
        <text class="glyph small" x={6} y={5} text-anchor="middle">
          !
        </text>
      )}
    </g>
  );
}

/** A coin with a check mark: this entity's bonus has been paid. */
export function PaidCoin() {
  return (
    <g class="badge coin">
      <circle cx={26} cy={6} r={4.6} />
      <path class="check" d="M23.6 6l1.7 1.8 3.1-3.4" />
    </g>
  );
}
