// aliases.mjs — 'valley-farm' and its subpaths ('valley-farm/agents', ...) resolved to the
// source files in this repository, read from package.json "exports" (the one list of the
// package's entry points), for Vite and Vitest.
import { readFileSync } from 'node:fs';

export function packageAliases(root) {
  const { name, exports } = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
  return Object.entries(exports).map(([subpath, target]) => ({
    find: new RegExp(`^${name}${subpath.slice(1).replace(/[/.]/g, '\\$&')}$`),
    replacement: `${root}${(typeof target === 'string' ? target : target.default).replace(/^\.\//, '')}`,
  }));
}
