// The learners (valley-farm/learn): their parts against hand computations, masking, saving
// and loading, and short seeded training runs that must beat random play.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../wasm/evaluate.js';
import { createLearner, loadPolicy } from '../../wasm/learn/index.js';
import { gae, lossGradient } from '../../wasm/learn/ppo.js';
import { Frames } from '../../wasm/learn/frames.js';
import { make } from '../../wasm/index.js';
import { memoryFor } from '../../wasm/learn/memory.js';
import { plannerDemos } from '../../wasm/learn/imitate.js';
import { splitOf } from '../../wasm/splits.js';
import { parse as parseTrain } from '../../wasm/cli/train.mjs';
import { referenceRuns } from '../../scripts/baselines.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The actions an agent plays in one episode from a seed, given the legal masks. */
function playActions(env, agent, seed) {
  let { observation, info } = env.reset({ seed });
  const actions = [];
  for (let terminated = false; !terminated;) {
    const a = agent.act(observation, { ...info, legal: env.legalActions() });
    actions.push(a);
    ({ observation, info, terminated } = env.step(a));
  }
  return actions;
}
const B = 'BackwardsValleyFarm-v0';
const V = 'ValleyFarm-v0';

describe('PPO parts', () => {
  it('GAE and returns match a hand computation, and stop at an episode end', () => {
    // one env, three steps; the episode ends at step 1 (no bootstrap past it)
    // γ = 0.5, λ = 0.5; rewards 1, 2, 3; values 0.5, 1, 1.5; value after the last step 2
    const { advantages, returns } = gae(Float32Array.of(1, 2, 3), Float32Array.of(0.5, 1, 1.5), Float32Array.of(0, 1, 0), [2], 1, 0.5, 0.5);
    // t=2: δ = 3 + 0.5·2 − 1.5 = 2.5, A = 2.5
    // t=1: δ = 2 + 0 − 1 = 1 (done), A = 1
    // t=0: δ = 1 + 0.5·1 − 0.5 = 1, A = 1 + 0.25·1 = 1.25
    expect(Array.from(advantages)).toEqual([1.25, 1, 2.5]);
    expect(Array.from(returns)).toEqual([1.75, 2, 4]);
  });

  it("the clipped objective's gradient at the outputs matches a hand computation, unclipped and clipped", () => {
    // two legal actions of equal logits (π = ½ each, H = ln 2) and one illegal; action 0 taken,
    // advantage 1, ε = 0.2, scale 1, no entropy weight, value weight 0.5
    const out = Float32Array.of(0, 0, 9, 2, 0, 0, 9, 2); // logits, then the value; two samples
    const pi = {
      logp: Float32Array.of(-Math.LN2, -Math.LN2, -Infinity, -Math.LN2, -Math.LN2, -Infinity),
      p: Float32Array.of(0.5, 0.5, 0, 0.5, 0.5, 0),
      entropy: Float32Array.of(Math.LN2, Math.LN2),
    };
    // r = 0.5 (old π(a) = 1): min(0.5·1, 0.8·1) takes the unclipped term, d/dz_a of −r A = −r A ([a = 0] − π(a))
    // r = 1.5 (old π(a) = 1/3): min(1.5, 1.2) takes the clipped one, flat: no policy gradient
    const b = { A: 3, actions: [0, 0], oldLogp: Float32Array.of(0, Math.log(1 / 3)), advantages: [1, 1], returns: [1, 4] };
    const dout = new Float32Array(8);
    const sums = new Float64Array(6);
    lossGradient(out, pi, dout, 2, [0, 1], b, { clip: 0.2, valueCoef: 0.5, entropyCoef: 0 }, 1, sums);
    const near = (x) => expect.closeTo(x, 6);
    // value: d 0.5 (v − R)² / dv = v − R: 2 − 1 = 1 and 2 − 4 = −2
    expect(Array.from(dout)).toEqual([-0.25, 0.25, 0, 1, 0, 0, 0, -2].map(near));
    // the objective's loss −min(·): −0.5 and −1.2; squared errors 1 and 4; entropies ln 2; the
    // approximate KL (r − 1) − ln r; both ratios outside 1 ± ε (CleanRL's clip fraction counts both)
    expect(Array.from(sums)).toEqual([2, -1.7, 5, 2 * Math.LN2, 0.5 - 1 - Math.log(0.5) + (1.5 - 1 - Math.log(1.5)), 2].map(near));
  });

  it('frames keep the last `history` observations, oldest first, with zeros before the episode began', () => {
    // two envs, history 3, two features each; env 1 is never touched
    const f = new Frames(2, 3, 2);
    const at = (values) => Float32Array.from(values);
    f.push(0, at([1, 2]), 0, true);
    expect(Array.from(f.frames.subarray(0, 6))).toEqual([0, 0, 0, 0, 1, 2]);
    f.push(0, at([9, 3, 4]), 1, false); // features read from an offset
    expect(Array.from(f.frames.subarray(0, 6))).toEqual([0, 0, 1, 2, 3, 4]);
    f.push(0, at([5, 6]), 0, false);
    expect(Array.from(f.frames.subarray(0, 6))).toEqual([1, 2, 3, 4, 5, 6]);
    f.push(0, at([7, 8]), 0, true); // a new episode forgets the old one
    expect(Array.from(f.frames.subarray(0, 6))).toEqual([0, 0, 0, 0, 7, 8]);
    expect(Array.from(f.frames.subarray(6))).toEqual([0, 0, 0, 0, 0, 0]);
  });
});

