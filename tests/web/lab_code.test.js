// "Your learner" in the Lab's model (labModel.js openCode / editCode / closeCode): while the
// editor is open, Start trains the visitor's code in the learner's Worker (here a fake), with
// the template's settings; a kept policy is the template's, so the site's own Worker loads it.
import { describe, expect, it } from 'vitest';
import { LabModel, SAVE_CODE_MS } from '../../web/src/lab/labModel.js';
import { MAX_LEARNER_CHARS, readLearner } from '../../web/src/lab/learnerStore.js';
import { learnerLinkQuery } from '../../web/src/lab/learnerLink.js';
import { templateSource } from '../../web/src/lab/learnerTemplates.js';
import { makeRecord, readRecord } from '../../web/src/lab/runRecord.js';

const flush = () => new Promise((r) => setTimeout(r, 0));
const progress = (steps) => ({ steps, episodes: steps / 40, meanReturn: 1, stepsPerSec: 1, losses: {} });

/** A run store in memory (runStore.js's methods), its records copied as IndexedDB copies them. */
function runStore() {
  const kept = new Map();
  return {
    kept,
    list: async () => [...kept.values()].map((r) => structuredClone(r)),
    put: async (r) => void kept.set(r.id, structuredClone(r)),
    remove: async (id) => void kept.delete(id),
  };
}

function fake(kind, made) {
  const w = { kind, sent: [], onmessage: null, postMessage: (m) => w.sent.push(m), terminate: () => (w.terminated = true) };
  made.push(w);
  return w;
}

function fakeStore(kept = []) {
  const store = {
    records: new Map(kept.map((r) => [r.template, r])),
    list: async () => ({ learners: Object.fromEntries(store.records), errors: [] }),
    put: async (r) => void store.records.set(r.template, r),
    remove: async (t) => void store.records.delete(t),
  };
  return store;
}

function model(store = null) {
  const made = [];
  const given = [];
  const lab = new LabModel({
    learnerStore: store ? Promise.resolve({ store, note: null }) : null,
    createWorker: () => fake('built-in', made),
    createLearnerWorker: (code) => {
      given.push(code);
      return fake('code', made);
    },
  });
  return { lab, made, given };
}

