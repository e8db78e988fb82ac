// labText.js — how the Lab words its run: the numbers it shows, its status line and its
// memory estimate, plain functions of the model (LabPage.jsx renders them; tests read them).
import {
  DEFAULT_THREADS_MAX,
  MEMORY_BUDGET,
  algorithms,
  defaultThreads,
  estimateMemory,
  lessMemory,
  runDefaultsOf,
  threadCount,
} from 'valley-farm/learn';
import { errorMessage } from '../model/cut.js';
import { formatReturn } from '../model/session.js';
import { learnerOverrides } from './labQuery.js';

/**
 * A measured value (a loss, a step size) with three significant digits: 0.0123, 12.3, 1,234;
 * below 0.001 in powers of ten (3e-4, 2.5e-4), so a small step size never shows as 0.000.
 * Whole numbers are shown whole.
 */
export function formatValue(v) {
  if (typeof v !== 'number' || !Number.isFinite(v)) return String(v);
  if (Number.isInteger(v)) return v.toLocaleString('en');
  const a = Math.abs(v);
  if (a >= 1000) return Math.round(v).toLocaleString('en');
  if (a >= 0.001) return String(Number(v.toPrecision(3)));
  const [mantissa, exponent] = v.toExponential(2).split('e');
  return `${Number(mantissa)}e${Number(exponent)}`;
}

/** A time to wait, as people say it: '40 s', '6 min', '2 h 5 min'. */
export function formatDuration(seconds) {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * The seconds the cloning's phase still needs at its rate so far: `imitation` is the progress's
 * ({ phase, done, total, seconds }), `start` where the phase began ({ seconds, done }: the
 * model's `phase`). null until the phase has done some of its work.
 */
export function remainingSeconds(imitation, start) {
  if (!imitation?.phase || !start || !(imitation.done > start.done)) return null;
  const rate = (imitation.seconds - start.seconds) / (imitation.done - start.done);
  return Math.max(0, rate * (imitation.total - imitation.done));
}

/** What trains: the learner core on its threads (a neural learner), or nothing to say (tabular). */
function engineText(p) {
  return p.threads ? ` (learner core, ${p.threads} thread${p.threads === 1 ? '' : 's'})` : '';
}

/** The cloning's progress: '… planned 1,200 / 24,000 episodes (20 s; about 6 min left)'. */
function cloningText(im, start) {
  const planning = im.phase === 'planning';
  const left = remainingSeconds(im, start);
  return `cloning the planner's play before the first step of its own: ${planning ? 'planned' : 'trained on them'} ${im.done.toLocaleString('en')} / ${im.total.toLocaleString('en')} ${
    planning ? 'episodes' : 'times'
  } (${formatDuration(im.seconds)}; ${left === null ? 'estimating the time left' : `about ${formatDuration(left)} left`})`;
}

// what a state needs said beside the run's numbers
const STATE_HINTS = {
  pausing: ' (the learner stops at the next point it can; Stop ends it at once)',
};

/** The Lab's status line: the run's state and where it is. */
export function statusText(lab, linkNote = null) {
  const line = status(lab, linkNote);
  return STATE_HINTS[lab.state] && !lab.error ? `${line}${STATE_HINTS[lab.state]}` : line;
}

function status(lab, linkNote) {
  const p = lab.progress;
  const s = lab.settings;
  const target = lab.run?.steps ?? s.steps;
  if (lab.error) return lab.error;
  if (linkNote && !p && !lab.run) return linkNote;
  if (!p && lab.kept && lab.run) {
    const where = `${lab.kept.steps.toLocaleString('en')} / ${target.toLocaleString('en')} steps`;
    return lab.state === 'interrupted'
      ? `interrupted: the page was closed while this run was going, at ${where}`
      : `${lab.state}: ${where} (kept from an earlier visit)`;
  }
  if (p?.imitation?.phase) return `${lab.state}: ${cloningText(p.imitation, lab.phase)}${p.threads ? `, ${p.threads} threads` : ''}`;
  if (p) {
    const losses = Object.entries(p.losses)
      .map(([k, v]) => `${k} ${formatValue(Number(v))}`)
      .join(', ');
    return `${lab.state}: ${p.steps.toLocaleString('en')} / ${target.toLocaleString('en')} steps, ${Math.round(p.stepsPerSec).toLocaleString('en')} steps/s${engineText(p)}, ${p.episodes.toLocaleString('en')} episodes; ${losses}`;
  }
  if (lab.live) return `${lab.state}: starting…`;
  if (lab.state === 'stopped') return 'stopped';
  return 'Choose a farm and a learner, then Start.';
}

/** Bytes as the Lab shows them: '1,234 MB'. */
export const mb = (bytes) => `${Math.round(bytes / 2 ** 20).toLocaleString('en')} MB`;

/**
 * What a run of these settings will take (estimateMemory: the learner's memory and each of its
 * threads'): { bytes, threads, refused }, `refused` saying why the Lab does not start it (an
 * estimate above MEMORY_BUDGET, which createLearner holds every learner to; a visitor's learner
 * is estimated as its template), else null; or { error } for settings no learner can be made of.
 */
export function memoryEstimate(s) {
  try {
    const learner = algorithms[s.algo];
    const given = { ...runDefaultsOf(learner, s.steps), ...learnerOverrides(s) };
    const threads = threadCount(s.algo, s.threads ?? defaultThreads(DEFAULT_THREADS_MAX));
    const bytes = estimateMemory(s.env, s.algo, given, { threads });
    const refused =
      bytes > MEMORY_BUDGET
        ? `a run of these settings would take about ${mb(bytes)} (an estimate, ${threads} thread${threads === 1 ? '' : 's'} included), more than the ${mb(MEMORY_BUDGET)} a learner may take in this tab: ${lessMemory(learner, { threads })}`
        : null;
    return { bytes, threads, refused };
  } catch (err) {
    return { error: errorMessage(err) };
  }
}

/** A difference with its sign: '+0.4', '−1.25'. */
export const formatSigned = (v) => `${v < 0 ? '−' : '+'}${formatReturn(Math.abs(v))}`;

/** What a paired interval of (policy − heuristic) says. */
export function verdict([low, high]) {
  if (low > 0) return 'the policy scores above the heuristic';
  if (high < 0) return 'the policy scores below the heuristic';
  return 'no difference this evaluation can tell';
}
