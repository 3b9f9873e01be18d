import type { PriceSeries } from '../patterns/types.js';
import { walk, type WalkState } from './walk.js';

/** Lower-timeframe candles of the same symbol and how long one run candle lasts. */
export interface LowerTimeframe {
  readonly series: PriceSeries;
  /** Duration of one candle of the run's timeframe, in ms. */
  readonly stepMs: number;
  /** Ask prices of the smaller candles (bid + spread) when costs apply; default: `series`. */
  readonly ask?: PriceSeries;
}

export interface ResolvedResult {
  r1: number;
  r2: number;
  /**
   * Whether the smaller candles decided each target. A target still pending when a smaller
   * candle held SL and that target, or when no smaller candle covered an ambiguous candle, keeps
   * the conservative verdict and is not decided.
   */
  decided1: boolean;
  decided2: boolean;
}

/** First index with `time[i] >= t` (binary search). */
export function lowerBound(time: Float64Array, t: number, lo = 0): number {
  let hi = time.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (time[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Replays a trade that the conservative walk flagged, walking the smaller candles inside each
 * ambiguous candle with the same rules (a smaller candle holding SL and a TP stays
 * conservative). On a resting order's fill candle the walk starts at the smaller candle where
 * the order fills, and only SL can count on that one. Between ambiguous candles, and after the
 * last, the run's own candles decide as usual.
 */
export function resolveWithLowerTimeframe(
  htf: PriceSeries,
  ltf: LowerTimeframe,
  fresh: () => WalkState,
  entryIndex: number,
  resting: boolean,
  orderPrice: number,
  sides?: { readonly small: PriceSeries; readonly fillSmall: PriceSeries },
): ResolvedResult {
  const n = htf.length;
  // With costs the trade is walked on the prices it exits at (a buy's bid, a sell's ask: `htf`
  // and `small`) and its resting order fills on the prices it enters at (`fillSmall`).
  const small = sides ? sides.small : ltf.series;
  const fillSmall = sides ? sides.fillSmall : small;
  let decided1 = true;
  let decided2 = true;
  let s = fresh();
  let k = entryIndex;
  let first = resting;
  let cursor = 0;
  while (k < n && !s.closed) {
    const base: WalkState = { ...s };
    walk(s, htf.high, htf.low, k, n, first);
    const a = s.ambiguousAt;
    if (a < 0) break;
    // Back to the state just before the ambiguous candle (nothing closed the trade earlier).
    s = base;
    walk(s, htf.high, htf.low, k, a, first);
    const fillCandle = first && a === k;
    const t0 = htf.time[a];
    const lo = lowerBound(small.time, t0, cursor);
    const hi = lowerBound(small.time, t0 + ltf.stepMs, lo);
    cursor = hi;
    s.ambiguousAt = -1;
    // Whatever is still pending if this candle stays undecided falls back on the conservative rule.
    const pending1 = !s.tp1Done;
    if (lo === hi) {
      walk(s, htf.high, htf.low, a, a + 1, fillCandle);
      if (pending1) decided1 = false;
      decided2 = false;
    } else {
      let from = lo;
      if (fillCandle) {
        const p = s.dir * orderPrice;
        while (from < hi && (s.dir > 0 ? fillSmall.low[from] : -fillSmall.high[from]) > p) from++;
        if (from === hi) from = lo;
      }
      const before1 = !s.tp1Done;
      walk(s, small.high, small.low, from, hi, fillCandle);
      if (s.ambiguousAt >= 0) {
        // The smaller candle held SL and the pending target: TP1 if it was still pending then.
        if (before1 && s.tp1At < 0) decided1 = false;
        decided2 = false;
      }
    }
    s.ambiguousAt = -1;
    k = a + 1;
    first = false;
  }
  return { r1: s.r1, r2: s.r2, decided1, decided2 };
}

