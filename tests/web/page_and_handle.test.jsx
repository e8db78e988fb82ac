// The whole page in happy-dom: the status panel shows the observation, buttons and keys
// play, a broken share link gets a message while the game goes on, and the console handle
// and the postMessage interface drive the same game.
import { describe, it, expect, beforeEach } from 'vitest';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { App } from '../../web/src/components/App.jsx';
import { FarmApp } from '../../web/src/model/app.js';
import { createHandle } from '../../web/src/model/handle.js';
import { answer } from '../../web/src/model/messages.js';

let app;
let host;
const stat = (name) => host.querySelector(`[data-stat="${name}"]`)?.textContent;

beforeEach(async () => {
  app = new FarmApp();
  app.measure = async () => {}; // the means are measured in heuristic_beats_random
  host = document.createElement('div');
  document.body.replaceChildren(host);
  await act(async () => {
    render(<App app={app} />, host);
    await app.start('');
  });
  await act(() => app.newEpisode(42));
});

describe('status panel', () => {
  it('shows the observation: inventory, relationships and steps left', () => {
    const obs = app.session.observation;
    expect(stat('stepsLeft')).toBe('50');
    expect(stat('seeds')).toBe(String(obs.inventory.seeds));
    expect(stat('gifts')).toBe('3');
    expect(stat('relationship-0')).toContain(String(obs.relationships[0]));
    expect(stat('lastAction')).toBe('No action yet.');
  });

  it('follows an action button: steps left, return, legality', async () => {
    await act(() => host.querySelector('[data-action="harvest"]').click());
    expect(stat('stepsLeft')).toBe('49');
    expect(stat('legal')).toMatch(/illegal/);
    await act(() => host.querySelector('[data-action="wait"]').click());
    expect(stat('legal')).toMatch(/✓ legal/);
  });

  it('marks the actions that are illegal now', () => {
    expect(host.querySelector('[data-action="harvest"]').classList.contains('illegal')).toBe(true);
    expect(host.querySelector('[data-action="wait"]').classList.contains('illegal')).toBe(false);
  });

  it("an illegal button's tooltip, and the status after pressing it, give the engine's reason", async () => {
    const why = app.session.env.illegalReasons()[app.session.spec.actions.indexOf('harvest')];
    expect(why.code).toBe('not-on-mature-crop'); // seed 42 starts on no crop
    expect(host.querySelector('[data-action="harvest"]').title).toMatch(/illegal now: you are not standing on a mature crop$/);
    expect(host.querySelector('[data-action="wait"]').title).not.toMatch(/illegal/);
    await act(() => host.querySelector('[data-action="harvest"]').click());
    expect(stat('legal')).toBe('✗ illegal: you are not standing on a mature crop; only the step was spent');
  });

  it("tells what each step did: the engine's events in the log, a rising number on the rewarded tile, the same in the live region", async () => {
    const s = app.session;
    let rewarded = null;
    let k = 0;
    for (let seed = 1; seed < 40 && !rewarded; seed++) {
      await act(() => app.newEpisode(seed));
      for (let t = 0; t < 50 && !s.done && !rewarded; t++) {
        const legal = s.legal;
        const farmActions = [...legal].flatMap((ok, a) => (ok && a >= 4 && a < 11 ? [a] : []));
        const moves = [...legal].flatMap((ok, a) => (ok && a < 4 ? [a] : []));
        const a = farmActions[0] ?? moves[(k = (k * 7 + 3) % 97) % moves.length];
        await act(() => s.act(a));
        if (s.lastReward > 0) rewarded = s.lastEvents.find((e) => e.reward > 0);
      }
    }
    expect(rewarded).toBeTruthy();
    const log = host.querySelector('[data-testid="event-log"]');
    expect(log.querySelector('li').textContent).toContain(s.lastEvents.at(-1).text);
    expect(log.querySelector('li.paid')).not.toBeNull();
    const float = host.querySelector('.reward-float');
    expect(float.textContent).toBe(`+${Math.round(rewarded.reward * 100) / 100}`);
    expect(Number(float.getAttribute('x'))).toBeGreaterThan(rewarded.x * 32 - 1); // on its tile's column
    expect(host.querySelector('[data-testid="announcer"]').getAttribute('aria-live')).toBe('polite');
    expect(host.querySelector('[data-testid="announcer"]').textContent).toContain(rewarded.text);
    await act(() => s.act('wait'));
    expect(host.querySelector('.reward-float')).toBeNull(); // a wait earns nothing: no number
  });

  it('says when the episode is over and offers a new one', async () => {
    await act(() => {
      for (let i = 0; i < 50; i++) app.session.act('wait');
    });
    expect(host.querySelector('[data-testid="episode-over"]').textContent).toMatch(/Episode over — return 0 in 50 steps/);
    await act(() => host.querySelector('[data-testid="episode-over"] button').click());
    expect(stat('stepsLeft')).toBe('50');
  });
});

