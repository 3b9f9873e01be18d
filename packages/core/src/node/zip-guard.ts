import { fromBufferPromise, getFileNameLowLevel, type Entry, type ZipFile } from 'yauzl';

/** Why an archive was refused; `code` is stable, the route turns it into French. */
export class ZipRefusal extends Error {
  constructor(
    readonly code: 'not_zip' | 'too_many_entries' | 'too_large' | 'entry_name',
    detail: string,
  ) {
    super(detail);
    this.name = 'ZipRefusal';
  }
}

export interface ZipBudget {
  /** Entries in the archive. */
  maxEntries: number;
  /** Bytes all entries may inflate to, counted while inflating (declared sizes can lie). */
  maxInflatedBytes: number;
}

/** The archive's central directory, or a refusal: not a zip, or more entries than the budget. */
async function openZip(bytes: Uint8Array, budget: ZipBudget, decodeStrings: boolean): Promise<ZipFile> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let zip: ZipFile;
  try {
    zip = await fromBufferPromise(buffer, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false, decodeStrings });
  } catch (err) {
    throw new ZipRefusal('not_zip', (err as Error).message);
  }
  if (zip.entryCount > budget.maxEntries) {
    zip.close();
    throw new ZipRefusal('too_many_entries', `${zip.entryCount} entries`);
  }
  return zip;
}

/**
 * Inflates one entry as a stream, counting what comes out: refused (ZipRefusal too_large) as soon
 * as the count passes `limit`, so a bomb costs at most the limit, never its claimed size.
 */
async function inflateEntry(zip: ZipFile, entry: Entry, limit: number, onChunk: (chunk: Buffer) => void): Promise<number> {
  const stream = await zip.openReadStreamPromise(entry);
  let inflated = 0;
  await new Promise<void>((resolve, reject) => {
    stream.on('data', (chunk: Buffer) => {
      inflated += chunk.length;
      if (inflated > limit) {
        stream.destroy(new ZipRefusal('too_large', `more than ${limit} bytes once inflated`));
        return;
      }
      try {
        onChunk(chunk);
      } catch (err) {
        stream.destroy(err as Error);
      }
    });
    stream.on('error', reject);
    stream.on('end', () => resolve());
  });
  return inflated;
}

/**
 * Walks every entry of a zip held in memory, inflating each as a stream through `visit` and
 * counting what comes out: the archive is refused as soon as the running total passes the budget,
 * so a decompression bomb costs at most the budget, never its claimed size. yauzl also checks
 * each entry's real size against the size its header declares.
 */
export async function walkZip(
  bytes: Uint8Array,
  budget: ZipBudget,
  visit: (entry: Entry, chunk: Buffer) => void = () => {},
): Promise<{ entries: number; inflatedBytes: number }> {
  const zip = await openZip(bytes, budget, true);
  let inflated = 0;
  let entries = 0;
  // An error of the visitor (its own refusal) is passed on as it is, not taken for a broken zip.
  let visitorError: unknown = null;
  try {
    for await (const entry of zip.eachEntry()) {
      entries++;
      if (entry.fileName.endsWith('/')) continue;
      // The declared size is a first, cheap refusal; the count below is the one that holds.
      if (inflated + entry.uncompressedSize > budget.maxInflatedBytes) throw new ZipRefusal('too_large', `${entry.fileName} declares ${entry.uncompressedSize} bytes`);
      inflated += await inflateEntry(zip, entry, budget.maxInflatedBytes - inflated, (chunk) => {
        try {
          visit(entry, chunk);
        } catch (err) {
          visitorError = err;
          throw err;
        }
      });
    }
  } catch (err) {
    if (visitorError) throw visitorError;
    if (err instanceof ZipRefusal) throw err;
    // A broken deflate stream, a size that does not match its header, a truncated archive.
    throw new ZipRefusal('not_zip', (err as Error).message);
  } finally {
    zip.close();
  }
  return { entries, inflatedBytes: inflated };
}

/** Why one entry of an archive is not read (docs/admin.md, "Import rules"). */
export type EntryProblem = 'absolute' | 'traversal' | 'symlink' | 'bad_name' | 'encrypted' | 'compression' | 'too_large' | 'broken' | 'budget';

export interface ZipEntryInfo {
  /** The name as written, with `\` read as `/` (archives made on Windows). */
  name: string;
  isDirectory: boolean;
  declaredBytes: number;
  /** The entry's compression method (0 stored, 8 deflate; others are refused). */
  compressionMethod: number;
  /** Set when the name or the entry's type refuses it before anything is inflated. */
  problem: EntryProblem | null;
}

