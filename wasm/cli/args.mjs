// args.mjs — the one command-line parser of `valley-farm` (node:util parseArgs underneath):
// each command describes its options as a table, and this file turns the table into the
// parser, the error messages and the --help text, so the three cannot disagree.
//
//   const table = { env: { arg: 'ENV', what: 'the env id' }, json: { what: 'print JSON' } };
//   const { values, positionals } = parseOptions(argv, table);   // throws UsageError
//   helpText('valley-farm eval AGENT [options]', table)
//
// A table row: the key is the option's long name in kebab case (values come back under the
// camelCase name); `arg` names its value (an option without `arg` is a flag); `default` and
// `what` are shown by --help. --key value and --key=value are both accepted.
import { parseArgs } from 'node:util';

/** A wrong command line: the command prints the message and its usage, and exits with 2. */
export class UsageError extends Error {}

const camel = (kebab) => kebab.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
const shown = (s) => String(s).slice(0, 40);

/** True when the command line asks for help (-h or --help anywhere before a lone --). */
export function wantsHelp(argv) {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === '-h' || a === '--help');
}

/**
 * Parses argv against `table`. Returns { values, positionals } with camelCase keys (only
 * the options given; defaults are the command's business). Throws UsageError with a message
 * that names the option and what was wrong; `unknownHint(values)` may add to an
 * unknown-option message (e.g. the settings of the algorithm named).
 */
export function parseOptions(argv, table, { positionals = false, unknownHint } = {}) {
  const options = { help: { type: 'boolean', short: 'h' } };
  for (const [name, row] of Object.entries(table)) options[name] = { type: row.arg ? 'string' : 'boolean' };
  // `--seed -1`: a value that starts with a minus is still the option's value (parseArgs
  // would take it for an option), so that a negative number gets its own clear refusal
  const args = [];
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].startsWith('--') ? argv[i].slice(2) : null;
    if (name && options[name]?.type === 'string' && /^-[\d.]/.test(argv[i + 1] ?? '')) args.push(`${argv[i]}=${argv[++i]}`);
    else args.push(argv[i]);
  }
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: positionals, strict: true });
  } catch (err) {
    throw new UsageError(explain(err, argv, options, unknownHint));
  }
  const values = {};
  for (const [k, v] of Object.entries(parsed.values)) if (k !== 'help') values[camel(k)] = v;
  return { values, positionals: parsed.positionals };
}

/** How many single-letter insertions, deletions, substitutions or swaps of two neighbours turn `a` into `b`. */
function distance(a, b) {
  // optimal string alignment (Levenshtein's distance, with a swap counted as one edit: trian, train)
  let before = null;
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) next[j] = Math.min(next[j], before[j - 2] + 1);
    }
    [before, row] = [row, next];
  }
  return row[b.length];
}

/**
 * The names of `names` nearest to a mistyped `name` (`--step` for `--steps`, `heuristc` for
 * `heuristic`): those fewest edits away, at most a third of its letters (and at least one);
 * none when nothing is that close (nor for a name every letter of which would change).
 */
export function nearest(name, names) {
  const text = String(name).slice(0, 60).toLowerCase();
  const most = Math.max(1, Math.floor(text.length / 3));
  const scored = names.map((n) => [n, distance(text, n.toLowerCase())]).filter(([, d]) => d <= most && d < text.length);
  const best = Math.min(...scored.map(([, d]) => d));
  return scored.filter(([, d]) => d === best).map(([n]) => n);
}

/** parseArgs' error, said in this package's words. */
function explain(err, argv, options, unknownHint) {
  const quoted = /'(-[^' ]*)/.exec(err.message)?.[1] ?? '';
  const name = quoted.replace(/^--?/, '');
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      if (!quoted.startsWith('-')) return `unexpected argument ${shown(quoted)}`;
      // a loose reading of the rest, to say what the unknown option could have been
      const loose = parseArgs({ args: argv, options, allowPositionals: true, strict: false }).values;
      const hint = unknownHint?.(loose);
      const near = nearest(name, Object.keys(options)).map((n) => `--${n}`);
      return `unknown option ${shown(quoted)}${hint ? `; ${hint}` : ''}${near.length ? `; did you mean ${near.join(' or ')}?` : ''}`;
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (options[name]?.type === 'boolean') return `--${name} takes no value`;
      if (/ambiguous/.test(err.message))
        return `--${name} needs a value, and the next argument starts with '-' (for a value that does, write --${name}=VALUE)`;
      return `--${name} needs a value`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument ${shown(/'([^']*)'/.exec(err.message)?.[1] ?? '')}`;
    default:
      return err.message;
  }
}

/** One line per option: its flag and value name, what it means, its default. */
export function optionLines(table) {
  const rows = Object.entries(table).map(([name, row]) => [
    `--${name}${row.arg ? ` ${row.arg}` : ''}`,
    `${row.what}${row.default !== undefined ? ` (default ${Array.isArray(row.default) ? row.default.join(',') : row.default})` : ''}`,
  ]);
  const width = Math.max(...rows.map(([flag]) => flag.length)) + 2;
  return rows.map(([flag, what]) => `  ${flag.padEnd(width)}${what}`).join('\n');
}

/** A command's --help: its usage, what it does, then each section of options. */
export function helpText(usage, about, sections) {
  const withHelp = sections.map(([title, table], i) => [title, i === 0 ? { ...table, help: { what: 'show this help (also -h)' } } : table]);
  const body = withHelp.map(([title, table]) => `${title}:\n${optionLines(table)}`).join('\n\n');
  return `usage: ${usage}\n\n${about}\n\n${body}\n`;
}
