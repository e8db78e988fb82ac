// storage.js — the browser's localStorage, or null where reading it throws: a sandboxed
// iframe (opaque origin, as in embeds), or storage disabled by the visitor. Stores built on
// it keep their data for the visit only when it is null.
export function defaultStorage() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}
