// Tile.jsx — picks the drawing for a cell descriptor, plus the two tiles both farms share:
// off the map, and never seen (agent's-eyes view).
import { Bg } from './parts.jsx';
import { Ground, Obstacle, Soil, Barn, Animal, Villager, Cottage, Market } from './valley.jsx';
import { Fence, Field, Pen, House } from './backwards.jsx';

export function OutOfBounds() {
  return (
    <>
      <Bg kind="out" />
      <path class="hatch" d="M0 8L8 0M0 16L16 0M0 24L24 0M0 32L32 0M8 32L32 8M16 32L32 16M24 32L32 24" />
    </>
  );
}

export function Unknown() {
  return (
    <>
      <Bg kind="unknown" />
      <text class="glyph unknown-mark" x={16} y={21} text-anchor="middle">
        ?
      </text>
    </>
  );
}

const DRAWINGS = {
  out: OutOfBounds,
  unknown: Unknown,
  ground: Ground,
  obstacle: Obstacle,
  soil: Soil,
  barn: Barn,
  animal: Animal,
  villager: Villager,
  cottage: Cottage,
  market: Market,
  fence: Fence,
  field: Field,
  pen: Pen,
  house: House,
};

export function Tile({ d }) {
  const Drawing = DRAWINGS[d.kind] ?? Unknown;
  return <Drawing d={d} />;
}
