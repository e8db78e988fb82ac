// format.mjs — one code style, applied by tools rather than by review:
//   Prettier for JS, JSX, TS, CSS, HTML and JSON (.prettierrc.json, .prettierignore)
//   clang-format for C (.clang-format)
//
//   node scripts/format.mjs           rewrite every file in the house style (`npm run format`)
//   node scripts/format.mjs --check   list the files that differ and fail (`npm test` runs this)
//
// clang-format's output changes between major versions, so the C check runs only with the
// version the tree was formatted with (Debian 12's); another version gets a note, not a
// failure nobody can fix without that exact version.
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { ensureCommand, root, run, say } from '../tools/setup.mjs';

const CLANG_FORMAT_MAJOR = 14;

function cSources() {
  const r = spawnSync('git', ['ls-files', '*.c', '*.h'], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ls-files failed: ${r.stderr.trim()}`);
  return r.stdout.split('\n').filter(Boolean);
}

function clangFormatMajor() {
  const r = spawnSync('clang-format', ['--version'], { encoding: 'utf8' });
  const m = /version (\d+)/.exec(r.stdout ?? '');
  return m ? Number(m[1]) : null;
}

/** Checks (or with write: applies) the house style; throws naming the files that differ. */
export function format({ write = false } = {}) {
  say(write ? 'Formatting (Prettier, clang-format)' : 'Formatting check (Prettier, clang-format)');
  run('npx', ['prettier', write ? '--write' : '--check', '--log-level', 'warn', '.']);

  ensureCommand('clang-format', 'clang-format', `clang-format ${CLANG_FORMAT_MAJOR} (Debian 12: apt-get install clang-format)`);
  const major = clangFormatMajor();
  if (major !== CLANG_FORMAT_MAJOR) {
    say(`clang-format ${major ?? '(unknown version)'} is not ${CLANG_FORMAT_MAJOR}: the C files' style is not checked here`);
    return;
  }
  run('clang-format', [write ? '-i' : '--dry-run', ...(write ? [] : ['--Werror']), ...cSources()]);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    format({ write: !process.argv.includes('--check') });
  } catch (err) {
    console.error(`\n[valley-farm] ${err.message}\nRun \`npm run format\` to apply the house style.`);
    process.exit(1);
  }
}
