// runStore.js — the Lab's kept runs (runRecord.js) in IndexedDB: one database, one object
// store of records keyed by their id. Where the browser refuses storage (a private window that
// keeps none, a sandboxed frame, storage turned off), openRunStore gives no store and a note
// saying what that means for the visitor, never an error.
import { errorMessage } from '../model/cut.js';

const DATABASE = 'valley-farm-lab';
const STORE = 'runs';
export const NO_STORAGE =
  'This browser keeps no data for this page here, so a reload or a closed tab loses a run: download its policy to keep it';

/** The request's result, or its error, as a promise. */
export function settle(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('the request failed'));
  });
}

class RunStore {
  constructor(db) {
    this.db = db;
  }

  #store(mode) {
    return this.db.transaction(STORE, mode).objectStore(STORE);
  }

  /** Every record kept (as stored: runRecord.js's readRecord checks each). */
  list() {
    return settle(this.#store('readonly').getAll());
  }

  put(record) {
    return settle(this.#store('readwrite').put(record));
  }

  remove(id) {
    return settle(this.#store('readwrite').delete(id));
  }
}

/** { store, note }: a store of runs, or null and a note saying why runs cannot be kept. */
export async function openRunStore(idb = globalThis.indexedDB) {
  if (!idb) return { store: null, note: `${NO_STORAGE}.` };
  try {
    const request = idb.open(DATABASE, 1); // throws where the origin may not store (a sandboxed frame)
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'id' });
    const db = await settle(request);
    return { store: new RunStore(db), note: null };
  } catch (err) {
    return { store: null, note: `${NO_STORAGE} (${errorMessage(err, 200)}).` };
  }
}
