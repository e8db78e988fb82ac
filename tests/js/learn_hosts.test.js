// What a host that runs learners away from the package's files relies on (the Lab's sandbox,
// web/src/sandbox/learnerBox.js): the learner core from bytes it is handed (useCoreBytes), a
// run's threads from a starter of its own (useThreadStarter, serveThread), and a gradient gone
// bad stopped at backward, naming its head.
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { CoreNet, Samples, loadCore } from '../../wasm/learn/core.js';
import { createLearner, useThreadStarter } from '../../wasm/learn/index.js';

const B = 'BackwardsValleyFarm-v0';
const weightsHash = (weights) => {
  const hash = createHash('sha256');
  for (const w of weights) hash.update(new Uint8Array(new Float32Array(w.values).buffer));
  return hash.digest('hex');
};

describe('a backward of a gradient that is not finite stops there, naming the head', () => {
  async function oneRow() {
    const core = await loadCore();
    const net = new CoreNet(core, { inputs: 6, hidden: [4], heads: [3, 1] });
    net.init(1);
    const samples = new Samples(core, 1, 2, { actions: 3 });
    const v = samples.views();
    v.idx.set([0, 4]);
    v.val.set([1, 1]);
    v.nnz[0] = 2;
    v.masks.set([1, 1, 1]);
    net.forward(samples, 1, 0);
    return { net, samples };
  }

  it('NaN in the value head (head 1) is refused with its row, head and unit, and adds nothing to the gradient', async () => {
    const { net, samples } = await oneRow();
    net.zeroGrad();
    const dout = net.outputGrad(1);
    dout.set([0.1, -0.2, 0.1, NaN]);
    expect(() => net.backward(samples, 1, 0)).toThrow(
      /backward: the gradient at the outputs is NaN at row 0, head 1 \(of 2: 3 \+ 1 units\), unit 0/,
    );
    expect(Array.from(net.grads()).every((g) => g === 0)).toBe(true);
    net.dispose();
  });

  it('Infinity in the logits (head 0, unit 2) is refused; a finite gradient passes', async () => {
    const { net, samples } = await oneRow();
    net.zeroGrad();
    net.outputGrad(1).set([0, 0, Infinity, 0]);
    expect(() => net.backward(samples, 1, 0)).toThrow(/Infinity at row 0, head 0 .*unit 2/);
    net.outputGrad(1).set([0.5, 0, 0, 1]);
    net.backward(samples, 1, 0);
    expect(Array.from(net.grads()).some((g) => g !== 0)).toBe(true);
    net.dispose();
  });
});

describe('the learner core from bytes it is handed (useCoreBytes)', () => {
  it('loads from the bytes, not from its file: bytes that are not WebAssembly fail the load', async () => {
    const bad = await import('../../wasm/learn/core.js?bad-bytes');
    bad.useCoreBytes(new Uint8Array([1, 2, 3, 4]).buffer);
    await expect(bad.loadCore()).rejects.toThrow(WebAssembly.CompileError);
    const good = await import('../../wasm/learn/core.js?good-bytes');
    const bytes = readFileSync(new URL('../../wasm/learn/learner.wasm', import.meta.url));
    good.useCoreBytes(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    const core = await good.loadCore();
    expect(core.memory).toBeInstanceOf(WebAssembly.Memory);
    expect(() => good.useCoreBytes('learner.wasm')).toThrow(/useCoreBytes takes the ArrayBuffer of learner.wasm/);
  });
});

describe("the host's check of each allocation in the learner core (useMemoryCheck)", () => {
  it("is asked before each allocation with its bytes and the core's memory; what it refuses is thrown, nothing allocated", async () => {
    const m = await import('../../wasm/learn/core.js?memory-check');
    const asked = [];
    let refuse = false;
    m.useMemoryCheck((bytes, memory) => {
      asked.push([bytes, memory]);
      if (refuse) throw new RangeError(`refused ${bytes} bytes`);
    });
    const core = await m.loadCore();
    new m.Samples(core, 10, 4, { actions: 3 });
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every(([bytes, memory]) => bytes > 0 && memory === core.memory)).toBe(true);
    // a replay memory of 2^28 samples, refused before the core grows for it
    refuse = true;
    const pages = core.memory.buffer.byteLength;
    expect(() => new m.Samples(core, 2 ** 28, 4, { actions: 3 })).toThrow(/^refused \d+ bytes$/);
    expect(core.memory.buffer.byteLength).toBe(pages);
    expect(() => m.useMemoryCheck('no')).toThrow(/useMemoryCheck takes a function/);
  });
});

describe("a run's threads from a starter of the host's (useThreadStarter)", () => {
  afterEach(() => useThreadStarter(null));

  it('starts every other thread with the starter and trains to the weights of the package Workers', async () => {
    const settings = { env: B, algo: 'reinforce', seed: 3, numEnvs: 12, minibatch: 100, threads: 3 };
    const run = async () => {
      const l = await createLearner(settings);
      await l.trainFor(12 * 40 * 2);
      const hash = weightsHash(l.policy().toJSON().weights);
      l.dispose();
      return hash;
    };
    const theirs = await run();
    let started = 0;
    useThreadStarter(async () => {
      started++;
      const w = new Worker(new URL('../../wasm/learn/threadWorker.js', import.meta.url));
      return {
        post: (msg, transfer) => w.postMessage(msg, transfer),
        listen: (onMessage, onError) => {
          w.on('message', onMessage);
          w.on('error', onError);
        },
        stop: () => w.terminate(),
      };
    });
    expect(await run()).toBe(theirs);
    expect(started).toBe(2); // threads 1 and 2; thread 0 is the caller's
    expect(() => useThreadStarter('threadWorker.js')).toThrow(/takes a function or null/);
  }, 120_000);
});
