// Paths the CLI writes to or hands to worker threads, checked before any work (docs/cli.md "What a
// path may be"): an output never replaces a file the command reads, folders are made without
// Node's recursive mkdir, and a file read by several workers must be a regular file.
import type { Stats } from 'node:fs';
import { constants } from 'node:fs';
import { access, mkdir, realpath, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileError, RunError, UsageError } from './errors.js';

async function statOrNull(path: string): Promise<Stats | null> {
  try {
    return await stat(path);
  } catch {
    return null;
  }
}

/**
 * Refuses an output that is one of the files the command reads (the same path, or a link or hard
 * link to it): `bt optimize --data X.csv --csv X.csv` replaced the candles with the results, exit 0.
 * `-` (stdout) is never a file. `flag` names the output as the usage error says it (`--csv`, `<out>`).
 */
export async function refuseInputAsOutput(flag: string, output: string, inputs: readonly string[]): Promise<void> {
  if (output === '-') return;
  const out = await statOrNull(output);
  for (const input of inputs) {
    if (resolve(output) === resolve(input)) throw new UsageError(`invalid ${flag}: ${JSON.stringify(output)} is the input file`);
    const info = out ? await statOrNull(input) : null;
    // A device (/dev/stdout, /dev/null) written in place is never the data read.
    if (out && info?.isFile() && info.dev === out.dev && info.ino === out.ino) {
      throw new UsageError(`invalid ${flag}: ${JSON.stringify(output)} is the input file ${input} under another name (a link)`);
    }
  }
}

/**
 * Checks before a long run (bt optimize, walk-forward, batch) that its output file can be written:
 * the folder exists and takes files, the path is not a folder. It used to be found when the run
 * was over, and its results were lost with it. `-` (stdout) and devices are always writable here.
 */
export async function checkWritable(output: string): Promise<void> {
  if (output === '-') return;
  const out = await statOrNull(output);
  if (out?.isDirectory()) throw new RunError(`cannot write ${output}: it is a directory`);
  if (out && !out.isFile()) return;
  // The bytes go to a temporary file beside the file a link leads to (core's writeFileWhole).
  const folder = dirname(out ? await realpath(output) : resolve(output));
  try {
    if (!(await stat(folder)).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    await access(folder, constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? `the folder ${folder} does not exist` : code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? `the folder ${folder} does not take new files (permission denied)` : code === 'ENOTDIR' ? `${folder} is not a folder` : (error as Error).message;
    throw new RunError(`cannot write ${output}: ${why}`);
  }
}

/**
 * `mkdir -p` one level at a time. Node's `mkdir(path, { recursive: true })` never returns when
 * mkdir answers ENOENT under a parent that exists, as /proc does (`--out /proc/x` hung for ever):
 * here each missing folder is made once, and the first failure is the error.
 */
export async function makeDirectory(path: string): Promise<void> {
  const missing: string[] = [];
  for (let dir = resolve(path); ; ) {
    const info = await statOrNull(dir);
    if (info) {
      if (!info.isDirectory()) throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${dir}'`), { code: 'ENOTDIR', syscall: 'mkdir', path: dir });
      break;
    }
    missing.push(dir);
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  for (const dir of missing.reverse()) {
    try {
      await mkdir(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

function kindOf(info: Stats): string {
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * A data file that worker threads read, each on its own (bt optimize, walk-forward, batch), must be
 * a regular file: a pipe can be read once, so the workers read an empty file, or wait for ever for
 * a writer of a named pipe that has gone. `what` says where the path comes from; `label` is the path
 * as the user wrote it (a plan's paths are relative to the plan).
 */
export async function requireRegularFile(path: string, what = '', label = path): Promise<void> {
  let info: Stats;
  try {
    info = await stat(path);
  } catch (error) {
    throw new RunError(`${fileError(label, error).message}${what ? ` (${what})` : ''}`);
  }
  if (info.isDirectory()) throw new RunError(`cannot read ${label}: it is a directory${what ? ` (${what})` : ''}`);
  if (info.isFIFO()) throw new RunError(`cannot read ${label}: a pipe${what ? ` (${what})` : ''}, and this command's worker threads each read the file while a pipe can be read once: write it to a file first`);
  if (!info.isFile()) throw new RunError(`cannot read ${label}: not a regular file (${kindOf(info)})${what ? ` (${what})` : ''}`);
}

/**
 * The most candles written to an .xlsx file (bt convert, bt enrich). exceljs builds the whole
 * workbook in memory, about 10 KB a row: 300,000 candles took 2.9 GB and 10 s, and a million (two
 * years of M1) ran past 300 s and 3.7 GB before it was stopped. CSV, Arrow and JSON are written in
 * pieces or compactly, at any size.
 */
export const MAX_XLSX_CANDLES = 200_000;

/** Refuses an .xlsx output of more than MAX_XLSX_CANDLES candles, before the writer takes the memory. */
export function checkXlsxSize(output: string, candles: number): void {
  if (/\.xlsx$/i.test(output) && candles > MAX_XLSX_CANDLES) {
    throw new RunError(`cannot write ${output}: ${candles.toLocaleString('en-US')} candles, more than the ${MAX_XLSX_CANDLES.toLocaleString('en-US')} bt writes to a workbook (it is built in memory, about 10 KB a row): write .csv, .arrow or .json instead`);
  }
}
