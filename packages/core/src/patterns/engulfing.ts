import { SetupBuilder } from './builder.js';
import { CHUNK, flaggedIndex, flaggedSide } from './candidates.js';
import type { PriceSeries, Setups } from './types.js';

/**
 * Three-candle engulfing (`englobante_entry`, docs/architecture.md §2). Bullish at candle i: i is bullish,
 * i-1 is bearish, and the body of i covers the bodies of i-1 and i-2 together (inclusive:
 * `open[i] <= ` the lowest body edge of i-1 and i-2, `close[i] >=` the highest). Bearish is the
 * mirror. Signal at the close of i. `top`/`bottom` span the three candles; the stop for internal
 * SL is the pattern's extreme (lowest low for a buy, highest high for a sell).
 */
export function detectEngulfing(series: PriceSeries): Setups {
  const { length: n, open, high, low, close } = series;
  const out = new SetupBuilder('engulfing', n >> 4);
  for (let from = 2; from < n; from += CHUNK) {
    const flagged = flagEngulfing(open, close, from, Math.min(n, from + CHUNK));
    keepEngulfings(out, high, low, flagged);
  }
  return out.finish();
}

/** Setups from the flagged candles of one chunk: the pattern's range and extreme. */
function keepEngulfings(out: SetupBuilder, high: Float64Array, low: Float64Array, flagged: number): void {
  for (let c = 0; c < flagged; c++) {
    const i = flaggedIndex[c];
    const side = flaggedSide[c];
    const top = Math.max(high[i - 2], high[i - 1], high[i]);
    const bottom = Math.min(low[i - 2], low[i - 1], low[i]);
    out.push(side, top, bottom, side > 0 ? bottom : top, i, i);
  }
}

/**
 * Flags engulfing candles i in [from, to). "Covers the lowest and highest body edge" is written
 * as one compare per edge (the same verdicts as against Math.min/Math.max, NaN included).
 */
function flagEngulfing(open: Float64Array, close: Float64Array, from: number, to: number): number {
  let count = 0;
  // Each candle's open and close are loaded once and carried to the next two candles.
  let o2 = open[from - 2];
  let c2 = close[from - 2];
  let o1 = open[from - 1];
  let c1 = close[from - 1];
  for (let i = from; i < to; i++) {
    const o = open[i];
    const c = close[i];
    const up = +(o <= o1) & +(o <= c1) & +(o <= o2) & +(o <= c2) & +(c >= o1) & +(c >= c1) & +(c >= o2) & +(c >= c2) & +(c > o) & +(c1 < o1);
    const down = +(o >= o1) & +(o >= c1) & +(o >= o2) & +(o >= c2) & +(c <= o1) & +(c <= c1) & +(c <= o2) & +(c <= c2) & +(c < o) & +(c1 > o1);
    flaggedIndex[count] = i;
    flaggedSide[count] = up - down;
    count += up | down;
    o2 = o1;
    c2 = c1;
    o1 = o;
    c1 = c;
  }
  return count;
}
