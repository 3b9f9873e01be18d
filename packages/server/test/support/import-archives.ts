import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { part, zipOf } from './xlsx-files.js';

/** A month file of the test library (real EURUSD data), as text. */
export function libraryCsv(libraryDir: string, symbol: string, timeframe: string, month: string): string {
  return readFileSync(join(libraryDir, symbol, timeframe, `${symbol}_${timeframe}_${month}.csv`), 'utf8');
}

/** The same CSV without its RSI_14 column (what an import computes itself). */
export function withoutRsi(csv: string): string {
  return csv
    .split('\n')
    .map((line) => line.split(',').slice(0, 6).join(','))
    .join('\n');
}

/** One entry of an import archive: a file, or a link (`unixMode` of a symlink). */
export interface ArchiveEntrySpec {
  name: string;
  data: string | Buffer;
  link?: boolean;
  /** What the headers claim the entry inflates to (a lying bomb). */
  claimedSize?: number;
}

export function importArchive(entries: ArchiveEntrySpec[]): Buffer {
  return zipOf(
    entries.map((e) => {
      const p = part(e.name, e.data);
      return { ...p, ...(e.link ? { unixMode: 0o120777 } : {}), ...(e.claimedSize !== undefined ? { claimedSize: e.claimedSize } : {}) };
    }),
  );
}

/** `mb` MiB of one repeated line: deflates about a thousand to one. */
export function bombBytes(mb: number): Buffer {
  return Buffer.alloc(mb * 1024 * 1024, 'Datetime,Open,High,Low,Close,Volume\n');
}

/** A multipart form for POST /api/admin/maintenance/import-output. */
export function importForm(fields: Record<string, string>, archive?: { name: string; bytes: Uint8Array }): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (archive) form.append('file', new Blob([archive.bytes]), archive.name);
  return form;
}
