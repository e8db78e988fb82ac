// A slow agent's answer is for the game it was asked about: if the visitor takes over while
// the agent thinks (a key, N, a share link, another farm, pause), the late answer is dropped
// and never lands in the new game. Each test fails if the runner checks only the session.
import { beforeEach, describe, expect, it } from 'vitest';
import { FarmApp } from '../../web/src/model/app.js';
import { createHandle } from '../../web/src/model/handle.js';
import { answer } from '../../web/src/model/messages.js';

/** An agent whose answers arrive only when the test releases them. */
function slowAgent(action = 'wait') {
  const pending = [];
  return {
    pending,
    act: () => new Promise((resolve) => pending.push(() => resolve(action))),
    releaseAll() {
      while (pending.length) pending.shift()();
    },
  };
}

const settle = () => new Promise((r) => setTimeout(r, 5));

let app;
beforeEach(async () => {
  app = new FarmApp();
  app.measure = async () => {};
  await app.start('');
  app.newEpisode(7);
});

describe('a slow agent step that the visitor overtakes', () => {
  it('an arrow key during the wait: the agent step is dropped and the pause holds', async () => {
    const agent = slowAgent('wait');
    app.runner.setCustomAgent(agent);
    app.runner.setSpeed(Infinity);
    app.runner.play();
    await settle();
    expect(agent.pending.length).toBe(1); // asked, waiting
    expect(agent.pending.length).toBe(1);
    app.playByHand('north'); // the visitor's move pauses the runner
    agent.releaseAll();
    await settle();
    agent.releaseAll();
    await settle();
    expect(app.session.actions).toEqual([0]);
    expect(app.runner.playing).toBe(false);
  });

  it('pressing N during the wait: the old action is not step 1 of the new episode', async () => {
    const agent = slowAgent('wait');
    app.runner.setCustomAgent(agent);
    app.runner.setSpeed(Infinity);
    app.runner.play();
    await settle();
    expect(agent.pending.length).toBe(1); // asked, waiting
    app.newEpisode(8);
    agent.releaseAll();
    await settle();
    expect(app.session.seed).toBe(8);
    expect(app.session.actions).toEqual([]);
  });

  it('opening a share link during the wait: the replay just opened is kept', async () => {
    const agent = slowAgent('wait');
    const link = app.shareLink('http://localhost/');
    app.runner.setCustomAgent(agent);
    app.runner.setSpeed(Infinity);
    app.runner.play();
    await settle();
    expect(agent.pending.length).toBe(1); // asked, waiting
    expect(await app.loadReplay(link)).toBe(true);
    const before = { ...app.session.replay, cursor: app.session.replay.cursor };
    agent.releaseAll();
    await settle();
    expect(app.session.replay).not.toBeNull();
    expect(app.session.replay.cursor).toBe(before.cursor);
  });

  it('switching farms during the wait: a valley action never lands on the backwards farm', async () => {
    const agent = slowAgent(11); // valley's wait; on the backwards farm 11 is out of range
    app.runner.setCustomAgent(agent);
    app.runner.setSpeed(Infinity);
    app.runner.play();
    await settle();
    expect(agent.pending.length).toBe(1); // asked, waiting
    await app.switchEnv('BackwardsValleyFarm-v0');
    agent.releaseAll();
    await settle();
    expect(app.session.envId).toBe('BackwardsValleyFarm-v0');
    expect(app.session.actions).toEqual([]);
    expect(app.runner.error).toBeNull();
  });
});

