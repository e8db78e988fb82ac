// A recurrent policy (PPO's `recurrent` setting: a GRU between the hidden layers and the heads)
// from the learner core up: the core's sequences from JS (tests/c/test_learn.c checks backward
// through time against finite differences), seeded runs that give the same weights on any
// number of threads and resume exactly from a checkpoint that keeps each env's state, a saved
// policy that computes along an episode what the rollout computed and plays as the learner's
// own, short runs that beat random play, and what a policy file or a checkpoint may hold.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CoreNet, RolloutStates, Samples, SeenEnvs, layoutShapes, loadCore, loadNetPolicy, networkLayout } from '../../wasm/learn/kit.js';
import { algorithms, checkPolicyJSON, createLearner, estimateMemory, loadPolicy } from '../../wasm/learn/index.js';
import { checkCheckpoint } from '../../wasm/learn/checkpointCheck.js';
import { KEPT_PER_SAMPLE } from '../../wasm/learn/run.js';
import { evaluate } from '../../wasm/evaluate.js';
import { envSpecs, make } from '../../wasm/index.js';

const V = 'ValleyFarm-v0';
const B = 'BackwardsValleyFarm-v0';
// random play's mean return on the test split (wasm/data/baselines.json); the validation split's is alike
const { table } = JSON.parse(readFileSync(new URL('../../wasm/data/baselines.json', import.meta.url), 'utf8'));
const random = (env) => table[env].find((row) => row.agent === 'random').mean;

/** The sha-256 of a learner's policy weights, as float32 bytes in the policy file's order. */
function weightsHash(learner) {
  const hash = createHash('sha256');
  for (const w of learner.policy().toJSON().weights) hash.update(new Uint8Array(new Float32Array(w.values).buffer));
  return hash.digest('hex');
}

