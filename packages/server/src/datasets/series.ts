import { candlesFromColumns, type Candles } from '@bt/core/candles';
import { timeframeStepMs, type TimeframeKey } from '@bt/core/catalogue';
import { rsi } from '@bt/core/indicators';
import { lowerBound } from '@bt/core/simulate';

/**
 * Column surgery on candle series, over the typed arrays: cut a window, join months, resample to
 * a higher timeframe. Pure; the store and the seeder use them.
 */

const OHLCV = ['time', 'open', 'high', 'low', 'close', 'volume'] as const;

/** Rows [start, end) of a series (copies, so the result does not pin a bigger buffer). */
export function sliceCandles(candles: Candles, start: number, end: number): Candles {
  const s = Math.max(0, start);
  const e = Math.min(candles.length, end);
  const cut = (a: Float64Array) => a.slice(s, Math.max(s, e));
  const extra: Record<string, Float64Array> = {};
  for (const [name, values] of Object.entries(candles.extra)) extra[name] = cut(values);
  return candlesFromColumns(
    { time: cut(candles.time), open: cut(candles.open), high: cut(candles.high), low: cut(candles.low), close: cut(candles.close), volume: cut(candles.volume), extra },
    { symbol: candles.symbol, timeframe: candles.timeframe },
  );
}

/** Joins consecutive pieces of one series; an extra column missing from a piece is NaN there. */
export function concatCandles(parts: readonly Candles[], labels: { symbol?: string; timeframe?: TimeframeKey } = {}): Candles {
  const n = parts.reduce((sum, p) => sum + p.length, 0);
  const names = [...new Set(parts.flatMap((p) => Object.keys(p.extra)))];
  const columns = Object.fromEntries(OHLCV.map((k) => [k, new Float64Array(n)])) as Record<(typeof OHLCV)[number], Float64Array>;
  const extra: Record<string, Float64Array> = Object.fromEntries(names.map((k) => [k, new Float64Array(n).fill(NaN)]));
  let at = 0;
  for (const part of parts) {
    for (const k of OHLCV) columns[k].set(part[k], at);
    for (const name of names) if (part.extra[name]) extra[name].set(part.extra[name], at);
    at += part.length;
  }
  return candlesFromColumns({ ...columns, extra }, labels);
}

/**
 * Candles of a higher timeframe from a finer series: buckets aligned on UTC multiples of the
 * step (H4 at 00, 04, 08 ... UTC), open of the first candle, highest high, lowest low, close of
 * the last, summed volume. A bucket with only some of its candles (market open, gaps) is still
 * one candle. Extra columns are not carried (they belong to the finer timeframe).
 */
export function resampleCandles(candles: Candles, target: TimeframeKey): Candles {
  const step = timeframeStepMs(target);
  const n = candles.length;
  const time = new Float64Array(n);
  const open = new Float64Array(n);
  const high = new Float64Array(n);
  const low = new Float64Array(n);
  const close = new Float64Array(n);
  const volume = new Float64Array(n);
  let m = -1;
  let bucket = NaN;
  for (let i = 0; i < n; i++) {
    const b = Math.floor(candles.time[i] / step) * step;
    if (b !== bucket) {
      m++;
      bucket = b;
      time[m] = b;
      open[m] = candles.open[i];
      high[m] = candles.high[i];
      low[m] = candles.low[i];
      volume[m] = 0;
    } else {
      if (candles.high[i] > high[m]) high[m] = candles.high[i];
      if (candles.low[i] < low[m]) low[m] = candles.low[i];
    }
    close[m] = candles.close[i];
    volume[m] += candles.volume[i];
  }
  const k = m + 1;
  return candlesFromColumns(
    { time: time.slice(0, k), open: open.slice(0, k), high: high.slice(0, k), low: low.slice(0, k), close: close.slice(0, k), volume: volume.slice(0, k) },
    { symbol: candles.symbol, timeframe: target },
  );
}

/** YYYY-MM of an instant (UTC). */
export function monthOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

/**
 * 00:00 UTC of the first day of a month (`monthIndex` from 0; 12 is January of the next year).
 * setUTCFullYear, not Date.UTC: Date.UTC reads the years 0 to 99 as 1900 to 1999, so an import
 * for the target month 0050-03 took candles of 1950-03 as inside it and filed them under 0050-03.
 */
export function utcMonthStart(year: number, monthIndex: number): number {
  return new Date(0).setUTCFullYear(year, monthIndex, 1);
}

/** [start, end) instants of a YYYY-MM month. */
export function monthBounds(month: string): { start: number; end: number } {
  const [y, m] = month.split('-').map(Number);
  return { start: utcMonthStart(y, m - 1), end: utcMonthStart(y, m) };
}

/** The UTC calendar months a series has candles in, in order. */
export function monthsOf(candles: Candles): string[] {
  const months: string[] = [];
  let end = -Infinity;
  for (let i = 0; i < candles.length; i++) {
    if (candles.time[i] < end) continue;
    const month = monthOf(candles.time[i]);
    months.push(month);
    end = monthBounds(month).end;
  }
  return months;
}

/** Splits a series into UTC calendar months, in order. */
export function splitByMonth(candles: Candles): { month: string; candles: Candles }[] {
  const out: { month: string; candles: Candles }[] = [];
  let start = 0;
  while (start < candles.length) {
    const month = monthOf(candles.time[start]);
    const end = lowerBound(candles.time, monthBounds(month).end);
    out.push({ month, candles: sliceCandles(candles, start, end) });
    start = end;
  }
  return out;
}

/**
 * The series with an RSI_14 column (Wilder, the product's RSI, docs/product.md §3.5 "computed by the
 * product's pipeline"), computed over the whole series so every month file carries it from its
 * first candle. A series that already has RSI_14 keeps it.
 */
export function withRsi14(candles: Candles): Candles {
  if (candles.extra.RSI_14) return candles;
  const { time, open, high, low, close, volume } = candles;
  return candlesFromColumns({ time, open, high, low, close, volume, extra: { RSI_14: rsi(close, 14) } }, { symbol: candles.symbol, timeframe: candles.timeframe });
}
