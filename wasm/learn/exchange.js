// exchange.js — how the threads of a run agree on numbers: the sum of every shard's gradient,
// and the sum of every shard's small statistics, each added in an order fixed by the shards
// alone, so that every thread holds the same bits whatever the number of threads and whatever
// the timing.
//
// A run's batch is cut into a fixed number of shards (threads.js hosts them, a few to a
// thread). Each shard's gradient is computed alone; the sum is a fixed binary tree over the
// shards ((g0 + g1) + (g2 + g3)) + … A thread adds the subtrees that lie wholly among its own
// shards; every other thread sends those to thread 0, which adds the rest of the tree and sends
// the sum back to each: a star, 2 (threads − 1) messages a sum. Not all to all (every thread
// sending to every other, threads × (threads − 1)): in Chromium each message between Workers
// leaves some of the browser's own memory behind, whatever it carries, until a late full
// collection, so the count of messages is what a run's memory grows by (docs/speed.md has the
// measurements). Any learner that can say "this shard's gradient" uses it (ppo.js, dqn.js, reinforce.js):
// keep(shard) after each shard's backward, then sum().

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
   * Thread `thread` of `threads` of a run of `shards` shards, with MessagePorts to the threads
   * it talks to (ports[t], null for the others): thread 0 has one to each other thread, every
   * other thread one to thread 0. For the gradients of `net` (a CoreNet: the sums are kept and
   * added in the learner core's memory, in float, with SIMD).
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
    // the tree's nodes this thread sums (what it sends thread 0), and on thread 0 a buffer for
    // each node the others send (where their sums are copied in)
    this.own = ownNodes(0, shards, this.first, this.end);
    this.sums = new Map(); // another thread's node lo * 1024 + hi -> a buffer its sum is copied into
    this.peers = [];
    ports.forEach((port, t) => {
      if (!port) return;
      const range = shardRange(t, threads, shards);
      // spare: the buffer that last came back, to send the next message in (none new a sum)
      const peer = { port, inbox: [], waiting: null, spare: null, nodes: ownNodes(0, shards, range.first, range.end) };
      if (thread === 0) for (const [lo, hi] of peer.nodes) this.sums.set(lo * 1024 + hi, buffer());
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
   * Node [lo, hi)'s sum, added in place: a node `known` already (received from another
   * thread) is where it says, a leaf its kept gradient, any other node its left child's buffer
   * once the right child's sum is added to it (left + right, in float). Returns where the sum
   * is. A sum overwrites what it adds up: the kept gradients are kept afresh for every sum.
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
    const grads = this.net.grads();
    if (this.thread !== 0) {
      // its nodes' sums to thread 0, in the buffer thread 0 last sent back; the whole sum back
      const [root] = this.peers;
      const length = this.own.length * n;
      const message = root.spare?.length === length ? root.spare : new Float32Array(length);
      root.spare = null;
      this.own.forEach(([lo, hi], j) => message.set(this.#view(this.#sum(lo, hi, new Map())), j * n));
      root.port.postMessage(message, [message.buffer]); // moved, not copied again
      const back = await received(root);
      grads.set(back.subarray(0, n));
      root.spare = back;
    } else {
      const known = new Map(); // node -> where the others' sums are copied in
      const parts = await Promise.all(this.peers.map(received));
      parts.forEach((part, j) => {
        this.peers[j].nodes.forEach(([lo, hi], k) => {
          const at = this.sums.get(lo * 1024 + hi);
          this.#view(at).set(part.subarray(k * n, (k + 1) * n));
          known.set(lo * 1024 + hi, at);
        });
      });
      grads.set(this.#view(this.#sum(0, this.shards, known)));
      parts.forEach((part, j) => {
        part.set(grads); // back in the buffer it came in (at least one node long)
        this.peers[j].port.postMessage(part, [part.buffer]);
      });
    }
    const norm = this.net.gradNorm();
    if (maxNorm > 0 && norm > maxNorm) this.net.scaleGrads(maxNorm / norm);
    return norm;
  }

  /**
   * The sums over every shard of a few numbers each: `mine` holds a vector for each of this
   * thread's shards, in order; every thread gets the same totals, added shard by shard (on
   * thread 0, which sends them to the others).
   */
  async sumNumbers(mine) {
    if (this.thread !== 0) {
      const [root] = this.peers;
      root.port.postMessage({ first: this.first, vectors: mine.map((v) => Array.from(v)) });
      return Float64Array.from(await received(root));
    }
    const width = mine[0]?.length ?? 0;
    const byShard = new Array(this.shards);
    mine.forEach((v, j) => (byShard[this.first + j] = v));
    for (const part of await Promise.all(this.peers.map(received))) part.vectors.forEach((v, j) => (byShard[part.first + j] = v));
    const total = new Float64Array(width);
    for (const v of byShard) for (let k = 0; k < width; k++) total[k] += v[k];
    const totals = Array.from(total);
    for (const peer of this.peers) peer.port.postMessage(totals);
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
