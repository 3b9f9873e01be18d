import { SetupBuilder, tooSmall, tooSmallBit } from './builder.js';
import { CHUNK, flaggedIndex, flaggedSide } from './candidates.js';
import type { PriceSeries, Setups } from './types.js';

export interface OrderBlockOptions {
  /**
   * `ob_pullback_gap`: also require a clean gap between the block and candle k+2
   * (`low[k+2] > high[k]` for a bullish block); the block is then confirmed at k+2.
   */
  readonly gap?: boolean;
  /** Minimum zone height (the block's range) in price units; default 0. */
  readonly minSize?: number;
}

/**
 * Order blocks (docs/architecture.md §2). Bullish, confirmed at candle k+1: candle k is bearish (close < open)
 * and candle k+1 is bullish and closes above `high[k]`, so k is the last bearish candle before
 * that bullish candle; zone `[low[k], high[k]]`. Bearish is the mirror (k bullish, k+1 bearish
 * closing below `low[k]`). `formedAt` is k; the stop for internal SL is the block's far edge.
 */
export function detectOrderBlocks(series: PriceSeries, options: OrderBlockOptions = {}): Setups {
  const { length: n, open, high, low, close } = series;
  const gap = options.gap === true;
  const minSize = options.minSize ?? 0;
  const out = new SetupBuilder(gap ? 'order_block_gap' : 'order_block', n >> 3);
  const last = gap ? n - 2 : n - 1;
  let sparse = false;
  for (let from = 0; from < last; from += CHUNK) {
    const flagged = flagOrderBlocks(open, high, low, close, from, Math.min(last, from + CHUNK));
    const before = out.count;
    if (sparse) keepFewOrderBlocks(out, high, low, flagged, gap, minSize);
    else keepOrderBlocks(out, high, low, flagged, gap, minSize);
    sparse = (out.count - before) * 8 < flagged;
  }
  return out.finish();
}

// Two slots for choosing between two doubles by an index of 0 or 1: V8 compiles `bullish ? a : b`
// on doubles to a branch, mispredicted half the time here (bullish and bearish blocks alternate
// at random), as is a branch on the gap test, which about 4 blocks in 10 pass.
const pick = new Float64Array(2);

/**
 * Setups from the flagged candles of one chunk: the gap (ob_pullback_gap) and the minimum size.
 * Without a branch per block: each block is written unconditionally and the count advances by 0
 * or 1. The gap reads candle k+2, which exists only with `gap` (its last k is n-3): two loops.
 */
function keepOrderBlocks(out: SetupBuilder, high: Float64Array, low: Float64Array, flagged: number, gap: boolean, minSize: number): void {
  out.reserve(flagged);
  const sides = out.side;
  const tops = out.top;
  const bottoms = out.bottom;
  const stops = out.stop;
  const formedAt = out.formedAt;
  const confirmedAt = out.confirmedAt;
  const sized = +(minSize > 0);
  let z = out.count;
  if (gap) {
    for (let c = 0; c < flagged; c++) {
      const k = flaggedIndex[c];
      const side = flaggedSide[c];
      const up = (side + 1) >> 1;
      const top = high[k];
      const bottom = low[k];
      pick[0] = top;
      pick[1] = bottom;
      sides[z] = side;
      tops[z] = top;
      bottoms[z] = bottom;
      stops[z] = pick[up];
      formedAt[z] = k;
      confirmedAt[z] = k + 2;
      const filled = (+(low[k + 2] <= top) & up) | (+(high[k + 2] >= bottom) & (1 - up));
      z += 1 - (filled | tooSmallBit(top, bottom, minSize, sized));
    }
  } else {
    for (let c = 0; c < flagged; c++) {
      const k = flaggedIndex[c];
      const side = flaggedSide[c];
      const top = high[k];
      const bottom = low[k];
      pick[0] = top;
      pick[1] = bottom;
      sides[z] = side;
      tops[z] = top;
      bottoms[z] = bottom;
      stops[z] = pick[(side + 1) >> 1];
      formedAt[z] = k;
      confirmedAt[z] = k + 1;
      z += 1 - tooSmallBit(top, bottom, minSize, sized);
    }
  }
  out.count = z;
}

/**
 * keepOrderBlocks with a branch per block, for chunks after one that kept fewer than one block
 * in 8 (a large `minSize`): the branch is then seldom mispredicted and spares writing every block.
 */
function keepFewOrderBlocks(out: SetupBuilder, high: Float64Array, low: Float64Array, flagged: number, gap: boolean, minSize: number): void {
  for (let c = 0; c < flagged; c++) {
    const k = flaggedIndex[c];
    const top = high[k];
    const bottom = low[k];
    const bullish = flaggedSide[c] > 0;
    if (gap && (bullish ? low[k + 2] <= top : high[k + 2] >= bottom)) continue;
    if (tooSmall(top, bottom, minSize)) continue;
    if (bullish) out.push(1, top, bottom, bottom, k, gap ? k + 2 : k + 1);
    else out.push(-1, top, bottom, top, k, gap ? k + 2 : k + 1);
  }
}

/** Flags block candles k in [from, to): k against the breakout candle k+1, which closes beyond k. */
function flagOrderBlocks(open: Float64Array, high: Float64Array, low: Float64Array, close: Float64Array, from: number, to: number): number {
  let count = 0;
  // The breakout candle's open and close are carried to the next step, where it is candle k.
  let ok = open[from];
  let ck = close[from];
  for (let k = from; k < to; k++) {
    const cb = close[k + 1];
    const ob = open[k + 1];
    const up = +(cb > high[k]) & +(ck < ok) & +(cb > ob);
    // Both at once is impossible (k can't be bearish and bullish), so `up - down` is the side.
    const down = +(cb < low[k]) & +(ck > ok) & +(cb < ob);
    flaggedIndex[count] = k;
    flaggedSide[count] = up - down;
    count += up | down;
    ok = ob;
    ck = cb;
  }
  return count;
}