describe('a recurrent network from JS', () => {
  async function setUp() {
    const core = await loadCore();
    const net = new CoreNet(core, { inputs: 10, hidden: [7], recurrent: 5, heads: [3, 1], headInit: [0.01, 0] });
    net.init(4);
    const samples = new Samples(core, 12, 3, { actions: 3 });
    const v = samples.views();
    for (let s = 0; s < 12; s++) {
      v.nnz[s] = 1 + (s % 3);
      for (let j = 0; j < v.nnz[s]; j++) {
        v.idx[s * 3 + j] = (s * 3 + j * 4) % 10;
        v.val[s * 3 + j] = j === 0 ? 1 : 0.5;
      }
    }
    return { core, net, samples };
  }

  it("keeps a Keras GRU's weights (kernel, recurrent kernel, biases) between the hidden layers and the heads", async () => {
    const { net, samples } = await setUp();
    expect(net.stateSize).toBe(5);
    expect(net.shapes).toEqual([[10, 7], [7], [7, 15], [5, 15], [2, 15], [5, 3], [3], [5, 1], [1]]);
    expect(layoutShapes({ inputs: 10, hidden: [7], heads: [3, 1] })).toEqual([[10, 7], [7], [7, 3], [3], [7, 1], [1]]);
    expect(net.count).toBe(net.shapes.reduce((a, s) => a + s.reduce((x, y) => x * y, 1), 0));
    samples.dispose();
    net.dispose();
  });

  it('three sequences of four steps at once give the bits of one step at a time with each state carried, and an episode start forgets', async () => {
    const { net, samples } = await setUp();
    const [T, Bs, S, O] = [4, 3, 5, 4];
    const rows = Int32Array.from({ length: T * Bs }, (_, k) => (k * 7) % 12);
    const starts = new Uint8Array(T * Bs);
    starts[2 * Bs + 1] = 1; // sequence 1: an episode starts at step 2
    const state = Float32Array.from({ length: Bs * S }, (_, k) => 0.5 * Math.sin(k));
    samples.views().rows.set(rows);
    const finalState = new Float32Array(Bs * S);
    const whole = Array.from(net.forwardSeq(samples, T, Bs, samples.rows, { starts, state, finalState }));
    const carried = state.slice();
    for (let t = 0; t < T; t++) {
      samples.views().rows.set(rows.subarray(t * Bs, (t + 1) * Bs));
      const step = net.forwardSeq(samples, 1, Bs, samples.rows, {
        starts: starts.subarray(t * Bs, (t + 1) * Bs),
        state: carried,
        finalState: carried,
      });
      expect(Array.from(step)).toEqual(whole.slice(t * Bs * O, (t + 1) * Bs * O));
    }
    expect(carried).toEqual(finalState);
    // without the start, sequence 1's step 2 reads the state before it: another output
    samples.views().rows.set(rows);
    const on = net.forwardSeq(samples, T, Bs, samples.rows, { state });
    expect(on[(2 * Bs + 1) * O]).not.toBe(whole[(2 * Bs + 1) * O]);
    // and backward through time adds a gradient
    net.outputGrad(T * Bs).fill(0.1);
    net.zeroGrad();
    net.backwardSeq(samples, T, Bs, samples.rows);
    expect(net.gradNorm()).toBeGreaterThan(0);
    samples.dispose();
    net.dispose();
  });

  it('refuses what it cannot do, saying what to use instead', async () => {
    const { core, net, samples } = await setUp();
    expect(() => net.forward(samples, 2, 0)).toThrow(/a recurrent network reads sequences \(forwardSeq\)/);
    expect(() => net.forwardSeq(samples, 2, 3, 0, { state: new Float32Array(14) })).toThrow(/state holds 14 values, fewer than the 15/);
    expect(() => net.forwardSeq(samples, 2, 3, 0, { starts: new Uint8Array(5) })).toThrow(/starts holds 5 values, fewer than the 6/);
    expect(() => net.forwardSeq(samples, 13, 1, 0)).toThrow(/forwardSeq: a row, count or index out of range/); // 13 rows of 12
    net.forwardSeq(samples, 2, 3, 0);
    expect(() => net.backwardSeq(samples, 3, 2, 0)).toThrow(/backwardSeq \(after a forwardSeq of the same steps and sequences\)/);
    const dense = new CoreNet(core, { inputs: 10, hidden: [7], heads: [3] });
    expect(dense.stateSize).toBe(0);
    expect(() => dense.forwardSeq(samples, 1, 1, 0)).toThrow(/this network has no recurrent layer \(forward\)/);
    expect(() => new CoreNet(core, { inputs: 10, hidden: [7], recurrent: 1.5, heads: [3] })).toThrow(/recurrent must be a whole number/);
    expect(() => new CoreNet(core, { inputs: 10, hidden: [7, 7, 7, 7, 7, 7, 7, 7], recurrent: 4, heads: [3] })).toThrow(
      /at most 8 hidden layers \(a recurrent one counted\)/,
    );
    dense.dispose();
    samples.dispose();
    net.dispose();
  });
});

