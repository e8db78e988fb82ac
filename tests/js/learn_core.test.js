// The learner core (wasm/learn/core.js over core/learn/net.c) against TensorFlow.js, the
// library it replaced on PPO's path: the same weights and batch give the same outputs and the
// same gradients; PPO's workers are reproducible and learn; policies keep loading across
// the two paths. (tests/c/test_learn.c checks the same gradients against finite differences.)
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CoreNet, Samples, loadCore } from '../../wasm/learn/core.js';
import { createTfBrain } from '../../wasm/learn/net.js';
import { createLearner, loadPolicy } from '../../wasm/learn/index.js';
import { seededRandom } from '../../wasm/rng.js';
import { evaluate } from '../../wasm/evaluate.js';
import { loadTf } from '../../wasm/learn/tf.js';

const V = 'ValleyFarm-v0';
const B = 'BackwardsValleyFarm-v0';

/** The sha-256 of a learner's policy weights, as float32 bytes in the policy file's order. */
function weightsHash(learner) {
  const hash = createHash('sha256');
  for (const w of learner.policy().toJSON().weights) hash.update(new Uint8Array(new Float32Array(w.values).buffer));
  return hash.digest('hex');
}

/** A batch of n samples of sparse inputs (one-hot and scaled), masks, actions and targets. */
function fillBatch(samples, n, inputs, A, random) {
  const v = samples.views();
  for (let s = 0; s < n; s++) {
    const used = new Set();
    let k = 0;
    for (let j = 0; j < samples.stride; j++) {
      const i = Math.floor(random() * inputs);
      if (used.has(i)) continue;
      used.add(i);
      v.idx[s * samples.stride + k] = i;
      v.val[s * samples.stride + k++] = j % 3 === 0 ? random() : 1;
    }
    v.nnz[s] = k;
    for (let a = 0; a < A; a++) v.masks[s * A + a] = random() < 0.7 ? 1 : 0;
    const act = Math.floor(random() * A);
    v.masks[s * A + act] = 1;
    v.actions[s] = act;
    v.oldLogp[s] = -Math.log(A) + (random() - 0.5); // some ratios clipped, some not
    v.advantages[s] = random() * 2 - 1;
    v.returns[s] = random() * 4;
    v.rows[s] = s;
  }
}

async function twoBrains(inputs, hidden, A) {
  const core = await loadCore();
  const tfBrain = await createTfBrain({ inputs, hidden, actions: A }, { learningRate: 1e-3 }, 5);
  const net = new CoreNet(core, inputs, hidden, A);
  net.params().set(tfBrain.params()); // the same weights, from TensorFlow.js's initializers
  return { core, tfBrain, net };
}

const close = (a, b, tol) => {
  let worst = 0;
  for (let k = 0; k < a.length; k++) worst = Math.max(worst, Math.abs(a[k] - b[k]) / (tol + Math.abs(b[k])));
  return worst;
};

describe('the learner core against TensorFlow.js', () => {
  const inputs = 40;
  const hidden = [16, 12];
  const A = 6;
  const n = 37;

  it('gives the same logits and values for the same weights and inputs', async () => {
    const { core, tfBrain, net } = await twoBrains(inputs, hidden, A);
    const samples = new Samples(core, n, 8, A);
    fillBatch(samples, n, inputs, A, seededRandom(1));
    tfBrain.forward(samples, n, samples.rows);
    const tfLogits = samples.views().logits.slice(0, n * A);
    const tfValues = samples.views().values.slice(0, n);
    net.forward(samples, n, samples.rows, samples.logits, samples.values);
    expect(close(samples.views().logits.subarray(0, n * A), tfLogits, 1e-3)).toBeLessThan(1e-3);
    expect(close(samples.views().values.subarray(0, n), tfValues, 1e-3)).toBeLessThan(1e-3);
    net.dispose();
    tfBrain.dispose();
    samples.dispose();
  });

  for (const cloning of [false, true]) {
    it(`gives the same gradient of ${cloning ? "cloning's" : "PPO's"} loss, and the same loss terms`, async () => {
      const { core, tfBrain, net } = await twoBrains(inputs, hidden, A);
      const samples = new Samples(core, n, 8, A);
      fillBatch(samples, n, inputs, A, seededRandom(cloning ? 3 : 2));
      const loss = { cloning, clip: 0.2, valueCoef: 0.5, entropyCoef: 0.05, scale: 1 / n };
      tfBrain.zeroGrad();
      const tfSums = tfBrain.grad(samples, n, samples.rows, loss);
      net.zeroGrad();
      const sums = net.grad(samples, n, samples.rows, loss);
      const g = net.grads();
      expect(close(g, tfBrain.grads(), 1e-4)).toBeLessThan(2e-3);
      expect(Math.max(...g.map(Math.abs))).toBeGreaterThan(1e-3); // a gradient worth comparing
      expect(close(sums.slice(0, cloning ? 2 : 3), tfSums.slice(0, cloning ? 2 : 3), 1e-4)).toBeLessThan(1e-3);
      net.dispose();
      tfBrain.dispose();
      samples.dispose();
    });
  }

  it('takes the same Adam steps', async () => {
    const { core, tfBrain, net } = await twoBrains(inputs, hidden, A);
    const samples = new Samples(core, n, 8, A);
    fillBatch(samples, n, inputs, A, seededRandom(4));
    const loss = { clip: 0.2, valueCoef: 0.5, entropyCoef: 0.01, scale: 1 / n };
    for (let step = 0; step < 3; step++) {
      tfBrain.zeroGrad();
      tfBrain.grad(samples, n, samples.rows, loss);
      tfBrain.adam(0.01);
      net.zeroGrad();
      net.grad(samples, n, samples.rows, loss);
      net.adam(0.01);
    }
    expect(close(net.params(), tfBrain.params(), 1e-3)).toBeLessThan(2e-3);
    net.dispose();
    tfBrain.dispose();
    samples.dispose();
  });

  it('refuses a network out of range with the sizes it was given', async () => {
    const core = await loadCore();
    expect(() => new CoreNet(core, 10, [0], 3)).toThrow(/cannot build a network of 10 inputs, hidden \[0\]/);
    expect(() => new CoreNet(core, 10, [8], 1000)).toThrow(/1000 actions/);
  });
});

