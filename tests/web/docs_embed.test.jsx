// The embed view (web/src/docs/Embed.jsx) on its own, as the #/embed route renders it:
// the farm of the given env and seed, its actions, Reset, the view and controls settings.
import { describe, it, expect } from 'vitest';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { make, envSpecs } from 'valley-farm';
import { Embed } from '../../web/src/docs/Embed.jsx';

async function embed(params) {
  const host = document.createElement('div');
  document.body.replaceChildren(host);
  await act(async () => render(<Embed params={params} />, host));
  for (let i = 0; i < 50 && !host.querySelector('.vf-embed'); i++) await act(() => new Promise((r) => setTimeout(r, 10)));
  return host;
}
const stat = (host, name) => host.querySelector(`[data-stat="${name}"]`)?.textContent;
const click = (host, action) => act(() => host.querySelector(`.vf-embed [data-action="${action}"]`).click());

describe('embed view', () => {
  it('shows the seeded farm with one button per engine action plus Reset, and plays', async () => {
    const host = await embed(new URLSearchParams('env=ValleyFarm-v0&seed=7&view=world&controls=1'));
    const buttons = [...host.querySelectorAll('.vf-embed-controls [data-action]')].map((b) => b.dataset.action);
    expect(buttons).toEqual([...envSpecs['ValleyFarm-v0'].actions, 'reset']);
    expect(host.querySelectorAll('.board .cell')).toHaveLength(15 * 15);
    // the board is the seed-7 farm: same tiles as the engine's
    const env = await make('ValleyFarm-v0');
    env.reset({ seed: 7 });
    const { agent } = env.state();
    expect(stat(host, 'stepsLeft')).toBe('50');
    await click(host, 'north'); // seed 7: north of the start is the cow
    expect(stat(host, 'stepsLeft')).toBe('49');
    expect(host.querySelector(`.cell[data-x="${agent.x}"][data-y="${agent.y - 1}"]`).dataset.kind).toBe('animal');
    await click(host, 'feed');
    expect(stat(host, 'stepsLeft')).toBe('48');
    await click(host, 'reset');
    expect(stat(host, 'stepsLeft')).toBe('50');
    env.close();
  });

  it('controls=0 shows the board alone; view=eyes hides what the agent has not seen', async () => {
    const host = await embed('env=backwards&seed=3&view=eyes&controls=0');
    expect(host.querySelector('.vf-embed').dataset.env).toBe('BackwardsValleyFarm-v0');
    expect(host.querySelector('.vf-embed-controls')).toBeNull();
    expect(host.querySelector('.board').getAttribute('class')).toContain('view-eyes');
    expect(host.querySelectorAll('.cell[data-kind="unknown"]').length).toBeGreaterThan(0);
  });

  it('bad parameters get a message and sensible defaults', async () => {
    const host = await embed({ env: 'Nope-v0', seed: 'abc' });
    expect(host.querySelector('.vf-embed-warn').textContent).toMatch(/unknown env 'Nope-v0'.*seed 'abc'/);
    expect(host.querySelector('.vf-embed').dataset.env).toBe('ValleyFarm-v0');
  });

  it('a 2 MB env, seed or view parameter is quoted cut to 40 characters in the warning, which says what is allowed', async () => {
    const huge = (c) => c.repeat(2e6);
    const host = await embed(`env=${huge('e')}&seed=${huge('9')}&view=${huge('v')}`);
    const warning = host.querySelector('.vf-embed-warn').textContent;
    expect(warning).toContain(`unknown env '${'e'.repeat(40)}… (1999960 more characters)' (use ValleyFarm-v0 or BackwardsValleyFarm-v0)`);
    expect(warning).toContain(`seed '${'9'.repeat(40)}… (1999960 more characters)' is not an integer from 0 to 2^53 - 1`);
    expect(warning).toContain(`view '${'v'.repeat(40)}… (1999960 more characters)' is not world or eyes`);
    expect(host.textContent).not.toMatch(/e{41}|9{41}|v{41}/); // nor does anything else on it
    expect(host.querySelector('.vf-embed').dataset.env).toBe('ValleyFarm-v0');
  });
});
