// The same defaults and the same bits on every machine (issue 40): what `train --help` and the
// Lab's settings form say, and what a seeded run of the default settings trains, do not depend
// on the machine's cores; only the threads a run takes when it is not told (and so its speed)
// follow them. Each machine is a Node process told it has that many cores (navigator's
// hardwareConcurrency, which threads.js reads first).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const CORES = [1, 2, 8, 64];

/** Runs node with `args` in a process that believes the machine has `cores` cores; its stdout. */
function onMachine(cores, args) {
  const machine = `data:text/javascript,Object.defineProperty(globalThis,"navigator",{value:{hardwareConcurrency:${cores}},configurable:true})`;
  return execFileSync(process.execPath, ['--import', machine, ...args], { cwd: root, encoding: 'utf8' });
}

/** Runs an ES module's text on that machine; what it prints, parsed. */
const run = (cores, script) => JSON.parse(onMachine(cores, ['--input-type=module', '-e', script]));

// Several Node processes each (one of them with 8 threads on this machine's cores): generous limits
describe('the same on every machine', { timeout: 240_000 }, () => {
  it('the machines differ: the threads a run takes when not told follow their cores, at most 8', () => {
    const script = `import { DEFAULT_THREADS_MAX, defaultThreads } from './wasm/learn/index.js';
      console.log(JSON.stringify(defaultThreads(DEFAULT_THREADS_MAX)));`;
    expect(CORES.map((cores) => run(cores, script))).toEqual([1, 2, 8, 8]);
  });

  it('train --help prints the same text on every machine', () => {
    const [first, ...others] = CORES.map((cores) => onMachine(cores, ['wasm/cli/index.mjs', 'train', '--help']));
    expect(first).toMatch(/--shards N .*\(default 8\)/);
    for (const text of others) expect(text).toBe(first);
  });

  it("the Lab's learner settings, with their defaults, are the same on every machine, for every learner", () => {
    const script = `import { algorithms } from 'valley-farm/learn';
      import { learnerSettings } from './web/src/lab/labQuery.js';
      console.log(JSON.stringify(Object.keys(algorithms).map((algo) => [algo, learnerSettings(algo, 1e6)])));`;
    const [first, ...others] = CORES.map((cores) => run(cores, script));
    expect(first.map(([algo]) => algo)).toEqual(expect.arrayContaining(['ppo', 'reinforce', 'dqn']));
    expect(first.find(([algo]) => algo === 'ppo')[1]).toContainEqual(expect.objectContaining({ name: 'shards', default: 8 }));
    for (const settings of others) expect(settings).toEqual(first);
  });

  it('a seeded PPO run left to its default threads trains to the same weights and settings on a 1-core and an 8-core machine', () => {
    // CommonJS with import(): a run's Workers take this process's options, and --input-type is not one they can
    const script = `(async () => {
      const { createHash } = await import('node:crypto');
      const { createLearner } = await import('./wasm/learn/index.js');
      const learner = await createLearner({ env: 'ValleyFarm-v0', algo: 'ppo', seed: 1, imitate: 0, numEnvs: 16, nSteps: 16 });
      const { threads } = await learner.trainFor(2048);
      const weights = createHash('sha256').update(JSON.stringify(learner.policy().toJSON().weights)).digest('hex');
      console.log(JSON.stringify({ threads, config: learner.config, weights }));
      learner.dispose();
      process.exit(0);
    })();`;
    const [one, eight] = [1, 8].map((cores) => JSON.parse(onMachine(cores, ['-e', script])));
    expect([one.threads, eight.threads]).toEqual([1, 8]);
    expect(eight.config).toEqual(one.config);
    expect(eight.weights).toBe(one.weights);
  });
});