describe('PPO on the core, with workers', () => {
  const weightsAfter = async (workers, seed = 3) => {
    const learner = await createLearner({ env: V, algo: 'ppo', imitate: 0, seed, numEnvs: 8, nSteps: 16, workers });
    await learner.trainFor(1024); // eight updates
    const w = learner.policy().toJSON().weights;
    learner.dispose();
    return w;
  };

  it('a seeded run trains to the same weights for 1 worker and for 2, and the two differ (each worker has its own envs)', async () => {
    const one = await weightsAfter(1);
    expect(await weightsAfter(1)).toEqual(one);
    const two = await weightsAfter(2);
    expect(await weightsAfter(2)).toEqual(two);
    expect(two).not.toEqual(one);
  }, 60_000);

  it('every worker holds the parameters one thread held and sent the others: seeded runs of 2 and 3 workers train to the same bits', async () => {
    // The hashes were computed by these runs when one thread summed the workers' gradients,
    // took the Adam step and sent the new parameters to the others. Now each worker sums them
    // in the same order and steps itself: if a worker's copy strayed by one bit, its rollouts
    // would, and so would the weights. 3 workers: the third adds its own after the first two.
    // (valueCoef 0.5: the default when the hashes were computed.)
    const hashes = {
      [B]: '38c9ba84eb42f8ca3bb6fcb49ff3fa7014792841f35801b69268785c83f1dc27',
      [V]: '0859061b84b5a994555df4af561a58fa220aebecc790d4442f6c35099f0bc5bd',
    };
    for (const [env, settings] of [
      [B, { workers: 2 }],
      [V, { workers: 3, anneal: 4096 }],
    ]) {
      const learner = await createLearner({ env, algo: 'ppo', seed: 5, numEnvs: 12, nSteps: 16, imitate: 0, valueCoef: 0.5, ...settings });
      await learner.trainFor(192 * 6);
      const hash = weightsHash(learner);
      learner.dispose();
      expect(hash, env).toBe(hashes[env]);
    }
  }, 60_000);

  it('the shards make many updates in a call as the coordinator made them one by one: restarts, annealing and three calls give the same bits', async () => {
    // The hash was computed by this run when the coordinator called every shard twice an
    // update (a rollout, then learning from it, the advantages' moments put together by the
    // coordinator). Now each shard makes up to 32 updates a call and the shards exchange the
    // moments: 71 updates are three calls, with the envs restarted every 5 updates.
    const learner = await createLearner({
      env: B,
      algo: 'ppo',
      seed: 5,
      numEnvs: 12,
      nSteps: 16,
      imitate: 0,
      workers: 2,
      restartEvery: 192 * 5,
      anneal: 192 * 80,
    });
    await learner.trainFor(192 * 71);
    const hash = weightsHash(learner);
    expect(learner.progress().steps).toBe(192 * 71);
    learner.dispose();
    expect(hash).toBe('75c1299112fa0e17c7b176eb6114e325ff2eef4870ff5143a2d504196cc9901d');
  }, 60_000);

  it('reports how many workers train', async () => {
    const learner = await createLearner({ env: B, algo: 'ppo', imitate: 0, seed: 1, numEnvs: 8, nSteps: 16, workers: 2 });
    const p = await learner.trainFor(128);
    expect(p.workers).toBe(2);
    learner.dispose();
  });

  it('with 2 workers, a short seeded run plays far better than random on the validation seeds', async () => {
    const learner = await createLearner({ env: B, algo: 'ppo', imitate: 0, seed: 1, workers: 2 });
    await learner.trainFor(4096 * 24);
    const r = await evaluate(learner.policy(), { env: B, split: 'validation', episodes: 100 });
    expect(r.mean).toBeGreaterThan(3.45 + 5); // random plays about 3.45
    learner.dispose();
  }, 120_000);

  it('refuses a workers setting of 0, 10^6 or NaN with what is allowed', async () => {
    for (const bad of [0, 1e6, NaN, 1.5])
      await expect(createLearner({ env: V, algo: 'ppo', imitate: 0, workers: bad })).rejects.toThrow(
        /workers must be a whole number from 1 to 16/,
      );
    await expect(createLearner({ env: V, algo: 'ppo', imitate: 0, workers: 4, numEnvs: 2 })).rejects.toThrow(/at least one env per worker/);
  });

  it('a policy trained on TensorFlow.js (tfjs 1) loads onto the core and plays exactly as its own network computes', async () => {
    const learner = await createLearner({
      env: B,
      algo: 'ppo',
      imitate: 0,
      memory: 0,
      seed: 2,
      numEnvs: 8,
      nSteps: 16,
      workers: 1,
      tfjs: 1,
    });
    await learner.trainFor(256);
    const json = JSON.parse(JSON.stringify(learner.policy().toJSON()));
    learner.dispose();
    const policy = await loadPolicy(json); // loads as it was saved (sampling)
    expect(policy.algo).toBe('ppo');
    // TensorFlow.js's own forward pass of the saved weights, as the former path played
    const tf = await loadTf();
    const { perception } = await import('../../wasm/learn/perception.js');
    const { flatten, make } = await import('../../wasm/index.js');
    const env = await make(B);
    const { observation } = env.reset({ seed: 7 });
    const flat = new Int32Array(55);
    flatten(B, observation, flat);
    const x = perception(B, 0).encoder.features(flat, 0);
    const w = json.weights.map((t) => tf.tensor(t.values, t.shape));
    let h = tf.tensor2d(x, [1, x.length]);
    for (let l = 0; l < 2; l++) h = tf.tanh(tf.add(tf.matMul(h, w[2 * l]), w[2 * l + 1]));
    const logits = tf.add(tf.matMul(h, w[4]), w[5]).dataSync();
    const greedy = await loadPolicy({ ...json, act: 'greedy' });
    let best = 0;
    for (let a = 1; a < logits.length; a++) if (logits[a] > logits[best]) best = a;
    expect(greedy.act(observation, { step: 0, seed: 7 })).toBe(best);
    env.close();
  }, 60_000);
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
      const one = new Samples(core, 2, history * W, 1);
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
      workers: 2,
      imitate: 100,
      imitationEpochs: 2,
    });
    const heard = [];
    const p = await learner.trainFor(128, { onProgress: (q) => heard.push({ ...q.imitation, steps: q.steps }) });
    expect(heard[0]).toMatchObject({ phase: 'planning', done: 0, total: 100, steps: 0 });
    expect(heard.filter((h) => h.phase === 'planning').map((h) => h.done)).toEqual([0, 50, 100]);
    expect(heard.filter((h) => h.phase === 'cloning').map((h) => h.done)).toEqual([0, 1]);
    expect(p.imitation).toMatchObject({ episodes: 100 });
    expect(p.imitation.samples).toBeGreaterThan(100 * 20); // the planner's steps, every one of them
    expect(p.steps).toBe(128);
    learner.dispose();
  }, 60_000);

  it('a seeded cloning run trains to the weights it trained to when the demonstrations were kept at a stride', async () => {
    // The hashes were computed by this test's runs before the demonstrations were packed
    // (Samples.packed): the same samples in the same order must give the same bits. A change
    // meant to change what PPO learns changes them; one meant to change only how it keeps
    // its samples must not.
    const hashes = {
      [B]: '20e501feafa8708608eba5a8ba3f1e3baad288c03aca2da050ffdc83827f8877',
      [V]: '66c38e7b5f2d3c61c0e7d8626b3f4d209c930be434ab97050647c3349992aad6',
    };
    for (const [env, settings] of [
      [B, { history: 2, workers: 2 }],
      [V, { workers: 1 }],
    ]) {
      const learner = await createLearner({
        env,
        algo: 'ppo',
        seed: 4,
        numEnvs: 8,
        nSteps: 16,
        imitate: 40,
        imitationEpochs: 2,
        minibatch: 256,
        valueCoef: 0.5, // the default when the hashes were computed
        ...settings,
      });
      await learner.trainFor(128);
      const hash = weightsHash(learner);
      learner.dispose();
      expect(hash, env).toBe(hashes[env]);
    }
  }, 60_000);
});
