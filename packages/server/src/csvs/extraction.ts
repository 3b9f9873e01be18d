import type { TimeframeKey } from '@bt/core/catalogue';
import type { DatasetStore } from '../datasets/store.js';
import type { EnginePool } from '../jobs/pool.js';

/** What an extraction cuts: a series over [from, to] (ms, inclusive), no warm-up. */
export interface ExtractionRange {
  symbol: string;
  timeframe: TimeframeKey;
  from: number;
  to: number;
}

/**
 * An extraction's file, made the same way wherever it runs (the API in embedded mode, a bt-worker
 * in queue mode: docs/queue.md): the range's candles from the dataset store, formatted as the
 * official CSV on an engine thread, never on the event loop. null when the store has no candle in
 * the range.
 */
export async function cutExtraction(datasets: DatasetStore, pool: EnginePool, range: ExtractionRange): Promise<{ csv: Uint8Array; rows: number } | null> {
  const loaded = await datasets.load(range.symbol, range.timeframe, range.from, range.to, 0);
  if (!loaded || loaded.inPeriod === 0) return null;
  const csv = await pool.csv({ ...loaded.candles, symbol: range.symbol, timeframe: range.timeframe });
  return { csv, rows: loaded.candles.length };
}
