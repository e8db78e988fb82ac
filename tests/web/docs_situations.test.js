// The docs' prepared situations (web/src/docs/model/situations.js) still hold on the engine:
// each seed + action prefix reaches the state its widget is written for. When a rules change
// breaks one, run `node web/find-situations.mjs` and paste its table.
import { describe, it, expect } from 'vitest';
import { make, envSpecs } from 'valley-farm';
import { situations, checks, prepare } from '../../web/src/docs/model/situations.js';
import { widgets } from '../../web/src/docs/model/widgets.js';

describe('prepared situations', () => {
  it('every situation has a check and every check a situation', () => {
    expect(Object.keys(situations).sort()).toEqual(Object.keys(checks).sort());
  });

  for (const [key, situation] of Object.entries(situations)) {
    it(`${key}: seed ${situation.seed} + ${situation.prefix.length} actions still reaches the situation`, async () => {
      const env = await make(situation.envId);
      const { observation } = prepare(env, situation);
      expect(checks[key](env.state(), observation), `${key} no longer holds`).toBe(true);
      env.close();
    });
  }

  it('every prefix action is legal (a prefix that silently waits has drifted)', async () => {
    for (const situation of Object.values(situations)) {
      const env = await make(situation.envId);
      env.reset({ seed: situation.seed });
      for (const name of situation.prefix) {
        const r = env.step(env.actionSpace.names.indexOf(name));
        expect(r.info.actionWasLegal, `${situation.envId} seed ${situation.seed}: ${name}`).toBe(true);
      }
      env.close();
    }
  });

  it('every widget uses a known situation and only action names of its env', () => {
    for (const [id, w] of Object.entries(widgets)) {
      expect(Object.values(situations), id).toContain(w.situation);
      for (const b of w.buttons) expect(envSpecs[w.situation.envId].actions, id).toContain(b.action);
    }
  });
});
