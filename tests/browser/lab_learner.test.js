// A visitor's learner in the code sandbox, in Chromium on the built site (web/src/sandbox/
// learnerBox.js): the page's side is driven here as learnerWorker.js drives it (the sandbox's
// frame, its start message, learner.wasm's bytes), with REINFORCE's template made as
// learnerTemplates.js makes it. An unedited template trains and hands back a policy (the
// weights of the command line's run of the same file); one edited to another learning rate
// trains to the built-in learner's weights at that rate; one edited to throw names the line.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { browserSuite, openPage, root } from './page.js';
import { createLearner } from '../../wasm/learn/index.js';

const suite = browserSuite();

const SETTINGS = { env: 'BackwardsValleyFarm-v0', seed: 1, steps: 20_000, numEnvs: 16, threads: 2 };

const template = readFileSync(join(root, 'wasm/learn/reinforce.js'), 'utf8')
  .replace("} from './kit.js';", "} from 'valley-farm/learn';")
  .replace("  name: 'reinforce',", "  name: 'my-reinforce',")
  .replace("  title: 'REINFORCE',", "  title: 'My REINFORCE', url: import.meta.url,");

/** The policy file the sandbox handed back last (in parts, then the message that counts them). */
function policyOf(told) {
  const policy = told.findLast((m) => m.type === 'policy');
  const i = told.lastIndexOf(policy);
  return JSON.parse(
    told
      .slice(i - policy.parts, i)
      .map((m) => m.text)
      .join(''),
  );
}

/**
 * Runs `code` in a fresh sandbox frame for `ms` (or until it tells `until`), then posts `then`
 * (if any); returns what the sandbox told the page.
 */
async function runInSandbox(page, code, { ms, then = null, wait = 1500, until = null, settings = SETTINGS }) {
  const assets = readdirSync(join(root, 'dist/assets'));
  const core = `assets/${assets.find((f) => /^learner-.*\.wasm$/.test(f))}`;
  const engine = `assets/${assets.find((f) => /^valley_farm-.*\.wasm$/.test(f))}`;
  return page.evaluate(
    async ({ code, core, engine, ms, then, wait, until, settings }) => {
      const told = [];
      const frame = Object.assign(document.createElement('iframe'), { src: 'sandbox.html', hidden: true });
      frame.setAttribute('sandbox', 'allow-scripts');
      const [source, runner, engineBytes, coreBytes] = await Promise.all([
        fetch('sandbox.js').then((r) => r.text()),
        fetch('sandbox-learner.js').then((r) => r.text()),
        fetch(engine).then((r) => r.arrayBuffer()),
        fetch(core).then((r) => r.arrayBuffer()),
      ]);
      window.addEventListener('message', (e) => {
        if (e.source !== frame.contentWindow) return;
        if (e.data?.type === 'sandbox:ready')
          frame.contentWindow.postMessage({ type: 'sandbox:start', source, engine: engineBytes }, '*', [engineBytes]);
        else if (e.data?.type === 'sandbox:message' && e.data.data?.type === 'sandbox:up')
          frame.contentWindow.postMessage(
            {
              type: 'sandbox:post',
              data: {
                type: 'learner:start',
                core: coreBytes,
                runner,
                code,
                settings,
              },
            },
            '*',
          );
        else told.push(e.data.type === 'sandbox:message' ? e.data.data : e.data);
      });
      document.body.append(frame);
      await new Promise((resolve) => {
        const t0 = performance.now();
        const poll = () =>
          (until && told.some((m) => m.type === until)) || performance.now() - t0 >= ms ? resolve() : setTimeout(poll, 100);
        poll();
      });
      if (then) frame.contentWindow.postMessage({ type: 'sandbox:post', data: then }, '*');
      await new Promise((r) => setTimeout(r, wait));
      const t0 = performance.now();
      frame.remove(); // what learnerWorker.js does when Pause or Stop is not answered
      await new Promise((r) => setTimeout(r, 0));
      return { told, removeMs: performance.now() - t0 };
    },
    { code, core, engine, ms, then, wait, until, settings },
  );
}

