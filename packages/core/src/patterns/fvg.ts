import { SetupBuilder, tooSmall } from './builder.js';
import { CHUNK, flaggedIndex, flaggedSide } from './candidates.js';
import type { PriceSeries, Setups } from './types.js';

export interface FvgOptions {
  /** Minimum gap height in price units (callers convert pips). Default 0: every gap. */
  readonly minSize?: number;
}

/**
 * Fair value gaps (docs/architecture.md §2). Bullish, completed at candle i: `low[i] > high[i-2]` and the
 * middle candle closes above its open; zone `[high[i-2], low[i]]`, known at the close of i.
 * Bearish is the mirror: `high[i] < low[i-2]`, middle candle closes below its open, zone
 * `[high[i], low[i-2]]`. `formedAt` is the middle candle (where smart-money-concepts labels it).
 */
export function detectFvg(series: PriceSeries, options: FvgOptions = {}): Setups {
  return scanFvg(series, options.minSize ?? 0, false);
}

/**
 * Impulsive FVG signals: an FVG whose middle candle is impulsive, i.e. its body
 * `|close - open|` is at least half its range (body dominates the wicks) and at least the body
 * of each outer candle (the displacement candle is the strongest of the three). `minSize` is the
 * minimum gap in price units (the spec's `min_pips` for this family). The signal is at the close
 * of i, in the gap's direction; `stop` is the pattern's extreme over the three candles.
 */
export function detectImpulsiveFvg(series: PriceSeries, options: FvgOptions = {}): Setups {
  return scanFvg(series, options.minSize ?? 0, true);
}

function scanFvg(series: PriceSeries, minSize: number, impulsive: boolean): Setups {
  const { length: n, open, high, low, close } = series;
  const out = new SetupBuilder(impulsive ? 'fvg_impulsive' : 'fvg', n >> 3);
  for (let from = 2; from < n; from += CHUNK) {
    const flagged = flagFvg(open, high, low, close, from, Math.min(n, from + CHUNK));
    keepFvgs(out, open, high, low, close, flagged, minSize, impulsive);
  }
  return out.finish();
}

/** Flags candles i in [from, to) that complete a gap with a middle candle of the gap's colour. */
function flagFvg(open: Float64Array, high: Float64Array, low: Float64Array, close: Float64Array, from: number, to: number): number {
  let count = 0;
  // Each candle's high and low are loaded once and carried to the next two candles.
  let h2 = high[from - 2];
  let l2 = low[from - 2];
  let h1 = high[from - 1];
  let l1 = low[from - 1];
  for (let i = from; i < to; i++) {
    const mo = open[i - 1];
    const mc = close[i - 1];
    const h0 = high[i];
    const l0 = low[i];
    const up = +(l0 > h2) & +(mc > mo);
    const down = +(h0 < l2) & +(mc < mo);
    flaggedIndex[count] = i;
    // A candle can't gap both ways: low[i] > high[i-2] >= low[i-2] > high[i] is impossible.
    flaggedSide[count] = up - down;
    count += up | down;
    h2 = h1;
    l2 = l1;
    h1 = h0;
    l1 = l0;
  }
  return count;
}

/** Setups from the flagged candles of one chunk. */
function keepFvgs(out: SetupBuilder, open: Float64Array, high: Float64Array, low: Float64Array, close: Float64Array, flagged: number, minSize: number, impulsive: boolean): void {
  for (let c = 0; c < flagged; c++) keepFvg(out, open, high, low, close, flaggedIndex[c], flaggedSide[c], minSize, impulsive);
}

function keepFvg(out: SetupBuilder, open: Float64Array, high: Float64Array, low: Float64Array, close: Float64Array, i: number, side: number, minSize: number, impulsive: boolean): void {
  const m = i - 1;
  const top = side > 0 ? low[i] : low[i - 2];
  const bottom = side > 0 ? high[i - 2] : high[i];
  if (tooSmall(top, bottom, minSize)) return;
  if (!impulsive) {
    out.push(side, top, bottom, side > 0 ? bottom : top, m, i);
    return;
  }
  const mo = open[m];
  const mc = close[m];
  const body = side > 0 ? mc - mo : mo - mc;
  if (body < 0.5 * (high[m] - low[m])) return;
  if (body < Math.abs(close[i - 2] - open[i - 2]) || body < Math.abs(close[i] - open[i])) return;
  const stop = side > 0 ? Math.min(low[i - 2], low[m], low[i]) : Math.max(high[i - 2], high[m], high[i]);
  out.push(side, top, bottom, stop, m, i);
}
