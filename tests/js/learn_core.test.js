// The learner core (wasm/learn/core.js over core/learn/net.c) and the learners on it: the core
// knows no loss, so PPO's and cloning's gradients at the network's outputs (ppo.js, cloning.js)
// are checked against the gradients of the core that computed those losses in C (a fixture
// made by it); a seeded run gives the same weights on any number of threads and resumes to
// them from a checkpoint; policies saved before still play the same. (tests/c/test_learn.c
// checks backward against finite differences.)
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CoreNet, Samples, loadCore } from '../../wasm/learn/core.js';
import { createLearner, loadPolicy } from '../../wasm/learn/index.js';
import { lossGradient } from '../../wasm/learn/ppo.js';
import { cloningGradient } from '../../wasm/learn/cloning.js';
import { seededRandom } from '../../wasm/rng.js';
import { evaluate } from '../../wasm/evaluate.js';
import { make } from '../../wasm/index.js';

const V = 'ValleyFarm-v0';
const B = 'BackwardsValleyFarm-v0';
const fixture = (name) => JSON.parse(readFileSync(new URL(`fixtures/${name}`, import.meta.url), 'utf8'));

/** The sha-256 of a learner's policy weights, as float32 bytes in the policy file's order. */
function weightsHash(learner) {
  const hash = createHash('sha256');
  for (const w of learner.policy().toJSON().weights) hash.update(new Uint8Array(new Float32Array(w.values).buffer));
  return hash.digest('hex');
}

/** The largest difference of two arrays over the largest value of the second: 1e-6 is float rounding. */
const drift = (a, b) => {
  let worst = 0;
  let largest = 0;
  for (let k = 0; k < b.length; k++) {
    worst = Math.max(worst, Math.abs(a[k] - b[k]));
    largest = Math.max(largest, Math.abs(b[k]));
  }
  return worst / largest;
};

