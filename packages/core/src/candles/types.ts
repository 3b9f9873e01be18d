import type { Table } from 'apache-arrow';
import type { TimeframeKey } from '../catalogue/types.js';

/**
 * A candle series as every consumer sees it.
 *
 * `table` is the Arrow table of record: column `Datetime` (TimestampMillisecond, int64 ms,
 * candle OPENING time in UTC), Float64 columns `Open`, `High`, `Low`, `Close`, `Volume`, then
 * any extra numeric columns under their file names (`RSI_14`, `EMA_50`, ...).
 *
 * The typed arrays are views for hot loops. `time` holds the same instants as `Datetime` as
 * plain numbers (ms since epoch is exact in a float64 for any realistic date), so loops never
 * touch BigInt.
 */
export interface Candles {
  readonly table: Table;
  readonly length: number;
  readonly time: Float64Array;
  readonly open: Float64Array;
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly close: Float64Array;
  readonly volume: Float64Array;
  /** Extra numeric columns by exact header name (RSI_14, EMA_50, Tickvol...). */
  readonly extra: Readonly<Record<string, Float64Array>>;
  readonly symbol?: string;
  readonly timeframe?: TimeframeKey;
}

/** The six official column names, in file order. */
export const OHLCV_COLUMNS = ['Datetime', 'Open', 'High', 'Low', 'Close', 'Volume'] as const;
