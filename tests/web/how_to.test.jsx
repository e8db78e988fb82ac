// The first-visit card: each farm's goal, keys and its one non-obvious idea, shown once per
// farm (remembered in localStorage), dismissible, and reachable again from "How to play".
import { describe, it, expect } from 'vitest';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { App } from '../../web/src/components/App.jsx';
import { FarmApp } from '../../web/src/model/app.js';
import { farms } from '../../web/src/model/farms/index.js';
import { SeenStore } from '../../web/src/model/seen.js';

function memoryStorage() {
  const data = {};
  return { getItem: (k) => data[k] ?? null, setItem: (k, v) => (data[k] = String(v)), data };
}

async function startApp(storage) {
  const app = new FarmApp({ planMap: null, storage });
  app.measure = async () => {};
  const host = document.createElement('div');
  document.body.replaceChildren(host);
  await act(async () => {
    render(<App app={app} />, host);
    await app.start('');
  });
  await act(() => app.inform()); // the first render subscribed after start() informed
  return { app, host };
}

describe('how to play', () => {
  it.each(farms.map((f) => [f.title, f]))("%s: the card names the goal, every action's key and the farm's idea", async (_, farm) => {
    const { app, host } = await startApp(memoryStorage());
    await act(() => app.switchEnv(farm.id));
    const card = host.querySelector('[data-testid="how-to"]');
    expect(card.querySelector('h2').textContent).toBe(`How to play ${farm.title}`);
    expect(card.textContent).toContain(farm.howTo.goal);
    expect(card.textContent).toContain(farm.howTo.idea);
    for (const [name, { key }] of Object.entries(farm.actions)) expect(card.textContent).toContain(`${key} ${name}`);
  });

  it('is shown once per farm: dismissed, it stays away on the next visit, and How to play brings it back', async () => {
    const storage = memoryStorage();
    let { app, host } = await startApp(storage);
    expect(host.querySelector('[data-testid="how-to"]')).not.toBeNull();
    await act(() => host.querySelector('[data-testid="how-to"] button').click());
    expect(host.querySelector('[data-testid="how-to"]')).toBeNull();
    ({ app, host } = await startApp(storage)); // a later visit
    expect(host.querySelector('[data-testid="how-to"]')).toBeNull();
    await act(() => app.switchEnv(farms[1].id)); // the other farm was never dismissed
    expect(host.querySelector('[data-testid="how-to"] h2').textContent).toContain(farms[1].title);
    await act(() => host.querySelector('[data-testid="how-to"] button').click());
    await act(() => host.querySelector('[data-testid="how-to-open"]').click());
    expect(host.querySelector('[data-testid="how-to"] h2').textContent).toContain(farms[1].title);
    expect(JSON.parse(storage.data['valley-farm:how-to-seen'])).toEqual([farms[0].id, farms[1].id]);
  });

  it('a store that cannot be used still hides a dismissed card for the rest of the visit', () => {
    const broken = {
      getItem: () => '{"not":"a list"}',
      setItem: () => {
        throw new Error('quota');
      },
    };
    const seen = new SeenStore(broken);
    expect(seen.has('ValleyFarm-v0')).toBe(false);
    seen.add('ValleyFarm-v0');
    expect(seen.has('ValleyFarm-v0')).toBe(true);
  });

  it('in a sandboxed frame, where reading localStorage throws, the page starts and remembers for the visit', async () => {
    const own = Object.getOwnPropertyDescriptor(globalThis, 'localStorage');
    Object.defineProperty(globalThis, 'localStorage', {
      configurable: true,
      get() {
        throw new DOMException('Access is denied for this document.', 'SecurityError');
      },
    });
    try {
      const { app, host } = await startApp(undefined);
      expect(host.querySelector('[data-testid="how-to"]')).not.toBe(null);
      await act(() => app.closeHowTo());
      expect(host.querySelector('[data-testid="how-to"]')).toBe(null);
    } finally {
      if (own) Object.defineProperty(globalThis, 'localStorage', own);
      else delete globalThis.localStorage;
    }
  });
});