describe("the core that knows no loss gives the gradients the core that knew PPO's gave", () => {
  // core-624fbe8-grads.json was made at commit 624fbe8, whose core computed PPO's and cloning's
  // losses in C (vfl_ppo_grad, vfl_clone_grad): a fixed network, batch and loss settings, and the
  // outputs and gradients it gave for them.
  const f = fixture('core-624fbe8-grads.json');
  const A = f.actions;
  const n = f.batch.actions.length;

  async function setUp() {
    const core = await loadCore();
    const net = new CoreNet(core, { inputs: f.inputs, hidden: f.hidden, heads: [A, 1], headInit: [0.01, 0] });
    net.params().set(f.params);
    const stride = Math.max(...f.batch.idx.map((x) => x.length));
    const samples = new Samples(core, n, stride, { actions: A });
    const v = samples.views();
    f.batch.idx.forEach((idx, s) => {
      v.idx.set(idx, s * stride);
      v.val.set(f.batch.val[s], s * stride);
      v.nnz[s] = idx.length;
      v.masks.set(f.batch.masks[s], s * A);
      v.rows[s] = s;
    });
    const batch = { A, actions: f.batch.actions, oldLogp: f.batch.oldLogp, advantages: f.batch.advantages, returns: f.batch.returns };
    return { net, samples, batch, rows: Int32Array.from({ length: n }, (_, k) => k) };
  }

  it('forward gives the same outputs, to the bit', async () => {
    const { net, samples } = await setUp();
    const out = net.forward(samples, n, samples.rows);
    const logits = Array.from({ length: n * A }, (_, k) => out[Math.floor(k / A) * (A + 1) + (k % A)]);
    const values = Array.from({ length: n }, (_, s) => out[s * (A + 1) + A]);
    expect(logits).toEqual(f.forward.logits);
    expect(values).toEqual(f.forward.values);
    net.dispose();
  });

  it("PPO's loss (lossGradient) back through the core: the same gradient and loss terms within float rounding", async () => {
    const { net, samples, batch, rows } = await setUp();
    const out = net.forward(samples, n, samples.rows);
    const sums = new Float64Array(6);
    const { clip, valueCoef, entropyCoef, scale } = f.loss;
    lossGradient(
      out,
      net.policy(samples, n, samples.rows),
      net.outputGrad(n),
      n,
      rows,
      batch,
      { clip, valueCoef, entropyCoef },
      scale,
      sums,
    );
    net.zeroGrad();
    net.backward(samples, n, samples.rows);
    expect(drift(net.grads(), f.ppo.grads)).toBeLessThan(1e-6);
    expect(Math.max(...f.ppo.grads.map(Math.abs))).toBeGreaterThan(0.1); // a gradient worth comparing
    expect(sums[0]).toBe(n);
    for (let k = 0; k < 3; k++) expect(Math.abs(sums[k + 1] - f.ppo.sums[k]) / Math.abs(f.ppo.sums[k])).toBeLessThan(1e-5);
    net.dispose();
  });

  it("cloning's loss (cloningGradient) back through the core: the same gradient and loss terms within float rounding", async () => {
    const { net, samples, batch, rows } = await setUp();
    const out = net.forward(samples, n, samples.rows);
    const { valueCoef, scale } = f.loss;
    const [count, crossEntropy, squares] = cloningGradient(
      out,
      net.policy(samples, n, samples.rows),
      net.outputGrad(n),
      n,
      rows,
      batch,
      scale,
      valueCoef,
    );
    net.zeroGrad();
    net.backward(samples, n, samples.rows);
    expect(drift(net.grads(), f.cloning.grads)).toBeLessThan(1e-6);
    expect(count).toBe(n);
    expect(Math.abs(crossEntropy - f.cloning.sums[0]) / f.cloning.sums[0]).toBeLessThan(1e-5);
    expect(Math.abs(squares - f.cloning.sums[1]) / f.cloning.sums[1]).toBeLessThan(1e-5);
    net.dispose();
  });

  it('policy(): the masked softmax gives illegal actions exactly 0 and the legal ones sum to 1', async () => {
    const { net, samples } = await setUp();
    net.forward(samples, n, samples.rows);
    const { logp, p, entropy } = net.policy(samples, n, samples.rows);
    for (let s = 0; s < n; s++) {
      let sum = 0;
      let h = 0;
      for (let a = 0; a < A; a++) {
        if (!f.batch.masks[s][a]) {
          expect(p[s * A + a]).toBe(0);
          expect(logp[s * A + a]).toBe(-Infinity);
        } else {
          sum += p[s * A + a];
          h -= p[s * A + a] * logp[s * A + a];
          expect(Math.abs(Math.exp(logp[s * A + a]) - p[s * A + a])).toBeLessThan(1e-6);
        }
      }
      expect(Math.abs(sum - 1)).toBeLessThan(1e-6);
      expect(Math.abs(entropy[s] - h)).toBeLessThan(1e-5);
    }
    net.dispose();
  });

  it('refuses a network out of range, and rows and counts out of range, saying what is wrong', async () => {
    const core = await loadCore();
    expect(() => new CoreNet(core, { inputs: 10, hidden: [0], heads: [3, 1] })).toThrow(/a hidden layer's units must be from 1 to 4096/);
    expect(() => new CoreNet(core, { inputs: 10, hidden: [8], heads: [1000, 1] })).toThrow(/at most 64/);
    expect(() => new CoreNet(core, { inputs: 10, hidden: [8], activation: 'sigmoid', heads: [3] })).toThrow(/'tanh' or 'relu'/);
    const { net, samples } = await setUp();
    samples.views().rows[0] = n; // past the samples there are
    expect(() => net.forward(samples, 1, samples.rows)).toThrow(/forward: a row, count or index out of range/);
    net.forward(samples, 2, 0);
    expect(() => net.backward(samples, 3, 0)).toThrow(/backward \(after a forward of the same rows\)/);
    net.dispose();
  });
});

describe('PPO on any number of threads', () => {
  const small = { algo: 'ppo', imitate: 0, numEnvs: 8, nSteps: 16, minibatch: 64 };

  it('a seeded run trains to the same weights on 1, 2 and 4 threads (8 shards), and again on each', async () => {
    const hashes = [];
    for (const threads of [1, 2, 4, 1, 2]) {
      const learner = await createLearner({ env: V, ...small, seed: 3, threads, anneal: 2048 });
      await learner.trainFor(128 * 9);
      hashes.push(weightsHash(learner));
      learner.dispose();
    }
    expect(new Set(hashes).size).toBe(1);
    const other = await createLearner({ env: V, ...small, seed: 4, threads: 2 });
    await other.trainFor(128 * 9);
    expect(weightsHash(other)).not.toBe(hashes[0]); // the seed matters
    other.dispose();
  }, 120_000);

  it('a seeded run trains to the same weights on 8 threads (one shard each, all sums through thread 0) as on 1', async () => {
    const hashes = [];
    for (const threads of [1, 8]) {
      const learner = await createLearner({ env: V, ...small, seed: 6, threads, anneal: 2048 });
      await learner.trainFor(128 * 9);
      hashes.push(weightsHash(learner));
      learner.dispose();
    }
    expect(hashes[1]).toBe(hashes[0]);
  }, 120_000);

  it('71 updates in three calls, the envs restarted every 5 and the step size annealed: the same bits on 1 and 3 threads', async () => {
    const hashes = [];
    for (const threads of [1, 3]) {
      const learner = await createLearner({
        env: B,
        algo: 'ppo',
        seed: 5,
        numEnvs: 12,
        nSteps: 16,
        imitate: 0,
        threads,
        restartEvery: 192 * 5,
        anneal: 192 * 80,
      });
      await learner.trainFor(192 * 71);
      expect(learner.progress().steps).toBe(192 * 71);
      hashes.push(weightsHash(learner));
      learner.dispose();
    }
    expect(hashes[1]).toBe(hashes[0]);
  }, 120_000);

  it('a run saved between calls and resumed on another number of threads ends with the weights of the unbroken run', async () => {
    const settings = { env: B, ...small, seed: 7, imitate: 6, imitationEpochs: 2 };
    const unbroken = await createLearner({ ...settings, threads: 2 });
    await unbroken.trainFor(128 * 7);
    const expected = weightsHash(unbroken);
    const episodes = unbroken.progress().episodes;
    unbroken.dispose();
    const first = await createLearner({ ...settings, threads: 1 });
    expect(await first.checkpoint()).toBe(null); // cloning is not done: nothing to save yet
    await first.trainFor(128 * 3);
    const saved = JSON.parse(JSON.stringify(await first.checkpoint())); // as a file keeps it
    first.dispose();
    const resumed = await createLearner({ ...settings, threads: 4 });
    await resumed.restore(saved);
    await resumed.trainFor(128 * 4);
    expect(weightsHash(resumed)).toBe(expected);
    expect(resumed.progress().episodes).toBe(episodes);
    resumed.dispose();
  }, 120_000);

  it('trainFor with `until` stops in the cloning phase when the time passes, and the run goes on to the bits of a run without it', async () => {
    const settings = { env: V, ...small, seed: 2, imitate: 24, imitationEpochs: 3, threads: 2 };
    const whole = await createLearner(settings);
    await whole.trainFor(256);
    const expected = weightsHash(whole);
    whole.dispose();
    const sliced = await createLearner(settings);
    let calls = 0;
    let stoppedWhileCloning = 0;
    while (sliced.progress().steps < 256) {
      const p = await sliced.trainFor(256 - sliced.progress().steps, { until: performance.now() }); // the time has passed at once
      calls++;
      if (p.steps === 0 && p.imitation?.phase) stoppedWhileCloning++;
    }
    expect(stoppedWhileCloning).toBeGreaterThan(2); // every planner episode, every minibatch, a call
    expect(weightsHash(sliced)).toBe(expected);
    expect(calls).toBeGreaterThan(stoppedWhileCloning);
    sliced.dispose();
  }, 120_000);

  it('reports its threads and shards, and the approximate KL, clipped share and gradient norm', async () => {
    const learner = await createLearner({ env: B, ...small, seed: 1, threads: 2 });
    const p = await learner.trainFor(128);
    expect(p).toMatchObject({ threads: 2, shards: 8 });
    for (const k of ['policy', 'value', 'entropy', 'approxKl', 'clipFraction', 'gradNorm'])
      expect(Number.isFinite(p.losses[k]), k).toBe(true);
    expect(p.losses.gradNorm).toBeGreaterThan(0);
    expect(p.losses.clipFraction).toBeGreaterThanOrEqual(0);
    expect(p.losses.clipFraction).toBeLessThanOrEqual(1);
    learner.dispose();
  });

  it('maxGradNorm scales every minibatch gradient down to it: a tiny one changes the weights, 1e6 does not', async () => {
    const hashOf = async (maxGradNorm) => {
      const learner = await createLearner({ env: B, ...small, seed: 1, threads: 1, maxGradNorm });
      await learner.trainFor(256);
      const h = weightsHash(learner);
      learner.dispose();
      return h;
    };
    const free = await hashOf(0);
    expect(await hashOf(1e6)).toBe(free);
    expect(await hashOf(1e-3)).not.toBe(free);
  }, 60_000);

  it('with 2 threads, a short seeded run plays far better than random on the validation seeds', async () => {
    const learner = await createLearner({ env: B, algo: 'ppo', imitate: 0, seed: 1, threads: 2 });
    await learner.trainFor(4096 * 24);
    const r = await evaluate(learner.policy(), { env: B, split: 'validation', episodes: 100 });
    expect(r.mean).toBeGreaterThan(3.45 + 5); // random plays about 3.45
    learner.dispose();
  }, 120_000);

  it('refuses threads 0, 10^6, NaN or 1.5 and shards 0, with what is allowed; fewer envs than shards make one shard an env', async () => {
    for (const bad of [0, 1e6, NaN, 1.5])
      await expect(createLearner({ env: V, algo: 'ppo', imitate: 0, threads: bad })).rejects.toThrow(
        /threads must be a whole number from 1 to 16/,
      );
    await expect(createLearner({ env: V, algo: 'ppo', imitate: 0, shards: 0 })).rejects.toThrow(
      /shards must be a whole number from 1 to 64/,
    );
    const few = await createLearner({ env: V, algo: 'ppo', imitate: 0, numEnvs: 3, nSteps: 4, threads: 2 });
    expect(few.config.shards).toBe(3);
    expect((await few.trainFor(12)).shards).toBe(3);
    few.dispose();
  });
});

describe('policies saved before the core knew no loss', () => {
  // ppo-policies-624fbe8.json: two small PPO policies trained and saved at commit 624fbe8, and
  // the actions each played then on two episodes, greedy and sampling.
  const f = fixture('ppo-policies-624fbe8.json');
  for (const env of [B, V])
    it(`${env}: load and play the actions they played then, greedy and sampling`, async () => {
      const { policy: json, plays } = f[env];
      for (const act of ['greedy', 'sample']) {
        const policy = await loadPolicy({ ...json, act });
        const e = await make(env);
        for (const { seed, actions } of plays[act]) {
          let { observation, info } = e.reset({ seed });
          policy.reset();
          const played = [];
          for (let t = 0; t < actions.length; t++) {
            const a = policy.act(observation, { ...info, legal: e.legalActions() });
            played.push(a);
            const r = e.step(a);
            ({ observation, info } = r);
          }
          expect(played, `${act}, seed ${seed}`).toEqual(actions);
        }
        e.close();
        policy.dispose();
      }
    });
});

describe('the rollout keeps its inputs sparse', () => {
  it('sparse frames hold exactly the nonzero features of the dense frames, for history and memory', async () => {
    const { Frames, SparseFrames } = await import('../../wasm/learn/frames.js');
    const { perception } = await import('../../wasm/learn/perception.js');
    const { makeVec } = await import('../../wasm/index.js');
    for (const env of [V, B]) {
      const n = 3;
      const history = 3;
      const seeing = perception(env, 1);
      const W = seeing.width;
      const dense = new Frames(n, history, W);
      const fresh = new Float32Array(W);
      const sparse = new SparseFrames(n, history, W, Math.min(W, seeing.nonzero));
      const [denseSight, sparseSight] = [seeing.create(n), seeing.create(n)];
      const core = await loadCore();
      const one = new Samples(core, 2, history * W);
      const vec = await makeVec(env, n);
      let r = vec.reset({ seed: 11 });
      const random = seededRandom(5);
      let actions = null;
      let compared = 0;
      for (let t = 0; t < 120; t++) {
        for (let i = 0; i < n; i++) {
          const opening = actions === null || r.terminated[i] === 1;
          const action = opening ? -1 : actions[i];
          denseSight.see(i, r.observations, i, action, opening, fresh, 0);
          dense.push(i, fresh, 0, opening);
          sparse.see(i, sparseSight, r.observations, i, action, opening);
          one.putDense(0, dense.frames, i * dense.size, dense.size);
          sparse.write(i, one.views(), 1, one.first(1));
          expect(sparse.size(i)).toBe(one.views().nnz[1]);
          const v = one.views();
          const pairs = (s) => Array.from({ length: v.nnz[s] }, (_, j) => [v.idx[s * one.stride + j], v.val[s * one.stride + j]]);
          expect(pairs(1)).toEqual(pairs(0));
          compared += v.nnz[0];
        }
        actions = Int32Array.from({ length: n }, (_, i) => {
          const legal = [...r.masks.subarray((i * r.masks.length) / n, ((i + 1) * r.masks.length) / n)].flatMap((m, a) => (m ? [a] : []));
          return legal[Math.floor(random() * legal.length)];
        });
        r = vec.step(actions);
      }
      expect(compared).toBeGreaterThan(1000);
      vec.close();
      one.dispose();
    }
  });
});

describe("cloning the planner's play", () => {
  it('reports its progress while it plans and while it trains on the plans, then plays its own steps', async () => {
    const learner = await createLearner({
      env: B,
      algo: 'ppo',
      seed: 1,
      numEnvs: 8,
      nSteps: 16,
      threads: 2,
      imitate: 100,
      imitationEpochs: 2,
    });
    const heard = [];
    const p = await learner.trainFor(128, { onProgress: (q) => heard.push({ ...q.imitation, steps: q.steps }) });
    expect(heard[0]).toMatchObject({ phase: 'planning', done: 0, total: 100, steps: 0 });
    const planned = heard.filter((h) => h.phase === 'planning').map((h) => h.done);
    expect(planned).toEqual([...planned].sort((a, b) => a - b)); // counts up
    expect(heard.filter((h) => h.phase === 'cloning').map((h) => h.done)).toEqual([0, 1]);
    expect(p.imitation).toMatchObject({ episodes: 100 });
    expect(p.imitation.samples).toBeGreaterThan(100 * 20); // the planner's steps, every one of them
    expect(p.steps).toBe(128);
    learner.dispose();
  }, 60_000);

  it('a seeded cloning run trains to the same weights on 1 and 2 threads, with history', async () => {
    for (const env of [B, V]) {
      const hashes = [];
      for (const threads of [1, 2]) {
        const learner = await createLearner({
          env,
          algo: 'ppo',
          seed: 4,
          numEnvs: 8,
          nSteps: 16,
          imitate: 40,
          imitationEpochs: 2,
          minibatch: 256,
          history: 2,
          threads,
        });
        await learner.trainFor(128);
        hashes.push(weightsHash(learner));
        learner.dispose();
      }
      expect(hashes[1], env).toBe(hashes[0]);
    }
  }, 60_000);
});
