import { SetupBuilder, sizeTolerance } from './builder.js';
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
 * Order blocks (DESIGN §2). Bullish, confirmed at candle k+1: candle k is bearish (close < open)
 * and candle k+1 is bullish and closes above `high[k]`, so k is the last bearish candle before
 * that bullish candle; zone `[low[k], high[k]]`. Bearish is the mirror (k bullish, k+1 bearish
 * closing below `low[k]`). `formedAt` is k; the stop for internal SL is the block's far edge.
 */
export function detectOrderBlocks(series: PriceSeries, options: OrderBlockOptions = {}): Setups {
  const { length: n, open, high, low, close } = series;
  const gap = options.gap === true;
  const minSize = options.minSize ?? 0;
  const out = new SetupBuilder(gap ? 'order_block_gap' : 'order_block', n >> 5);
  const last = gap ? n - 2 : n - 1;
  for (let k = 0; k < last; k++) {
    const b = k + 1;
    // The breakout test first: it is rarely true, so the branch predicts well on real data.
    const cb = close[b];
    const bullish = cb > high[k] && close[k] < open[k] && cb > open[b];
    const bearish = !bullish && cb < low[k] && close[k] > open[k] && cb < open[b];
    if (!bullish && !bearish) continue;
    const top = high[k];
    const bottom = low[k];
    if (gap && (bullish ? low[k + 2] <= top : high[k + 2] >= bottom)) continue;
    if (top - bottom < minSize - sizeTolerance(top)) continue;
    if (bullish) out.push(1, top, bottom, bottom, k, gap ? k + 2 : b);
    else out.push(-1, top, bottom, top, k, gap ? k + 2 : b);
  }
  return out.finish();
}
