// valley_farm_play.wasm, the engine the page plays with: the full engine's rules without its
// planner (wasm/valley_farm.wasm stays the package's default). It plays an episode, and
// env.plan() on it says what is missing and where the planner is.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { useEngineBytes, make } from '../../wasm/index.js';

const file = fileURLToPath(new URL('../../wasm/valley_farm_play.wasm', import.meta.url));
useEngineBytes(readFileSync(file));

it('plays an episode of each farm, and plan() says this engine has no planner', async () => {
  for (const id of ['ValleyFarm-v0', 'BackwardsValleyFarm-v0']) {
    const env = await make(id);
    let r = env.reset({ seed: 5 });
    let steps = 0;
    while (!r.terminated) {
      r = env.step(steps % env.actionSpace.n);
      steps++;
    }
    expect(steps).toBeGreaterThan(0);
    expect(env.illegalReasons().every((why) => why?.code === 'episode-over')).toBe(true);
    env.reset({ seed: 5 });
    expect(() => env.plan()).toThrow(/this engine is valley_farm_play\.wasm, which has no planner; plan with valley_farm\.wasm/);
  }
});
