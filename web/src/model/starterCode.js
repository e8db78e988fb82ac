// starterCode.js — what the agent editor holds before the visitor changes it: each farm's
// three-line agent (its adapter's starterCode), which runs as is and shows the shape of act().
import { farms } from './farms/index.js';

export const starterCode = Object.fromEntries(farms.map((f) => [f.id, f.starterCode]));