describe('imitating the planner', () => {
  it("the demonstrations are the planner's own plays on training seeds, with their discounted returns", async () => {
    const gamma = 0.9;
    const d = await plannerDemos(B, { episodes: 3, width: 4, seed: 7, gamma });
    const env = await make(B);
    let k = 0;
    for (let e = 0; e < 3; e++) {
      expect(d.steps[k]).toBe(0); // each episode's first sample
      const { info } = env.reset({ seed: 2 ** 33 + 7 * 1_000_003 + e });
      expect(splitOf(info.seed)).toBe('train');
      const plan = env.plan({ width: 4 });
      const rewards = [];
      plan.actions.forEach((a, t) => {
        expect([d.steps[k + t], d.actions[k + t]]).toEqual([t, a]);
        expect(Array.from(d.masks.subarray((k + t) * d.A, (k + t + 1) * d.A))).toEqual(Array.from(env.legalActions()));
        rewards.push(env.step(a).reward);
      });
      // the first sample's return: Σ γ^t r_t over the plan, by hand
      expect(d.returns[k]).toBeCloseTo(
        rewards.reduce((g, r, t) => g + gamma ** t * r, 0),
        4,
      );
      expect(rewards.reduce((a, b) => a + b, 0)).toBeCloseTo(plan.bestReturn, 6);
      k += plan.actions.length;
    }
    expect(d.count).toBe(k);
    env.close();
  });

  it('PPO that first clones the planner plays far better than one that did not, after the same steps of its own', async () => {
    const after = async (imitate) => {
      const learner = await createLearner({ env: B, algo: 'ppo', seed: 1, history: 2, numEnvs: 8, nSteps: 8, minibatch: 512, imitate });
      const p = await learner.trainFor(64);
      const r = await evaluate(learner.policy(), { env: B, split: 'validation', episodes: 20 });
      learner.dispose();
      return { p, mean: r.mean };
    };
    const cloned = await after(1000);
    const plain = await after(0);
    expect(cloned.p.imitation).toMatchObject({ episodes: 1000 });
    expect(cloned.p.imitation.samples).toBeGreaterThan(1000);
    expect(plain.p.imitation).toBeUndefined();
    // its rate counts the time of its own steps, not the cloning's
    expect(cloned.p.stepsPerSec).toBeCloseTo(cloned.p.steps / (cloned.p.elapsedMs / 1000 - cloned.p.imitation.seconds), -1);
    expect(cloned.p.stepsPerSec).toBeGreaterThan(cloned.p.steps / (cloned.p.elapsedMs / 1000));
    // seeded, so the same numbers every time (about 20 and 6); random plays 3.45 here
    expect(cloned.mean).toBeGreaterThan(plain.mean + 8);
  }, 120_000);
});

