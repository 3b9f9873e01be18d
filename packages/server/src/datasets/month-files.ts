import { createHash } from 'node:crypto';
import { candlesFromColumns, candlesToCsv, candlesToIpc, type Candles } from '@bt/core/candles';
import { rsi } from '@bt/core/indicators';
import type { CandleColumnsCopy } from '../jobs/task.js';
import { splitByMonth, withRsi14 } from './series.js';

/**
 * The bytes of the library's month files (docs/server.md): the official CSV and its Arrow IPC
 * copy, with what the index row needs of them. The CPU of an import (RSI_14, CSV formatting and
 * encoding, IPC, checksum) is all here, so that the dataset store runs it on an engine pool
 * thread (docs/queue.md) or, without a pool, in-process: the same function, the same bytes.
 */
export interface MonthFile {
  month: string;
  csv: Uint8Array;
  ipc: Uint8Array;
  rows: number;
  /** First and last candle (ms). */
  first: number;
  last: number;
  /** sha256 of the CSV, hex. */
  checksum: string;
}

/** What the store hands a thread: a whole series, or one month with its warm-up closes. */
export type MonthFilesTask =
  | { mode: 'series'; columns: CandleColumnsCopy; months: string[] | null }
  | { mode: 'month'; columns: CandleColumnsCopy; month: string; warmupClose: Float64Array | null };

/**
 * A series cut into UTC months (importSeries), RSI_14 computed over the whole series when it has
 * none; `months` keeps only those listed (null: all).
 */
export function seriesMonthFiles(columns: CandleColumnsCopy, months: readonly string[] | null): MonthFile[] {
  const labels = { symbol: columns.symbol, timeframe: columns.timeframe };
  const series = withRsi14(candlesFromColumns(columns, labels));
  const keep = months ? new Set(months) : null;
  const out: MonthFile[] = [];
  for (const { month, candles: part } of splitByMonth(series)) {
    if (keep && !keep.has(month)) continue;
    out.push(monthFile(month, { ...part, ...labels }));
  }
  return out;
}

/**
 * One month (importMonth): RSI_14, when the month has none, computed over the warm-up's closes
 * then the month's, so the month reads as if it had been cut from the whole series.
 */
export function oneMonthFile(columns: CandleColumnsCopy, month: string, warmupClose: Float64Array | null): MonthFile {
  const labels = { symbol: columns.symbol, timeframe: columns.timeframe };
  if (columns.extra.RSI_14) return monthFile(month, candlesFromColumns(columns, labels));
  const warm = warmupClose?.length ?? 0;
  const close = new Float64Array(warm + columns.close.length);
  if (warmupClose) close.set(warmupClose);
  close.set(columns.close, warm);
  const own = rsi(close, 14).slice(warm);
  return monthFile(month, candlesFromColumns({ ...columns, extra: { ...columns.extra, RSI_14: own } }, labels));
}

export function monthFilesOf(task: MonthFilesTask): MonthFile[] {
  return task.mode === 'series' ? seriesMonthFiles(task.columns, task.months) : [oneMonthFile(task.columns, task.month, task.warmupClose)];
}

function monthFile(month: string, candles: Candles): MonthFile {
  const csv = new TextEncoder().encode(candlesToCsv(candles));
  return {
    month,
    csv,
    ipc: candlesToIpc(candles),
    rows: candles.length,
    first: candles.time[0],
    last: candles.time[candles.length - 1],
    checksum: createHash('sha256').update(csv).digest('hex'),
  };
}
