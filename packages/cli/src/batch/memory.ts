// How many batch workers fit in memory (docs/cli.md "bt batch", Workers): each worker reads the
// data files for itself and keeps the last KEPT_DATA_FILES it used, so what one may hold is its
// two largest files' copies. The same budget and per-copy estimate as bt optimize's workers
// (optimize/setup.ts): 64 workers each holding a ten-million-candle file wanted about 75 GB.
import type { Candles } from '@bt/core/candles';
import { loadCandles } from '../data.js';
import { quoted, UsageError } from '../errors.js';
import { count } from '../output.js';
import { WORKERS_MEMORY_BUDGET, workerBytes } from '../optimize/setup.js';
import type { DataSpec } from './plan.js';

/** As batch/worker.ts's KEPT_DATA_FILES (not imported: that module is the worker's entry). */
const KEPT_DATA_FILES = 2;

type Size = Pick<Candles, 'length' | 'extra'>;

/**
 * The candle count (and extra columns) of each distinct file of the plan, read one at a time on
 * the main thread and let go: the only sound measure, since a file's size on disk says little of
 * its candles (a zipped workbook, a CSV with long lines). A file that does not read counts as
 * empty: its runs fail in the workers as they would have, with the reader's message.
 */
export async function dataSizes(data: readonly DataSpec[]): Promise<Size[]> {
  const sizes = new Map<string, Size>();
  for (const spec of data) {
    if (sizes.has(spec.path)) continue;
    try {
      const { file } = await loadCandles(spec.path, spec.read, spec.symbol);
      // The count and the column names only: the columns themselves are let go here.
      sizes.set(spec.path, { length: file.candles.length, extra: Object.fromEntries(Object.keys(file.candles.extra).map((k) => [k, new Float64Array(0)])) });
    } catch {
      sizes.set(spec.path, { length: 0, extra: {} });
    }
  }
  return [...sizes.values()];
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
