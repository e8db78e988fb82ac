// valley.jsx — one drawing per valley tile kind (descriptors from model/views.js).
import { Bg, Tufts, Crop, Face, Bowl, S } from './parts.jsx';

export function Ground() {
  return (
    <>
      <Bg kind="ground" />
      <Tufts />
    </>
  );
}

export function Obstacle() {
  return (
    <>
      <Bg kind="ground" />
      <path class="rock" d="M4 27l3-12 8-7 9 3 4 16z" />
      <path class="rock-line" d="M15 8l-2 9 5 4M22 16l-4 5" />
    </>
  );
}

const VALLEY_GROWTH = [0, 1, 2, 4]; // soil stage -> crop drawing

export function Soil({ d }) {
  return (
    <>
      <Bg kind="soil" />
      <Crop growth={VALLEY_GROWTH[d.stage]} />
    </>
  );
}

export function Barn() {
  return (
    <>
      <Bg kind="ground" />
      <path class="barn-wall" d="M4 14h24v15H4z" />
      <path class="barn-roof" d="M2 15L16 4l14 11z" />
      <path class="barn-door" d="M11 18h10v11H11zM11 18l10 11M21 18L11 29" />
    </>
  );
}

function Chicken() {
  return (
    <g class="beast chicken">
      <path class="leg" d="M13 25v4M17 25v4" />
      <ellipse class="body" cx={15} cy={20} rx={7} ry={5.5} />
      <circle class="body" cx={21.5} cy={13} r={3.8} />
      <path class="comb" d="M19.5 9.6q1-2.4 2-0.4q1-2.4 2 0.2" />
      <path class="beak" d="M25 12.4l3 1.2-3 1.2z" />
      <circle class="eye" cx={22.5} cy={12.4} r={0.8} />
    </g>
  );
}

function Cow() {
  return (
    <g class="beast cow">
      <path class="leg" d="M9 22v6M13 22v6M19 22v6M23 22v6" />
      <rect class="body" x={6} y={13} width={19} height={10} rx={4} />
      <ellipse class="spot" cx={12} cy={17} rx={3} ry={2.2} />
      <ellipse class="spot" cx={19} cy={19} rx={2} ry={1.6} />
      <rect class="body" x={22} y={9} width={7} height={8} rx={2.5} />
      <path class="horn" d="M23 9.5l-1-3M28 9.5l1-3" />
      <circle class="eye" cx={26.5} cy={12} r={0.8} />
    </g>
  );
}

function Sheep() {
  return (
    <g class="beast sheep">
      <path class="leg" d="M10 23v5M14 23v5M18 23v5M22 23v5" />
      {[
        [10, 16],
        [15, 14],
        [20, 16],
        [12, 21],
        [18, 21],
        [15, 18],
      ].map(([cx, cy]) => (
        <circle class="wool" cx={cx} cy={cy} r={4} />
      ))}
      <ellipse class="head" cx={25} cy={14} rx={3} ry={3.8} />
      <circle class="eye light" cx={26} cy={13} r={0.8} />
    </g>
  );
}

const BEASTS = { chicken: Chicken, cow: Cow, sheep: Sheep };

/** Pending products at the bottom right: one product shape and the count. */
function Products({ species, n }) {
  return (
    <g class={`badge products product-${species}`}>
      <rect class="tag" x={17} y={23} width={14} height={8} rx={2} />
      {species === 'chicken' && <ellipse class="product" cx={21} cy={27} rx={2.2} ry={2.8} />}
      {species === 'cow' && <path class="product" d="M19.6 24h2.8v1.4l1 1.2V30.5h-4.8v-3.9l1-1.2z" />}
      {species === 'sheep' && <path class="product" d="M18.4 28.5a1.8 1.8 0 0 1 1.6-2.6a2 2 0 0 1 3.8 0a1.8 1.8 0 0 1 1 2.6z" />}
      <text class="count" x={28} y={29.6} text-anchor="middle">
        {n}
      </text>
    </g>
  );
}

export function Animal({ d }) {
  const Beast = BEASTS[d.species];
  return (
    <>
      <Bg kind="yard" />
      <Beast />
      <Bowl sated={d.sated} />
      {d.pending > 0 && <Products species={d.species} n={d.pending} />}
    </>
  );
}

export function Villager({ d }) {
  return (
    <>
      <Bg kind="ground" />
      <path class="person" d="M8.5 30l2.5-11h10l2.5 11z" />
      <Face cx={16} cy={12} r={6} mood={d.mood} />
      {d.relationship !== undefined && (
        <g class="meter">
          <rect class="meter-track" x={3} y={28} width={26} height={3} />
          <rect class="meter-fill" x={3} y={28} width={(26 * d.relationship) / 100} height={3} />
        </g>
      )}
    </>
  );
}

export function Cottage() {
  return (
    <>
      <Bg kind="ground" />
      <path class="chimney" d="M21 4h4v8h-4z" />
      <path class="cottage-wall" d="M5 15h22v14H5z" />
      <path class="cottage-roof" d="M3 16L16 5l13 11z" />
      <path class="window" d="M8 18h6v5H8zM11 18v5M8 20.5h6" />
      <path class="door" d="M18 20h6v9h-6z" />
    </>
  );
}

export function Market() {
  return (
    <>
      <Bg kind="ground" />
      <path class="stall-post" d="M5 12v17M27 12v17" />
      <path class="stall-counter" d="M4 20h24v5H4z" />
      <path class="awning" d="M3 6h26v6H3z" />
      <path class="awning-stripe" d="M7 6h4v6H7zM15 6h4v6h-4zM23 6h4v6h-4z" />
      <path
        class="scallop"
        d="M3 12a2.2 2.2 0 0 0 4.3 0a2.2 2.2 0 0 0 4.3 0a2.2 2.2 0 0 0 4.4 0a2.2 2.2 0 0 0 4.3 0a2.2 2.2 0 0 0 4.4 0a2.2 2.2 0 0 0 4.3 0z"
      />
      <circle class="coin-face" cx={16} cy={16} r={3.2} />
      <text class="coin-mark" x={16} y={18.2} text-anchor="middle">
        $
      </text>
    </>
  );
}

export { S };
