// The session model: reset, step, history, illegal actions marked, the end of an episode,
// replays (checked before they replace the game), and a click next to the agent.
import { describe, it, expect, beforeEach } from 'vitest';
import { Session } from '../../web/src/model/session.js';
import { ReplayError } from '../../web/src/replay.js';

const V = 'ValleyFarm-v0';
const B = 'BackwardsValleyFarm-v0';
let session;
let informs;

beforeEach(async () => {
  session = new Session();
  await session.open(V, { seed: 42 });
  informs = 0;
  session.subscribe(() => informs++);
});

describe('reset', () => {
  it('starts an episode with the given seed and an empty history', () => {
    expect(session.seed).toBe(42);
    expect(session.actions).toEqual([]);
    expect(session.ret).toBe(0);
    expect(session.lastLegal).toBeNull();
    expect(session.observation.stepsLeft).toBe(50);
    expect(session.pos).toEqual(session.state.agent);
  });

  it('uses the seed typed in the box, else a fresh random seed', () => {
    session.setSeedText('7');
    session.reset();
    expect(session.seed).toBe(7);
    session.setSeedText('');
    session.reset();
    const a = session.seed;
    session.reset();
    expect(session.seed).not.toBe(a);
  });

  it('refuses a bad typed seed with a message and keeps the game', () => {
    session.act('wait');
    session.setSeedText('12x');
    expect(session.reset()).toBeNull();
    expect(session.message).toEqual({ kind: 'error', text: expect.stringContaining('The seed you typed is "12x"') });
    expect(session.actions).toEqual([11]);
  });
});