describe('the console handle and messages check their arguments', () => {
  it("refuses seeds that are not decimal strings or integers: '', '0x10', ' 12 '", async () => {
    const handle = createHandle(app);
    const seed = app.session.seed;
    for (const bad of ['', '0x10', ' 12 ', 1.5, -1, {}]) expect(() => handle.reset(bad)).toThrow(/a seed must be/);
    expect(app.session.seed).toBe(seed);
    expect(handle.reset('12').info.seed).toBe(12);
  });

  it('make(id, null) and run(null) get clear errors, not internal TypeErrors', async () => {
    const handle = createHandle(app);
    await expect(handle.make('ValleyFarm-v0', null)).rejects.toThrow(/options must be an object/);
    expect(() => handle.run(null)).toThrow(/options must be an object/);
  });

  it("run() rejects with the agent's error, through messages too", async () => {
    const handle = createHandle(app);
    await handle.setAgent(() => {
      throw new Error('boom');
    });
    await expect(handle.run({ episodes: 1 })).rejects.toThrow(/boom/);
    const reply = await answer(handle, { type: 'valley-farm', id: 1, method: 'run', args: [{ episodes: 1 }] });
    expect(reply.ok).toBe(false);
    expect(reply.error).toMatch(/boom/);
  });

  it('an agent that returns a 10 M-character string gets an error of a few hundred characters, as soon as for 1,000', async () => {
    const handle = createHandle(app);
    /** The run's time (ms) and error with an agent that returns `answer`. */
    const runWith = async (answer) => {
      await handle.setAgent(() => answer);
      const t0 = performance.now();
      const error = await handle.run({ episodes: 1 }).catch((e) => e.message);
      return { ms: performance.now() - t0, error };
    };
    const control = await runWith('x'.repeat(1000));
    const big = await runWith('x'.repeat(10e6));
    expect(big.error).toMatch(/act\(\) returned "x+"… \(10000000 characters\)/);
    // the same steps as the control's (a busy machine slows both); a copy or a walk of the 10 M
    // characters would add seconds
    expect(big.ms, `control: ${control.ms} ms`).toBeLessThan(2 * control.ms + 1000);
    expect(app.runner.error.length).toBeLessThan(700);
  });

  it('an agent that throws a 10 M-character message shows at most a few hundred characters', async () => {
    const handle = createHandle(app);
    await handle.setAgent(() => {
      throw new Error('x'.repeat(10e6));
    });
    await expect(handle.run({ episodes: 1 })).rejects.toThrow();
    expect(app.runner.error.length).toBeLessThan(700);
  });
});

describe('replay files and links that are too large or carry markup', () => {
  it('a 50 MB file is refused before it is read, and the game goes on', async () => {
    const seed = app.session.seed;
    app.playByHand('wait');
    let read = false;
    const file = {
      name: 'big.json',
      size: 50e6,
      text: async () => {
        read = true;
        return '';
      },
    };
    expect(await app.importReplayFile(file)).toBe(false);
    expect(read).toBe(false); // refused by its size, unread
    expect(app.session.message.text).toMatch(/50000000 bytes; a replay file is at most 65536/);
    expect(app.session.seed).toBe(seed);
    expect(app.session.actions).toEqual([11]);
  });

  it('a link with a hundred million actions is refused at the cost of one with ten thousand, and the game goes on', async () => {
    const link = (n) => `http://localhost/#replay=1.V.7.${'b'.repeat(n)}`;
    const big = link(1e8);
    const control = link(1e4); // also past MAX_LINK_CHARS
    // the fastest of five refusals of each, alternated: a link sized by its length costs the
    // same whatever its length; one read through would cost the big one ten thousand times more
    const fastest = { big: Infinity, control: Infinity };
    for (let i = 0; i < 5; i++)
      for (const [name, text] of Object.entries({ big, control })) {
        const t0 = performance.now();
        expect(await app.loadReplay(text)).toBe(false);
        fastest[name] = Math.min(fastest[name], performance.now() - t0);
        expect(app.session.message.text).toMatch(/at most/);
      }
    expect(fastest.big, `control: ${fastest.control} ms`).toBeLessThan(10 * fastest.control + 20);
    expect(app.session.replay).toBeNull();
  });

  it('markup in a replay reaches the page only as text', async () => {
    const { render } = await import('preact');
    const { h } = await import('preact');
    const { App } = await import('../../web/src/components/App.jsx');
    const host = document.createElement('div');
    document.body.replaceChildren(host);
    render(h(App, { app }), host);
    await app.loadReplay('{"env":"<img src=x onerror=alert(1)>","seed":1,"actions":[]}');
    await settle(50);
    expect(app.session.message.text).toContain('<img src=x');
    expect(host.querySelector('img')).toBeNull();
  });
});

describe('a saved policy as the agent', () => {
  it('setAgent({ policy }) plays a trained policy, also through postMessage without the code opt-in', async () => {
    const { createLearner } = await import('../../wasm/learn/index.js');
    const learner = await createLearner({ env: 'ValleyFarm-v0', algo: 'tabular-q', seed: 3, numEnvs: 4 });
    await learner.trainFor(2000);
    const json = JSON.parse(JSON.stringify(learner.policy().toJSON()));
    const handle = createHandle(app);
    await handle.setAgent({ policy: json });
    expect(app.runner.customLabel).toBe('tabular-q policy');
    expect(await handle.run({ episodes: 1 })).toHaveLength(1);
    const reply = await answer(handle, { type: 'valley-farm', id: 9, method: 'setAgent', args: [{ policy: { format: 'nope' } }] });
    expect(reply.ok).toBe(false);
    expect(reply.error).toMatch(/not a valley-farm policy/);
  });
});
