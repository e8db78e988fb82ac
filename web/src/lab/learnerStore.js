// learnerStore.js — the visitor's learners ("Your learner") kept in IndexedDB, one for each
// template it was written from, so that a reload or a closed tab keeps what they wrote. The
// editor saves as the visitor types (labModel.js editCode). A record read back is data: its
// template, its text's type and size, and its time are checked before the Lab shows it; its
// code runs only in the sandbox, and only when the visitor presses Start.
//
// A record: { template: 'reinforce' | 'ppo' | 'dqn', text, savedAt (ms since 1970) }.
import { errorMessage } from '../model/cut.js';
import { settle } from './runStore.js';
import { TEMPLATES } from './templateNames.js';

const DATABASE = 'valley-farm-lab-learners';
const STORE = 'learners';
/** The longest learner kept or opened: over ten times the longest template (PPO's, 33,000). */
export const MAX_LEARNER_CHARS = 400_000;

/** The record checked ({ template, text, savedAt }), or an Error saying what is wrong with it. */
export function readLearner(raw) {
  if (!raw || typeof raw !== 'object') return new Error('a kept learner is not a record');
  if (!TEMPLATES.includes(raw.template)) return new Error(`a kept learner's template is not one of ${TEMPLATES.join(', ')}`);
  if (typeof raw.text !== 'string' || raw.text.length > MAX_LEARNER_CHARS)
    return new Error(`a kept learner's text is not text of at most ${MAX_LEARNER_CHARS.toLocaleString('en')} characters`);
  if (!Number.isFinite(raw.savedAt)) return new Error("a kept learner's time is not a number");
  return { template: raw.template, text: raw.text, savedAt: raw.savedAt };
}

class LearnerStore {
  constructor(db) {
    this.db = db;
  }

  #store(mode) {
    return this.db.transaction(STORE, mode).objectStore(STORE);
  }

  /** The learners kept, checked: { learners: { [template]: record }, errors: [why a record was skipped] }. */
  async list() {
    const learners = {};
    const errors = [];
    for (const raw of await settle(this.#store('readonly').getAll())) {
      const r = readLearner(raw);
      if (r instanceof Error) errors.push(r.message);
      else learners[r.template] = r;
    }
    return { learners, errors };
  }

  put(record) {
    const r = readLearner(record);
    if (r instanceof Error) return Promise.reject(r);
    return settle(this.#store('readwrite').put(r));
  }

  remove(template) {
    return settle(this.#store('readwrite').delete(template));
  }
}

/** { store, note }: the store of learners, or null and a note saying why none are kept. */
export async function openLearnerStore(idb = globalThis.indexedDB) {
  const none = 'This browser keeps no data for this page here, so your learner is lost on reload: Download .js to keep it';
  if (!idb) return { store: null, note: `${none}.` };
  try {
    const request = idb.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'template' });
    return { store: new LearnerStore(await settle(request)), note: null };
  } catch (err) {
    return { store: null, note: `${none} (${errorMessage(err, 200)}).` };
  }
}
