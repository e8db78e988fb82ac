#!/usr/bin/env node
// index.mjs — the `valley-farm` command (package.json "bin"): `npx valley-farm <command>`.
// Each command is a file of this folder exporting main(argv) and help(); this table is the list.
import { nearest } from './args.mjs';

const COMMANDS = {
  eval: { file: './eval.mjs', what: 'evaluate an agent or a saved policy with the protocol (splits, normalised score)' },
  train: { file: './train.mjs', what: 'train a learner and save its policy (train --help lists the learners)' },
  export: { file: './export.mjs', what: 'write a saved network policy as an ONNX model (export POLICY.json --onnx OUT.onnx)' },
  help: { what: "show this list, or a command's options: valley-farm help train" },
};

/** ` (did you mean train?)` for a mistyped command name, or ''. */
function suggestion(name) {
  const near = nearest(name, Object.keys(COMMANDS));
  return near.length ? ` (did you mean ${near.join(' or ')}?)` : '';
}

function list() {
  const rows = Object.entries(COMMANDS)
    .map(([n, c]) => `  ${n.padEnd(8)}${c.what}`)
    .join('\n');
  return `usage: valley-farm <command> [options]\n${rows}\n\nvalley-farm <command> --help lists a command's options.\n`;
}

export async function main(argv) {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || (name === 'help' && rest.length === 0)) {
    (name === undefined ? process.stderr : process.stdout).write(list());
    return name === undefined ? 2 : 0;
  }
  if (name === 'help') {
    const topic = Object.hasOwn(COMMANDS, rest[0]) ? COMMANDS[rest[0]] : null;
    if (!topic?.file) {
      process.stderr.write(`valley-farm help: no command '${String(rest[0]).slice(0, 40)}'${suggestion(rest[0])}\n${list()}`);
      return 2;
    }
    process.stdout.write((await import(topic.file)).help());
    return 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : null;
  if (!command) {
    process.stderr.write(`valley-farm: unknown command '${String(name).slice(0, 40)}'${suggestion(name)}\n${list()}`);
    return 2;
  }
  const { main: run } = await import(command.file);
  return run(rest);
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('/valley-farm')) {
  process.exitCode = await main(process.argv.slice(2));
}
