// runLocks.js — which tab shows which kept run. A tab holds a Web Lock named after the run it
// shows (a new run, or one it took back from storage) for as long as it shows it, and the
// browser lets go when the tab closes; a tab that reloads offers only the runs no other tab
// holds, so two tabs never resume the same run. Without Web Locks a tab acts as if it were the
// only one.
const PREFIX = 'valley-farm-lab-run:';

export class RunLocks {
  #release = null;

  /** locks: navigator.locks, or null. */
  constructor(locks) {
    this.locks = locks;
  }

  /** The ids of the runs other tabs hold. */
  async held() {
    try {
      const { held = [] } = (await this.locks?.query()) ?? {};
      return new Set(
        held
          .map((l) => l.name)
          .filter((n) => n?.startsWith(PREFIX))
          .map((n) => n.slice(PREFIX.length)),
      );
    } catch {
      return new Set();
    }
  }

  /**
   * Holds run `id` (letting go of the one held before) until the next hold or letGo; with
   * ifFree, only if no other tab holds it. Resolves whether it holds it.
   */
  hold(id, { ifFree = false } = {}) {
    this.letGo();
    if (!this.locks) return Promise.resolve(true);
    return new Promise((resolve) => {
      this.locks
        .request(`${PREFIX}${id}`, { ifAvailable: ifFree }, (lock) => {
          if (!lock) return resolve(false);
          resolve(true);
          return new Promise((release) => (this.#release = release));
        })
        .catch(() => resolve(true)); // locks refused here: a tab on its own
    });
  }

  letGo() {
    this.#release?.();
    this.#release = null;
  }
}