describe("a visitor's learner in the sandbox", () => {
  it('the unedited REINFORCE template trains on two threads and hands back its policy in parts; `valley-farm train --algo` on the same file, on one thread, trains to the same weights', async () => {
    const page = await openPage(suite.browser, `${suite.server.url}#/`);
    suite.opened.push(page);
    const { told } = await runInSandbox(page, template, { ms: 90_000, until: 'done', then: { type: 'learner:policy' }, wait: 3000 });
    const types = told.map((m) => m.type);
    expect(told.filter((m) => m.type === 'error')).toEqual([]);
    expect(types).toContain('started');
    const progress = told.filter((m) => m.type === 'progress').map((m) => m.progress.steps);
    expect(Math.max(...progress)).toBeGreaterThan(0);
    expect(told.findLast((m) => m.type === 'policy').parts).toBeGreaterThan(0);
    const json = policyOf(told);
    expect(json.algo).toBe('my-reinforce');
    expect(json.weights.length).toBeGreaterThan(0);
    expect(types).toContain('done');
    expect(json.run.steps).toBeGreaterThanOrEqual(SETTINGS.steps);
    // the same file, run by the command line as a visitor's download is (its 'valley-farm/learn'
    // resolves to this checkout: the file sits inside it), on one thread
    mkdirSync(join(root, 'tests/artifacts'), { recursive: true });
    const dir = mkdtempSync(join(root, 'tests/artifacts/learner-'));
    try {
      writeFileSync(join(dir, 'my-reinforce.js'), template);
      const s = SETTINGS;
      execFileSync(
        process.execPath,
        [
          'wasm/cli/index.mjs',
          'train',
          '--env',
          s.env,
          '--algo',
          join(dir, 'my-reinforce.js'),
          '--steps',
          String(s.steps),
          '--seed',
          String(s.seed),
        ].concat(['--num-envs', String(s.numEnvs), '--threads', '1', '--out', join(dir, 'policy.json')]),
        { cwd: root, stdio: 'pipe' },
      );
      const cli = JSON.parse(readFileSync(join(dir, 'policy.json'), 'utf8'));
      expect(cli.run.steps).toBe(json.run.steps);
      expect(cli.weights).toEqual(json.weights);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('REINFORCE edited to half the learning rate trains to other weights than the template, and to those createLearner gives in Node with that rate', async () => {
    const page = await openPage(suite.browser, `${suite.server.url}#/`);
    suite.opened.push(page);
    const edited = template.replace('  learningRate: 1e-3,', '  learningRate: 5e-4,');
    expect(edited).not.toBe(template);
    const { told } = await runInSandbox(page, edited, { ms: 90_000, until: 'done', then: { type: 'learner:policy' }, wait: 3000 });
    expect(told.filter((m) => m.type === 'error')).toEqual([]);
    const json = policyOf(told);
    expect(json.run.steps).toBeGreaterThanOrEqual(SETTINGS.steps);
    // the built-in REINFORCE in this process (the engine's path, not the sandbox's), one thread
    const { env, seed, numEnvs } = SETTINGS;
    const weightsOf = async (settings) => {
      const learner = await createLearner({ env, algo: 'reinforce', seed, numEnvs, threads: 1, ...settings });
      try {
        await learner.trainFor(json.run.steps);
        expect(learner.progress().steps).toBe(json.run.steps);
        return JSON.parse(JSON.stringify(learner.policy().toJSON())).weights;
      } finally {
        learner.dispose();
      }
    };
    expect(json.weights).toEqual(await weightsOf({ learningRate: 5e-4 }));
    expect(json.weights).not.toEqual(await weightsOf({}));
  }, 120_000);

  it('a template edited to throw names the line of the throw in the source', async () => {
    const page = await openPage(suite.browser, `${suite.server.url}#/`);
    suite.opened.push(page);
    const lines = template.split('\n');
    const at = lines.findIndex((l) => /function createReinforce\(/.test(l)) + 1; // inside create
    lines.splice(at, 0, "    throw new Error('my bug');");
    const { told } = await runInSandbox(page, lines.join('\n'), { ms: 8000 });
    const error = told.find((m) => m.type === 'error');
    expect(error?.message).toMatch(new RegExp(`my bug \\(line ${at + 1} of your learner\\)`));
  }, 120_000);

  it('a syntax error names its line', async () => {
    const page = await openPage(suite.browser, `${suite.server.url}#/`);
    suite.opened.push(page);
    const lines = template.split('\n');
    lines[99] = `${lines[99]} )(`;
    const { told } = await runInSandbox(page, lines.join('\n'), { ms: 8000 });
    expect(told.find((m) => m.type === 'error')?.message).toMatch(/line 100 of your learner/);
  }, 120_000);
});
