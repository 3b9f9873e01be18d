// How many batch workers fit in memory (docs/cli.md "bt batch", Workers): each worker reads the
// data files for itself and keeps the last KEPT_DATA_FILES it used, so what one may hold is its
// two largest files' copies. The same budget and per-copy estimate as bt optimize's workers
// (optimize/setup.ts): 64 workers each holding a ten-million-candle file wanted about 75 GB.
import { open, type FileHandle } from 'node:fs/promises';
import { readCandlesCsv, type Candles } from '@bt/core/candles';
import { candleFileKind } from '@bt/core/node';
import { loadCandles } from '../data.js';
import { quoted, UsageError } from '../errors.js';
import { count } from '../output.js';
import { WORKERS_MEMORY_BUDGET, workerBytes } from '../optimize/setup.js';
import type { DataSpec } from './plan.js';

/** As batch/worker.ts's KEPT_DATA_FILES (not imported: that module is the worker's entry). */
const KEPT_DATA_FILES = 2;

type Size = Pick<Candles, 'length' | 'extra'>;

/**
 * The candle count (and extra columns) of each distinct file of the plan, one at a time on the
 * main thread, let go at once. A file's size on disk says little of its candles (a zipped workbook,
 * a CSV with long lines), so a workbook, JSON or Arrow file is read whole by the reader; a CSV has
 * one candle a line at most, so its lines are counted in a streamed read instead, its header and
 * first rows parsed for the columns (`csvBound`). A file that does not read counts as empty (a CSV:
 * when its first rows do not): its runs fail in the workers as they would have, with the reader's
 * message.
 */
export async function dataSizes(data: readonly DataSpec[]): Promise<Size[]> {
  const sizes = new Map<string, Size>();
  for (const spec of data) {
    if (sizes.has(spec.path)) continue;
    sizes.set(spec.path, (candleFileKind(spec.path) === 'csv' ? await csvBound(spec) : null) ?? (await parsedSize(spec)));
  }
  return [...sizes.values()];
}

async function parsedSize(spec: DataSpec): Promise<Size> {
  try {
    const { file } = await loadCandles(spec.path, spec.read, spec.symbol);
    return sizeOf(file.candles);
  } catch {
    return { length: 0, extra: {} };
  }
}

/** The count and the column names only: the columns themselves are let go. */
const sizeOf = (candles: Size): Size => ({ length: candles.length, extra: Object.fromEntries(Object.keys(candles.extra).map((k) => [k, new Float64Array(0)])) });

/** The head of a CSV parsed for its columns and the lines that are not candles (header, symbol row). */
const CSV_HEAD_BYTES = 1 << 20;
const LF = 10;

/**
 * A CSV's candles bounded from its bytes: every line but the header's (and a symbol row's) is one
 * candle at most, and a CSV's line ends are LF or CRLF (core refuses CR alone). The first MiB, cut
 * at its last line end, is parsed by core's reader (the columns kept, the lines before the first
 * candle); the rest is only scanned for line ends, in 1 MiB reads. A bound, not a count: blank
 * lines and rows the reader refuses or drops (`duplicates: keep-first`) count too, so the memory
 * check can only start fewer workers than an exact count would. Null when the head does not read
 * (the whole parse decides then) or the file is small enough to be parsed whole.
 */
async function csvBound(spec: DataSpec): Promise<Size | null> {
  let file: FileHandle | undefined;
  try {
    file = await open(spec.path, 'r');
    const buffer = Buffer.allocUnsafe(CSV_HEAD_BYTES);
    const first = await file.read(buffer, 0, buffer.length, 0);
    if (first.bytesRead < buffer.length) return null;
    const headEnd = buffer.lastIndexOf(LF) + 1;
    if (headEnd === 0) return null;
    const head = readCandlesCsv(buffer.subarray(0, headEnd), { ...spec.read, file: spec.path });
    let lines = countLf(buffer, first.bytesRead);
    const beforeCandles = countLf(buffer, headEnd) - head.candles.length;
    let last = buffer[first.bytesRead - 1];
    for (let position = first.bytesRead; ; ) {
      const { bytesRead } = await file.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) break;
      lines += countLf(buffer, bytesRead);
      last = buffer[bytesRead - 1];
      position += bytesRead;
    }
    // A last line without its line end is a line too.
    if (last !== LF) lines++;
    return sizeOf({ length: Math.max(0, lines - beforeCandles), extra: head.candles.extra });
  } catch {
    return null;
  } finally {
    await file?.close();
  }
}

function countLf(bytes: Buffer, end: number): number {
  let n = 0;
  for (let i = bytes.indexOf(LF, 0); i !== -1 && i < end; i = bytes.indexOf(LF, i + 1)) n++;
  return n;
}

/** What one worker may hold: its own 16 MB and a copy of each of the KEPT_DATA_FILES largest files. */
export function batchWorkerBytes(sizes: readonly Size[]): number {
  const own = workerBytes({ length: 0, extra: {} });
  const copies = sizes.map((s) => workerBytes(s) - own).sort((a, b) => b - a).slice(0, KEPT_DATA_FILES);
  return own + copies.reduce((a, b) => a + b, 0);
}

/**
 * The workers started, so that what they may hold fits in WORKERS_MEMORY_BUDGET: `--concurrency`
 * asking for more is a usage error saying how many fit; the default (the cores) is lowered quietly.
 */
export function batchWorkersInMemory(flag: string | undefined, wanted: number, sizes: readonly Size[]): number {
  const each = batchWorkerBytes(sizes);
  const fit = Math.max(1, Math.floor(WORKERS_MEMORY_BUDGET / each));
  if (wanted <= fit) return wanted;
  if (flag === undefined) return fit;
  const gb = (bytes: number) => `${(bytes / 2 ** 30).toFixed(1)} GB`;
  const largest = Math.max(...sizes.map((s) => s.length));
  throw new UsageError(`invalid --concurrency: ${quoted(flag)} (${wanted} workers each holding up to ${KEPT_DATA_FILES} of the plan's data files, the largest of ${count(largest)} candles, about ${gb(each)} each, need about ${gb(wanted * each)}; at most ${fit} fit in ${gb(WORKERS_MEMORY_BUDGET)})`);
}
