// The prices a run's orders see once costs apply: the ask series (bid + the candle's spread) and
// the slippage and commission in price units. Built once per price series and cost settings and
// cached, like the indicator columns and the walk's block structures.
import type { PriceSeries } from '../patterns/types.js';
import { hasCosts } from './settings.js';
import { FOREX_LOT_UNITS, type CostSettings } from './types.js';

export interface RunCosts {
  readonly settings: CostSettings;
  /** Spread per candle in price units; null when every candle's spread is 0. */
  readonly spread: Float64Array | null;
  /** Ask prices (bid + spread, on the level grid); the bid series itself when there is no spread. */
  readonly ask: PriceSeries;
  /** Slippage in price units (market entries and stops). */
  readonly slippage: number;
  /** Commission per trade in price units: `commission + commissionPerPrice × fill`. */
  readonly commission: number;
  readonly commissionPerPrice: number;
  /** Price of one point of the data's Spread column (given, or a tenth of a pip); null when not read. */
  readonly pointSize: number | null;
  /** Candles whose spread came from the data's Spread column. */
  readonly dataSpreadCandles: number;
}

const HOUR_MS = 3_600_000;

/** The data's spread column: `Spread` or MetaTrader 5's `<SPREAD>`, any case. */
export function spreadColumnName(extra: Readonly<Record<string, Float64Array>>): string | undefined {
  return Object.keys(extra).find((k) => k.replace(/[<>]/g, '').trim().toLowerCase() === 'spread');
}

/**
 * The point the Spread column is read in by default: a tenth of a pip, MetaTrader's point for
 * fractional-pip quotes (5-decimal EURUSD 0.00001, 3-decimal USDJPY 0.001, 2-decimal gold 0.01
 * with bt's 0.1 gold pip). Fixed by the pip, never read from the prices: a point inferred from the
 * candles would depend on candles after a trade.
 */
export function defaultPointSize(pipSize: number): number {
  return Number((pipSize / 10).toPrecision(12));
}

/**
 * MetaTrader's point is 10^-digits, the decimals the symbol's prices are quoted with: the most
 * decimals any of the first 2,000 candles' prices is written with (a price ending in 0 may be
 * printed shorter, so the most, not the first). Only for a warning when it disagrees with the
 * default point (runBacktest): results never depend on it.
 */
export function inferPointSize(series: PriceSeries): number {
  const n = Math.min(series.length, 2000);
  let digits = 0;
  for (const column of [series.open, series.high, series.low, series.close]) {
    for (let i = 0; i < n; i++) {
      const x = Math.abs(column[i]);
      if (!Number.isFinite(x)) continue;
      let d = digits;
      while (d < 10) {
        const scaled = x * 10 ** d;
        if (Math.abs(scaled - Math.round(scaled)) <= 1e-6 * Math.max(1, scaled * 1e-9)) break;
        d++;
      }
      if (d > digits) digits = d;
    }
  }
  return Number((10 ** -digits).toPrecision(12));
}

/** A price on the level grid (1/10,000 of a pip, `priceRounding`). */
const onGrid = (x: number, scale: number) => Math.round(x * scale) / scale;

function spreadPerCandle(series: PriceSeries & { extra?: Readonly<Record<string, Float64Array>> }, c: CostSettings, pipSize: number, scale: number): { spread: Float64Array | null; pointSize: number | null; fromData: number } {
  const n = series.length;
  const byHour = c.spreadByHour ? c.spreadByHour.map((p) => onGrid(p * pipSize, scale)) : null;
  const flat = onGrid(c.spreadPips * pipSize, scale);
  const column = c.spreadFromData && series.extra ? spreadColumnName(series.extra) : undefined;
  const data = column ? series.extra![column] : null;
  if (!data && !(flat > 0) && !(byHour && byHour.some((v) => v > 0))) return { spread: null, pointSize: null, fromData: 0 };
  const pointSize = data ? c.spreadPointSize ?? defaultPointSize(pipSize) : null;
  const spread = new Float64Array(n);
  let fromData = 0;
  let any = false;
  for (let i = 0; i < n; i++) {
    let s: number;
    const points = data ? data[i] : NaN;
    if (points === points) {
      if (!(points >= 0) || points === Infinity) throw new Error(`invalid Spread column: ${points} at candle ${i + 1} (${new Date(series.time[i]).toISOString()}): expected a spread ≥ 0 in points`);
      s = onGrid(points * pointSize!, scale);
      fromData++;
    } else if (byHour) {
      s = byHour[((Math.floor(series.time[i] / HOUR_MS) % 24) + 24) % 24];
    } else s = flat;
    spread[i] = s;
    if (s > 0) any = true;
  }
  return { spread: any ? spread : null, pointSize, fromData };
}

