// A learner's settings have ranges that make sense and a memory estimate, and createLearner
// refuses what is out of range or would take more than the budget, before it allocates.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { algorithms, createLearner, estimateMemory, MEMORY_BUDGET, THREAD_BYTES } from '../../wasm/learn/index.js';
import { ENGINE_ENV_ALLOWANCE, checkLearner } from '../../wasm/learn/settings.js';
import { allowed } from '../../wasm/learn/limits.js';
import { engineMemoryBytes, makeVec } from '../../wasm/index.js';
import { parse as parseTrain } from '../../wasm/cli/train.mjs';
import { referenceRuns } from '../../scripts/baselines.mjs';
import { plannerDemos } from '../../wasm/learn/imitate.js';

const V = 'ValleyFarm-v0';
const B = 'BackwardsValleyFarm-v0';

describe('learner settings', () => {
  it('settings that make no sense are refused with what is allowed', async () => {
    const refused = [
      [{ gamma: 5 }, /ppo setting gamma must be a number from 0 to 1, got 5/],
      [{ lambda: -0.1 }, /lambda must be a number from 0 to 1, got -0.1/],
      [{ clip: 1e300 }, /clip must be a number above 0 and at most 1, got 1e\+300/],
      [{ clip: 0 }, /clip must be a number above 0 and at most 1, got 0/],
      [{ learningRate: 1e300 }, /learningRate must be a number above 0 and at most 1, got 1e\+300/],
      [{ entropyCoef: 2 }, /entropyCoef must be a number from 0 to 1/],
      [{ valueCoef: 1e9 }, /valueCoef must be a number from 0 to 10/],
      [{ numEnvs: 5000 }, /numEnvs must be a whole number from 1 to 1024, got 5000/],
      [{ nSteps: 1e7 }, /nSteps must be a whole number from 1 to 4096/],
      [{ minibatch: 0 }, /minibatch must be a whole number from 1 to 65536, got 0/],
      [{ hidden: 'abc' }, /hidden must be an array of 1 to 4 layer sizes, each a whole number from 1 to 512, got "abc"/],
      [{ hidden: Array(40).fill(4096) }, /hidden must be an array of 1 to 4 layer sizes/],
      [{ hidden: [64, 1e9] }, /hidden must be an array of 1 to 4 layer sizes/],
    ];
    for (const [settings, message] of refused) {
      await expect(createLearner({ env: V, algo: 'ppo', ...settings }), JSON.stringify(settings)).rejects.toThrow(message);
    }
    await expect(createLearner({ env: V, algo: 'tabular-q', gamma: 1.5 })).rejects.toThrow(
      /tabular-q setting gamma must be a number from 0 to 1/,
    );
    await expect(createLearner({ env: V, algo: 'tabular-q', epsilon: NaN })).rejects.toThrow(
      /epsilon must be a number from 0 to 1, got null/,
    );
  });

  it('every default is within its limit, and every setting has one', () => {
    for (const [algo, { defaults, limits }] of Object.entries(algorithms)) {
      expect(Object.keys(limits).sort(), algo).toEqual(Object.keys(defaults).sort());
      expect(() => estimateMemory(V, algo, defaults), algo).not.toThrow();
      for (const k of Object.keys(limits)) expect(allowed(limits[k]), `${algo} ${k}`).toMatch(/^a|^an/);
    }
  });

  it('a configuration whose memory estimate is above the budget is refused, naming both', async () => {
    expect(MEMORY_BUDGET).toBe(2 ** 30);
    const big = { numEnvs: 1024, history: 16, memory: 1, imitate: 0 };
    expect(estimateMemory(V, 'ppo', big)).toBeGreaterThan(MEMORY_BUDGET);
    await expect(createLearner({ env: V, algo: 'ppo', ...big })).rejects.toThrow(
      /these ppo settings would take about 1\d{3} MB, more than the 1024 MB a learner may take/,
    );
    // the same network size cap a saved policy has
    await expect(
      createLearner({ env: V, algo: 'ppo', numEnvs: 1, nSteps: 1, history: 16, memory: 1, hidden: [512, 512, 512, 512] }),
    ).rejects.toThrow(/the network would have \d+ weights, more than the 4194304 allowed/);
  });

  it('the estimate grows with what a run keeps, and every committed reference run fits the budget', () => {
    const base = estimateMemory(V, 'ppo', { memory: 0, imitate: 0 });
    expect(base).toBeGreaterThan(1e6);
    const plain = { memory: 0, imitate: 0 };
    expect(estimateMemory(V, 'ppo', { ...plain, numEnvs: 128 })).toBeGreaterThan(base);
    expect(estimateMemory(V, 'ppo', { ...plain, history: 4 })).toBeGreaterThan(base);
    expect(estimateMemory(V, 'ppo', { ...plain, memory: 1 })).toBeGreaterThan(base);
    expect(estimateMemory(V, 'ppo', { ...plain, imitate: 6000 })).toBeGreaterThan(base);
    expect(estimateMemory(V, 'ppo', { ...plain, hidden: [256, 256] })).toBeGreaterThan(base);
    expect(() => estimateMemory(V, 'ppo', { gamma: 5 })).toThrow(/gamma must be a number from 0 to 1/);
    expect(() => estimateMemory('Nope', 'ppo', {})).toThrow(/unknown env "Nope"/);
    for (const run of referenceRuns()) {
      const o = parseTrain(run.command.split(' ').slice(3));
      expect(estimateMemory(o.env, o.algo, o.settings), run.command).toBeLessThan(MEMORY_BUDGET);
    }
  });

  it("the estimate's allowance for one env's engine state is at least what the engine takes", async () => {
    // a fresh engine (vitest runs each file in its own worker): a vec of n envs grows its
    // memory by its parts, each env's state among them
    const n = 4096;
    const before = await engineMemoryBytes();
    const vec = await makeVec(B, n);
    const grown = (await engineMemoryBytes()) - before;
    expect(grown).toBeGreaterThan(0);
    expect(grown).toBeLessThan(n * ENGINE_ENV_ALLOWANCE);
    vec.close();
  });

  it('the estimate of the planner episodes a run clones is within 0.7-1.5 times what they take, in JS and in the learner core', async () => {
    // A fresh learner core in a child process, its free room filled: a run without imitate,
    // then one with; what the second grows the core's memory by is its demonstrations' samples
    // (the first's rollout and network are freed, and the second's fill their room again).
    const episodes = 200;
    // a minibatch of the rollout's size, so that cloning computes no more rows at once than PPO
    const small = { threads: 1, numEnvs: 8, nSteps: 16, minibatch: 128 };
    const grown = (env) =>
      Number(
        execFileSync(
          process.execPath,
          [
            '--input-type=module',
            '-e',
            `const { createLearner } = await import(${JSON.stringify(new URL('../../wasm/learn/index.js', import.meta.url).href)});
             const { loadCore } = await import(${JSON.stringify(new URL('../../wasm/learn/core.js', import.meta.url).href)});
             const core = await loadCore();
             const { memory } = core;
             // fill the free room the core starts with, so that what a run takes grows its memory
             for (const start = memory.buffer.byteLength; memory.buffer.byteLength === start; ) core.alloc(65536);
             const run = async (imitate) => {
               const learner = await createLearner({ env: '${env}', algo: 'ppo', seed: 2, imitate, ...${JSON.stringify(small)} });
               await learner.trainFor(128);
               learner.dispose();
             };
             await run(0);
             const before = memory.buffer.byteLength;
             await run(${episodes});
             console.log(memory.buffer.byteLength - before);`,
          ],
          { encoding: 'utf8' },
        ),
      );
    for (const env of [V, B]) {
      // the JS arrays of the episodes while they are played: plannerDemos's own
      const d = await plannerDemos(env, { episodes, width: algorithms.ppo.defaults.plannerWidth, seed: 2, gamma: 0.99 });
      const js = Object.values(d).reduce((a, x) => a + (ArrayBuffer.isView(x) ? x.byteLength : 0), 0);
      const core = grown(env);
      expect(core, env).toBeGreaterThan(js); // the samples, not only a page or two
      const { threads, ...settings } = small;
      const estimated =
        estimateMemory(env, 'ppo', { ...settings, imitate: episodes }, { threads }) -
        estimateMemory(env, 'ppo', { ...settings, imitate: 0 }, { threads });
      const ratio = estimated / (core + js);
      expect(ratio, `${env}: estimated ${estimated} bytes, took ${core} in the core and ${js} in JS`).toBeGreaterThan(0.7);
      expect(ratio, `${env}: estimated ${estimated} bytes, took ${core} in the core and ${js} in JS`).toBeLessThan(1.5);
    }
  }, 300_000); // two short runs and the planner's episodes on each farm: seconds, longer on a busy machine

  it("REINFORCE's estimate is within 0.7-1.5 times what a run takes, in the learner core, the engine and JS", () => {
    // A fresh learner core in a child process, its free room filled: what a run grows the
    // core's memory by is its rollouts' samples and its networks; the engine's, its vector
    // envs; Node's ArrayBuffers (which leave WebAssembly memories out), its JS arrays (a
    // rollout's actions, values, returns…, the envs' masks and actions). All three are read
    // after one update (every buffer in use), with the run alive, and held to the estimate but
    // its allowance for a thread's Worker (THREAD_BYTES: none here, one thread).
    const settings = { numEnvs: 256, history: 4, shards: 8 };
    const taken = (env) =>
      JSON.parse(
        execFileSync(
          process.execPath,
          [
            '--expose-gc',
            '--input-type=module',
            '-e',
            `const { createLearner } = await import(${JSON.stringify(new URL('../../wasm/learn/index.js', import.meta.url).href)});
             const { loadCore } = await import(${JSON.stringify(new URL('../../wasm/learn/core.js', import.meta.url).href)});
             const { engineMemoryBytes, makeVec } = await import(${JSON.stringify(new URL('../../wasm/index.js', import.meta.url).href)});
             const core = await loadCore();
             const { memory } = core;
             (await makeVec('${env}', 1)).close(); // the engine loaded: its own start-up is not the run's
             for (const start = memory.buffer.byteLength; memory.buffer.byteLength === start; ) core.alloc(65536);
             global.gc();
             const at = async () => ({ core: memory.buffer.byteLength, engine: await engineMemoryBytes(), js: process.memoryUsage().arrayBuffers });
             const before = await at();
             const learner = await createLearner({ env: '${env}', algo: 'reinforce', seed: 2, threads: 1, ...${JSON.stringify(settings)} });
             await learner.trainFor(1);
             global.gc();
             const after = await at();
             console.log(JSON.stringify({ core: after.core - before.core, engine: after.engine - before.engine, js: after.js - before.js }));
             learner.dispose();`,
          ],
          { encoding: 'utf8' },
        ),
      );
    for (const env of [V, B]) {
      const { core, engine, js } = taken(env);
      expect(core, env).toBeGreaterThan(0);
      const estimated = estimateMemory(env, 'reinforce', settings, { threads: 1 }) - THREAD_BYTES;
      const why = `${env}: estimated ${estimated} bytes, took ${core} in the core, ${engine} in the engine and ${js} in JS`;
      const ratio = estimated / (core + engine + js);
      expect(ratio, why).toBeGreaterThan(0.7);
      expect(ratio, why).toBeLessThan(1.5);
    }
  }, 120_000);

  // a configuration of each learner over the budget, and what its message must then name
  it.each([
    ['ppo', { numEnvs: 1024, history: 16 }, ['imitate', 'numEnvs', 'nSteps', 'history', 'hidden']],
    ['reinforce', { numEnvs: 1024, history: 16, minibatch: 65536 }, ['numEnvs', 'minibatch', 'history', 'hidden']],
    ['dqn', { bufferSize: 4_000_000, history: 16 }, ['bufferSize', 'history', 'memory']],
  ])('the budget message for %s names only settings it has, each of which lowers its estimate', (algo, over, sizing) => {
    const learner = algorithms[algo];
    expect(estimateMemory(V, algo, over)).toBeGreaterThan(MEMORY_BUDGET);
    let message = '';
    try {
      checkLearner(V, algo, over, { threads: 1 });
    } catch (err) {
      message = err.message;
    }
    expect(message).toMatch(
      new RegExp(`^valley-farm/learn: these ${algo} settings would take about \\d+ MB, more than the 1024 MB a learner may take; use `),
    );
    const named = [...message.matchAll(/\((\w+)\)/g)].map((m) => m[1]);
    for (const k of sizing) expect(named, `${algo}'s message names ${k}`).toContain(k);
    for (const k of named) {
      expect(Object.keys(learner.defaults), `${algo} has the setting ${k} its message names`).toContain(k);
      // lowered to its least (a layer of one unit), the setting lowers the estimate
      const limit = learner.limits[k];
      const least = limit.kind === 'layers' ? [1] : limit.min;
      const base = { ...learner.defaults, ...over };
      expect(estimateMemory(V, algo, { ...over, [k]: least }), `${algo}: less ${k}`).toBeLessThan(estimateMemory(V, algo, base));
    }
    // the settings of other learners it lacks are not suggested (PPO's imitate and nSteps to REINFORCE and DQN)
    for (const k of ['imitate', 'nSteps', 'bufferSize', 'minibatch'])
      if (!Object.hasOwn(learner.defaults, k)) expect(message).not.toContain(`(${k})`);
  });

  it("imitate's largest value is refused for its memory, which names imitate, and what the budget allows fits in the learner core", async () => {
    const most = algorithms.ppo.limits.imitate.max;
    for (const env of [V, B])
      await expect(createLearner({ env, algo: 'ppo', imitate: most, threads: 1 }), env).rejects.toThrow(
        /these ppo settings would take about \d+ MB, more than the 1024 MB a learner may take; use fewer planner episodes \(imitate\)/,
      );
    // the learner core's memory can grow to its maximum (learner.wasm's build), and a run of
    // the budget fits in it even if it took half as much again as its estimate
    const pages = Number(
      execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const { loadCore } = await import(${JSON.stringify(new URL('../../wasm/learn/core.js', import.meta.url).href)});
           const { memory } = await loadCore();
           for (let step = 65536; step >= 1; step /= 2) try { memory.grow(step); } catch {}
           console.log(memory.buffer.byteLength / 65536);`,
        ],
        { encoding: 'utf8' },
      ),
    );
    expect(pages * 65536).toBeGreaterThanOrEqual(1.5 * MEMORY_BUDGET);
  });
});
