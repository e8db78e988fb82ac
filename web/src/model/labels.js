// labels.js — the words for every cell descriptor (views.js): the accessible label of each
// board cell (also its tooltip), and a short state key the tests and the stylesheet use.
const VALLEY_SOIL = ['Soil, empty', 'Soil, seeded (stage 1)', 'Crop growing (stage 2)', 'Crop mature (stage 3): harvest it'];
const PRODUCT = { chicken: 'egg', cow: 'milk', sheep: 'wool' };
import { valley, backwards } from './farms/index.js';

// The rules' names, from envSpecs through the adapters (one source): the valley's moods,
// and the status names of the backwards farm's fields, pens and houses.
const statusNames = (tile) => backwards.spec.tiles.find((t) => t.name === tile).status;
export const VALLEY_MOODS = valley.spec.moods;
export const FIELD_STAGES = statusNames('FIELD');
export const HEALTH = statusNames('PEN');
export const BACKWARDS_MOODS = statusNames('HOUSE');

const cap = (s) => s[0].toUpperCase() + s.slice(1);
const plural = (n, word) => `${n} ${word}${n === 1 || word === 'milk' || word === 'wool' ? '' : 's'}`;

function bonusText(d) {
  if (d.bonus === undefined) return d.rewarded ? ', bonus paid' : '';
  return `, bonus ${d.bonus}${d.rewarded ? ' (paid)' : ''}`;
}

/** The accessible label of a cell. */
export function cellLabel(d) {
  const base = baseLabel(d);
  return d.seen === 'past' ? `${base} (last seen)` : base;
}

function baseLabel(d) {
  switch (d.kind) {
    case 'out':
      return 'Off the map';
    case 'ground':
      return 'Ground';
    case 'obstacle':
      return 'Obstacle (rock)';
    case 'soil':
      return VALLEY_SOIL[d.stage];
    case 'barn':
      return d.species ? `Barn of the ${d.species}` : 'Barn';
    case 'animal': {
      let fed = 'hungry or sated: not visible from here';
      if (d.sated === true) fed = d.satedStepsLeft !== undefined ? `sated for ${d.satedStepsLeft} more steps` : 'sated';
      if (d.sated === false) fed = 'hungry';
      const pending = d.pending ? `, ${plural(d.pending, PRODUCT[d.species])} waiting` : '';
      return `${cap(d.species)}, ${fed}${pending}`;
    }
    case 'villager': {
      // numbered from 0, as the engine's events and the status panel number them
      const who = d.index !== undefined ? `Villager ${d.index}` : 'Villager';
      const mood = d.mood === undefined ? 'mood not visible from here' : VALLEY_MOODS[d.mood];
      const rel = d.relationship !== undefined ? ` (relationship ${d.relationship})` : '';
      return `${who}, ${mood}${rel}`;
    }
    case 'market':
      return 'Market';
    case 'cottage':
      return d.index !== undefined ? `Cottage of villager ${d.index}` : 'Cottage';
    case 'fence':
      return 'Fence';
    case 'field':
      return `Field, ${FIELD_STAGES[d.stage]} (stage ${d.stage})${d.value !== undefined ? `, value ${d.value}` : ''}`;
    case 'pen':
      return `Pen, animal ${HEALTH[d.health]}${bonusText(d)}`;
    case 'house':
      return `House, villager ${BACKWARDS_MOODS[d.mood]}${bonusText(d)}`;
    case 'unknown':
      return 'Not seen yet';
    default:
      return d.kind;
  }
}

/** A short key of a cell's state, e.g. "soil-2", "animal-cow-hungry-p1", "pen-2-paid". */
export function stateKey(d) {
  switch (d.kind) {
    case 'soil':
    case 'field':
      return `${d.kind}-${d.stage}`;
    case 'animal':
      return `animal-${d.species}-${d.sated === undefined ? 'unseen' : d.sated ? 'sated' : 'hungry'}${d.pending ? `-p${d.pending}` : ''}`;
    case 'villager':
      return `villager-${d.mood === undefined ? 'unseen' : VALLEY_MOODS[d.mood]}`;
    case 'barn':
      return `barn${d.species ? `-${d.species}` : ''}`;
    case 'pen':
      return `pen-${HEALTH[d.health].toLowerCase()}${d.rewarded ? '-paid' : ''}`;
    case 'house':
      return `house-${BACKWARDS_MOODS[d.mood].toLowerCase()}${d.rewarded ? '-paid' : ''}`;
    default:
      return d.kind;
  }
}