describe('step', () => {
  it('records actions, rewards and legality, and informs once', () => {
    const r = session.act('wait');
    expect(r.info.actionWasLegal).toBe(true);
    expect(session.actions).toEqual([11]);
    expect(session.rewards).toEqual([0]);
    expect(session.lastLegal).toBe(true);
    expect(session.observation.stepsLeft).toBe(49);
    expect(informs).toBe(1);
  });

  it('marks an illegal action, which still spends a step', () => {
    expect(session.legal[6]).toBe(0); // nothing to harvest at the start
    const r = session.act(6);
    expect(r.info.actionWasLegal).toBe(false);
    expect(session.lastLegal).toBe(false);
    expect(session.legalMarks).toEqual([false]);
    expect(session.observation.stepsLeft).toBe(49);
  });

  it('rejects an action that is neither an id nor a name, naming what is allowed', () => {
    expect(() => session.act(12)).toThrow(/integer 0 … 11 or an action name \(north, south/);
    expect(() => session.act('jump')).toThrow(TypeError);
    expect(session.actions).toEqual([]);
  });

  it('tracks the agent on the map by its legal moves', () => {
    const legalMove = [0, 1, 2, 3].find((a) => session.legal[a] === 1);
    session.act(legalMove);
    expect(session.pos).toEqual(session.state.agent);
  });

  it('moves by a click on a neighbouring cell, and ignores other cells', () => {
    const { x, y } = session.pos;
    const dir = [0, 1, 2, 3].find((a) => session.legal[a] === 1);
    const target = [
      [x, y - 1],
      [x, y + 1],
      [x + 1, y],
      [x - 1, y],
    ][dir];
    expect(session.clickCell(x + 2, y + 2)).toBe(-1);
    expect(session.clickCell(...target)).toBe(dir);
    expect(session.pos).toEqual({ x: target[0], y: target[1] });
  });
});

describe('end of episode', () => {
  it('ends after the horizon, tells listeners, and refuses more steps with a message', () => {
    const ended = [];
    session.onEpisodeEnd((r) => ended.push(r));
    for (let i = 0; i < 50; i++) session.act('wait');
    expect(session.done).toBe(true);
    expect(ended).toEqual([{ env: V, seed: 42, actions: Array(50).fill(11), ret: 0 }]);
    expect(session.act('wait')).toBeNull();
    expect(session.message.text).toMatch(/The episode is over .* New episode \(N\)/);
    expect(session.actions).toHaveLength(50);
  });

  it('ends the backwards farm after 40', async () => {
    await session.open(B, { seed: 3 });
    for (let i = 0; i < 40; i++) session.act('wait');
    expect(session.done).toBe(true);
    expect(session.observation.stepsLeft).toBe(0);
  });
});

describe('views', () => {
  it("draws the world from the state and the agent's eyes from the observation", () => {
    const world = session.cells;
    expect(world).toHaveLength(15);
    expect(world.flat().every((c) => c.seen === 'now')).toBe(true);
    session.setView('eyes');
    const eyes = session.cells.flat();
    expect(eyes.filter((c) => c.seen === 'never').length).toBeGreaterThan(150);
    expect(eyes.filter((c) => c.seen === 'now').length).toBeGreaterThanOrEqual(9);
  });

  it('keeps cells seen earlier as last seen', async () => {
    await session.open(B, { seed: 5 });
    session.setView('eyes');
    const before = session.cells.flat().filter((c) => c.seen !== 'never').length;
    for (let i = 0; i < 6; i++) session.act([0, 1, 2, 3].find((a) => session.legal[a] === 1 && a !== session.observation.facing) ?? 4);
    const cells = session.cells.flat();
    expect(cells.filter((c) => c.seen !== 'never').length).toBeGreaterThanOrEqual(before);
  });
});

describe('replay', () => {
  it('shows a replay from step 0 and steps forward and back through it', async () => {
    const actions = [4, 4, 0, 1];
    await session.loadReplay({ env: B, seed: 9, actions });
    expect(session.envId).toBe(B);
    expect(session.replay.cursor).toBe(0);
    session.replayStep(1);
    session.replayStep(1);
    expect(session.actions).toEqual([4, 4]);
    session.replayStep(-1);
    expect(session.actions).toEqual([4]);
    session.seek(4);
    expect(session.actions).toEqual(actions);
    expect(session.record()).toMatchObject({ env: B, seed: 9, actions });
  });

  it('drops the rest of the replay when the visitor plays on', async () => {
    await session.loadReplay({ env: V, seed: 1, actions: [11, 11, 11] });
    session.replayStep(1);
    session.act('wait');
    expect(session.replay).toBeNull();
    expect(session.actions).toEqual([11, 11]);
    expect(session.message.text).toMatch(/took over the replay at step 1/);
  });

  it('rejects a replay whose actions run past the end, leaving the game as it was', async () => {
    session.act('wait');
    // 41 actions cannot pass replay.js, so feed the session directly
    const err = await session.loadReplay({ env: B, seed: 1, actions: Array(41).fill(4) }).catch((e) => e);
    expect(err).toBeInstanceOf(ReplayError);
    expect(err.message).toBe("The replay's episode ends after step 40, but 1 more action(s) follow.");
    expect(session.envId).toBe(V);
    expect(session.actions).toEqual([11]);
  });
});

describe("the shown position is the engine's", () => {
  it('a blocked move leaves the shown position where the engine has the agent, and a move follows it', async () => {
    const { Session } = await import('../../web/src/model/session.js');
    const s = new Session();
    await s.open('ValleyFarm-v0', { seed: 42 });
    let blocked = -1;
    let open = -1;
    for (let seed = 42; seed < 80 && (blocked < 0 || open < 0); seed++) {
      s.reset(seed);
      const legal = s.legal;
      blocked = [0, 1, 2, 3].find((d) => !legal[d]) ?? -1;
      open = [0, 1, 2, 3].find((d) => legal[d]) ?? -1;
    }
    expect(blocked).toBeGreaterThanOrEqual(0);
    const before = { ...s.pos };
    s.act(blocked);
    expect(s.lastLegal).toBe(false);
    expect(s.pos).toEqual(before);
    expect(s.pos).toEqual(s.env.state().agent);
    s.act(open >= 0 ? open : 0);
    expect(s.pos).toEqual(s.env.state().agent);
  });
});
