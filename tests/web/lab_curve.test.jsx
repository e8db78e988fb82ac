// The Lab's learning curve: the reference run of the same learner is drawn beside the
// user's run, only as far as the user's run goes (tests/js/evaluate_data.test.js checks
// the runs the page reads).
import { describe, expect, it } from 'vitest';
import { render } from 'preact';
import { DOTS, LINE_POINTS, LearningCurve } from '../../web/src/lab/LabPage.jsx';
import { evenly } from '../../web/src/model/evenly.js';

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

  it('draws a long run with at most LINE_POINTS points in its line and DOTS dots, its first and last among them', () => {
    const curve = Array.from({ length: 7000 }, (_, k) => ({ steps: 4096 * (k + 1), meanReturn: k / 1000 }));
    const host = draw({ total: 4096 * 7000, curve });
    const line = host.querySelector('polyline.mean');
    expect(line.dataset.points).toBe('7000'); // the curve's own length
    const points = line.getAttribute('points').split(' ');
    expect(points).toHaveLength(LINE_POINTS);
    const dots = host.querySelectorAll('circle.dot');
    expect(dots).toHaveLength(DOTS);
    expect(dots[0].textContent).toMatch(/^4,096 steps: 0\b/);
    expect(dots[DOTS - 1].textContent).toMatch(/^28,672,000 steps: 7$/);
    // the same ends as the whole curve's: the line starts and stops where the run does
    const whole = draw({ total: 4096 * 7000, curve: [curve[0], curve[6999]] })
      .querySelector('polyline.mean')
      .getAttribute('points')
      .split(' ');
    expect([points[0], points.at(-1)]).toEqual(whole);
  });

  it('draws every point of a curve shorter than that', () => {
    const curve = Array.from({ length: 12 }, (_, k) => ({ steps: 100 * (k + 1), meanReturn: k }));
    const host = draw({ total: 1200, curve });
    expect(host.querySelector('polyline.mean').getAttribute('points').split(' ')).toHaveLength(12);
    expect(host.querySelectorAll('circle.dot')).toHaveLength(12);
  });
});

describe('evenly', () => {
  it('keeps a list of at most max items as it is', () => {
    const items = [1, 2, 3];
    expect(evenly(items, 3)).toBe(items);
    expect(evenly([], 5)).toEqual([]);
  });

  it('takes max items of a longer list, in order, each once, the first and last among them, the gaps within one of each other', () => {
    for (const [n, max] of [
      [7, 2],
      [101, 100],
      [1000, 7],
      [7001, 500],
    ]) {
      const items = Array.from({ length: n }, (_, k) => k);
      const picked = evenly(items, max);
      expect(picked).toHaveLength(max);
      expect(picked[0]).toBe(0);
      expect(picked.at(-1)).toBe(n - 1);
      const gaps = picked.slice(1).map((v, i) => v - picked[i]);
      expect(Math.min(...gaps)).toBeGreaterThan(0);
      expect(Math.max(...gaps) - Math.min(...gaps)).toBeLessThanOrEqual(1);
    }
  });
});
