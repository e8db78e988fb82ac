#!/usr/bin/env node
// index.mjs — the `valley-farm` command (package.json "bin"): `npx valley-farm <command>`.
// Each command is a file of this folder exporting main(argv); this table is the list.
const COMMANDS = {
  eval: { file: './eval.mjs', what: 'evaluate an agent or a saved policy with the protocol (splits, normalised score)' },
  train: { file: './train.mjs', what: 'train a learner (tabular-q, ppo) and save its policy' },
};

export async function main(argv) {
  const [name, ...rest] = argv;
  const command = Object.hasOwn(COMMANDS, name ?? '') ? COMMANDS[name] : null;
  if (!command) {
    const list = Object.entries(COMMANDS)
      .map(([n, c]) => `  ${n.padEnd(8)}${c.what}`)
      .join('\n');
    console.error(
      `${name && name !== '--help' ? `valley-farm: unknown command '${String(name).slice(0, 40)}'\n` : ''}usage: valley-farm <command> [options]\n${list}`,
    );
    return name === '--help' ? 0 : 2;
  }
  const { main: run } = await import(command.file);
  return run(rest);
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('/valley-farm')) {
  process.exitCode = await main(process.argv.slice(2));
}
