import { SetupBuilder } from './builder.js';
import type { PriceSeries, Setups } from './types.js';

/**
 * `confirm_candle`: keeps a setup only when the candle after its confirmation closes in its
 * direction (close > open for a buy, close < open for a sell); the setup is then confirmed one
 * candle later. A setup confirmed on the last candle has no confirming candle and is dropped.
 */
export function applyConfirmCandle(setups: Setups, series: PriceSeries): Setups {
  const { length: n, open, close } = series;
  const out = new SetupBuilder(setups.kind, setups.count);
  for (let z = 0; z < setups.count; z++) {
    const c = setups.confirmedAt[z] + 1;
    if (c >= n) continue;
    const side = setups.side[z];
    if (side > 0 ? close[c] > open[c] : close[c] < open[c]) {
      out.push(side, setups.top[z], setups.bottom[z], setups.stop[z], setups.formedAt[z], c);
    }
  }
  return out.finish();
}

/** Keeps the setups of one side only (`ob_side`); `0` keeps both. */
export function keepSide(setups: Setups, side: -1 | 0 | 1): Setups {
  if (side === 0) return setups;
  const out = new SetupBuilder(setups.kind, setups.count);
  for (let z = 0; z < setups.count; z++) {
    if (setups.side[z] !== side) continue;
    out.push(side, setups.top[z], setups.bottom[z], setups.stop[z], setups.formedAt[z], setups.confirmedAt[z]);
  }
  return out.finish();
}

/**
 * Mitigation of a zone: the first candle after its confirmation whose price reaches the zone's
 * near edge (`low <= top` for a bullish zone, `high >= bottom` for a bearish one), whatever the
 * entry rules say; -1 when price never comes back. This is smart-money-concepts' MitigatedIndex.
 */
export function mitigationIndices(setups: Setups, series: PriceSeries): Int32Array {
  const { length: n, high, low } = series;
  const out = new Int32Array(setups.count).fill(-1);
  for (let z = 0; z < setups.count; z++) {
    const from = setups.confirmedAt[z] + 1;
    if (setups.side[z] > 0) {
      const top = setups.top[z];
      for (let j = from; j < n; j++) if (low[j] <= top) { out[z] = j; break; }
    } else {
      const bottom = setups.bottom[z];
      for (let j = from; j < n; j++) if (high[j] >= bottom) { out[z] = j; break; }
    }
  }
  return out;
}