describe('keyboard', () => {
  it('plays the key shown on a button', async () => {
    await act(() => window.dispatchEvent(new KeyboardEvent('keydown', { key: 'x' })));
    const event = new KeyboardEvent('keydown', { key: ' ', cancelable: true });
    await act(() => app.key(event));
    expect(app.session.actions).toEqual([11]);
    await act(() => app.key(new KeyboardEvent('keydown', { key: 'g' })));
    expect(app.session.actions).toEqual([11, 9]);
  });
});

describe('share links', () => {
  it('a broken link shows what is wrong and the game goes on', async () => {
    app.session.act('wait');
    await act(() => app.applyHash('#replay=1.Q.42.0'));
    const alert = host.querySelector('[role="alert"]');
    expect(alert.textContent).toMatch(/This link's replay could not be opened\. The share link's env code "Q" is unknown/);
    expect(app.session.actions).toEqual([11]);
    await act(() => host.querySelector('[data-action="wait"]').click());
    expect(app.session.actions).toEqual([11, 11]);
  });

  it('a good link opens the replay at step 0 with its controls', async () => {
    await act(() => app.applyHash('#replay=1.B.5.4420'));
    expect(app.session.envId).toBe('BackwardsValleyFarm-v0');
    expect(host.querySelector('[data-testid="replay-position"]').textContent).toBe('step 0 / 4');
    await act(() => app.key(new KeyboardEvent('keydown', { key: ']' })));
    expect(host.querySelector('[data-testid="replay-position"]').textContent).toBe('step 1 / 4');
  });
});

describe('console handle and postMessage', () => {
  it('make, reset, step, state through the handle act on the page', async () => {
    const h = createHandle(app);
    await act(() => h.make('BackwardsValleyFarm-v0', { seed: 3 }));
    expect(h.status()).toMatchObject({ env: 'BackwardsValleyFarm-v0', seed: 3, step: 0 });
    const r = await act(() => h.step('north'));
    expect(h.state().step).toBe(1);
    expect(h.replay()).toMatchObject({ env: 'BackwardsValleyFarm-v0', seed: 3, actions: [0] });
    expect(stat('stepsLeft')).toBe('39');
    expect(h.legalActions()).toHaveLength(11);
    expect(h.shareLink()).toMatch(/#replay=1\.B\.3\.0$/);
    void r;
  });

  it('postMessage calls reply with results, and with errors that name the methods', async () => {
    const h = createHandle(app);
    expect(await answer(h, { type: 'valley-farm', id: 1, method: 'reset', args: [8] })).toMatchObject({
      id: 1,
      ok: true,
      result: { info: { seed: 8 } },
    });
    expect(await answer(h, { type: 'valley-farm', id: 2, method: 'step', args: ['wait'] })).toMatchObject({
      id: 2,
      ok: true,
      result: { reward: 0 },
    });
    expect(await answer(h, { type: 'valley-farm', id: 3, method: 'step', args: [99] })).toMatchObject({
      id: 3,
      ok: false,
      error: expect.stringMatching(/not allowed/),
    });
    expect(await answer(h, { type: 'valley-farm', id: 4, method: 'eval', args: [] })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/Unknown method "eval"; the methods are make, reset/),
    });
    expect(await answer(h, { type: 'valley-farm', id: 5, method: 'setAgent', args: [{ act: 1 }] })).toMatchObject({ ok: false });
    expect(await answer(h, { type: 'other' })).toBeNull();
    const run = await answer(h, { type: 'valley-farm', id: 6, method: 'run', args: [{ episodes: 2 }] });
    expect(run.result).toHaveLength(2);
  });
});

describe('villager moods', () => {
  it("the mood label is the engine's: a villager at 47.5 (observed rounded as 50) is neutral, not friendly", async () => {
    // put a villager at relationship 47.5 through a restore of an edited snapshot
    const env = app.session.env;
    const state = env.state();
    const i = 0;
    const bytes = env.snapshot();
    // relationship2 (twice the relationship) is the villager's third byte in the payload:
    // find it by value and set it to 95 (47.5), then fix the checksum
    const twice = state.villagers[i].relationship * 2;
    const at = findVillagerByte(bytes, state.villagers[i], twice);
    bytes[at] = 95;
    fixChecksum(bytes);
    env.restore(bytes);
    await act(() => app.session.inform());
    expect(app.session.env.state().villagers[i].relationship).toBe(47.5);
    expect(app.session.observation.relationships[i]).not.toBe(50); // the shown observation is the old one until a step
    await act(() => app.playByHand('wait'));
    expect(app.session.observation.relationships[i]).toBe(50);
    expect(host.querySelector(`[data-mood="${i}"]`).textContent).toBe('neutral');
  });
});

function findVillagerByte(bytes, v, twice) {
  for (let k = 8; k + 2 < bytes.length - 4; k++) if (bytes[k] === v.x && bytes[k + 1] === v.y && bytes[k + 2] === twice) return k + 2;
  throw new Error('villager not found in the snapshot');
}

function fixChecksum(bytes) {
  let h = 2166136261;
  for (let k = 0; k < bytes.length - 4; k++) h = Math.imul(h ^ bytes[k], 16777619) >>> 0;
  for (let b = 0; b < 4; b++) bytes[bytes.length - 4 + b] = (h >>> (8 * b)) & 0xff;
}
