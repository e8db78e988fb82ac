// Keyboard: arrows or WASD move, one key per verb (the key shown on its button), Space
// waits, N starts a new episode, [ and ] step through a replay; keys typed in fields, and
// Space/Enter on buttons, are left alone.
import { describe, it, expect } from 'vitest';
import { keyIntent } from '../../web/src/model/keys.js';
import { envMeta, envSpecs, envIds } from '../../web/src/model/envMeta.js';

const key = (k, extra = {}) => ({ key: k, target: document.body, ...extra });

describe.each(envIds)('%s', (id) => {
  const names = envSpecs[id].actions;

  it('maps the arrows and WASD to north, south, east, west', () => {
    const arrows = ['ArrowUp', 'ArrowDown', 'ArrowRight', 'ArrowLeft'].map((k) => keyIntent(id, key(k)).action);
    const wasd = ['w', 's', 'd', 'a'].map((k) => keyIntent(id, key(k)).action);
    const upper = ['W', 'S', 'D', 'A'].map((k) => keyIntent(id, key(k)).action);
    const moves = ['north', 'south', 'east', 'west'].map((n) => names.indexOf(n));
    expect(arrows).toEqual(moves);
    expect(wasd).toEqual(moves);
    expect(upper).toEqual(moves);
  });

  it('maps each verb key shown on its button to that verb, and Space to wait', () => {
    for (const [i, name] of names.entries()) {
      const shown = envMeta[id].actions[name].key;
      const pressed = shown === 'Space' ? ' ' : shown.toLowerCase();
      expect(keyIntent(id, key(pressed)), `${name} (${shown})`).toEqual({ type: 'act', action: i });
    }
    expect(keyIntent(id, key(' ')).action).toBe(names.indexOf('wait'));
  });

  it('gives every action its own key', () => {
    const keys = names.map((n) => envMeta[id].actions[n].key);
    expect(new Set(keys).size).toBe(names.length);
  });

  it('maps N to a new episode and [ ] to replay steps', () => {
    expect(keyIntent(id, key('n'))).toEqual({ type: 'reset' });
    expect(keyIntent(id, key('['))).toEqual({ type: 'replay', delta: -1 });
    expect(keyIntent(id, key(']'))).toEqual({ type: 'replay', delta: 1 });
  });
});

describe("keys that are not the game's", () => {
  const id = 'ValleyFarm-v0';
  it('are ignored in text fields', () => {
    for (const tag of ['input', 'textarea', 'select']) {
      expect(keyIntent(id, key('w', { target: document.createElement(tag) }))).toBeNull();
    }
  });
  it('are ignored with Ctrl, Alt or Meta', () => {
    expect(keyIntent(id, key('r', { ctrlKey: true }))).toBeNull();
    expect(keyIntent(id, key('a', { metaKey: true }))).toBeNull();
    expect(keyIntent(id, key('d', { altKey: true }))).toBeNull();
  });
  it('leave Space and Enter to a focused button, but not the arrows', () => {
    const button = document.createElement('button');
    expect(keyIntent(id, key(' ', { target: button }))).toBeNull();
    expect(keyIntent(id, key('Enter', { target: button }))).toBeNull();
    expect(keyIntent(id, key('ArrowUp', { target: button })).action).toBe(0);
  });
  it('are unmapped letters', () => {
    expect(keyIntent(id, key('z'))).toBeNull();
    expect(keyIntent(id, key('Escape'))).toBeNull();
  });
});
