// What one key press costs the engine, with the whole game page drawn (board, status panel,
// action pad, announcer): the session asks once per version and every view reads the
// session. Counted at the C boundary (every call of a WebAssembly export) and through a
// wrapped env (each state() is one serialisation of the whole state to JSON and back).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { render } from 'preact';
import { act } from 'preact/test-utils';

// Every export of the engine's module counts its calls: installed before the module loads.
const crossings = { n: 0, by: {} };
const realInstantiate = WebAssembly.instantiate;
WebAssembly.instantiate = async (...args) => {
  const result = await realInstantiate.apply(WebAssembly, args);
  const instance = result.instance ?? result;
  const exports = {};
  for (const [name, value] of Object.entries(instance.exports)) {
    exports[name] =
      typeof value === 'function'
        ? (...a) => {
            crossings.n++;
            crossings.by[name] = (crossings.by[name] ?? 0) + 1;
            return value(...a);
          }
        : value;
  }
  const counted = { exports };
  return result.instance ? { ...result, instance: counted } : counted;
};

const apiCalls = { state: 0, all: 0 };
/** The env as the page gets it, with a count of every method call and of every state(). */
function counted(env) {
  return new Proxy(env, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      return (...args) => {
        apiCalls.all++;
        if (key === 'state') apiCalls.state++;
        return value.apply(target, args);
      };
    },
  });
}

let app;
let host;
beforeAll(async () => {
  const { make } = await import('valley-farm');
  const { FarmApp } = await import('../../web/src/model/app.js');
  const { App } = await import('../../web/src/components/App.jsx');
  app = new FarmApp({ makeEnv: async (id, options) => counted(await make(id, options)), planMap: null });
  app.measure = async () => {};
  host = document.createElement('div');
  document.body.replaceChildren(host);
  await act(async () => {
    render(<App app={app} />, host);
    await app.start('');
  });
});
afterAll(() => {
  WebAssembly.instantiate = realInstantiate;
});

/** Presses `key` on the page and returns what it cost: { calls (besides event texts), events, states }. */
async function press(key) {
  await new Promise((r) => setTimeout(r, 20)); // anything a reset started (the par) settles first
  crossings.n = 0;
  crossings.by = {};
  apiCalls.state = 0;
  await act(() => app.key({ key, target: document.body }));
  const events = crossings.by.vf_event_text ?? 0;
  return { calls: crossings.n - events, events, states: apiCalls.state, by: crossings.by };
}

describe('one key press, one round trip', () => {
  it.each([
    ['ValleyFarm-v0', 42, ['ArrowRight', 'ArrowDown', 'p', 'g', 'h', ' ']],
    ['BackwardsValleyFarm-v0', 7, ['ArrowRight', 'ArrowDown', 'i', 'r', 'f', ' ']],
  ])('%s: each key press makes at most 6 engine calls (besides one per event) and 1 state serialisation', async (envId, seed, keys) => {
    await act(async () => {
      await app.switchEnv(envId);
      app.newEpisode(seed);
    });
    expect(host.querySelector('.board')).not.toBeNull();
    for (const key of keys) {
      const cost = await press(key);
      expect(cost.by.vfw_step_explained, 'the step crosses once (and is counted)').toBe(1);
      expect(cost.calls, `${key}: ${JSON.stringify(cost.by)}`).toBeLessThanOrEqual(6);
      expect(cost.states, key).toBeLessThanOrEqual(1);
    }
    expect(app.session.actions.length).toBe(keys.length);
  });
});
