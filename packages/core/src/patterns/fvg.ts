import { SetupBuilder, tooSmall, tooSmallBit } from './builder.js';
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
  let sparse = false;
  for (let from = 2; from < n; from += CHUNK) {
    const flagged = flagFvg(open, high, low, close, from, Math.min(n, from + CHUNK));
    const before = out.count;
    if (sparse || (impulsive && minSize > 0)) keepFewFvgs(out, open, high, low, close, flagged, minSize, impulsive);
    else if (impulsive) keepImpulsiveFvgs(out, open, high, low, close, flagged);
    else keepFvgs(out, high, low, flagged, minSize);
    sparse = (out.count - before) * 8 < flagged;
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

// Two slots for choosing between two doubles by an index of 0 or 1: V8 compiles `side > 0 ? a : b`
// on doubles to a branch, mispredicted half the time here (up and down gaps alternate at random).
const pick = new Float64Array(2);

/**
 * Setups from the flagged candles of one chunk, with a branch per gap, for chunks after one that
 * kept fewer than one gap in 8 (a large `minSize`): the branch is then seldom mispredicted and
 * spares writing every gap. Also for impulsive FVGs with a minimum size, where the size test
 * spares the eight loads of the impulsiveness test (measured faster than keepImpulsiveFvgs).
 */
function keepFewFvgs(out: SetupBuilder, open: Float64Array, high: Float64Array, low: Float64Array, close: Float64Array, flagged: number, minSize: number, impulsive: boolean): void {
  for (let c = 0; c < flagged; c++) keepFvg(out, open, high, low, close, flaggedIndex[c], flaggedSide[c], minSize, impulsive);
}

/** Setups from the flagged candles of one chunk (plain FVGs). */
function keepFvgs(out: SetupBuilder, high: Float64Array, low: Float64Array, flagged: number, minSize: number): void {
  // Without a branch per gap: the zone's edges are read at indices computed from the side, each
  // gap is written unconditionally and the count advances by 0 or 1 (the `tooSmall` test).
  out.reserve(flagged);
  const sides = out.side;
  const tops = out.top;
  const bottoms = out.bottom;
  const stops = out.stop;
  const formedAt = out.formedAt;
  const confirmedAt = out.confirmedAt;
  const sized = +(minSize > 0);
  let z = out.count;
  for (let c = 0; c < flagged; c++) {
    const i = flaggedIndex[c];
    const side = flaggedSide[c];
    const up = (side + 1) >> 1;
    const top = low[i - 2 + 2 * up];
    const bottom = high[i - 2 * up];
    pick[0] = top;
    pick[1] = bottom;
    sides[z] = side;
    tops[z] = top;
    bottoms[z] = bottom;
    stops[z] = pick[up];
    formedAt[z] = i - 1;
    confirmedAt[z] = i;
    z += 1 - tooSmallBit(top, bottom, minSize, sized);
  }
  out.count = z;
}

/**
 * Setups from the flagged candles of one chunk (impulsive FVGs), without a branch per gap as in
 * keepFvgs. The body `side * (close - open)` is exactly `open - close` for a sell. The stop, the
 * extreme of three candles, is chosen by comparisons when all six prices are above 0; otherwise
 * (NaN, zeros, where Math.max and Math.min differ from a comparison) by Math.max or Math.min, a
 * branch rarely taken.
 */
function keepImpulsiveFvgs(out: SetupBuilder, open: Float64Array, high: Float64Array, low: Float64Array, close: Float64Array, flagged: number): void {
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
    const up = (side + 1) >> 1;
    const m = i - 1;
    const top = low[i - 2 + 2 * up];
    const bottom = high[i - 2 * up];
    const body = side * (close[m] - open[m]);
    const h2 = high[i - 2];
    const hm = high[m];
    const h0 = high[i];
    const l2 = low[i - 2];
    const lm = low[m];
    const l0 = low[i];
    const weak = +(body < 0.5 * (hm - lm)) | +(body < Math.abs(close[i - 2] - open[i - 2])) | +(body < Math.abs(close[i] - open[i]));
    let stop: number;
    if ((+(h2 > 0) & +(hm > 0) & +(h0 > 0) & +(l2 > 0) & +(lm > 0) & +(l0 > 0)) === 1) {
      pick[0] = l2;
      pick[1] = lm;
      const l = pick[+(lm < l2)];
      pick[0] = l;
      pick[1] = l0;
      const lowest = pick[+(l0 < l)];
      pick[0] = h2;
      pick[1] = hm;
      const h = pick[+(hm > h2)];
      pick[0] = h;
      pick[1] = h0;
      pick[0] = pick[+(h0 > h)];
      pick[1] = lowest;
      stop = pick[up];
    } else {
      stop = side > 0 ? Math.min(l2, lm, l0) : Math.max(h2, hm, h0);
    }
    sides[z] = side;
    tops[z] = top;
    bottoms[z] = bottom;
    stops[z] = stop;
    formedAt[z] = m;
    confirmedAt[z] = i;
    z += 1 - weak;
  }
  out.count = z;
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
