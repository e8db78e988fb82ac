// Every docs page renders from its route, every internal docs link points at a page and a
// section that exist, and the API examples run cleanly in the docs sandbox (in Node here;
// the browser suite runs one in a real Web Worker).
import { afterEach, describe, it, expect } from 'vitest';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { Docs, PAGES, parseDocsPath } from '../../web/src/docs/index.jsx';
import { sectionId } from '../../web/src/docs/components/Section.jsx';
import { examples } from '../../web/src/docs/model/examples.js';
import { runExample, runAgent } from '../../web/src/docs/worker/runExample.js';
import { runInWorker } from '../../web/src/docs/model/runner.js';
import { TUTORIAL_STEPS } from '../../web/src/docs/model/tutorial.js';
import { parseEmbedParams } from '../../web/src/docs/Embed.jsx';
import { quietIframes } from './quietIframes.js';

quietIframes(); // the docs' live farms are iframes, which happy-dom does not load

const shown = [];
async function show(path) {
  const host = document.createElement('div');
  document.body.replaceChildren(host);
  await act(async () => render(<Docs path={path} />, host));
  shown.push(host);
  return host;
}

// Each page is unmounted after its test: a live widget still loading (a farm, the engine) would
// otherwise render once the test file's document is gone, an unhandled error on a loaded machine.
afterEach(() => {
  for (const host of shown.splice(0)) render(null, host);
});

describe('docs routes', () => {
  it('parses pages and sections, and flags unknown ones', () => {
    expect(parseDocsPath('/')).toMatchObject({ page: '', section: null });
    expect(parseDocsPath('/valley/actions')).toMatchObject({ page: 'valley', section: 'actions' });
    expect(parseDocsPath('/valley/nope')).toMatchObject({ page: 'valley', section: null, badSection: 'nope' });
    expect(parseDocsPath('/nope').page).toBe(null);
  });

  for (const slug of Object.keys(PAGES)) {
    it(`renders #/docs/${slug} with the navigation, its sections and no unresolved links`, async () => {
      const host = await show(`/${slug}`);
      expect(host.querySelector(`.docs-page[data-page="${slug || 'home'}"]`)).not.toBeNull();
      expect(host.querySelector('.docs-nav [aria-current="page"]').getAttribute('href')).toBe(slug ? `#/docs/${slug}` : '#/docs');
      for (const [id] of PAGES[slug].sections) expect(host.querySelector(`#${sectionId(slug, id)}`), id).not.toBeNull();
      for (const a of host.querySelectorAll('a[href^="#/docs"]')) {
        const { page, section, badSection } = parseDocsPath(a.getAttribute('href').slice('#/docs'.length) || '/');
        expect(page, a.getAttribute('href')).not.toBe(null);
        expect(badSection, a.getAttribute('href')).toBeFalsy();
        if (section) expect(PAGES[page].sections.map(([id]) => id)).toContain(section);
      }
    });
  }

  it('an unknown page says so and links back to the overview', async () => {
    const host = await show('/nope');
    expect(host.textContent).toContain('No such page');
  });
});

describe('API examples', () => {
  for (const [id, code] of Object.entries(examples)) {
    if (id === 'endless') continue;
    it(`"${id}" runs without error and prints something`, async () => {
      const lines = [];
      const result = await runExample(code, (m) => lines.push(m.text));
      expect(result).toEqual({ type: 'done' });
      expect(lines.length).toBeGreaterThan(0);
    });
  }

  it('an example that throws reports the error with its line', async () => {
    const result = await runExample("const env = await make('ValleyFarm-v0');\nenv.step(0);", () => {});
    expect(result.type).toBe('error');
    expect(result.message).toMatch(/call reset\(\)/);
  });

  it('a run that never answers is stopped after the time limit', async () => {
    let terminated = false;
    const fake = () => ({
      postMessage() {},
      terminate() {
        terminated = true;
      },
    });
    const result = await runInWorker({ type: 'example', code: 'for(;;){}' }, { timeLimitMs: 50, createWorker: fake });
    expect(result.type).toBe('error');
    expect(result.message).toMatch(/Stopped after 0.05 s/);
    expect(terminated).toBe(true);
  });
});

describe('tutorial', () => {
  it('each step beats the previous one on the same seeds (the tutorial’s promise)', async () => {
    for (const [envId, steps] of Object.entries(TUTORIAL_STEPS)) {
      let previous = -Infinity;
      for (const step of steps) {
        const result = await runAgent({ code: step.code, envId, episodes: 40, firstSeed: 1 }, () => {});
        expect(result.type, `${envId} ${step.title}: ${result.message}`).toBe('done');
        const mean = result.returns.reduce((a, b) => a + b, 0) / result.returns.length;
        expect(mean, `${envId} ${step.title}`).toBeGreaterThan(previous);
        previous = mean;
      }
    }
  });

  it('an agent returning a bad action gets a message naming the allowed actions', async () => {
    const result = await runAgent({ code: 'function act() { return "dance"; }', envId: 'ValleyFarm-v0', episodes: 1 }, () => {});
    expect(result.type).toBe('error');
    expect(result.message).toMatch(/north/);
  });
});

describe('embed parameters', () => {
  it('reads env, seed, view and controls from the #/embed query', () => {
    expect(parseEmbedParams('#/embed?env=BackwardsValleyFarm-v0&seed=7&view=eyes&controls=0')).toEqual({
      envId: 'BackwardsValleyFarm-v0',
      seed: 7,
      view: 'eyes',
      controls: false,
      errors: [],
    });
    expect(parseEmbedParams(new URLSearchParams('env=valley'))).toMatchObject({
      envId: 'ValleyFarm-v0',
      seed: undefined,
      view: 'world',
      controls: true,
    });
    expect(parseEmbedParams({ env: 'x', seed: '-3', view: 'up' }).errors).toHaveLength(3);
  });
});
