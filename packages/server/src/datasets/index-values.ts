import { createHash } from 'node:crypto';
import type { Candles } from '@bt/core/candles';
import type { Dataset } from '../db/models.js';
import type { MonthFile } from './month-files.js';
import { ipcPathFor, parseLibraryPath } from './paths.js';

// The values of a `datasets` index row, from a month file (store.ts).

export type DatasetValues = Omit<Dataset['_creationAttributes'], 'id' | 'createdAt' | 'updatedAt'>;

export function datasetValues(path: string, csv: Uint8Array, candles: Candles, source: string): DatasetValues {
  return valuesOf(path, { csv, rows: candles.length, first: candles.time[0], last: candles.time[candles.length - 1], checksum: sha256(csv) }, source);
}

/** An index row's values from a month file's facts (its checksum made with its bytes, possibly on a thread). */
export function valuesOf(path: string, file: Pick<MonthFile, 'csv' | 'rows' | 'first' | 'last' | 'checksum'>, source: string): DatasetValues {
  const parsed = parseLibraryPath(path);
  if (!parsed) throw new Error(`invalid library path: ${path}`);
  return {
    symbol: parsed.symbol,
    timeframe: parsed.timeframe,
    month: parsed.month,
    path,
    ipcPath: ipcPathFor(path),
    rows: file.rows,
    firstCandle: new Date(file.first),
    lastCandle: new Date(file.last),
    checksum: file.checksum,
    bytes: file.csv.byteLength,
    source,
  };
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Months from `from` to `to` (YYYY-MM), both counted; 0 when `to` is before `from`. */
export function monthsBetween(from: string, to: string): number {
  const index = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7));
  return Math.max(0, index(to) - index(from) + 1);
}
