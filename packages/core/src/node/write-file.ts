// Files written for a user (workbooks, golden files, converted candles, CSV and SVG outputs) appear
// whole or not at all: the bytes go to a temporary file beside the destination, which is renamed
// over it once complete. A full disk, an I/O error or a killed process leaves the previous file
// (or none), never a cut one; a golden file cut in half would have broken every later regression
// run (docs/cli.md, "Candle files").
import { randomBytes } from 'node:crypto';
import { chmod, open, opendir, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { hostTag, processEnded } from './processes.js';
import { tracking } from './temp-files/index.js';

export type FileContent = string | Uint8Array | Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>;

async function targetOf(path: string): Promise<{ path: string; mode: number | null; direct: boolean }> {
  try {
    // A link is followed: the file it leads to is replaced, the link stays.
    const real = await realpath(path);
    const info = await stat(real);
    // A device or a pipe (/dev/stdout, /dev/null, a FIFO) is written in place: renaming over it
    // would replace the device itself.
    if (!info.isFile()) return { path: real, mode: null, direct: true };
    return { path: real, mode: info.mode & 0o7777, direct: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { path, mode: null, direct: false };
    throw error;
  }
}

// FileHandle.writeFile writes every byte (a single write() may write fewer than asked), from the
// handle's current position: called piece after piece, it appends.
async function writeAll(file: Awaited<ReturnType<typeof open>>, content: FileContent): Promise<void> {
  if (typeof content === 'string' || content instanceof Uint8Array) return file.writeFile(content);
  for await (const piece of content as AsyncIterable<string | Uint8Array>) await file.writeFile(piece);
}

/**
 * Writes `content` to `path` whole or not at all (see above). An existing file keeps its
 * permissions; a device or a pipe is written in place. File system errors come through as they are.
 */
export async function writeFileWhole(path: string, content: FileContent): Promise<void> {
  const target = await targetOf(path);
  if (target.direct) {
    const file = await open(target.path, 'w');
    try {
      await writeAll(file, content);
    } finally {
      await file.close();
    }
    return;
  }
  await sweepStaleTempFiles(dirname(target.path));
  const temp = join(dirname(target.path), `.${basename(target.path)}.${randomBytes(6).toString('hex')}.${TEMP_HOST_TAG}-${process.pid}.tmp`);
  // Recorded before it exists: recorded after the open, a signal in between found nothing to
  // remove (and, as the CLI installs its handlers only while a file is recorded, none to run).
  tracking(temp, true);
  let file;
  try {
    file = await open(temp, 'wx', target.mode ?? 0o666);
  } catch (error) {
    tracking(temp, false);
    // A missing or read-only folder: said of the file asked for, not of the temporary name.
    throw namingTarget(error, temp, path);
  }
  try {
    try {
      await writeAll(file, content);
    } finally {
      await file.close();
    }
    // open()'s mode is masked by the umask; an existing file's own permissions are kept as they were.
    if (target.mode !== null) await chmod(temp, target.mode);
    await rename(temp, target.path);
  } catch (error) {
    await rm(temp, { force: true });
    throw namingTarget(error, temp, path);
  } finally {
    tracking(temp, false);
  }
}

/**
 * The temporary file's owner is in its name, `.NAME.<12 hex>.<host>-<pid>.tmp` (host: 4 hex of a
 * hash of the host name), so that a file left by a process that could not clean up (a SIGKILL, an
 * out-of-memory kill, a power cut) can be told from one still being written: docs/cli.md "Files bt
 * writes".
 */
export const TEMP_HOST_TAG = hostTag(4);
const OWNED_TEMP = /^\..+\.[0-9a-f]{12}\.([0-9a-f]{4})-(\d{1,10})\.tmp$/;

/** Folders already swept by this thread: once each, so writing many files into one stays linear. */
const swept = new Set<string>();

/**
 * Removes, once per folder and thread, the temporary files a writer of this host left there when
 * it died: named by this host, by a process that has ended (never this one, whose other threads
 * may be writing). Another host's files (a shared folder) and names of any other form are left
 * alone; a folder that cannot be read or a file already gone is passed over.
 */
async function sweepStaleTempFiles(folder: string): Promise<void> {
  if (swept.has(folder)) return;
  swept.add(folder);
  try {
    for await (const entry of await opendir(folder)) {
      const m = OWNED_TEMP.exec(entry.name);
      if (!m || m[1] !== TEMP_HOST_TAG || !entry.isFile()) continue;
      const pid = Number(m[2]);
      if (pid !== process.pid && pid > 0 && processEnded(pid)) await rm(join(folder, entry.name), { force: true });
    }
  } catch {
    // Cleaning up after another process never stops this write.
  }
}

function namingTarget(error: unknown, temp: string, path: string): unknown {
  const e = error as NodeJS.ErrnoException;
  if (e && typeof e.message === 'string' && e.message.includes(temp)) e.message = e.message.split(temp).join(path);
  if (e && e.path === temp) e.path = path;
  return error;
}
