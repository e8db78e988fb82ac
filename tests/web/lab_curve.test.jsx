// The Lab's learning curve: the reference run of the same learner is drawn beside the
// user's run, only as far as the user's run goes (tests/js/evaluate_data.test.js checks
// the runs the page reads).
import { describe, expect, it } from 'vitest';
import { render } from 'preact';
import { DOTS, H, LABEL_GAP, LINE_POINTS, LearningCurve, PAD, W, labelPositions } from '../../web/src/lab/LearningCurve.jsx';
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

describe("the curve's labels", () => {
  const numbers = (list) => list.map(Number);
  it('name the reference lines right of the plot, where no curve goes, each level with its line and apart from the others', () => {
    const refs = [
      { name: 'random', value: 0.74 },
      { name: 'heuristic', value: 11.91 },
      { name: 'best known', value: 18.38 },
    ];
    // a run that climbs through the heuristic's line and ends above it, at the right edge
    const curve = Array.from({ length: 40 }, (_, k) => ({ steps: 25 * (k + 1), meanReturn: (k / 39) * 13 }));
    const host = draw({ total: 1000, curve, references: refs, run });
    const right = W - PAD.r;
    const xs = [
      ...host
        .querySelector('polyline.mean')
        .getAttribute('points')
        .split(' ')
        .map((p) => p.split(',')[0]),
      ...host
        .querySelector('.reference-run polyline')
        .getAttribute('points')
        .split(' ')
        .map((p) => p.split(',')[0]),
      ...[...host.querySelectorAll('circle')].map((c) => c.getAttribute('cx')),
    ];
    expect(Math.max(...numbers(xs))).toBeLessThanOrEqual(right);
    const labels = [...host.querySelectorAll('.guide text')];
    expect(labels.map((t) => t.textContent)).toEqual(['random 0.74', 'heuristic 11.91', 'best known 18.38']);
    for (const t of labels) expect(Number(t.getAttribute('x'))).toBeGreaterThan(right);
    const ys = numbers(labels.map((t) => t.getAttribute('y')));
    const lines = numbers([...host.querySelectorAll('.guide path')].map((p) => /M[\d.]+ ([\d.]+)/.exec(p.getAttribute('d'))[1]));
    ys.forEach((y, i) => expect(Math.abs(y - 2.5 - lines[i])).toBeLessThan(0.01)); // apart already: each at its line
    const sorted = [...ys].sort((a, b) => a - b);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i] - sorted[i - 1]).toBeGreaterThanOrEqual(LABEL_GAP);
  });

  it('labels of lines closer than a label is high are moved apart, within the plot', () => {
    const ys = labelPositions([150, 190, 151, 197], PAD.t + 4, H - PAD.b);
    const sorted = [...ys].sort((a, b) => a - b);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i] - sorted[i - 1]).toBeGreaterThanOrEqual(LABEL_GAP - 1e-9);
    expect(Math.max(...ys)).toBeLessThanOrEqual(H - PAD.b);
    expect(ys[0]).toBeLessThan(ys[2]); // the order of the lines is kept
    expect(ys[1]).toBeLessThan(ys[3]);
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
