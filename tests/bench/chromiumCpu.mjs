// chromiumCpu.mjs — where the CPU of the bench's own Chromium goes while the Lab trains: its
// Web Workers' threads (the learner's) apart from the rest (the page's main thread, the
// compositor, V8's background compiles and garbage collection, the browser process…). Read
// from /proc for the processes this bench started (so another program's Chromium on the same
// machine does not count); Linux only, null elsewhere.
//
// Two things follow from it that a rate alone cannot tell: the learner's CPU cost (steps per
// CPU-second of its Workers: a slower path costs more of it), and how much of the cores the
// rest of the browser took from the Workers (with k Workers on k cores, each slice of it stalls
// a Worker, and the others wait for it at the next minibatch's sum).
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

const linux = process.platform === 'linux';
const ticksPerSecond = linux ? Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100 : 100;

/** A /proc stat line's fields after the command's name (which may hold spaces), from field 3 on. */
function statFields(path) {
  const text = readFileSync(path, 'utf8');
  return { name: text.slice(text.indexOf('(') + 1, text.lastIndexOf(')')), f: text.slice(text.lastIndexOf(')') + 2).split(' ') };
}

/** The ids of every process descended from this one. */
function descendants() {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const parent = statFields(`/proc/${entry}/stat`).f[1];
      if (!children.has(parent)) children.set(parent, []);
      children.get(parent).push(entry);
    } catch {
      // it ended meanwhile
    }
  }
  const out = [];
  const walk = (pid) => {
    for (const child of children.get(pid) ?? []) {
      out.push(child);
      walk(child);
    }
  };
  walk(String(process.pid));
  return out;
}

/**
 * CPU seconds so far of each thread of the bench's Chromium, by "pid/tid": { worker (a Web
 * Worker's thread), seconds } (null off Linux).
 */
export function chromiumCpu() {
  if (!linux) return null;
  const threads = new Map();
  for (const pid of descendants()) {
    let tasks = [];
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('chromium')) continue;
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      try {
        const { name, f } = statFields(`/proc/${pid}/task/${task}/stat`);
        const seconds = (Number(f[11]) + Number(f[12])) / ticksPerSecond; // utime + stime
        threads.set(`${pid}/${task}`, { worker: name.startsWith('DedicatedWorker'), seconds });
      } catch {
        // the thread ended meanwhile
      }
    }
  }
  return threads;
}

/**
 * Between two chromiumCpu() readings `seconds` apart: the cores the Workers' threads and the
 * rest used (null off Linux). Thread by thread: one that ended between them (a closed page's,
 * going) does not count, one that began counts from 0.
 */
export function coresUsed(from, to, seconds) {
  if (!from || !to) return null;
  const used = { workers: 0, rest: 0 };
  for (const [id, { worker, seconds: now }] of to) used[worker ? 'workers' : 'rest'] += now - (from.get(id)?.seconds ?? 0);
  return { workers: used.workers / seconds, rest: used.rest / seconds };
}