describe('recurrent PPO on any number of threads', () => {
  // cloning (whole planner episodes, some shorter than the horizon), history, restarts and
  // annealing all in one short run
  const settings = {
    algo: 'ppo',
    seed: 3,
    numEnvs: 12,
    nSteps: 16,
    minibatch: 64,
    imitate: 10,
    imitationEpochs: 2,
    hidden: [9],
    recurrent: 7,
    history: 2,
    restartEvery: 192 * 3,
    anneal: 192 * 8,
  };

  it('a seeded run trains to the same weights on 1, 2 and 3 threads; another seed elsewhere', async () => {
    const hashes = [];
    for (const threads of [1, 2, 3]) {
      const learner = await createLearner({ env: B, ...settings, threads });
      const p = await learner.trainFor(192 * 5);
      expect(p.imitation.samples).toBeGreaterThan(10);
      hashes.push(weightsHash(learner));
      learner.dispose();
    }
    expect(new Set(hashes).size).toBe(1);
    const other = await createLearner({ env: B, ...settings, seed: 4, threads: 2 });
    await other.trainFor(192 * 5);
    expect(weightsHash(other)).not.toBe(hashes[0]);
    other.dispose();
  }, 120_000);

  it("a run saved mid-episode keeps each env's state, and resumed on another number of threads ends with the unbroken run's weights", async () => {
    const run = { env: V, ...settings, restartEvery: 0, numEnvs: 8, nSteps: 20 }; // 20 steps a rollout: episodes of 50 run across them
    const unbroken = await createLearner({ ...run, threads: 2 });
    await unbroken.trainFor(160 * 7);
    const expected = weightsHash(unbroken);
    unbroken.dispose();
    const first = await createLearner({ ...run, threads: 1 });
    await first.trainFor(160 * 3); // 60 steps of each env: 10 into its second episode
    const saved = JSON.parse(JSON.stringify(await first.checkpoint()));
    first.dispose();
    expect(saved.state.shards).toHaveLength(8);
    for (const shard of saved.state.shards) {
      expect(shard.states).toHaveLength(7); // one env a shard, 7 units
      expect(shard.states.some((x) => x !== 0)).toBe(true);
      expect(shard.states.every((x) => Math.abs(x) <= 1)).toBe(true);
    }
    const resumed = await createLearner({ ...run, threads: 3 });
    await resumed.restore(saved);
    await resumed.trainFor(160 * 4);
    expect(weightsHash(resumed)).toBe(expected);
    resumed.dispose();
    // the same checkpoint resumed with its states zeroed plays on from other states: other weights
    const zeroed = structuredClone(saved);
    for (const shard of zeroed.state.shards) shard.states.fill(0);
    const forgetful = await createLearner({ ...run, threads: 2 });
    await forgetful.restore(zeroed);
    await forgetful.trainFor(160 * 4);
    expect(weightsHash(forgetful)).not.toBe(expected);
    forgetful.dispose();
  }, 120_000);
});

describe('a recurrent policy saved, loaded and played', () => {
  it('computes along an episode, and into the next, the bits the rollout computed, and plays as the learner its weights came from', async () => {
    const c = { imitate: 0, seed: 2, numEnvs: 8, nSteps: 32, hidden: [16], recurrent: 12 };
    const learner = await createLearner({ env: B, algo: 'ppo', ...c, threads: 2 });
    await learner.trainFor(256 * 6);
    const json = JSON.parse(JSON.stringify(learner.policy().toJSON()));
    expect(json.config.recurrent).toBe(12);
    expect(json.weights.map((w) => w.shape)).toContainEqual([12, 36]); // the recurrent kernel
    // sampling (as it was saved), the loaded policy plays as the learner's own
    const loaded = await loadPolicy(json);
    const [mine, its] = [learner.policy(), loaded].map((agent) => evaluate(agent, { env: B, split: 'validation', episodes: 10 }));
    expect((await its).returns).toEqual((await mine).returns);
    loaded.dispose();
    learner.dispose();

    // The rollout's way (seenEnvs.js and sequences.js, as a shard plays one env) and the loaded
    // policy's (a step a call), side by side over an episode and the next one's first steps:
    // the same probabilities to the bit, so the same greedy actions.
    const core = await loadCore();
    const config = { ...json.config };
    const net = new CoreNet(core, networkLayout(B, config, 'logits'));
    net.setWeights(json.weights);
    const envs = await SeenEnvs.create(B, 1, config, 900_001);
    const states = new RolloutStates(net, 1, 64);
    const samples = new Samples(core, 64, envs.nonzero, { actions: envs.A });
    const policy = await loadNetPolicy({ ...json, act: 'greedy' }, 'logits'); // what loadPolicy wraps
    const e = await make(B);
    let { observation, info } = e.reset({ seed: 900_001 });
    const horizon = envSpecs[B].horizon;
    states.begin();
    for (let t = 0; t < horizon + 10; t++) {
      envs.write(0, samples, t);
      states.step(samples, t, envs);
      samples.views().masks.set(envs.masks, t * envs.A);
      const p = Array.from(net.policy(samples, 1, samples.rows).p);
      const a = policy.act(observation, { ...info, legal: e.legalActions() });
      expect(Array.from(policy.net.policy(policy.input, 1, 0).p), `step ${t}`).toEqual(p);
      expect(a).toBe(p.indexOf(Math.max(...p)));
      const r = e.step(a);
      envs.step(Int32Array.of(a));
      ({ observation, info } = r);
      if (r.terminated) ({ observation, info } = e.reset({ seed: Number(envs.vec.episodeSeed(0)) }));
    }
    expect(states.now.some((x) => x !== 0)).toBe(true);
    e.close();
    envs.close();
    samples.dispose();
    net.dispose();
    policy.dispose();
  }, 120_000);
});

