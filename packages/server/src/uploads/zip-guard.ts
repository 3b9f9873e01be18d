import { fromBufferPromise, type Entry } from 'yauzl';

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
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let zip;
  try {
    zip = await fromBufferPromise(buffer, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false });
  } catch (err) {
    throw new ZipRefusal('not_zip', (err as Error).message);
  }
  if (zip.entryCount > budget.maxEntries) {
    zip.close();
    throw new ZipRefusal('too_many_entries', `${zip.entryCount} entries`);
  }
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
      const stream = await zip.openReadStreamPromise(entry);
      await new Promise<void>((resolve, reject) => {
        stream.on('data', (chunk: Buffer) => {
          inflated += chunk.length;
          if (inflated > budget.maxInflatedBytes) {
            stream.destroy(new ZipRefusal('too_large', `more than ${budget.maxInflatedBytes} bytes once inflated`));
            return;
          }
          try {
            visit(entry, chunk);
          } catch (err) {
            visitorError = err;
            stream.destroy(err as Error);
          }
        });
        stream.on('error', reject);
        stream.on('end', () => resolve());
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
