// outputs.mjs — how `valley-farm train` writes its files so that none can hurt the user's.
//
//   const real = checkOutputs([{ flag: '--out', file: 'p.json' }, { flag: '--log', file: 'c.csv' }], { force });
//   writeWhole(real[0], text, { replace: force });
//
// checkOutputs runs before any work, so that a run is refused at once rather than lost at its
// end. Its rules:
//   - an output is a regular file or a new one: a symbolic link is refused (it could point
//     anywhere; the error names its target), and so are a folder, a device and a pipe. The
//     folders on the way may be links: they are resolved.
//   - no two outputs, and no output and a file the command reads, are the same file: compared
//     by real path, and by device and inode where the file exists (a hard link is caught too).
//   - a file that exists is refused without --force, unless it is the run's own (`own`).
//   - its folder must take a new file: one is written there, synced and removed, so a folder
//     that is not there or is read-only, or a full disk, stops the run before it starts.
// writeWhole writes a temporary file beside the file and then moves it into place: a kill or
// a full disk mid-write leaves the old file, or none, never half of one; without `replace` it
// never replaces a file, even one made while the run trained.
import {
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  lstatSync,
  openSync,
  readSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError } from './args.mjs';

const shown = (s) => String(s).slice(0, 200);

/** What an fs error means, in words (the code in brackets). */
export function reason(err) {
  const words = {
    ENOSPC: 'the disk is full',
    EDQUOT: 'the disk quota is used up',
    EROFS: 'the file system is read-only',
    EACCES: 'permission denied',
    EPERM: 'not permitted',
    ENOENT: 'no such file or folder',
    ENOTDIR: 'a part of its path is not a folder',
    EISDIR: 'it is a folder',
    EEXIST: 'a file of that name exists now (made while the run trained)',
    ENAMETOOLONG: 'the name is too long',
    EIO: 'an input/output error',
  }[err?.code];
  return words ? `${words} (${err.code})` : shown(err?.message ?? err);
}

/** What a file that is not a regular one is, for an error. */
function kind(stat) {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isFIFO()) return 'a pipe';
  if (stat.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** Opens a new temporary file beside `file` (never an existing one): { path, fd }. */
function openTemp(file) {
  const name = basename(file).slice(0, 100);
  for (let n = 0; ; n++) {
    const path = join(dirname(file), `.${name}.${process.pid}-${n}.tmp`);
    try {
      return { path, fd: openSync(path, 'wx') };
    } catch (err) {
      if (err.code !== 'EEXIST' || n >= 100) throw err;
    }
  }
}

/** `file`'s real path (its folders' links resolved; the file itself may not exist), and its identity if it exists. */
function locate(flag, file) {
  const path = resolve(file);
  let folder;
  try {
    folder = realpathSync(dirname(path));
  } catch (err) {
    throw new UsageError(
      `${flag} ${shown(file)} cannot be written: ${err.code === 'ENOENT' ? `the folder ${dirname(path)} does not exist` : reason(err)}`,
    );
  }
  if (!statSync(folder).isDirectory()) throw new UsageError(`${flag} ${shown(file)} cannot be written: ${dirname(path)} is not a folder`);
  const real = join(folder, basename(path));
  let stat = null;
  try {
    stat = lstatSync(real);
  } catch (err) {
    if (err.code !== 'ENOENT') throw new UsageError(`${flag} ${shown(file)} cannot be written: ${reason(err)}`);
  }
  if (stat?.isSymbolicLink())
    throw new UsageError(
      `${flag} ${shown(file)} is a symbolic link (to ${shown(readlinkSync(real))}): outputs are written to files, not through links; name the file itself`,
    );
  if (stat && !stat.isFile()) throw new UsageError(`${flag} ${shown(file)} cannot be written: ${shown(file)} is ${kind(stat)}, not a file`);
  return { real, id: stat ? `${stat.dev}:${stat.ino}` : null };
}

/** Writes a small file in `real`'s folder and removes it: throws a UsageError saying why the folder takes none. */
function probe(flag, file, real) {
  let temp = null;
  try {
    temp = openTemp(real);
    writeFileSync(temp.fd, Buffer.alloc(4096));
    fsyncSync(temp.fd);
  } catch (err) {
    const why = err.code === 'ENOENT' ? `the folder ${dirname(real)} takes no new file (ENOENT)` : reason(err);
    throw new UsageError(`${flag} ${shown(file)} cannot be written: ${why}`);
  } finally {
    if (temp) {
      closeSync(temp.fd);
      rmSync(temp.path, { force: true });
    }
  }
}

/**
 * Checks the files a command will write (see the file's comment), before it does any work.
 * outputs: [{ flag, file, own?(real), rewrites?, exists? }]: `flag` names it in errors; `own`
 * says whether an existing file is the run's own (replaced without --force); `rewrites` the
 * flag of the input it may be (a resumed checkpoint saved again in place); `exists` what to add
 * when it exists. inputs: [{ flag, file }], files the command reads. Returns the outputs'
 * real paths, in order. Throws a UsageError naming the output and what is wrong.
 */
export function checkOutputs(outputs, { force = false, inputs = [] } = {}) {
  const read = inputs.map(({ flag, file }) => {
    const stat = statSync(file);
    return { flag, real: realpathSync(file), id: `${stat.dev}:${stat.ino}`, input: true };
  });
  const seen = [];
  for (const o of outputs) {
    const { real, id } = locate(o.flag, o.file);
    let own = false;
    for (const other of [...seen, ...read]) {
      if (other.real !== real && !(id && other.id === id)) continue;
      if (other.input && o.rewrites === other.flag) own = true;
      else
        throw new UsageError(
          `${o.flag} and ${other.flag} name the same file (${shown(real)}): ${other.input ? 'the run reads it' : 'one would replace the other'}; give them different names`,
        );
    }
    if (id && !force && !own && !o.own?.(real))
      throw new UsageError(
        `${o.flag} ${shown(o.file)} exists: give --force to replace it, or name another file${o.exists ? ` (${o.exists})` : ''}`,
      );
    probe(o.flag, o.file, real);
    seen.push({ flag: o.flag, real, id });
  }
  return seen.map((s) => s.real);
}

/** Whether `file` begins with `text` (reads no more of it than that). */
export function beginsWith(file, text) {
  const want = Buffer.from(text);
  const got = Buffer.alloc(want.length);
  const fd = openSync(file, 'r');
  try {
    let n = 0;
    while (n < want.length) {
      const k = readSync(fd, got, n, want.length - n, n);
      if (k === 0) break;
      n += k;
    }
    return n === want.length && got.equals(want);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `data` to `file` whole or not at all: into a temporary file beside it, synced, then
 * moved into place. Without `replace`, a file that exists (made since the outputs were
 * checked) is left as it is and the write fails with EEXIST. Throws the fs error.
 */
export function writeWhole(file, data, { replace = true } = {}) {
  const temp = openTemp(file);
  let open = true;
  try {
    writeFileSync(temp.fd, data);
    fsyncSync(temp.fd);
    closeSync(temp.fd);
    open = false;
    if (replace) renameSync(temp.path, file);
    else {
      try {
        linkSync(temp.path, file); // fails if the file exists: never replaces one
      } catch (err) {
        // a file system without hard links: the next best, a check just before the move
        if (err.code === 'EEXIST' || existsSync(file)) throw Object.assign(new Error('exists'), { code: 'EEXIST' });
        renameSync(temp.path, file);
      }
    }
  } finally {
    if (open) closeSync(temp.fd);
    rmSync(temp.path, { force: true });
  }
}
