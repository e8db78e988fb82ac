// Parity: the golden trajectories written by the native engine (tests/golden) replayed
// through the WebAssembly build and the JS API give the same rewards, flags, state
// hashes and observation hashes, bit for bit.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { make, makeVec } from '../../wasm/index.js';

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK = (1n << 64n) - 1n;

function fnv1a64(bytes) {
  let h = FNV_OFFSET;
  for (const b of bytes) h = ((h ^ BigInt(b)) * FNV_PRIME) & MASK;
  return h.toString(16).padStart(16, '0');
}

const flatValley = (o) => [...o.view, o.center, ...Object.values(o.inventory), ...o.relationships, o.stepsLeft];
const flatBackwards = (o) => [...o.terrain, ...o.status, o.x, o.y, o.facing, o.stepsLeft, o.farmValue];
const obsHash = (ints) => fnv1a64(new Uint8Array(Int32Array.from(ints).buffer));

function parseGolden() {
  const text = readFileSync(new URL('../golden/trajectories.txt', import.meta.url), 'utf8');
  const episodes = [];
  for (const line of text.split('\n')) {
    const [tag, ...f] = line.trim().split(' ');
    if (tag === 'episode') episodes.push({ id: f[0], seed: BigInt(f[1]), policy: f[2], steps: [] });
    else if (tag === 'reset') Object.assign(episodes.at(-1), { stateHash: f[0], obsHash: f[1] });
    else if (tag === 'step') {
      episodes.at(-1).steps.push({
        action: Number(f[0]),
        reward: Number(f[1]),
        terminated: f[2] === '1',
        legal: f[3] === '1',
        stateHash: f[4],
        obsHash: f[5],
      });
    }
  }
  return episodes;
}

const episodes = parseGolden();

describe('golden trajectories', () => {
  it('cover both envs, 16 episodes each', () => {
    expect(episodes.filter((e) => e.id === 'ValleyFarm-v0')).toHaveLength(16);
    expect(episodes.filter((e) => e.id === 'BackwardsValleyFarm-v0')).toHaveLength(16);
  });

  it.each(episodes.map((e) => [`${e.id} seed ${e.seed} ${e.policy}`, e]))('%s replays bit for bit through the JS API', async (_, ep) => {
    const env = await make(ep.id);
    const flat = ep.id === 'ValleyFarm-v0' ? flatValley : flatBackwards;
    const seed = ep.seed <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(ep.seed) : ep.seed;
    const { observation } = env.reset({ seed });
    expect(fnv1a64(env.snapshot())).toBe(ep.stateHash);
    expect(obsHash(flat(observation))).toBe(ep.obsHash);
    for (const [t, s] of ep.steps.entries()) {
      const r = env.step(s.action);
      const got = {
        reward: r.reward,
        terminated: r.terminated,
        legal: r.info.actionWasLegal,
        stateHash: fnv1a64(env.snapshot()),
        obsHash: obsHash(flat(r.observation)),
      };
      expect(got, `step ${t + 1}`).toEqual({
        reward: s.reward,
        terminated: s.terminated,
        legal: s.legal,
        stateHash: s.stateHash,
        obsHash: s.obsHash,
      });
    }
    env.close();
  });

  it.each(['ValleyFarm-v0', 'BackwardsValleyFarm-v0'])('%s replays through a vector env with the same flat observations', async (id) => {
    const eps = episodes.filter((e) => e.id === id && e.seed < 1000n);
    const vec = await makeVec(id, 1);
    for (const ep of eps) {
      const { observations } = vec.reset(Number(ep.seed));
      expect(obsHash(observations)).toBe(ep.obsHash);
      for (const s of ep.steps.slice(0, -1)) {
        const r = vec.step([s.action]);
        expect(r.rewards[0]).toBe(s.reward);
        expect(obsHash(r.observations)).toBe(s.obsHash);
      }
    }
    vec.close();
  });
});
