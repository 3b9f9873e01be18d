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

// Two slots for choosing between two doubles by an index of 0 or 1: V8 compiles `side > 0 ? a : b`
// and Math.max/Math.min on doubles to branches, mispredicted often here (the sides alternate at
// random, and so does which of three candles has the highest high).
const pick = new Float64Array(2);

/**
 * Setups from the flagged candles of one chunk: the pattern's range and extreme. The extremes are
 * chosen by comparisons when all six prices are above 0; otherwise (NaN, zeros, where Math.max
 * and Math.min differ from a comparison) by Math.max and Math.min, a branch rarely taken.
 */
function keepEngulfings(out: SetupBuilder, high: Float64Array, low: Float64Array, flagged: number): void {
  out.reserve(flagged);
  const sides = out.side;
  const tops = out.top;
  const bottoms = out.bottom;
  const stops = out.stop;
  const formedAt = out.formedAt;
  const confirmedAt = out.confirmedAt;
  let z = out.count;
  for (let c = 0; c < flagged; c++) {
    const i = flaggedIndex[c];
    const side = flaggedSide[c];
    const h2 = high[i - 2];
    const h1 = high[i - 1];
    const h0 = high[i];
    const l2 = low[i - 2];
    const l1 = low[i - 1];
    const l0 = low[i];
    let top: number;
    let bottom: number;
    if ((+(h2 > 0) & +(h1 > 0) & +(h0 > 0) & +(l2 > 0) & +(l1 > 0) & +(l0 > 0)) === 1) {
      pick[0] = h2;
      pick[1] = h1;
      const h = pick[+(h1 > h2)];
      pick[0] = h;
      pick[1] = h0;
      top = pick[+(h0 > h)];
      pick[0] = l2;
      pick[1] = l1;
      const l = pick[+(l1 < l2)];
      pick[0] = l;
      pick[1] = l0;
      bottom = pick[+(l0 < l)];
    } else {
      top = Math.max(h2, h1, h0);
      bottom = Math.min(l2, l1, l0);
    }
    pick[0] = top;
    pick[1] = bottom;
    sides[z] = side;
    tops[z] = top;
    bottoms[z] = bottom;
    stops[z] = pick[(side + 1) >> 1];
    formedAt[z] = i;
    confirmedAt[z] = i;
    z++;
  }
  out.count = z;
}

/**
 * Flags engulfing candles i in [from, to). "Covers the lowest and highest body edge" is written
 * as one compare per edge (the same verdicts as against Math.min/Math.max, NaN included). Of
 * candle i-1's four, two decide: with i-1 bearish (c1 < o1), `o <= c1` gives `o <= o1`, and
 * `c >= o1` gives `c >= c1` and, with the first, `c > o` (the mirror for a bearish engulfing).
 * A NaN fails a comparison that remains, so the verdicts are those of all ten, for every input.
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
    const up = +(c1 < o1) & +(o <= c1) & +(c >= o1) & +(o <= o2) & +(o <= c2) & +(c >= o2) & +(c >= c2);
    const down = +(c1 > o1) & +(o >= c1) & +(c <= o1) & +(o >= o2) & +(o >= c2) & +(c <= o2) & +(c <= c2);
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
