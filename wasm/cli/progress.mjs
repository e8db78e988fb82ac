// progress.mjs — what `valley-farm train` shows while it runs, on stderr. In a terminal one
// progress line is rewritten in place (and cleared to the end, so a shorter line leaves
// nothing of a longer one); a line worth keeping (a validation result) is printed as a line
// of its own, and the progress line drawn again under it. Outside a terminal (a log file, CI)
// nothing can be rewritten, so the progress line is printed as a new line every `every`
// seconds, and kept lines as they come.
const CLEAR_LINE = '\r\x1b[2K';

export class ProgressLine {
  constructor({ stream = process.stderr, tty = Boolean(stream.isTTY), every = 10, now = Date.now } = {}) {
    this.stream = stream;
    this.tty = tty;
    this.everyMs = every * 1000;
    this.now = now;
    this.last = ''; // the progress line on screen (tty)
    this.printedAt = -Infinity; // when a progress line was last printed (not tty)
  }

  /** The progress line changed. */
  update(line) {
    if (this.tty) {
      this.last = line;
      this.stream.write(CLEAR_LINE + line);
    } else if (this.now() - this.printedAt >= this.everyMs) {
      this.printedAt = this.now();
      this.stream.write(`${line}\n`);
    }
  }

  /** A line to keep: it is never overwritten. */
  note(line) {
    if (this.tty) this.stream.write(`${CLEAR_LINE}${line}\n${this.last}`);
    else this.stream.write(`${line}\n`);
  }

  /** Training ended: the progress line goes (the summary says the rest). */
  done() {
    if (this.tty && this.last) this.stream.write(CLEAR_LINE);
    this.last = '';
  }
}

/**
 * Seconds left, never negative: the env steps left at the learner's own rate, plus the
 * validation runs left at the mean time of those run so far (cloning the planner happens
 * before the first report, so it is past by the time there is a rate to report).
 */
export function secondsLeft({ steps, total, stepsPerSec, evalsLeft, evalSeconds, evalsDone }) {
  const training = stepsPerSec > 0 ? Math.max(0, total - steps) / stepsPerSec : 0;
  const evaluation = evalsDone > 0 ? (evalsLeft * evalSeconds) / evalsDone : 0;
  return Math.max(0, training + evaluation);
}

/** Validation runs still to come: one at each multiple of `every` below `total`, one at the end. */
export function evaluationsLeft(nextEval, total, every) {
  return Math.max(0, Math.ceil((total - nextEval) / every)) + 1;
}
