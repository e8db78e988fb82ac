// The Lab's learning curve: the reference run of the same learner is drawn beside the
// user's run, only as far as the user's run goes, and the runs come from docs/runs.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { render } from 'preact';
import { LearningCurve } from '../../web/src/lab/LabPage.jsx';
import { referenceRun, referenceRuns, settingsOf } from '../../web/src/model/referenceRuns.js';

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

  it('the reference runs are the committed files of docs/runs, one per learner and farm', () => {
    const dir = join(process.cwd(), 'docs/runs'); // vitest runs from the repository's root
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(referenceRuns()).toHaveLength(files.length);
    for (const f of files) {
      const json = JSON.parse(readFileSync(join(dir, f), 'utf8'));
      // the Lab trains with default settings, so its reference is the run without any
      if (Object.keys(json.settings).length === 0) expect(referenceRun(json.env, json.algo)).toEqual(json);
      else expect(referenceRun(json.env, json.algo).settings).toEqual({});
    }
    expect(referenceRun('ValleyFarm-v0', 'no-such-learner')).toBeNull();
    expect(settingsOf({ settings: { history: 4, numEnvs: 8 } })).toBe('history 4, numEnvs 8');
    expect(settingsOf({ settings: {} })).toBe('');
  });
});
