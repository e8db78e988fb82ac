// exchange.js — how the threads of a run agree on numbers without a coordinator between them:
// the sum of every shard's gradient, and the sum of every shard's small statistics, each added
// in an order fixed by the shards alone, so that every thread holds the same bits whatever the
// number of threads and whatever the timing.
//
// A run's batch is cut into a fixed number of shards (threads.js hosts them, a few to a
// thread). Each shard's gradient is computed alone; the sum is a fixed binary tree over the
// shards ((g0 + g1) + (g2 + g3)) + … A thread adds the subtrees that lie wholly among its own
// shards and sends those to the other threads; every thread then adds the rest of the tree
// itself, in the same order. One message each way between two threads per sum, whatever the
// shards per thread. Any learner that can say "this shard's gradient" uses it (ppo.js, dqn.js,
// reinforce.js): keep(shard) after each shard's backward, then sum().

/** The next message a peer sent: at once if it has come, else when it does. */
function received(peer) {
  return peer.inbox.length ? peer.inbox.shift() : new Promise((resolve) => (peer.waiting = resolve));
}

/** The tree's nodes [lo, hi) that lie wholly in [a, b) and whose parent does not, left to right. */
function ownNodes(lo, hi, a, b, into = []) {
  if (hi <= a || lo >= b) return into;
  if (lo >= a && hi <= b) {
    into.push([lo, hi]);
    return into;
  }
  const mid = (lo + hi) >> 1;
  ownNodes(lo, mid, a, b, into);
  ownNodes(mid, hi, a, b, into);
  return into;
}

export class Exchange {
  /**
   * Thread `thread` of `threads` of a run of `shards` shards, with a MessagePort to each other
   * thread (ports[t], null for itself), for the gradients of `net` (a CoreNet: the sums are
   * kept and added in the learner core's memory, in float, with SIMD).
   */
  constructor({ shards, thread = 0, threads = 1, ports = [], net }) {
    Object.assign(this, { shards, thread, net, core: net.core, size: net.count }, shardRange(thread, threads, shards));
    const n = this.size;
    this.bytes = 4 * n;
    this.blocks = [];
    const buffer = () => {
      const ptr = this.core.alloc(this.bytes);
      this.blocks.push(ptr);
      return ptr;
    };
    this.kept = Array.from({ length: this.end - this.first }, buffer); // its shards' gradients
    // the tree's nodes this thread sums and sends (its message), and a buffer for each node the
    // others send (their nodes: where their sums are copied in)
    this.own = ownNodes(0, shards, this.first, this.end);
    this.message = new Float32Array(this.own.length * n);
    this.sums = new Map(); // another thread's node lo * 1024 + hi -> a buffer its sum is copied into
    this.peers = [];
    ports.forEach((port, t) => {
      if (!port) return;
      const range = shardRange(t, threads, shards);
      // spare: the last message it sent, once read, to send ours back in (no new buffer a sum)
      const peer = { port, inbox: [], waiting: null, spare: null, nodes: ownNodes(0, shards, range.first, range.end) };
      for (const [lo, hi] of peer.nodes) this.sums.set(lo * 1024 + hi, buffer());
      port.onmessage = (e) => {
        if (peer.waiting) peer.waiting(e.data);
        else peer.inbox.push(e.data);
        peer.waiting = null;
      };
      this.peers.push(peer);
    });
  }

  #view(ptr) {
    return this.core.view(Float32Array, ptr, this.size);
  }

  /** Keeps shard `shard`'s gradient (the net's, just computed from that shard alone). */
  keep(shard) {
    this.#view(this.kept[shard - this.first]).set(this.net.grads());
  }

  /**
   * Node [lo, hi)'s sum, added in place: a node `known` already (summed, or received from
   * another thread) is where it says, a leaf its kept gradient, any other node its left
   * child's buffer once the right child's sum is added to it (left + right, in float).
   * Returns where the sum is. A sum overwrites what it adds up: the kept gradients are kept
   * afresh for every sum.
   */
  #sum(lo, hi, known) {
    const at = known.get(lo * 1024 + hi);
    if (at !== undefined) return at;
    if (hi - lo === 1) return this.kept[lo - this.first];
    const mid = (lo + hi) >> 1;
    const left = this.#sum(lo, mid, known);
    this.core.addFloats(left, this.#sum(mid, hi, known), this.size);
    return left;
  }

  /**
   * Makes the net's gradient the sum of every shard's kept gradient, in the tree's order (the
   * same bits on every thread), then clips it to a norm of `maxNorm` (0: no clipping); returns
   * its norm before clipping.
   */
  async sum({ maxNorm = 0 } = {}) {
    const n = this.size;
    const known = new Map(); // node -> where its sum is: its own (sent), the others' (received)
    if (this.peers.length) {
      this.own.forEach(([lo, hi], j) => {
        const at = this.#sum(lo, hi, known);
        known.set(lo * 1024 + hi, at);
        this.message.set(this.#view(at), j * n);
      });
      for (const peer of this.peers) {
        const copy = peer.spare?.length === this.message.length ? peer.spare : new Float32Array(this.message.length);
        peer.spare = null;
        copy.set(this.message);
        peer.port.postMessage(copy, [copy.buffer]); // moved, not copied again
      }
      const parts = await Promise.all(this.peers.map(received));
      parts.forEach((part, j) => {
        this.peers[j].nodes.forEach(([lo, hi], k) => {
          const at = this.sums.get(lo * 1024 + hi);
          this.#view(at).set(part.subarray(k * n, (k + 1) * n));
          known.set(lo * 1024 + hi, at);
        });
        this.peers[j].spare = part; // read; our next message to it goes in it
      });
    }
    this.net.grads().set(this.#view(this.#sum(0, this.shards, known)));
    const norm = this.net.gradNorm();
    if (maxNorm > 0 && norm > maxNorm) this.net.scaleGrads(maxNorm / norm);
    return norm;
  }

  /**
   * The sums over every shard of a few numbers each: `mine` holds a vector for each of this
   * thread's shards, in order; every thread gets the same totals, added shard by shard.
   */
  async sumNumbers(mine) {
    const width = mine[0]?.length ?? 0;
    const byShard = new Array(this.shards);
    mine.forEach((v, j) => (byShard[this.first + j] = v));
    if (this.peers.length) {
      const message = { first: this.first, vectors: mine.map((v) => Array.from(v)) };
      for (const peer of this.peers) peer.port.postMessage(message);
      for (const part of await Promise.all(this.peers.map(received))) part.vectors.forEach((v, j) => (byShard[part.first + j] = v));
    }
    const total = new Float64Array(width);
    for (const v of byShard) for (let k = 0; k < width; k++) total[k] += v[k];
    return total;
  }

  close() {
    for (const peer of this.peers) peer.port.close();
    for (const ptr of this.blocks) this.core.x.free(ptr);
    this.blocks = [];
  }
}

/** The shards thread `thread` of `threads` hosts: [first, end), in turn and as even as can be. */
export function shardRange(thread, threads, shards) {
  return { first: Math.floor((thread * shards) / threads), end: Math.floor(((thread + 1) * shards) / threads) };
}