describe('recurrent PPO learns', () => {
  for (const [env, margin] of [
    [V, 3],
    [B, 8],
  ])
    it(`${env}: a short seeded run plays far better than random on the validation seeds`, async () => {
      const learner = await createLearner({ env, algo: 'ppo', imitate: 0, seed: 1, threads: 2, hidden: [64], recurrent: 32 });
      await learner.trainFor(4096 * 24);
      const r = await evaluate(learner.policy(), { env, split: 'validation', episodes: 100 });
      learner.dispose();
      expect(r.mean).toBeGreaterThan(random(env) + margin);
    }, 180_000);
});

describe('what a recurrent policy file and checkpoint may hold', () => {
  it("a policy's recurrent layer must be what its weights are, and only a learner that trains one may have it", async () => {
    const learner = await createLearner({ env: B, algo: 'ppo', imitate: 0, seed: 1, numEnvs: 8, nSteps: 8, hidden: [8], recurrent: 6 });
    const json = JSON.parse(JSON.stringify(learner.policy().toJSON()));
    learner.dispose();
    expect(() => checkPolicyJSON(json)).not.toThrow();
    expect(() => checkPolicyJSON({ ...json, config: { ...json.config, recurrent: 0 } })).toThrow(
      /the policy's weights do not fit its network: expected 6 arrays/,
    );
    expect(() => checkPolicyJSON({ ...json, config: { ...json.config, recurrent: 5 } })).toThrow(
      /weights\[2\]\.shape must be \[8, 15\], got \[8,18\]/,
    );
    expect(() => checkPolicyJSON({ ...json, config: { ...json.config, recurrent: -1 } })).toThrow(
      /ppo policy's setting recurrent must be a whole number from 0 to 512, got -1/,
    );
    expect(() => checkPolicyJSON({ ...json, algo: 'reinforce' })).toThrow(
      /the policy's config\.recurrent must be absent \(reinforce trains no recurrent network\), got 6/,
    );
  });

  it("a checkpoint's states are refused unless one a shard, one for each env and unit, each within ±1, and only with a recurrent layer", async () => {
    const saved = async (recurrent) => {
      const learner = await createLearner({
        env: B,
        algo: 'ppo',
        imitate: 0,
        seed: 1,
        numEnvs: 4,
        nSteps: 10,
        hidden: [8],
        recurrent,
        threads: 1,
      });
      await learner.trainFor(40);
      const ckpt = JSON.parse(JSON.stringify(await learner.checkpoint()));
      learner.dispose();
      return ckpt;
    };
    const ckpt = await saved(3);
    expect(() => checkCheckpoint(ckpt, algorithms)).not.toThrow();
    const broken = (edit) => {
      const c = structuredClone(ckpt);
      edit(c.state.shards[1], c);
      return () => checkCheckpoint(c, algorithms);
    };
    expect(broken((s) => delete s.states)).toThrow(/the checkpoint's state\.shards\[1\] has no states/);
    expect(broken((s) => s.states.pop())).toThrow(
      /state\.shards\[1\]\.states must be an array of 3 numbers \(1 envs × recurrent 3\), got 2/,
    );
    expect(broken((s) => (s.states[2] = 1.5))).toThrow(
      /state\.shards\[1\]\.states\[2\] must be a number from −1 to 1 \(a recurrent state\), got 1\.5/,
    );
    expect(broken((s) => (s.states[0] = null))).toThrow(/states\[0\] must be a number from −1 to 1/);
    const plain = await saved(0);
    expect(() => checkCheckpoint(plain, algorithms)).not.toThrow();
    plain.state.shards[0].states = [0, 0, 0];
    expect(() => checkCheckpoint(plain, algorithms)).toThrow(/state\.shards\[0\] has a field "states" of no use/);
  });

  it('the memory a run takes grows with its recurrent layer', () => {
    const plain = estimateMemory(V, 'ppo', { hidden: [64] });
    const gru = estimateMemory(V, 'ppo', { hidden: [64], recurrent: 64 });
    // each env's states and a minibatch's kept gates: at least 12 floats a unit of 1024 samples
    expect(gru - plain).toBeGreaterThan(1024 * 12 * 64 * 4);
  });
});

describe('an LSTM instead of the GRU (the lstm setting): its state is h and c', () => {
  const run = { algo: 'ppo', imitate: 0, numEnvs: 8, nSteps: 20, minibatch: 64, hidden: [9], recurrent: 7, lstm: 1 };

  it("keeps a Keras LSTM's weights (kernel, recurrent kernel, one bias) and a state of 2 × its units", async () => {
    const core = await loadCore();
    const net = new CoreNet(core, { inputs: 10, hidden: [7], recurrent: 5, cell: 'lstm', heads: [3, 1] });
    expect(net.stateSize).toBe(10);
    expect(net.shapes).toEqual([[10, 7], [7], [7, 20], [5, 20], [20], [5, 3], [3], [5, 1], [1]]);
    expect(net.count).toBe(net.shapes.reduce((a, s) => a + s.reduce((x, y) => x * y, 1), 0));
    expect(() => new CoreNet(core, { inputs: 10, hidden: [7], recurrent: 5, cell: 'rnn', heads: [3] })).toThrow(
      /cell must be 'gru' or 'lstm', got rnn/,
    );
    net.dispose();
    await expect(createLearner({ env: B, ...run, recurrent: 0 })).rejects.toThrow(
      /lstm 1 makes the recurrent layer an LSTM: it needs recurrent/,
    );
  });

  it('a seeded run trains to the same weights on 1 and 3 threads, and resumed mid-episode from its h and c ends as the unbroken run', async () => {
    const unbroken = await createLearner({ env: V, ...run, seed: 5, threads: 3 });
    await unbroken.trainFor(160 * 6);
    const expected = weightsHash(unbroken);
    unbroken.dispose();
    const first = await createLearner({ env: V, ...run, seed: 5, threads: 1 });
    await first.trainFor(160 * 3); // 60 steps of each env: 10 into its second episode
    const saved = JSON.parse(JSON.stringify(await first.checkpoint()));
    await first.trainFor(160 * 3);
    expect(weightsHash(first)).toBe(expected);
    first.dispose();
    for (const shard of saved.state.shards) {
      expect(shard.states).toHaveLength(14); // one env a shard: h then c, 7 units each
      expect(shard.states.slice(0, 7).every((x) => Math.abs(x) <= 1)).toBe(true);
      expect(shard.states.slice(7).some((x) => x !== 0)).toBe(true);
    }
    expect(() => checkCheckpoint(saved, algorithms)).not.toThrow();
    const resumed = await createLearner({ env: V, ...run, seed: 5, threads: 2 });
    await resumed.restore(saved);
    await resumed.trainFor(160 * 3);
    expect(weightsHash(resumed)).toBe(expected);
    resumed.dispose();
    // its c may pass 1 (it moves by at most 1 a step of an episode of 50), its h may not
    const edited = (at, v) => {
      const c = structuredClone(saved);
      c.state.shards[1].states[at] = v;
      return () => checkCheckpoint(c, algorithms);
    };
    expect(edited(7, 50)).not.toThrow();
    expect(edited(7, 51)).toThrow(
      /state\.shards\[1\]\.states\[7\] must be a number from −50 to 50 \(an LSTM's c, an episode's steps at most\), got 51/,
    );
    expect(edited(0, 1.5)).toThrow(/state\.shards\[1\]\.states\[0\] must be a number from −1 to 1 \(a recurrent state\), got 1\.5/);
  }, 120_000);

  it('a saved LSTM policy says so, loads and plays as the learner its weights came from; with GRU settings its weights do not fit', async () => {
    const learner = await createLearner({ env: B, ...run, seed: 2, threads: 2 });
    await learner.trainFor(160 * 4);
    const json = JSON.parse(JSON.stringify(learner.policy().toJSON()));
    expect(json.config).toMatchObject({ recurrent: 7, lstm: 1 });
    expect(json.weights.map((w) => w.shape)).toContainEqual([7, 28]); // the recurrent kernel: 4 gates
    const loaded = await loadPolicy(json);
    const [mine, its] = [learner.policy(), loaded].map((agent) => evaluate(agent, { env: B, split: 'validation', episodes: 10 }));
    expect((await its).returns).toEqual((await mine).returns);
    loaded.dispose();
    learner.dispose();
    expect(() => checkPolicyJSON({ ...json, config: { ...json.config, lstm: 0 } })).toThrow(
      /weights\[2\]\.shape must be \[9, 21\], got \[9,28\]/,
    );
    expect(() => checkPolicyJSON({ ...json, config: { ...json.config, lstm: 2 } })).toThrow(
      /ppo policy's setting lstm must be a whole number from 0 to 1, got 2/,
    );
  }, 120_000);

  for (const [env, margin] of [
    [V, 3],
    [B, 8],
  ])
    it(`${env}: a short seeded LSTM run plays far better than random on the validation seeds`, async () => {
      const learner = await createLearner({ env, algo: 'ppo', imitate: 0, seed: 1, threads: 2, hidden: [64], recurrent: 32, lstm: 1 });
      await learner.trainFor(4096 * 24);
      const r = await evaluate(learner.policy(), { env, split: 'validation', episodes: 100 });
      learner.dispose();
      expect(r.mean).toBeGreaterThan(random(env) + margin);
    }, 180_000);

  it('the memory a run takes counts what an LSTM keeps: more than a GRU of the same units', () => {
    const gru = estimateMemory(V, 'ppo', { hidden: [64], recurrent: 64 });
    const lstm = estimateMemory(V, 'ppo', { hidden: [64], recurrent: 64, lstm: 1 });
    // its weights (4 gates, not 3) and 2 more floats a unit of each of 1024 samples
    expect(lstm - gru).toBeGreaterThan(1024 * 2 * 64 * 4);
  });

  it("the memory estimate keeps, a sample, the units each kind's row of the learner core's table keeps", () => {
    for (const [cell, file] of [
      ['gru', 'gru.c'],
      ['lstm', 'lstm.c'],
    ]) {
      const source = readFileSync(new URL(`../../core/learn/${file}`, import.meta.url), 'utf8');
      const row = /const vfln_cell vfln_\w+ = \{[^}]*\.per_sample = (\d+),/.exec(source);
      expect(row, `${file} defines its row with per_sample`).not.toBeNull();
      expect(KEPT_PER_SAMPLE[cell]).toBe(Number(row[1]));
    }
  });
});