export interface EntryBudget extends ZipBudget {
  /** Bytes one entry may inflate to. */
  maxEntryBytes: number;
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** What is wrong with an entry's name or type, read from the raw header (yauzl would refuse the archive). */
function entryProblem(name: string, entry: Entry): EntryProblem | null {
  // Unix modes live in the high 16 bits of the external attributes of archives made on Unix.
  const madeOnUnix = entry.versionMadeBy >> 8 === 3;
  if (madeOnUnix && ((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) return 'symlink';
  if (/[\x00-\x1f\x7f]/.test(name)) return 'bad_name';
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name)) return 'absolute';
  if (name.split('/').includes('..')) return 'traversal';
  // Said for what they are, before inflating: yauzl refuses both when asked to read them, which
  // read as a damaged entry ("broken") to whoever made the archive with a password or with bzip2.
  if (entry.isEncrypted()) return 'encrypted';
  if (!name.endsWith('/') && entry.compressionMethod !== 0 && entry.compressionMethod !== 8) return 'compression';
  return null;
}

/**
 * Walks an untrusted archive entry by entry, unlike walkZip never refusing it whole for one bad
 * entry: each entry's name is checked first (absolute, `..`, link, control characters), then
 * its encryption and compression method (only stored and deflate are read), then
 * `onEntry` decides whether to read it; a read entry is inflated under its own cap and the
 * archive's budget, and handed whole to `onRead` (awaited, so the caller can work on one entry
 * at a time). An entry refused on the way is handed to `onRefused` and the walk goes on; past the
 * archive's budget, every remaining entry is refused with `budget`.
 */
export async function walkZipEntries(
  bytes: Uint8Array,
  budget: EntryBudget,
  handlers: {
    onEntry(info: ZipEntryInfo): boolean | Promise<boolean>;
    onRead(info: ZipEntryInfo, data: Buffer): Promise<void>;
    onRefused(info: ZipEntryInfo, problem: EntryProblem): void | Promise<void>;
  },
): Promise<{ entries: number; inflatedBytes: number }> {
  const zip = await openZip(bytes, budget, false);
  let inflated = 0;
  let entries = 0;
  // The handlers' own errors go on as they are; anything else comes from reading the archive.
  let handlerError: { error: unknown } | null = null;
  const call = async <T>(fn: () => T | Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      handlerError = { error: err };
      throw err;
    }
  };
  try {
    for await (const entry of zip.eachEntry()) {
      entries++;
      const name = getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileName as unknown as Buffer, entry.extraFields, false);
      const info: ZipEntryInfo = { name, isDirectory: name.endsWith('/'), declaredBytes: entry.uncompressedSize, compressionMethod: entry.compressionMethod, problem: null };
      info.problem = entryProblem(name, entry);
      if (info.problem) {
        await call(() => handlers.onRefused(info, info.problem!));
        continue;
      }
      if (info.isDirectory || !(await call(() => handlers.onEntry(info)))) continue;
      const room = budget.maxInflatedBytes - inflated;
      const limit = Math.min(budget.maxEntryBytes, room);
      const overLimit = limit < budget.maxEntryBytes ? 'budget' : 'too_large';
      // The declared size is a first refusal; the count while inflating is the one that holds.
      if (room <= 0 || entry.uncompressedSize > limit) {
        await call(() => handlers.onRefused(info, overLimit));
        continue;
      }
      const chunks: Buffer[] = [];
      let size: number;
      try {
        size = await inflateEntry(zip, entry, limit, (chunk) => chunks.push(chunk));
      } catch (err) {
        const tooLarge = err instanceof ZipRefusal && err.code === 'too_large';
        inflated += chunks.reduce((sum, c) => sum + c.length, 0);
        await call(() => handlers.onRefused(info, tooLarge ? overLimit : 'broken'));
        continue;
      }
      inflated += size;
      const data = Buffer.concat(chunks, size);
      await call(() => handlers.onRead(info, data));
    }
  } catch (err) {
    if (handlerError) throw (handlerError as { error: unknown }).error;
    if (err instanceof ZipRefusal) throw err;
    // The central directory itself is broken (a truncated archive): nothing more can be read.
    throw new ZipRefusal('not_zip', (err as Error).message);
  } finally {
    zip.close();
  }
  return { entries, inflatedBytes: inflated };
}
