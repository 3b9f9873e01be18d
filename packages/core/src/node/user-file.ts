// A path a user gave (a candle file, a plan, a golden file, a workbook) is read only as what it
// claims to be: a regular file, or a pipe (`--data <(zcat EURUSD_M1.csv.gz)`, a piped stdin). A
// device never ends (/dev/zero, /dev/urandom) or waits for a person (a terminal), and a socket is
// not a file: they are refused before any byte is read, instead of filling memory until the
// process dies (docs/cli.md, "Candle files").
import { open, type FileHandle } from 'node:fs/promises';
import type { Stats } from 'node:fs';

/** A path that names something else than a file to read, or a file too big to read whole. */
export class UnreadableFileError extends Error {
  override readonly name = 'UnreadableFileError';
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`cannot read ${path}: ${reason}`);
  }
}

/**
 * The most a file read whole may hold: Node's own limit for one read (2 GiB). Formats read whole
 * (XLSX, Arrow, JSON) never come near it for candles; a pipe is counted as it is read.
 */
export const MAX_WHOLE_FILE_BYTES = 2 ** 31 - 1;

function kindOf(stats: Stats): string {
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

export interface OpenedFile {
  readonly file: FileHandle;
  /** The size of a regular file; null for a pipe, whose end comes when the writer closes it. */
  readonly size: number | null;
}

/**
 * Opens `path` for reading if it is a regular file or a pipe (checked on the opened file, so a
 * path swapped after a check cannot slip through); the caller closes it. File system errors
 * (ENOENT, EACCES...) come through as they are; a directory is EISDIR, like a read would say.
 */
export async function openUserFile(path: string): Promise<OpenedFile> {
  const file = await open(path, 'r');
  try {
    const stats = await file.stat();
    if (stats.isFile()) return { file, size: stats.size };
    if (stats.isFIFO()) return { file, size: null };
    if (stats.isDirectory()) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read`), { code: 'EISDIR', syscall: 'read', path });
    throw new UnreadableFileError(path, `not a regular file (${kindOf(stats)})`);
  } catch (error) {
    await file.close();
    throw error;
  }
}

const MiB = 1 << 20;
const size = (bytes: number) => (bytes >= 1 << 30 ? `${Math.round(bytes / (1 << 30))} GiB` : bytes >= MiB ? `${Math.round(bytes / MiB)} MiB` : `${bytes} bytes`);

/**
 * Reads `path` whole (a regular file or a pipe, see openUserFile), refusing more than `maxBytes`
 * with `cannot read PATH: larger than N MiB, the most <what> is read as`, then `advice` if given.
 */
export async function readUserFile(path: string, maxBytes = MAX_WHOLE_FILE_BYTES, limit: { what?: string; advice?: string } = {}): Promise<Buffer> {
  const opened = await openUserFile(path);
  try {
    return await readOpenedFile(opened, path, maxBytes, limit);
  } finally {
    await opened.file.close();
  }
}

/**
 * readUserFile on a file openUserFile opened (from its current position), which the caller
 * closes: for a reader that looked at the first bytes before choosing to read the rest whole.
 */
export async function readOpenedFile(opened: OpenedFile, path: string, maxBytes = MAX_WHOLE_FILE_BYTES, limit: { what?: string; advice?: string } = {}): Promise<Buffer> {
  const { file, size: known } = opened;
  const tooBig = () => new UnreadableFileError(path, `larger than ${size(maxBytes)}, the most ${limit.what ?? 'this file'} is read as${limit.advice ? `: ${limit.advice}` : ''}`);
  if (known !== null) {
    if (known > maxBytes) throw tooBig();
    return await file.readFile();
  }
  const pieces: Buffer[] = [];
  let total = 0;
  for (;;) {
    const piece = Buffer.allocUnsafe(Math.min(4 * MiB, maxBytes + 1 - total));
    const { bytesRead } = await file.read(piece, 0, piece.length, null);
    if (bytesRead === 0) break;
    total += bytesRead;
    if (total > maxBytes) throw tooBig();
    pieces.push(piece.subarray(0, bytesRead));
  }
  return Buffer.concat(pieces, total);
}

/** readUserFile as UTF-8 text. */
export async function readUserText(path: string, maxBytes?: number): Promise<string> {
  return (await readUserFile(path, maxBytes)).toString('utf8');
}
