import { SetupBuilder } from './builder.js';
import type { PriceSeries, Setups } from './types.js';

/**
 * Three-candle engulfing (`englobante_entry`, DESIGN §2). Bullish at candle i: i is bullish,
 * i-1 is bearish, and the body of i covers the bodies of i-1 and i-2 together (inclusive:
 * `open[i] <= ` the lowest body edge of i-1 and i-2, `close[i] >=` the highest). Bearish is the
 * mirror. Signal at the close of i. `top`/`bottom` span the three candles; the stop for internal
 * SL is the pattern's extreme (lowest low for a buy, highest high for a sell).
 */
export function detectEngulfing(series: PriceSeries): Setups {
  const { length: n, open, high, low, close } = series;
  const out = new SetupBuilder('engulfing', n >> 5);
  for (let i = 2; i < n; i++) {
    const o = open[i];
    const c = close[i];
    const o1 = open[i - 1];
    const c1 = close[i - 1];
    const o2 = open[i - 2];
    const c2 = close[i - 2];
    // Containment first (rarely true, so well predicted), then the candle colours.
    const lo = Math.min(o1, c1, o2, c2);
    const hi = Math.max(o1, c1, o2, c2);
    let side = 0;
    if (o <= lo && c >= hi) {
      if (c > o && c1 < o1) side = 1;
    } else if (o >= hi && c <= lo) {
      if (c < o && c1 > o1) side = -1;
    }
    if (side === 0) continue;
    const top = Math.max(high[i - 2], high[i - 1], high[i]);
    const bottom = Math.min(low[i - 2], low[i - 1], low[i]);
    out.push(side, top, bottom, side > 0 ? bottom : top, i, i);
  }
  return out.finish();
}
