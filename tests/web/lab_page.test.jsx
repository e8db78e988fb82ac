// The Lab's page parts that say what a result means: an evaluation names the steps it was
// taken at, puts the heuristic on the same seeds beside it with the paired interval, and says
// when training has moved on; a run kept from an earlier visit offers what it can.
import { describe, expect, it } from 'vitest';
import { render } from 'preact';
import { Evaluation, KeptRun } from '../../web/src/lab/LabPage.jsx';
import { DEFAULTS } from '../../web/src/lab/labQuery.js';

const evaluation = {
  steps: 8_000_000,
  split: 'test',
  episodes: 1000,
  mean: 12.81,
  ci95: [12.68, 12.94],
  normalized: 0.684,
  heuristic: { mean: 11.91, ci95: [11.73, 12.09] },
  paired: { mean: 0.9, ci95: [0.69, 1.1] },
};

function show(Component, lab) {
  const host = document.createElement('div');
  render(<Component lab={lab} />, host);
  return host;
}

describe('an evaluation on the page', () => {
  it('names the steps it was taken at and the heuristic on the same seeds, with the paired interval and what it says', () => {
    const host = show(Evaluation, { evaluation, evaluationStale: false, progress: { steps: 8_000_000 } });
    const text = host.textContent;
    expect(text).toMatch(
      /^Test split, 1,000 seeds, the policy after 8,000,000 steps: mean return 12\.81 \(95 % interval 12\.68 – 12\.94\)/,
    );
    expect(host.querySelector('[data-testid="lab-evaluation-heuristic"]').textContent).toBe(
      'The heuristic on the same seeds: 11.91 (11.73 – 12.09). Policy − heuristic, paired by seed: +0.9 (95 % interval +0.69 to +1.1): the policy scores above the heuristic.',
    );
    expect(host.querySelector('[data-testid="lab-evaluation"]').dataset.stale).toBe('false');
    expect(text).not.toMatch(/Stale/);
  });

  it("taken during the cloning, says so rather than 'after 0 steps'", () => {
    const host = show(Evaluation, {
      evaluation: { ...evaluation, steps: 0, updates: 300, cloning: true },
      evaluationStale: true,
      progress: { steps: 0 },
    });
    expect(host.textContent).toMatch(
      /^Test split, 1,000 seeds, the policy as it cloned the planner's play \(before any step of its own\): mean return/,
    );
    expect(host.querySelector('.lab-stale').textContent).toMatch(/^Stale: training has gone on since\. Evaluate again/);
  });

  it('is marked stale once training has gone on past its steps', () => {
    const host = show(Evaluation, { evaluation, evaluationStale: true, progress: { steps: 12_000_000 } });
    expect(host.querySelector('[data-testid="lab-evaluation"]').dataset.stale).toBe('true');
    expect(host.querySelector('.lab-stale').textContent).toMatch(/^Stale: training has gone on since, to 12,000,000 steps/);
  });

  it('says when the paired interval cannot tell the policy from the heuristic, or puts it below', () => {
    const level = show(Evaluation, { evaluation: { ...evaluation, paired: { mean: 0.05, ci95: [-0.1, 0.2] } }, evaluationStale: false });
    expect(level.textContent).toMatch(/\+0\.05 \(95 % interval −0\.1 to \+0\.2\): no difference this evaluation can tell\./);
    const below = show(Evaluation, { evaluation: { ...evaluation, paired: { mean: -5, ci95: [-5.5, -4.5] } }, evaluationStale: false });
    expect(below.textContent).toMatch(/the policy scores below the heuristic\./);
  });
});

describe('a run kept from an earlier visit', () => {
  const run = { ...DEFAULTS, steps: 35_000_000 };
  it('offers to resume it when it has a checkpoint, to keep its policy, or to discard it', () => {
    const host = show(KeptRun, { run, kept: { steps: 4_000_000, policy: '{}', checkpoint: '{}' }, resumable: true });
    expect([...host.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Resume the run', 'Keep its policy', 'Discard it']);
    expect(host.textContent).toMatch(/was still going when its page was closed, at 4,000,000 of 35,000,000 steps\. It can go on/);
  });

  it('without a checkpoint, says it cannot go on and offers its policy', () => {
    const host = show(KeptRun, { run, kept: { steps: 4_000_000, policy: '{}', checkpoint: null }, resumable: false });
    expect([...host.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Keep its policy', 'Discard it']);
    expect(host.textContent).toMatch(/It cannot go on: its learner kept no checkpoint of it, but its policy is kept\./);
  });
});