describe('your learner in the Lab', () => {
  it("opening a template sets the Learner to it, and Start trains the visitor's code with the template's settings", async () => {
    const { lab, made, given } = model();
    await lab.openCode('reinforce');
    expect(lab.settings.algo).toBe('reinforce');
    expect(lab.code.text).toBe(templateSource('reinforce'));
    lab.editCode(lab.code.text.replace('learningRate: ', 'learningRate: 0.5 * '));
    lab.start();
    expect(made.map((w) => w.kind)).toEqual(['code']);
    expect(given[0]).toEqual({ template: 'reinforce', text: lab.code.text });
    expect(made[0].sent[0]).toMatchObject({ type: 'start', settings: { algo: 'reinforce' } });
    expect(lab.policyTitle()).toMatch(/^Your trained policy \(your learner from reinforce/);
  });

  it("a kept policy of the visitor's run is evaluated in the site's own Worker, which loads it", async () => {
    const { lab, made } = model();
    await lab.openCode('dqn');
    lab.start();
    made[0].onmessage({ data: { type: 'kept', steps: 50, policy: '{"algo":"dqn"}', checkpoint: null } });
    made[0].onmessage({ data: { type: 'stopped', progress: { steps: 50, episodes: 1, meanReturn: 1, stepsPerSec: 1, losses: {} } } });
    lab.stop();
    lab.dispose(); // the run's Worker goes; the kept policy stays
    const evaluated = lab.evaluate().catch(() => {});
    expect(made.at(-1).kind).toBe('built-in');
    expect(made.at(-1).sent[0]).toEqual({ type: 'load', policy: '{"algo":"dqn"}' });
    made.at(-1).onmessage({ data: { type: 'evaluation', result: { mean: 1 } } });
    await evaluated;
  });

  it('back to the built-in learners, Start trains the built-in learner; an unknown template is refused', async () => {
    const { lab, made } = model();
    await lab.openCode('ppo');
    lab.closeCode();
    expect(lab.code).toBe(null);
    await expect(lab.openCode('tabular-q')).rejects.toThrow(/no template tabular-q; the templates are reinforce, ppo, dqn/);
    lab.start();
    expect(made.map((w) => w.kind)).toEqual(['built-in']);
  });
});

describe('your learners kept in this browser', () => {
  it('a kept record is read as data: its template one of the three, its text text within the limit, its time a number', () => {
    const good = { template: 'ppo', text: 'export const learner = {};', savedAt: 5 };
    expect(readLearner(good)).toEqual(good);
    expect(readLearner({ ...good, template: 'tabular-q' }).message).toMatch(/template is not one of reinforce, ppo, dqn/);
    expect(readLearner({ ...good, text: 'x'.repeat(MAX_LEARNER_CHARS + 1) }).message).toMatch(/text of at most 400,000 characters/);
    expect(readLearner({ ...good, text: { toString: () => 'x' } }).message).toMatch(/not text/);
    expect(readLearner({ ...good, savedAt: '5' }).message).toMatch(/time is not a number/);
    expect(readLearner(null).message).toMatch(/not a record/);
  });

  it('an edit is kept a moment after the last keystroke, and opening the template again opens it', async () => {
    const store = fakeStore();
    const { lab } = model(store);
    await lab.loadLearners();
    await lab.openCode('reinforce');
    expect(store.records.size).toBe(0); // the template as shipped is not kept
    lab.editCode('// mine\n' + lab.code.text);
    expect(store.records.size).toBe(0);
    await new Promise((r) => setTimeout(r, SAVE_CODE_MS + 50));
    expect(store.records.get('reinforce').text).toBe(lab.code.text);
    const again = model(store).lab;
    await again.loadLearners();
    await again.openCode('reinforce');
    expect(again.code.text.startsWith('// mine\n')).toBe(true);
    again.resetCode();
    expect(again.code.text).toBe(templateSource('reinforce'));
    await new Promise((r) => setTimeout(r, 0));
    expect(store.records.size).toBe(0);
  });
});

describe("a share link's learner", () => {
  const settings = 'env=BackwardsValleyFarm-v0&algo=reinforce&seed=1&steps=50000';
  const mine = () => `// mine\n${templateSource('reinforce')}`;

  it('round trips through the link with allow=code, and is only put in the editor, never started', async () => {
    const { lab, made } = model();
    const query = `${settings}&${await learnerLinkQuery({ template: 'reinforce', text: mine() })}`;
    expect(query.length).toBeLessThan(mine().length); // deflated
    expect(lab.adopt(query)).toBe(null); // the settings part: no complaint about the learner's keys
    expect(lab.settings).toMatchObject({ algo: 'reinforce', steps: 50000 });
    expect(await lab.adoptLearner(query)).toMatch(/is in the editor below: read it before you press Start/);
    expect(lab.code).toEqual({ template: 'reinforce', text: mine() });
    expect(made).toEqual([]);
  });

  it('without allow=code the code is refused, saying what the opt-in is', async () => {
    const { lab } = model();
    const query = (await learnerLinkQuery({ template: 'reinforce', text: mine() })).replace('&allow=code', '');
    expect(await lab.adoptLearner(`${settings}&${query}`)).toMatch(/opens only from a link with allow=code .*it was not opened/);
    expect(lab.code).toBe(null);
  });

  it('a link with a bad template, damaged code or code that inflates past the limit is refused with what is allowed', async () => {
    const { lab } = model();
    const good = await learnerLinkQuery({ template: 'reinforce', text: mine() });
    expect(await lab.adoptLearner(good.replace('learner=reinforce', 'learner=a2c'))).toMatch(
      /learner=a2c is not a template; it is one of reinforce, ppo, dqn/,
    );
    expect(await lab.adoptLearner(`learner=ppo&allow=code&code=${'_'.repeat(40)}`)).toMatch(/code is damaged/);
    expect(await lab.adoptLearner('learner=ppo&allow=code&code=<script>')).toMatch(/not a learner's source as the Lab writes it/);
    const bomb = await learnerLinkQuery({ template: 'ppo', text: ' '.repeat(MAX_LEARNER_CHARS + 1) });
    expect(bomb.length).toBeLessThan(2000); // small in the link, big once inflated
    expect(await lab.adoptLearner(bomb)).toMatch(/longer than a learner may be \(400,000 characters\)/);
    expect(lab.code).toBe(null);
  });
});

describe('a run of your learner, kept in this browser', () => {
  it('keeps the code it was started with, which a later page reads back and names; without a checkpoint (REINFORCE keeps none) it cannot resume', async () => {
    const store = runStore();
    const made = [];
    const lab = new LabModel({
      runs: Promise.resolve({ store, note: null }),
      createWorker: () => fake('built-in', made),
      createLearnerWorker: () => fake('code', made),
    });
    await lab.recover();
    await lab.openCode('reinforce');
    const text = `// mine\n${lab.code.text}`;
    lab.editCode(text);
    lab.start();
    made[0].onmessage({ data: { type: 'progress', progress: progress(2560) } });
    made[0].onmessage({ data: { type: 'kept', steps: 2560, policy: '{"algo":"reinforce"}', checkpoint: null } });
    await flush();
    expect(store.kept.get(lab.runId).code).toEqual({ template: 'reinforce', text });
    // edited while it runs (a model call; the page's editor is off then): the run's code stays the one it started with
    lab.editCode('// another learner\n');
    made[0].onmessage({ data: { type: 'kept', steps: 5120, policy: '{"algo":"reinforce"}', checkpoint: null } });
    await flush();
    expect(store.kept.get(lab.runId).code.text).toBe(text);

    const later = new LabModel({ runs: Promise.resolve({ store, note: null }), createWorker: () => fake('built-in', made) });
    await later.recover();
    expect(later.state).toBe('interrupted');
    expect(later.runCode).toEqual({ template: 'reinforce', text });
    expect(later.resumable).toBe(false);
    expect(later.hasPolicy).toBe(true);
    expect(later.policyTitle()).toMatch(/^Your trained policy \(your learner from reinforce, 5,120 steps\)$/);
    expect((await later.policyFile()).name).toMatch(/^backwards-my-reinforce-seed1-5120steps-/);
    later.discard();
    expect(later.runCode).toBe(null);
  });

  it("a kept run with a checkpoint (the PPO template keeps them) resumes in a new sandbox with the code it was kept with, not the editor's", async () => {
    const store = runStore();
    const made = [];
    const given = [];
    const options = {
      runs: Promise.resolve({ store, note: null }),
      createWorker: () => fake('built-in', made),
      createLearnerWorker: (code) => {
        given.push(code);
        return fake('code', made);
      },
    };
    const lab = new LabModel(options);
    await lab.recover();
    await lab.openCode('ppo');
    const text = `// mine\n${lab.code.text}`;
    lab.editCode(text);
    lab.start();
    made[0].onmessage({ data: { type: 'progress', progress: progress(4096) } });
    made[0].onmessage({ data: { type: 'kept', steps: 4096, policy: '{"algo":"ppo"}', checkpoint: '{"steps":4096}' } });
    await flush();

    const later = new LabModel(options);
    await later.recover();
    await later.openCode('ppo', '// edited since\n'); // the editor holds other code now
    expect(later.resumable).toBe(true);
    later.resumeKept();
    expect(made.at(-1).kind).toBe('code');
    expect(given.at(-1)).toEqual({ template: 'ppo', text });
    expect(made.at(-1).sent[0]).toEqual({ type: 'start', settings: later.run, checkpoint: '{"steps":4096}' });
    expect(made.filter((w) => w.kind === 'built-in')).toEqual([]); // the checkpoint never goes to the site's own Worker
  });

  it("a kept run's code is read as data: one of the templates, the run's learner, text within the limit; a record without it is a built-in learner's", () => {
    const settings = { env: 'BackwardsValleyFarm-v0', algo: 'reinforce', seed: 1, steps: 50000 };
    const base = { id: 'r1', state: 'stopped', settings, steps: 0, curve: [], policy: null, checkpoint: null, savedAt: 1 };
    const code = { template: 'reinforce', text: 'export const learner = {};' };
    expect(readRecord(makeRecord({ ...base, code })).code).toEqual(code);
    const { code: _, ...old } = makeRecord(base); // a record kept before runs kept their code
    expect(readRecord(old).code).toBe(null);
    for (const bad of [
      'export const learner = {};',
      { template: 'dqn', text: code.text },
      { template: 'tabular-q', text: code.text },
      { template: 'reinforce', text: 'x'.repeat(MAX_LEARNER_CHARS + 1) },
      { template: 'reinforce', text: ['not', 'text'] },
    ])
      expect(readRecord({ ...makeRecord(base), code: bad }).message, JSON.stringify(bad).slice(0, 60)).toMatch(
        /^the kept run is damaged: its code must be null or \{ template: its learner, one of reinforce, ppo, dqn, text: at most 400,000 characters \}$/,
      );
  });
});
