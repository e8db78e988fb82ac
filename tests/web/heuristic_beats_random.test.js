// The built-in heuristic agents must clearly beat random on mean return (100 seeds each).
import { describe, it, expect, afterAll } from 'vitest';
import { make, envIds } from 'valley-farm';
import { createAgent } from 'valley-farm/agents';
import { meanReturn } from '../../web/src/model/evaluate.js';

const SEEDS = 100;
const envs = [];
afterAll(() => envs.forEach((e) => e.close()));

describe.each(envIds)('%s', (id) => {
  it('heuristic mean return beats random by a clear margin over 100 seeds', async () => {
    const env = await make(id);
    envs.push(env);
    const heuristic = meanReturn(env, createAgent('heuristic', id), { seeds: SEEDS });
    const random = meanReturn(env, createAgent('random', id, { seed: 7 }), { seeds: SEEDS });
    console.log(
      `${id}: heuristic mean ${heuristic.mean.toFixed(2)} (min ${heuristic.min.toFixed(2)}, max ${heuristic.max.toFixed(2)}); random mean ${random.mean.toFixed(2)}`,
    );
    expect(heuristic.returns).toHaveLength(SEEDS);
    expect(heuristic.mean).toBeGreaterThan(random.mean * 2);
    expect(heuristic.mean - random.mean).toBeGreaterThan(5);
  });

  it('heuristic is deterministic: the same seed gives the same return', async () => {
    const env = await make(id);
    envs.push(env);
    const a = meanReturn(env, createAgent('heuristic', id), { seeds: 5, firstSeed: 40 });
    const b = meanReturn(env, createAgent('heuristic', id), { seeds: 5, firstSeed: 40 });
    expect(a.returns).toEqual(b.returns);
  });
});
