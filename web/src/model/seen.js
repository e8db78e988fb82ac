// seen.js — which farms' "how to play" cards the visitor has dismissed, kept in localStorage
// so each is shown once. A store that cannot be read or written (private mode, quota, a
// hand-edited value) loses nothing: the card is then shown once per visit.
import { defaultStorage } from './storage.js';

const KEY = 'valley-farm:how-to-seen';

export class SeenStore {
  constructor(storage = defaultStorage()) {
    this.storage = storage;
    this.session = new Set(); // dismissed in this visit, whatever the storage does
  }

  #stored() {
    try {
      const list = JSON.parse(this.storage?.getItem(KEY) ?? '[]');
      return Array.isArray(list) ? list.filter((x) => typeof x === 'string') : [];
    } catch {
      return [];
    }
  }

  has(id) {
    return this.session.has(id) || this.#stored().includes(id);
  }

  add(id) {
    this.session.add(id);
    const list = this.#stored();
    if (list.includes(id)) return;
    try {
      this.storage?.setItem(KEY, JSON.stringify([...list, id]));
    } catch {
      // not kept beyond this visit
    }
  }
}
