// frames.js — what a policy sees over time: each env's last `history` frames stacked, oldest
// first (zeros before the episode began), so a policy that sees part of the farm can also see
// where it has just been. Frames keeps them dense (a policy playing one env); SparseFrames
// keeps only their nonzero features, as a rollout stores them for the learner core.
// A frame is what perception.js writes for one step.

/**
 * The policy's input for each env: its last `history` observations' features, oldest first,
 * zeros where the episode had not begun. frames is n × history × F; push(i, fresh) shifts
 * env i's frames and writes the newest from `fresh` (a Float32Array of F at `at`),
 * clearing the older ones when `fresh` opens an episode.
 */
export class Frames {
  constructor(n, history, F) {
    this.n = n;
    this.history = history;
    this.F = F;
    this.size = history * F;
    this.frames = new Float32Array(n * this.size);
  }

  push(i, fresh, at, newEpisode) {
    const row = i * this.size;
    const last = row + this.size - this.F;
    if (newEpisode) this.frames.fill(0, row, last);
    else this.frames.copyWithin(row, row + this.F, row + this.size);
    this.frames.set(fresh.subarray(at, at + this.F), last);
  }
}

/**
 * Frames (above) kept sparse, as the rollout stores them: each env's last `history` frames as
 * their nonzero (index, value) pairs, at most `nonzero` a frame, in a ring. write() gives
 * exactly the pairs of Frames' row without its zeros (frame h's indices shifted by h × F).
 */
export class SparseFrames {
  constructor(n, history, F, nonzero) {
    this.history = history;
    this.F = F;
    this.nonzero = nonzero;
    this.idx = new Int32Array(n * history * nonzero);
    this.val = new Float32Array(n * history * nonzero);
    this.count = new Int32Array(n * history);
    this.newest = new Int32Array(n); // env i's newest frame: slot i * history + newest[i]
  }

  /** Makes room for env i's next frame (forgetting the older ones when it opens an episode); returns its slot. */
  next(i, opening) {
    const H = this.history;
    if (opening) this.count.fill(0, i * H, (i + 1) * H);
    this.newest[i] = (this.newest[i] + 1) % H;
    return i * H + this.newest[i];
  }

  /**
   * Adds env i's next frame: what `sight` (perception.js) sees in row `row` of the flat
   * observations, after env i took `action` (or opening an episode).
   */
  see(i, sight, flat, row, action, opening) {
    const slot = this.next(i, opening);
    const at = slot * this.nonzero;
    this.count[slot] = sight.seeSparse(i, flat, row, opening ? -1 : action, opening, this.idx, this.val, at) - at;
  }

  /** How many nonzero features env i's frames have together (write()'s count). */
  size(i) {
    let n = 0;
    for (let h = 0; h < this.history; h++) n += this.count[i * this.history + h];
    return n;
  }

  /** Writes env i's frames, oldest first, as sample s of `v` (Samples' views), its pairs from idx/val[at]. */
  write(i, v, s, at) {
    const H = this.history;
    let k = at;
    for (let h = 0; h < H; h++) {
      const slot = i * H + ((this.newest[i] + 1 + h) % H);
      const shift = h * this.F;
      for (let j = slot * this.nonzero, end = j + this.count[slot]; j < end; j++) {
        v.idx[k] = this.idx[j] + shift;
        v.val[k++] = this.val[j];
      }
    }
    v.nnz[s] = k - at;
  }
}
