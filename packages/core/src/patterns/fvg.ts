import { SetupBuilder, sizeTolerance } from './builder.js';
import type { PriceSeries, Setups } from './types.js';

export interface FvgOptions {
  /** Minimum gap height in price units (callers convert pips). Default 0: every gap. */
  readonly minSize?: number;
}

/**
 * Fair value gaps (DESIGN §2). Bullish, completed at candle i: `low[i] > high[i-2]` and the
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
  const out = new SetupBuilder(impulsive ? 'fvg_impulsive' : 'fvg', n >> 4);
  for (let i = 2; i < n; i++) {
    const m = i - 1;
    let side = 0;
    let top = 0;
    let bottom = 0;
    const mo = open[m];
    const mc = close[m];
    // The gap test first: it is rarely true, so the branch predicts well on real data.
    if (low[i] > high[i - 2] && mc > mo) {
      side = 1;
      top = low[i];
      bottom = high[i - 2];
    } else if (high[i] < low[i - 2] && mc < mo) {
      side = -1;
      top = low[i - 2];
      bottom = high[i];
    } else continue;
    if (top - bottom < minSize - sizeTolerance(top)) continue;
    if (impulsive) {
      const body = side > 0 ? mc - mo : mo - mc;
      if (body < 0.5 * (high[m] - low[m])) continue;
      if (body < Math.abs(close[i - 2] - open[i - 2]) || body < Math.abs(close[i] - open[i])) continue;
      const stop = side > 0 ? Math.min(low[i - 2], low[m], low[i]) : Math.max(high[i - 2], high[m], high[i]);
      out.push(side, top, bottom, stop, m, i);
    } else {
      out.push(side, top, bottom, side > 0 ? bottom : top, m, i);
    }
  }
  return out.finish();
}
