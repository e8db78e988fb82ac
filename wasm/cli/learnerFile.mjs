// learnerFile.mjs — a learner of your own for the command line: `train --algo ./my-learner.js`
// (and `eval policy.json --learner ./my-learner.js`, for its policies) imports the file, checks
// that it exports a learner (registry.js: `export const learner = { name, ... }`) and
// registers it, so that every option, check and help line the built-in learners have is its
// too. A learner that runs threads gets its file's URL, which its threads import it from.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { algorithms, registerLearner } from '../learn/index.js';
import { UsageError } from './args.mjs';

/** Whether an --algo value names a file rather than a registered learner. */
export const isLearnerFile = (value) => typeof value === 'string' && (/[\\/]/.test(value) || /\.[cm]?js$/.test(value));

/** Imports and registers the learner in `file` (`flag`: the option that named it); returns its name. */
export async function registerLearnerFile(file, flag = '--algo') {
  const named = `${flag} ${String(file).slice(0, 200)}`;
  let stat;
  try {
    stat = statSync(file);
  } catch {
    throw new UsageError(`${named}: no such file`);
  }
  if (!stat.isFile()) throw new UsageError(`${named}: not a file`);
  const url = pathToFileURL(resolve(file)).href;
  let mod;
  try {
    mod = await import(url);
  } catch (err) {
    throw new UsageError(`${named}: the module does not load: ${String(err?.message ?? err).slice(0, 300)}`);
  }
  const learner = mod.learner;
  if (!learner || typeof learner !== 'object')
    throw new UsageError(
      `${named}: the module exports no learner (export const learner = { name, title, defaults, ... }: docs/adding-a-learner.md)`,
    );
  if (Object.hasOwn(algorithms, learner.name)) {
    if (algorithms[learner.name].url === (learner.url ?? url)) return learner.name; // registered already (train, then eval)
    throw new UsageError(
      `${named}: its learner's name ${JSON.stringify(learner.name)} is taken by a learner of the package; give it another name`,
    );
  }
  try {
    registerLearner({ ...learner, url: learner.url ?? url });
  } catch (err) {
    throw new UsageError(`${named}: ${String(err.message).replace(/^valley-farm\/learn: /, '')}`);
  }
  return learner.name;
}

/** The value of option --name in argv (--name V or --name=V), or undefined. */
export function optionValue(argv, name) {
  const at = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (at < 0) return undefined;
  return argv[at].includes('=') ? argv[at].slice(name.length + 3) : argv[at + 1];
}

/** argv with option --name's value replaced by `value`. */
export function withOption(argv, name, value) {
  const at = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  return argv[at].includes('=')
    ? argv.map((a, i) => (i === at ? `--${name}=${value}` : a))
    : argv.map((a, i) => (i === at + 1 ? value : a));
}