describe('training and policies', () => {
  it('tabular Q beats random play on the validation seeds after a short seeded run', async () => {
    const learner = await createLearner({ env: B, algo: 'tabular-q', seed: 1 });
    const p = await learner.trainFor(1_000_000);
    expect(p.steps).toBeGreaterThanOrEqual(1_000_000);
    const policy = learner.policy();
    const r = await evaluate(policy, { env: B, split: 'validation', episodes: 100 });
    expect(r.mean).toBeGreaterThan(r.reference.random + 0.75); // seeded: the same run every time
    // saved and loaded, it plays the same actions
    const again = await loadPolicy(JSON.parse(JSON.stringify(policy.toJSON())));
    const r2 = await evaluate(again, { env: B, split: 'validation', episodes: 100 });
    expect(r2.returns).toEqual(r.returns);
    learner.dispose();
  }, 60_000);

  it('tabular Q keeps at most maxStates states: the first it meets, learned as an uncapped run learns them until the table is full', async () => {
    const run = async (settings) => {
      const learner = await createLearner({ env: B, algo: 'tabular-q', seed: 2, ...settings });
      await learner.trainFor(20_000);
      const policy = learner.policy();
      learner.dispose();
      return policy;
    };
    const whole = (await run({})).toJSON().table;
    const capped = await run({ maxStates: 300 });
    const kept = capped.toJSON().table;
    expect(whole.length).toBeGreaterThan(300);
    expect(kept.length).toBe(300);
    // the same states, in the order they were first met
    expect(kept.map(([key]) => key)).toEqual(whole.slice(0, 300).map(([key]) => key));
    // the states met later were never learned, so the kept ones learn differently from the uncapped run's
    expect(kept.some(([, q], i) => q.some((v, a) => v !== whole[i][1][a]))).toBe(true);
    // its policy is a file loadPolicy accepts, and plays as it does
    const again = await loadPolicy(JSON.parse(JSON.stringify(capped.toJSON({ maxStates: 300 }))));
    const a = await evaluate(capped, { env: B, split: 'validation', episodes: 20 });
    const b = await evaluate(again, { env: B, split: 'validation', episodes: 20 });
    expect(b.returns).toEqual(a.returns);
    await expect(createLearner({ env: B, algo: 'tabular-q', seed: 1, maxStates: 0 })).rejects.toThrow(/maxStates/);
    await expect(createLearner({ env: B, algo: 'tabular-q', seed: 1, maxStates: 2 ** 21 + 1 })).rejects.toThrow(/maxStates/);
  }, 60_000);

  it('PPO raises its training return well above random within a short seeded run, and reloads identically', async () => {
    const learner = await createLearner({ env: B, algo: 'ppo', imitate: 0, seed: 1 });
    const first = await learner.trainFor(4096);
    const p = await learner.trainFor(61_440);
    expect(p.meanReturn).toBeGreaterThan(3.45 + 2); // random plays 3.45 on average here
    expect(p.meanReturn).toBeGreaterThan(first.meanReturn);
    const policy = learner.policy();
    const again = await loadPolicy(JSON.parse(JSON.stringify(policy.toJSON())));
    const a = await evaluate(policy, { env: B, split: 'validation', episodes: 10 });
    const b = await evaluate(again, { env: B, split: 'validation', episodes: 10 });
    expect(b.returns).toEqual(a.returns);
    learner.dispose();
  }, 120_000);

  it('PPO with the same seed trains to the same weights, from the first ones on; another seed starts elsewhere', async () => {
    const weightsAfter = async (seed, steps) => {
      const learner = await createLearner({ env: V, algo: 'ppo', imitate: 0, seed, numEnvs: 8, nSteps: 16 });
      if (steps) await learner.trainFor(steps);
      const w = learner.policy().toJSON().weights;
      learner.dispose();
      return w;
    };
    expect(await weightsAfter(3, 0)).toEqual(await weightsAfter(3, 0));
    expect(await weightsAfter(3, 0)).not.toEqual(await weightsAfter(4, 0));
    expect(await weightsAfter(3, 512)).toEqual(await weightsAfter(3, 512)); // four updates
  }, 60_000);

  it('with anneal, the step size falls in a straight line from learningRate to 0 over that many steps, and then the weights stop changing', async () => {
    // rollouts of 8 envs x 16 steps = 128 steps; an update's step size is set from the steps before its rollout
    const learner = await createLearner({
      env: V,
      algo: 'ppo',
      imitate: 0,
      seed: 3,
      numEnvs: 8,
      nSteps: 16,
      learningRate: 0.002,
      anneal: 1024,
    });
    expect((await learner.trainFor(512)).losses.learningRate).toBeCloseTo(0.002 * (1 - 384 / 1024), 10);
    expect((await learner.trainFor(512)).losses.learningRate).toBeCloseTo(0.002 * (1 - 896 / 1024), 10);
    const before = learner.policy().toJSON().weights;
    expect((await learner.trainFor(256)).losses.learningRate).toBe(0);
    expect(learner.policy().toJSON().weights).toEqual(before);
    learner.dispose();
  }, 60_000);

  it("given the run's planned length (steps), PPO anneals over all of it unless anneal is given; without it, the step size stays", async () => {
    const small = { env: V, algo: 'ppo', imitate: 0, seed: 3, numEnvs: 8, nSteps: 16, learningRate: 0.002, threads: 1 };
    const run = await createLearner({ ...small, steps: 1024 });
    expect(run.config.anneal).toBe(1024);
    // the same schedule as anneal: 1024 above: a tenth of the way, the step size is 0.9 of it
    expect((await run.trainFor(512)).losses.learningRate).toBeCloseTo(0.002 * (1 - 384 / 1024), 10);
    run.dispose();
    const chosen = await createLearner({ ...small, steps: 1024, anneal: 0 });
    expect(chosen.config.anneal).toBe(0);
    chosen.dispose();
    const unknown = await createLearner(small);
    expect(unknown.config.anneal).toBe(0);
    unknown.dispose();
    for (const steps of [0, 1.5, -4, 1e13, Number.NaN, '1000'])
      await expect(createLearner({ ...small, steps })).rejects.toThrow(
        /steps \(the run's planned length\) must be a whole number from 1 to 1e12/,
      );
  }, 60_000);

  it('a PPO policy with history sees that many observations, starts each episode afresh, and reloads identically', async () => {
    const learner = await createLearner({ env: V, algo: 'ppo', imitate: 0, seed: 2, history: 3, numEnvs: 8, nSteps: 16 });
    await learner.trainFor(256);
    const json = learner.policy().toJSON();
    const F = json.weights[0].shape[0];
    const one = await createLearner({ env: V, algo: 'ppo', imitate: 0, seed: 2, numEnvs: 8, nSteps: 16 });
    expect(F).toBe(3 * one.policy().toJSON().weights[0].shape[0]); // three observations' features
    one.dispose();
    // the same episode twice with no reset() in between: info.step 0 clears the frames
    const policy = await loadPolicy(JSON.parse(JSON.stringify(json)));
    const env = await make(V);
    const play = (agent) => playActions(env, agent, 5);
    const first = play(policy);
    expect(play(policy)).toEqual(first);
    expect(play(learner.policy())).toEqual(first); // the reloaded policy acts as the trained one
    env.close();
    learner.dispose();
    await expect(createLearner({ env: V, algo: 'ppo', imitate: 0, history: 0 })).rejects.toThrow(
      /history must be a whole number from 1 to 16, got 0/,
    );
    await expect(createLearner({ env: V, algo: 'ppo', imitate: 0, history: 2.5 })).rejects.toThrow(/from 1 to 16, got 2.5/);
  }, 60_000);

  it("a PPO policy with memory sees its memory's features after each observation's, forgets them at a new episode, and reloads identically", async () => {
    for (const id of [V, B]) {
      const learner = await createLearner({ env: id, algo: 'ppo', imitate: 0, seed: 2, memory: 1, history: 2, numEnvs: 8, nSteps: 16 });
      await learner.trainFor(256);
      const json = learner.policy().toJSON();
      expect(json.config.memory).toBe(1);
      const plain = await createLearner({ env: id, algo: 'ppo', imitate: 0, memory: 0, seed: 2, numEnvs: 8, nSteps: 16 });
      expect(json.weights[0].shape[0]).toBe(2 * (plain.policy().toJSON().weights[0].shape[0] + memoryFor(id).size));
      plain.dispose();
      const policy = await loadPolicy(JSON.parse(JSON.stringify(json)));
      const env = await make(id);
      const first = playActions(env, policy, 5);
      expect(playActions(env, policy, 5)).toEqual(first); // info.step 0: a fresh memory
      expect(playActions(env, learner.policy(), 5)).toEqual(first);
      env.close();
      learner.dispose();
    }
    await expect(createLearner({ env: V, algo: 'ppo', imitate: 0, memory: 2 })).rejects.toThrow(
      /memory must be a whole number from 0 to 1, got 2/,
    );
    const small = await createLearner({ env: V, algo: 'ppo', imitate: 0, numEnvs: 8, nSteps: 16 });
    const policy = small.policy().toJSON();
    small.dispose();
    await expect(loadPolicy({ ...policy, config: { ...policy.config, memory: 3 } })).rejects.toThrow(
      /policy's setting memory must be a whole number from 0 to 1, got 3/,
    );
  }, 60_000);

  it("a PPO policy draws its actions seeded by the episode's seed (the same episode, the same play); saved as greedy, or before there was a choice, it does not draw", async () => {
    const learner = await createLearner({ env: V, algo: 'ppo', imitate: 0, seed: 2, numEnvs: 8, nSteps: 16 });
    await learner.trainFor(256); // barely trained: its distribution is far from one action
    const json = JSON.parse(JSON.stringify(learner.policy().toJSON()));
    learner.dispose();
    expect(json.act).toBe('sample');
    const env = await make(V);
    const play = (agent, seed) => playActions(env, agent, seed);
    const sampler = await loadPolicy(json);
    const sampled = play(sampler, 5);
    play(sampler, 6);
    expect(play(sampler, 5)).toEqual(sampled);
    const greedy = await loadPolicy({ ...json, act: 'greedy' });
    const { act, ...older } = json;
    const legacy = await loadPolicy(older);
    expect(play(legacy, 5)).toEqual(play(greedy, 5));
    expect(play(greedy, 5)).not.toEqual(sampled);
    env.close();
    await expect(loadPolicy({ ...json, act: 'best' })).rejects.toThrow(/"act" must be "sample" or "greedy"/);
  }, 60_000);

  it('bad settings and bad policies are refused with what is allowed', async () => {
    await expect(createLearner({ env: V, algo: 'a2c' })).rejects.toThrow(
      /unknown algo "a2c"; the algorithms are tabular-q, ppo, reinforce, dqn/,
    );
    await expect(createLearner({ env: V, algo: 'tabular-q', alpha: -1 })).rejects.toThrow(/alpha must be a number from 0 to 1, got -1/);
    await expect(createLearner({ env: V, algo: 'ppo', imitate: 0, epochs: 0 })).rejects.toThrow(
      /epochs must be a whole number from 1 to 100, got 0/,
    );
    await expect(createLearner({ env: V, algo: 'ppo', imitate: 0, numEnvs: 2.5 })).rejects.toThrow(
      /numEnvs must be a whole number from 1 to 1024, got 2.5/,
    );
    await expect(createLearner({ env: V, algo: 'tabular-q', lr: 1 })).rejects.toThrow(/has no setting 'lr'/);
    await expect(loadPolicy({ format: 'x' })).rejects.toThrow(/not a valley-farm policy/);
    await expect(loadPolicy({ format: 'valley-farm-policy', version: 1, env: V, algo: 'tabular-q', table: [['k', [1]]] })).rejects.toThrow(
      /table\[0\]\[1\] must be 12 numbers \(one per action\), got 1 values/,
    );
    await expect(
      loadPolicy({ format: 'valley-farm-policy', version: 1, env: V, algo: 'ppo', config: { hidden: [64, 64] }, weights: [] }),
    ).rejects.toThrow(/do not fit its network/);
    await expect(loadPolicy({ format: 'valley-farm-policy', version: 1, env: V, algo: 'ppo', weights: [] })).rejects.toThrow(
      /a ppo policy needs its "config"/,
    );
  });

  it("each committed reference run's command is one the train command takes, for that run's farm, learner and steps", () => {
    const runs = referenceRuns();
    expect(runs.length).toBeGreaterThanOrEqual(4);
    for (const run of runs) {
      const [npx, cli, train, ...args] = run.command.split(' ');
      expect([npx, cli, train]).toEqual(['npx', 'valley-farm', 'train']);
      const o = parseTrain(args);
      // the threads a run trained on are in its command, not among the settings that name it
      expect([o.env, o.algo, o.steps, o.settings]).toEqual([run.env, run.algo, run.steps, run.settings]);
      if (run.algo === 'ppo') expect(o.threads).toBeGreaterThanOrEqual(1);
      expect(run.curve.at(-1).steps).toBeGreaterThanOrEqual(run.steps);
    }
  });

  it('the train command refuses bad arguments with exit status 2', () => {
    const r = spawnSync(process.execPath, [`${root}wasm/cli/index.mjs`, 'train', '--env', V, '--steps', 'lots'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--steps must be a whole number from 1 to 1000000000000 \(5e6 is fine\), got lots/);
    const bad = (...args) => spawnSync(process.execPath, [`${root}wasm/cli/index.mjs`, 'train', '--env', V, ...args], { encoding: 'utf8' });
    const unknown = bad('--algo', 'ppo', '--histroy', '4');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/unknown option --histroy; ppo's settings are .*--num-envs.*--history/);
    const range = bad('--algo', 'ppo', '--history', '40');
    expect(range.status).toBe(2);
    expect(range.stderr).toMatch(/history must be a whole number from 1 to 16, got 40/);
  });

  it("the train command takes each of the learner's settings as an option, in kebab case", () => {
    const o = parseTrain([
      '--env',
      V,
      '--algo',
      'ppo',
      '--history',
      '4',
      '--num-envs',
      '128',
      '--hidden',
      '128,32',
      '--learning-rate',
      '3e-4',
    ]);
    expect(o.settings).toEqual({ history: 4, numEnvs: 128, hidden: [128, 32], learningRate: 3e-4 });
    expect(parseTrain(['--env', V]).settings).toEqual({}); // tabular-q with its defaults
    expect(() => parseTrain(['--env', V, '--history', '4'])).toThrow(/tabular-q's settings are/); // history is PPO's
  });
});
