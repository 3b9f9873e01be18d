import type { FilterKind } from '../catalogue/types.js';
import type { PriceSeries } from '../patterns/types.js';

/** Indicator columns the filters read, aligned with the candles (NaN during warm-up). */
export interface FilterColumns {
  readonly rsi?: Float64Array;
  /** RSI threshold: buy below it, sell above 100 minus it. */
  readonly rsiThreshold?: number;
  /** Simple EMA filter: buy when close is above it, sell when below. */
  readonly ema?: Float64Array;
  /** Trend filter (`tendance`): buy when fast is above slow, sell when below. */
  readonly emaFast?: Float64Array;
  readonly emaSlow?: Float64Array;
}

/**
 * Per candle f, whether a buy (`buy[f]`) or a sell (`sell[f]`) passes every filter when read on
 * candle f. Callers read index j-1 for an entry at candle j (pullback) or the signal candle
 * (signal families), so no filter ever sees the entry candle. A NaN indicator (warm-up) refuses.
 */
export interface FilterMasks {
  readonly buy: Uint8Array;
  readonly sell: Uint8Array;
}

/** Builds the combined masks once per run; `null` when there is no filter (everything passes). */
export function filterMasks(series: PriceSeries, filters: readonly FilterKind[], columns: FilterColumns): FilterMasks | null {
  if (filters.length === 0) return null;
  const n = series.length;
  const buy = new Uint8Array(n).fill(1);
  const sell = new Uint8Array(n).fill(1);
  for (const kind of filters) {
    if (kind === 'rsi') {
      const rsi = need(columns.rsi, 'rsi column');
      const th = columns.rsiThreshold;
      if (typeof th !== 'number' || !Number.isFinite(th)) throw new Error(`invalid rsi_threshold: ${String(th)}`);
      const sellAbove = 100 - th;
      for (let f = 0; f < n; f++) {
        const v = rsi[f];
        if (!(v < th)) buy[f] = 0;
        if (!(v > sellAbove)) sell[f] = 0;
      }
    } else if (kind === 'ema_simple') {
      const ema = need(columns.ema, 'ema column');
      const close = series.close;
      for (let f = 0; f < n; f++) {
        const e = ema[f];
        const c = close[f];
        if (!(c > e)) buy[f] = 0;
        if (!(c < e)) sell[f] = 0;
      }
    } else if (kind === 'tendance_ema') {
      const fast = need(columns.emaFast, 'ema_fast column');
      const slow = need(columns.emaSlow, 'ema_slow column');
      for (let f = 0; f < n; f++) {
        const a = fast[f];
        const b = slow[f];
        if (!(a > b)) buy[f] = 0;
        if (!(a < b)) sell[f] = 0;
      }
    } else {
      throw new Error(`invalid filter: ${String(kind)}`);
    }
  }
  return { buy, sell };
}

function need(values: Float64Array | undefined, what: string): Float64Array {
  if (!values) throw new Error(`missing ${what} for filter`);
  return values;
}
