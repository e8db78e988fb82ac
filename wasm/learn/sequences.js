// sequences.js — a recurrent policy's bookkeeping in a rollout, as CleanRL's ppo_atari_lstm.py
// keeps it: each env's state carried from step to step (from zero where its episode starts),
// the states every env had when the rollout began, and minibatches of whole env sequences, each
// starting from that state, so that a minibatch recomputes exactly what the rollout computed
// (the learner core gives a sequence the same bits whether it runs alone, beside others, or a
// step at a time). ppo.js holds one for each shard of a recurrent run, and a RolloutRows (the
// same calls, for a network without a recurrent layer: each step computed alone) otherwise.
//
// A rollout of T steps of n envs is stored step-major (row t × n + i is env i's step t); the
// learner core reads sequences time-major (sample t × B + b is step t of sequence b).

export class RolloutStates {
  /** For `net` (a CoreNet with a recurrent layer), n envs, rollouts of T steps. */
  constructor(net, n, T) {
    const U = net.stateSize;
    Object.assign(this, { net, n, T, U });
    this.now = new Float32Array(n * U); // each env's state before its next step
    this.first = new Float32Array(n * U); // each env's state before the rollout's first step
    this.starts = new Uint8Array(T * n); // by row: 1 where the env's episode starts at that step
    this.rows = new Int32Array(T * n); // a minibatch's rows, time-major
    this.batchStarts = new Uint8Array(T * n);
    this.batchFirst = new Float32Array(n * U);
    this.opening = new Uint8Array(n); // peek's starts
  }

  /** A rollout begins: its sequences start from the states now. */
  begin() {
    this.first.set(this.now);
  }

  /**
   * The outputs of every env's step t (rows t × n + i of `samples`, written), each env's state
   * carried: from zero where its episode opens (envs.opening(i)), kept for its next step.
   */
  step(samples, t, envs) {
    const { n } = this;
    const at = t * n;
    const v = samples.views();
    for (let i = 0; i < n; i++) {
      v.rows[i] = at + i;
      this.starts[at + i] = envs.opening(i) ? 1 : 0;
    }
    return this.net.forwardSeq(samples, 1, n, samples.rows, {
      starts: this.starts.subarray(at, at + n),
      state: this.now,
      finalState: this.now,
    });
  }

  /** The outputs of rows [at, at + n) (each env's next input) from the states now, which stay. */
  peek(samples, at, envs) {
    const { n } = this;
    const v = samples.views();
    for (let i = 0; i < n; i++) {
      v.rows[i] = at + i;
      this.opening[i] = envs.opening(i) ? 1 : 0;
    }
    return this.net.forwardSeq(samples, 1, n, samples.rows, { starts: this.opening, state: this.now });
  }

  /** Env i's episode ended (or every env's, i undefined): its next state starts from zero. */
  forget(i) {
    if (i === undefined) this.now.fill(0);
    else this.now.fill(0, i * this.U, (i + 1) * this.U);
  }

  /**
   * Minibatch part: the whole sequences of envs order[from, from + B) (their T steps each), in
   * samples.rows, with their episode starts and first states. Returns the rows, time-major.
   */
  #gather(samples, order, from, B) {
    const { n, T, U } = this;
    const v = samples.views();
    for (let b = 0; b < B; b++) {
      const i = order[from + b];
      this.batchFirst.set(this.first.subarray(i * U, (i + 1) * U), b * U);
      for (let t = 0; t < T; t++) {
        const row = t * n + i;
        v.rows[t * B + b] = row;
        this.rows[t * B + b] = row;
        this.batchStarts[t * B + b] = this.starts[row];
      }
    }
    return this.rows.subarray(0, T * B);
  }

  /**
   * The outputs of envs order[from, from + B)'s whole sequences: { out, rows, n } (n = T × B
   * rows, time-major, in samples.rows and returned as `rows`).
   */
  forward(samples, order, from, B) {
    const rows = this.#gather(samples, order, from, B);
    const out = this.net.forwardSeq(samples, this.T, B, samples.rows, {
      starts: this.batchStarts.subarray(0, this.T * B),
      state: this.batchFirst.subarray(0, B * this.U),
    });
    return { out, rows, n: this.T * B };
  }

  /** Backward through those sequences' steps, from the net's outputGrad. */
  backward(samples, B) {
    this.net.backwardSeq(samples, this.T, B, samples.rows);
  }

  /** The states now, env by env (a checkpoint's: they were computed with earlier weights). */
  save() {
    return Array.from(this.now);
  }

  restore(values) {
    this.now.set(values);
  }
}

/** A rollout of a network without a recurrent layer, with RolloutStates's calls: each step computed alone, nothing carried. */
export class RolloutRows {
  /** For `net` (a CoreNet without a recurrent layer) and n envs. */
  constructor(net, n) {
    Object.assign(this, { net, n });
  }

  begin() {}

  /** The outputs of every env's step t (rows t × n + i of `samples`, written). */
  step(samples, t) {
    return this.peek(samples, t * this.n);
  }

  /** The outputs of rows [at, at + n). */
  peek(samples, at) {
    const rows = samples.views().rows;
    for (let i = 0; i < this.n; i++) rows[i] = at + i;
    return this.net.forward(samples, this.n, samples.rows);
  }

  forget() {}

  /** The outputs of samples order[from, from + B): { out, rows, n = B }. */
  forward(samples, order, from, B) {
    samples.views().rows.set(order.subarray(from, from + B));
    const out = this.net.forward(samples, B, samples.rows);
    return { out, rows: samples.views().rows, n: B }; // views after forward, which may have grown the core's memory
  }

  /** Backward through those samples, from the net's outputGrad. */
  backward(samples, B) {
    this.net.backward(samples, B, samples.rows);
  }

  /** Nothing to save: a checkpoint's shard holds no states. */
  save() {
    return undefined;
  }

  restore() {}
}

/** How `net` goes through a rollout of T steps of n envs: a RolloutStates if it has a recurrent layer, else a RolloutRows. */
export const networkRollout = (net, n, T) => (net.stateSize > 0 ? new RolloutStates(net, n, T) : new RolloutRows(net, n));
