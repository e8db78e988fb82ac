// farms/index.js — the page's farm adapters, one per env (valley.js, backwards.js): what the
// page draws and says of each farm beyond the engine's spec. A new farm needs its adapter
// listed here, and more besides: docs/adding-a-farm.md lists every file.
import { envIds } from 'valley-farm';
import { valley } from './valley.js';
import { backwards } from './backwards.js';

export { valley, backwards };

/** The adapters in the engine's order of env ids. */
export const farms = [valley, backwards];

const byId = new Map(farms.map((f) => [f.id, f]));
const bySlug = new Map(farms.map((f) => [f.slug, f]));
const byCode = new Map(farms.map((f) => [f.code, f]));

for (const id of envIds)
  if (!byId.has(id)) throw new Error(`valley-farm page: no farm adapter for ${id} (add one in web/src/model/farms/)`);

/** The adapter of an env id; throws for an id no adapter has. */
export function farmFor(envId) {
  const farm = byId.get(envId);
  if (!farm) throw new Error(`Unknown farm '${envId}'; the farms are ${farms.map((f) => f.id).join(', ')}`);
  return farm;
}

/** The adapter with this short name (valley, backwards), or undefined. */
export const farmBySlug = (slug) => bySlug.get(slug);

/** The adapter with this share-link letter (V, B), or undefined. */
export const farmByCode = (code) => byCode.get(code);

/** The first farm: the one the page opens with. */
export const defaultFarm = farms[0];
