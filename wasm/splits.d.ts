// Types of `valley-farm/splits`: the named seed ranges of the evaluation protocol.
export interface SeedRange {
  readonly first: number;
  readonly count: number;
  readonly last: number;
}
/** test: 1,000,000 … 1,000,999; validation: 2,000,000 … 2,000,199; train: every other seed. */
export const SPLITS: { readonly test: SeedRange; readonly validation: SeedRange };
export function splitSeeds(name: 'test' | 'validation'): number[];
export function splitOf(seed: number | bigint): 'test' | 'validation' | 'train';
