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

/**
 * The filters of a run as the entry rules read them: the indicator columns themselves, checked
 * only on the candles an entry asks about (a few per setup), instead of two masks over every
 * candle. Unused filters are null. Masks given by a caller fit in too (`maskBuy`/`maskSell`).
 */
export interface FilterGate {
  readonly maskBuy: Uint8Array | null;
  readonly maskSell: Uint8Array | null;
  readonly rsi: Float64Array | null;
  /** Buy when RSI is below it; sell when above `rsiSellAbove` (100 minus it). */
  readonly rsiBuyBelow: number;
  readonly rsiSellAbove: number;
  readonly close: Float64Array;
  readonly ema: Float64Array | null;
  readonly emaFast: Float64Array | null;
  readonly emaSlow: Float64Array | null;
}

/** The gate of a list of filters; `null` when there is no filter (everything passes). Checks like filterMasks. */
export function filterGate(series: PriceSeries, filters: readonly FilterKind[], columns: FilterColumns): FilterGate | null {
  if (filters.length === 0) return null;
  let rsi: Float64Array | null = null;
  let rsiBuyBelow = NaN;
  let ema: Float64Array | null = null;
  let emaFast: Float64Array | null = null;
  let emaSlow: Float64Array | null = null;
  for (const kind of filters) {
    if (kind === 'rsi') {
      rsi = need(columns.rsi, 'rsi column');
      const th = columns.rsiThreshold;
      if (typeof th !== 'number' || !Number.isFinite(th)) throw new Error(`invalid rsi_threshold: ${String(th)}`);
      rsiBuyBelow = th;
    } else if (kind === 'ema_simple') {
      ema = need(columns.ema, 'ema column');
    } else if (kind === 'tendance_ema') {
      emaFast = need(columns.emaFast, 'ema_fast column');
      emaSlow = need(columns.emaSlow, 'ema_slow column');
    } else {
      throw new Error(`invalid filter: ${String(kind)}`);
    }
  }
  return newGate(null, null, rsi, rsiBuyBelow, series.close, ema, emaFast, emaSlow);
}

/** A gate reading precomputed masks (callers of the entry rules that built their own). */
export function maskGate(series: PriceSeries, masks: FilterMasks): FilterGate {
  return newGate(masks.buy, masks.sell, null, NaN, series.close, null, null, null);
}

/** The one place a gate is made, so that every gate has one map (kept alive by `shapeKeeper`). */
function newGate(
  maskBuy: Uint8Array | null,
  maskSell: Uint8Array | null,
  rsi: Float64Array | null,
  rsiBuyBelow: number,
  close: Float64Array,
  ema: Float64Array | null,
  emaFast: Float64Array | null,
  emaSlow: Float64Array | null,
): FilterGate {
  return { maskBuy, maskSell, rsi, rsiBuyBelow, rsiSellAbove: 100 - rsiBuyBelow, close, ema, emaFast, emaSlow };
}

// An empty gate that stays alive: V8 holds maps only weakly, and when a full GC finds no gate,
// the entry kernels optimised for its map are deoptimised. Its thresholds are NaN so that the
// fields are doubles from the start (a small-integer field that later holds 37.5 changes map).
const none = new Float64Array(0);
export const shapeKeeper: FilterGate = newGate(new Uint8Array(0), new Uint8Array(0), none, NaN, none, none, none, none);

/** Whether a buy read on candle f passes every filter (a NaN indicator refuses). */
export function buyPasses(g: FilterGate, f: number): boolean {
  return (
    (g.maskBuy === null || g.maskBuy[f] === 1) &&
    (g.rsi === null || g.rsi[f] < g.rsiBuyBelow) &&
    (g.ema === null || g.close[f] > g.ema[f]) &&
    (g.emaFast === null || g.emaFast[f] > g.emaSlow![f])
  );
}

/** Whether a sell read on candle f passes every filter (a NaN indicator refuses). */
export function sellPasses(g: FilterGate, f: number): boolean {
  return (
    (g.maskSell === null || g.maskSell[f] === 1) &&
    (g.rsi === null || g.rsi[f] > g.rsiSellAbove) &&
    (g.ema === null || g.close[f] < g.ema[f]) &&
    (g.emaFast === null || g.emaFast[f] < g.emaSlow![f])
  );
}

/** Builds the combined masks over every candle; `null` when there is no filter (everything passes). */
export function filterMasks(series: PriceSeries, filters: readonly FilterKind[], columns: FilterColumns): FilterMasks | null {
  const gate = filterGate(series, filters, columns);
  if (gate === null) return null;
  const n = series.length;
  const buy = new Uint8Array(n);
  const sell = new Uint8Array(n);
  for (let f = 0; f < n; f++) {
    if (buyPasses(gate, f)) buy[f] = 1;
    if (sellPasses(gate, f)) sell[f] = 1;
  }
  return { buy, sell };
}

function need(values: Float64Array | undefined, what: string): Float64Array {
  if (!values) throw new Error(`missing ${what} for filter`);
  return values;
}
