// emitter.js — the subscribe/inform pattern every model uses (as in preact-todomvc): the
// model changes itself, then calls inform(); components subscribe and re-render.
export class Emitter {
  #listeners = new Set();

  /** Calls fn(model) after every change; returns a function that unsubscribes. */
  subscribe(fn) {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }

  inform() {
    for (const fn of [...this.#listeners]) fn(this);
  }
}
