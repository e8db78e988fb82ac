// Memory: making and closing envs, and playing many episodes, must not grow the module's
// memory (the engine allocates nothing per step; close() frees an env's block).
import { expect, it } from 'vitest';
import { engineMemoryBytes, make, makeVec } from '../../wasm/index.js';

it('10,000 make/close cycles leave the module memory size unchanged', async () => {
  for (const id of ['ValleyFarm-v0', 'BackwardsValleyFarm-v0']) (await make(id)).close();
  const before = await engineMemoryBytes();
  for (let i = 0; i < 10_000; i++) {
    const env = await make(i % 2 ? 'ValleyFarm-v0' : 'BackwardsValleyFarm-v0');
    env.reset({ seed: i });
    env.close();
    if (i % 1000 === 0) (await makeVec('ValleyFarm-v0', 64)).close();
  }
  expect(await engineMemoryBytes()).toBe(before);
});

it('10,000 episodes leave the module memory size unchanged', async () => {
  const env = await make('BackwardsValleyFarm-v0');
  const vec = await makeVec('ValleyFarm-v0', 10);
  const before = await engineMemoryBytes();
  for (let e = 0; e < 5_000; e++) {
    env.reset({ seed: e });
    for (let t = 0; !env.step(t % 11).terminated; t++);
    env.state();
    env.render();
    env.restore(env.snapshot());
  }
  vec.reset(0);
  const actions = new Int32Array(10);
  for (let t = 0; t < 50 * 500; t++) {
    actions.fill(t % 12);
    vec.step(actions);
  }
  expect(await engineMemoryBytes()).toBe(before);
});
