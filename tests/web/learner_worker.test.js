// "Your learner" in the Lab, its logic without a browser: the templates are the shipped
// learners' text made a learner of one's own; the sandbox's helpers point the module's imports
// at its kit and find an error's line in the visitor's source; the page's side of the run
// (learnerWorker.js) keeps only a policy that is a policy of the template's learner, and ends a
// sandbox that does not answer Pause in time.
import { describe, expect, it, vi } from 'vitest';
import { TEMPLATES, templateSource } from '../../web/src/lab/learnerTemplates.js';
import { asScriptBody, placeIn, pointImports } from '../../web/src/sandbox/learnerBox.js';
import { checkVisitorPolicy, createLearnerWorker } from '../../web/src/lab/learnerWorker.js';
import { createLearner } from '../../wasm/learn/index.js';

// the shipped files' text, read by Vite as the Lab reads it (happy-dom has no node:fs)
const SHIPPED = import.meta.glob('../../wasm/learn/{reinforce,ppo,dqn}.js', { eager: true, query: '?raw', import: 'default' });
const shipped = (algo) => SHIPPED[`../../wasm/learn/${algo}.js`];

describe('the templates are the shipped learners, as a learner of your own', () => {
  it.each(TEMPLATES)('%s: the shipped text line for line, its kit from valley-farm/learn, its own name and url', (algo) => {
    const text = templateSource(algo);
    const mine = text.split('\n');
    const theirs = shipped(algo).split('\n');
    expect(mine.length).toBe(theirs.length); // an error's line in the template is the shipped file's
    const changed = mine.filter((line, i) => line !== theirs[i]);
    expect(changed).toHaveLength(3);
    expect(text).toContain("} from 'valley-farm/learn';");
    expect(text).toContain(`  name: 'my-${algo}',`);
    expect(text).toMatch(/title: 'My [A-Z]+', url: import\.meta\.url,/);
    expect(text).not.toMatch(/from '\.\//); // nothing but the package
  });
  it('an unknown template is refused, naming the ones there are', () => {
    expect(() => templateSource('a2c')).toThrow(/no template a2c; the templates are reinforce, ppo, dqn/);
  });
});

describe("the sandbox's helpers", () => {
  it("points every import of 'valley-farm/learn' at the kit, and nothing else", () => {
    const code =
      "import { a } from 'valley-farm/learn';\nimport \"valley-farm/learn\";\nconst k = await import('valley-farm/learn');\nimport x from 'valley-farm';";
    const out = pointImports(code, 'blob:null/kit');
    expect(out).toBe(
      "import { a } from 'blob:null/kit';\nimport \"blob:null/kit\";\nconst k = await import('blob:null/kit');\nimport x from 'valley-farm';",
    );
  });
  it("finds the line of the module's first frame in a stack, and none in another's", () => {
    const url = 'blob:null/1234';
    expect(placeIn({ stack: `Error: x\n    at f (blob:null/9:1:1)\n    at g (${url}:17:5)\n    at ${url}:3:1` }, url)).toEqual({
      line: 17,
      column: 5,
    });
    expect(placeIn({ stack: 'Error: x\n    at f (blob:null/9:1:1)' }, url)).toBeNull();
    expect(placeIn('a string', url)).toBeNull();
  });
  it('makes a module a script body with every line and column where it was, so a syntax error keeps its place', () => {
    for (const algo of TEMPLATES) {
      const text = templateSource(algo);
      const body = asScriptBody(text);
      expect(body.split('\n').map((l) => l.length)).toEqual(text.split('\n').map((l) => l.length));
      expect(() => new Function(`return async function () {${body}\n}`)).not.toThrow(); // the shipped learners parse
    }
    const broken = asScriptBody("import { a } from 'valley-farm/learn';\nexport const learner = {\n  name: 'x',,\n};\n");
    expect(() => new Function(`return async function () {${broken}\n}`)).toThrow(SyntaxError);
  });
});

describe("the page's side of a visitor's run", () => {
  async function policyText(algo, name) {
    const l = await createLearner({ env: 'BackwardsValleyFarm-v0', algo, seed: 1, numEnvs: 4, threads: 1 });
    const json = { ...l.policy().toJSON(), algo: name };
    l.dispose();
    return JSON.stringify(json);
  }

  it("keeps a policy only if it is one of the template's learner, whatever the visitor named it", async () => {
    const text = await policyText('reinforce', 'my-reinforce');
    const ok = checkVisitorPolicy(text, 'reinforce');
    expect(ok.text).toBe(text); // the download keeps the visitor's name
    expect(JSON.parse(ok.asTemplate).algo).toBe('reinforce');
    expect(() => checkVisitorPolicy('{"format":', 'reinforce')).toThrow(/not JSON/);
    const bad = JSON.parse(text);
    bad.weights[0].values[3] = 'NaN';
    expect(() => checkVisitorPolicy(JSON.stringify(bad), 'reinforce')).toThrow(/not a reinforce policy file: .*weights\[0\]\.values\[3\]/);
    expect(() => checkVisitorPolicy(text, 'dqn')).toThrow(/not a dqn policy file/);
  });

  function fakeRun(answerMs = 50, silentMs = 30_000) {
    const sandboxes = [];
    const makeSandbox = () => {
      const box = { sent: [], terminated: false, postMessage: (m) => box.sent.push(m), terminate: () => (box.terminated = true) };
      sandboxes.push(box);
      return box;
    };
    const told = [];
    globalThis.fetch = vi.fn(async () => ({ ok: true, arrayBuffer: async () => new ArrayBuffer(8) }));
    const w = createLearnerWorker({
      code: 'export const learner = {};',
      template: 'reinforce',
      coreUrl: 'http://x/learner.wasm',
      makeSandbox,
      runnerScript: async () => '/* the learner runner */',
      answerMs,
      silentMs,
    });
    w.onmessage = ({ data }) => told.push(data);
    return { w, told, sandboxes };
  }

  it('hands the sandbox the runner, the core, the code and the settings, and passes its progress on', async () => {
    const { w, told, sandboxes } = fakeRun();
    w.postMessage({ type: 'start', settings: { env: 'BackwardsValleyFarm-v0', algo: 'reinforce', seed: 1 } });
    await vi.waitFor(() => expect(sandboxes[0].sent).toHaveLength(1));
    const start = sandboxes[0].sent[0];
    expect(start.type).toBe('learner:start');
    expect(start.core).toBeInstanceOf(ArrayBuffer);
    expect(start.code).toBe('export const learner = {};');
    expect(start.runner).toBe('/* the learner runner */');
    sandboxes[0].onmessage({ data: { type: 'progress', progress: { steps: 10 }, extra: 'x'.repeat(10) } });
    expect(told).toEqual([{ type: 'progress', progress: { steps: 10 } }]);
  });

  it("hands a kept run's checkpoint to the sandbox it starts, and keeps the one the sandbox hands back (its parts after the policy's) as text", async () => {
    const { w, told, sandboxes } = fakeRun();
    w.postMessage({ type: 'start', settings: {}, checkpoint: '{"steps":80}' });
    await vi.waitFor(() => expect(sandboxes[0].sent).toHaveLength(1));
    expect(sandboxes[0].sent[0]).toMatchObject({ type: 'learner:start', checkpoint: '{"steps":80}' });
    const text = await policyText('reinforce', 'my-reinforce');
    const box = sandboxes[0];
    box.onmessage({ data: { type: 'learner:part', text } });
    box.onmessage({ data: { type: 'learner:part', text: '{"steps":' } });
    box.onmessage({ data: { type: 'learner:part', text: '160}' } });
    box.onmessage({ data: { type: 'kept', steps: 160, policy: { parts: 1 }, checkpoint: { parts: 2 } } });
    const asTemplate = JSON.stringify({ ...JSON.parse(text), algo: 'reinforce' });
    expect(told.at(-1)).toEqual({ type: 'kept', steps: 160, policy: asTemplate, checkpoint: '{"steps":160}' });
    // counts the parts do not make up: an error, nothing kept
    box.onmessage({ data: { type: 'learner:part', text } });
    box.onmessage({ data: { type: 'kept', steps: 200, policy: { parts: 1 }, checkpoint: { parts: 1 } } });
    expect(told.at(-1)).toEqual({ type: 'error', message: "your learner's checkpoint did not arrive whole" });
    // and the next message's parts are counted afresh
    box.onmessage({ data: { type: 'learner:part', text: '{}' } });
    box.onmessage({ data: { type: 'kept', steps: 240, policy: null, checkpoint: { parts: 1 } } });
    expect(told.at(-1)).toEqual({ type: 'kept', steps: 240, policy: null, checkpoint: '{}' });
  });

  it("reassembles a kept policy from its parts, checks it and keeps it as the template's; one that is not a policy is an error, not kept", async () => {
    const { w, told, sandboxes } = fakeRun();
    w.postMessage({ type: 'start', settings: {} });
    await vi.waitFor(() => expect(sandboxes[0].sent).toHaveLength(1));
    const text = await policyText('reinforce', 'my-reinforce');
    const box = sandboxes[0];
    const cutAt = Math.floor(text.length / 2);
    box.onmessage({ data: { type: 'learner:part', text: text.slice(0, cutAt) } });
    box.onmessage({ data: { type: 'learner:part', text: text.slice(cutAt) } });
    box.onmessage({ data: { type: 'kept', steps: 80, policy: { parts: 2 }, checkpoint: null } });
    const asTemplate = JSON.stringify({ ...JSON.parse(text), algo: 'reinforce' });
    expect(told.at(-1)).toEqual({ type: 'kept', steps: 80, policy: asTemplate, checkpoint: null });
    box.onmessage({ data: { type: 'learner:part', text: '{"format":"valley-farm-policy"}' } });
    box.onmessage({ data: { type: 'kept', steps: 90, policy: { parts: 1 }, checkpoint: null } });
    expect(told.at(-1).type).toBe('error');
    expect(told.at(-1).message).toMatch(/your learner's policy is not a reinforce policy file/);
    w.postMessage({ type: 'policy' }); // asks the sandbox for the policy as it is now
    expect(box.sent.at(-1)).toEqual({ type: 'learner:policy' });
    box.onmessage({ data: { type: 'learner:part', text } });
    box.onmessage({ data: { type: 'policy', steps: 100, parts: 1 } });
    expect(told.at(-1)).toEqual({ type: 'policy', text: asTemplate, steps: 100 });
  });

  it('a sandbox that does not answer Pause in time is ended, and the page told why', async () => {
    const { w, told, sandboxes } = fakeRun(50);
    w.postMessage({ type: 'start', settings: {} });
    await vi.waitFor(() => expect(sandboxes[0].sent).toHaveLength(1));
    w.postMessage({ type: 'pause' });
    expect(sandboxes[0].sent.at(-1)).toEqual({ type: 'learner:pause' });
    await vi.waitFor(() => expect(sandboxes[0].terminated).toBe(true), { timeout: 2000 });
    expect(told.at(-1).type).toBe('error');
    expect(told.at(-1).message).toMatch(/did not pause within 0.05 s .*its Workers were ended; the curve stays/);
  });

  it('a training run that says nothing for silentMs is ended, and the page told it stopped answering; one that reports is not', async () => {
    const { w, told, sandboxes } = fakeRun(50, 400);
    w.postMessage({ type: 'start', settings: {} });
    await vi.waitFor(() => expect(sandboxes[0].sent).toHaveLength(1));
    for (let i = 0; i < 8; i++) {
      // 400 ms of reports 50 ms apart: never 400 ms without one, even on a busy machine
      await new Promise((r) => setTimeout(r, 50));
      sandboxes[0].onmessage({ data: { type: 'progress', progress: { steps: i } } });
    }
    expect(sandboxes[0].terminated).toBe(false);
    // then nothing (a Worker of the run out of memory, which Chromium ends without a word)
    await vi.waitFor(() => expect(sandboxes[0].terminated).toBe(true), { timeout: 2000 });
    expect(told.at(-1)).toEqual({
      type: 'error',
      message: expect.stringMatching(
        /^your learner stopped answering for 0.4 s while it trained \(a Worker of it out of memory.*its Workers were ended; the curve stays$/,
      ),
    });
    expect(told.filter((m) => m.type === 'progress')).toHaveLength(8); // the curve's reports all passed on
  });

  it('a paused run may say nothing for as long as it likes; resumed, it must report again', async () => {
    const { w, told, sandboxes } = fakeRun(1000, 150);
    w.postMessage({ type: 'start', settings: {} });
    await vi.waitFor(() => expect(sandboxes[0].sent).toHaveLength(1));
    w.postMessage({ type: 'pause' });
    sandboxes[0].onmessage({ data: { type: 'paused', progress: { steps: 5 } } });
    await new Promise((r) => setTimeout(r, 400));
    expect(sandboxes[0].terminated).toBe(false);
    w.postMessage({ type: 'resume' });
    expect(sandboxes[0].sent.at(-1)).toEqual({ type: 'learner:resume' });
    await vi.waitFor(() => expect(sandboxes[0].terminated).toBe(true), { timeout: 2000 });
    expect(told.at(-1).message).toMatch(/stopped answering/);
  });

  it('a sandbox that answers in time is not ended', async () => {
    const { w, told, sandboxes } = fakeRun(50);
    w.postMessage({ type: 'start', settings: {} });
    await vi.waitFor(() => expect(sandboxes[0].sent).toHaveLength(1));
    w.postMessage({ type: 'stop' });
    sandboxes[0].onmessage({ data: { type: 'stopped', progress: { steps: 5 } } });
    await new Promise((r) => setTimeout(r, 120));
    expect(sandboxes[0].terminated).toBe(false);
    expect(told.at(-1)).toEqual({ type: 'stopped', progress: { steps: 5 } });
  });
});
