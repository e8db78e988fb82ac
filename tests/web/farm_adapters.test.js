// The page's knowledge of each farm lives in one adapter (web/src/model/farms/): these tests
// hold every adapter to the same shape, check it against the engine, and keep env ids out
// of the rest of the page.
import { describe, it, expect } from 'vitest';
import { envIds, envSpecs, make } from 'valley-farm';
import { farms, farmFor, farmBySlug, farmByCode } from '../../web/src/model/farms/index.js';
import { cellLabel } from '../../web/src/model/labels.js';

// The page's sources as text, read by Vite (no Node built-ins in a happy-dom test file).
const SOURCES = import.meta.glob('../../web/src/**/*.{js,jsx}', { query: '?raw', import: 'default', eager: true });
const PREFIX = '../../web/src/';

describe('farm adapters', () => {
  it('every env id has exactly one adapter, with a distinct slug and share-link code', () => {
    expect(farms.map((f) => f.id)).toEqual(envIds);
    expect(new Set(farms.map((f) => f.slug)).size).toBe(farms.length);
    expect(new Set(farms.map((f) => f.code)).size).toBe(farms.length);
    for (const f of farms) {
      expect(farmFor(f.id)).toBe(f);
      expect(farmBySlug(f.slug)).toBe(f);
      expect(farmByCode(f.code)).toBe(f);
    }
    expect(() => farmFor('NoSuchFarm-v0')).toThrow(/Unknown farm 'NoSuchFarm-v0'; the farms are ValleyFarm-v0, BackwardsValleyFarm-v0/);
  });

  it("an adapter's keys and hints cover exactly the engine's actions, with distinct keys", () => {
    for (const f of farms) {
      expect(Object.keys(f.actions).sort()).toEqual([...envSpecs[f.id].actions].sort());
      const keys = Object.values(f.actions).map((a) => a.key.toUpperCase());
      expect(new Set(keys).size).toBe(keys.length);
    }
  });

  it("the position an adapter shows is the engine agent's, after every step of a random episode (blocked moves included)", async () => {
    for (const f of farms) {
      const env = await make(f.id);
      let { observation } = env.reset({ seed: 3 });
      let blocked = 0;
      for (let t = 0; t < envSpecs[f.id].horizon; t++) {
        const r = env.step(Math.floor(t / 8) % 4); // 8 moves each way: some run into something
        if (!r.info.actionWasLegal) blocked++;
        observation = r.observation;
        const { x, y } = env.state().agent;
        expect(f.position(observation, () => env.state())).toEqual({ x, y });
        if (f.faces) expect(f.facing(observation)).toBe(env.state().agent.facing);
        else expect(f.facing(observation)).toBeUndefined();
        if (r.terminated || r.truncated) break;
      }
      expect(blocked).toBeGreaterThan(0);
      env.close();
    }
  });

  it("an adapter's window cells match its world cells around the agent (what the agent sees is what is there)", async () => {
    for (const f of farms) {
      const env = await make(f.id);
      const { observation } = env.reset({ seed: 11 });
      const world = f.worldCells(env.state());
      const win = f.windowCells(observation);
      const { x, y } = f.position(observation, () => env.state());
      for (let i = 0; i < 25; i++) {
        const wx = x + (i % 5) - 2;
        const wy = y + Math.floor(i / 5) - 2;
        const there = world[wy]?.[wx];
        expect(win[i].kind).toBe(there ? there.kind : 'out');
      }
      env.close();
    }
  });

  it("the villagers' moods in the valley's status rows are the engine's, even where the observation's rounded relationship suggests another", async () => {
    const valley = farmBySlug('valley');
    const env = await make(valley.id);
    const { observation } = env.reset({ seed: 1 });
    const state = env.state();
    state.villagers[0].mood = 1; // the engine's word wins over anything derived
    const rows = valley
      .statusGroups(observation, state)
      .flatMap((g) => g.rows)
      .filter((r) => r.note);
    expect(rows.map((r) => r.note.text)).toEqual(state.villagers.map((v) => ['wary', 'neutral', 'friendly'][v.mood]));
    env.close();
  });

  it('an adapter gives the words for each kind of cell it draws, and no two farms claim a kind', () => {
    const owner = new Map();
    for (const f of farms)
      for (const kind of Object.keys(f.labels)) {
        expect(owner.get(kind), `${kind}: ${f.id}`).toBeUndefined();
        owner.set(kind, f.id);
      }
    for (const f of farms)
      for (const d of f.legendSamples()) {
        if (!['out', 'ground', 'unknown'].includes(d.kind)) expect(owner.get(d.kind), d.kind).toBe(f.id);
        expect(cellLabel(d), d.kind).not.toBe(d.kind); // words, not the bare kind
      }
  });

  it('no page module outside the adapters names an env id (docs prose and code examples aside)', () => {
    const allowed = (path) => path.startsWith('model/farms/') || path.startsWith('docs/pages/') || path === 'docs/model/examples.js';
    const offenders = [];
    const files = Object.entries(SOURCES);
    expect(files.length).toBeGreaterThan(40); // the scan did find the page
    for (const [file, text] of files) {
      const path = file.slice(PREFIX.length);
      if (allowed(path)) continue;
      for (const id of envIds) if (text.includes(id)) offenders.push(`${path}: ${id}`);
    }
    expect(offenders).toEqual([]);
  });
});
