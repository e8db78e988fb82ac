// The Lab's learning curve: the reference run of the same learner is drawn beside the
// user's run, only as far as the user's run goes (tests/js/evaluate_data.test.js checks
// the runs the page reads).
import { describe, expect, it } from 'vitest';
import { render } from 'preact';
import { LearningCurve } from '../../web/src/lab/LabPage.jsx';

const run = {
  command: 'npx valley-farm train --env ValleyFarm-v0 --algo ppo --steps 300',
  steps: 300,
  curve: [
    { steps: 100, validation: 1 },
    { steps: 200, validation: 2 },
    { steps: 300, validation: 3 },
  ],
};
const references = [{ name: 'heuristic', value: 11.9 }];

function draw(props) {
  const host = document.createElement('div');
  render(<LearningCurve curve={[]} references={references} {...props} />, host);
  return host;
}

describe('the Lab learning curve', () => {
  it("draws the reference run's points up to the run's total steps, and says it stops there", () => {
    const host = draw({ total: 250, run });
    expect(host.querySelector('.reference-run').dataset.points).toBe('2');
    expect(host.querySelectorAll('.reference-run circle')).toHaveLength(2);
    expect(host.querySelector('figcaption').textContent).toMatch(
      /reference run's validation return \(npx valley-farm train .*, 300 steps, shown up to 250\)/,
    );
  });

  it('draws every point of a reference run shorter than the run, and nothing without one', () => {
    expect(draw({ total: 1000, run }).querySelector('.reference-run').dataset.points).toBe('3');
    expect(draw({ total: 1000, run }).querySelector('figcaption').textContent).not.toMatch(/shown up to/);
    expect(draw({ total: 1000 }).querySelector('.reference-run')).toBeNull();
  });

  it('promises no reference curve where none is drawn (a run shorter than its first point)', () => {
    const host = draw({ total: 50, run });
    expect(host.querySelector('.reference-run')).toBeNull();
    expect(host.querySelector('figcaption').textContent).not.toMatch(/reference run|Grey/);
  });
});
