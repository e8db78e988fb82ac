// backwards.jsx — one drawing per backwards-farm tile kind that the valley lacks.
import { Bg, Crop, Face, PaidCoin } from './parts.jsx';

export function Fence() {
  return (
    <>
      <Bg kind="ground" />
      <path class="rail" d="M2 13h28v3H2zM2 21h28v3H2z" />
      <path class="post" d="M5 8h4v21H5zM14 8h4v21h-4zM23 8h4v21h-4z" />
    </>
  );
}

/** Field stage 0 Seed … 3 Harvest-Ready: crop drawings 1 … 4. */
export function Field({ d }) {
  return (
    <>
      <Bg kind="soil" />
      <Crop growth={d.stage + 1} />
    </>
  );
}

function PenAnimal({ health }) {
  if (health === 0) {
    // Weak: lying down, eyes shut, a falling arrow
    return (
      <g class="beast pig weak">
        <ellipse class="body" cx={15} cy={23} rx={9} ry={3.6} />
        <circle class="body" cx={24} cy={21} r={3.2} />
        <path class="shut" d="M23 20.6h2" />
        <path class="arrow" d="M8 8v7M5 12l3 3 3-3" />
      </g>
    );
  }
  return (
    <g class={`beast pig ${health === 2 ? 'thriving' : 'healthy'}`}>
      <path class="leg" d="M10 21v5M14 21v5M18 21v5M21 21v5" />
      <ellipse class="body" cx={15} cy={18} rx={8} ry={5} />
      <circle class="body" cx={23} cy={14} r={3.6} />
      <ellipse class="snout" cx={26} cy={15} rx={1.4} ry={1.1} />
      <circle class="eye" cx={23.4} cy={12.8} r={0.7} />
      {health === 2 && <path class="star" d="M7 3l1.5 3.2 3.5.4-2.6 2.4.7 3.4L7 10.7 3.9 12.4l.7-3.4L2 6.6l3.5-.4z" />}
    </g>
  );
}

export function Pen({ d }) {
  return (
    <>
      <Bg kind="yard" />
      <rect class="pen-fence" x={1.5} y={1.5} width={29} height={29} />
      <PenAnimal health={d.health} />
      {d.rewarded && <PaidCoin />}
    </>
  );
}

export function House({ d }) {
  return (
    <>
      <Bg kind="ground" />
      <path class="house-wall" d="M5 14h22v15H5z" />
      <path class="house-roof" d="M3 15L16 3l13 12z" />
      <Face cx={16} cy={20.5} r={5.5} mood={d.mood} />
      {d.rewarded && <PaidCoin />}
    </>
  );
}