function askSeries(bid: PriceSeries, spread: Float64Array, scale: number): PriceSeries {
  const n = bid.length;
  const shift = (a: Float64Array) => {
    const b = new Float64Array(n);
    for (let i = 0; i < n; i++) b[i] = Math.round((a[i] + spread[i]) * scale) / scale;
    return b;
  };
  return { length: n, time: bid.time, open: shift(bid.open), high: shift(bid.high), low: shift(bid.low), close: shift(bid.close) };
}

// Ask series per bid series (keyed by its high column) and spread settings.
const cache = new WeakMap<Float64Array, Map<string, { time: Float64Array; spread: Float64Array | null; ask: PriceSeries; pointSize: number | null; fromData: number }>>();

function cachedSpread(series: PriceSeries & { extra?: Readonly<Record<string, Float64Array>> }, c: CostSettings, pipSize: number, scale: number) {
  const key = JSON.stringify([c.spreadPips, c.spreadByHour, c.spreadFromData, c.spreadPointSize, pipSize, scale]);
  let perSeries = cache.get(series.high);
  const hit = perSeries?.get(key);
  if (hit && hit.time === series.time) return hit.spread ? hit : { ...hit, ask: series };
  const { spread, pointSize, fromData } = spreadPerCandle(series, c, pipSize, scale);
  const entry = { time: series.time, spread, ask: spread ? askSeries(series, spread, scale) : series, pointSize, fromData };
  if (!perSeries) cache.set(series.high, (perSeries = new Map()));
  if (perSeries.size >= 8) perSeries.clear();
  perSeries.set(key, entry);
  return entry;
}

/**
 * The costs of a run on `series` (bid candles; `extra` holds the data's Spread column when read).
 * `scale` is the level grid (`priceRounding(pipSize)`); prices the costs move stay on it.
 */
export function runCosts(series: PriceSeries & { extra?: Readonly<Record<string, Float64Array>> }, settings: CostSettings, pipSize: number, scale: number): RunCosts {
  if (!hasCosts(settings)) return noRunCosts(series, settings);
  const { spread, ask, pointSize, fromData } = cachedSpread(series, settings, pipSize, scale);
  // An account in the pair's quote currency pays a per-lot commission in price units directly
  // (C / 100,000 per unit of base); in its base currency the amount is converted at the trade's
  // own fill price (C × fill / 100,000): docs/engine.md §13.
  const perLot = settings.commissionPerLot / FOREX_LOT_UNITS;
  return {
    settings,
    spread,
    ask,
    slippage: onGrid(settings.slippagePips * pipSize, scale),
    commission: settings.commissionPips * pipSize + (settings.accountSide === 'quote' ? perLot : 0),
    commissionPerPrice: settings.accountSide === 'base' ? perLot : 0,
    pointSize,
    dataSpreadCandles: fromData,
  };
}

/** No cost: the ask is the bid, nothing charged. */
export function noRunCosts(series: PriceSeries, settings: CostSettings): RunCosts {
  return { settings, spread: null, ask: series, slippage: 0, commission: 0, commissionPerPrice: 0, pointSize: null, dataSpreadCandles: 0 };
}
