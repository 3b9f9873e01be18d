import type { Candles } from '../candles/types.js';
import { withExtraColumns } from '../candles/columns.js';
import { getStrategy } from '../catalogue/strategies.js';
import type { StrategyParams } from '../catalogue/types.js';
import { ema } from './ema.js';
import { DEFAULT_RSI_PERIOD, rsi } from './rsi.js';

export type IndicatorKind = 'rsi' | 'ema';

export interface IndicatorColumn {
  /** The column name as requested. */
  readonly name: string;
  readonly kind: IndicatorKind;
  readonly period: number;
}

/**
 * What a column name asks for: RSI (Wilder, 14), RSI_n, EMA_n (case-insensitive; the column keeps
 * the requested spelling). undefined for any other name (Tickvol, EMA without a period...).
 */
export function indicatorColumn(name: string): IndicatorColumn | undefined {
  const match = /^(RSI|EMA)(?:_(\d+))?$/i.exec(name);
  if (!match) return undefined;
  const kind = match[1].toLowerCase() as IndicatorKind;
  if (match[2] === undefined) return kind === 'rsi' ? { name, kind, period: DEFAULT_RSI_PERIOD } : undefined;
  const period = Number(match[2]);
  return period >= 1 ? { name, kind, period } : undefined;
}

// Candles are immutable once built, so an indicator computed from a close column stays valid
// while that column lives: a series backtested with several strategies or runs computes each
// column once.
const computed = new WeakMap<Float64Array, Map<string, Float64Array>>();

/** The values of an indicator column computed from the closes (cached per close column; do not modify). */
export function computeIndicator(candles: Candles, column: IndicatorColumn): Float64Array {
  let columns = computed.get(candles.close);
  if (columns === undefined) {
    columns = new Map();
    computed.set(candles.close, columns);
  }
  const key = `${column.kind}_${column.period}`;
  let values = columns.get(key);
  if (values === undefined) {
    values = column.kind === 'rsi' ? rsi(candles.close, column.period) : ema(candles.close, column.period);
    columns.set(key, values);
  }
  return values;
}

/**
 * Candles holding every requested column. A column the data already has is used as it is
 * (docs/architecture.md §2); 'RSI' resolves to an 'RSI' column, else to the file's 'RSI_14' (the same values under both
 * names), else Wilder RSI 14 is computed; any other RSI_n or EMA_n is computed from the closes
 * under the requested name. Returns the same object when nothing is missing.
 */
export function withIndicators(candles: Candles, names: Iterable<string>): Candles {
  const list = [...names];
  const key = list.join('\u0000');
  let byNames = enriched.get(candles);
  const hit = byNames?.get(key);
  if (hit !== undefined) return hit;
  const added: Record<string, Float64Array> = {};
  for (const name of list) {
    if (Object.hasOwn(candles.extra, name) || Object.hasOwn(added, name)) continue;
    if (name === 'RSI' && Object.hasOwn(candles.extra, `RSI_${DEFAULT_RSI_PERIOD}`)) {
      added[name] = candles.extra[`RSI_${DEFAULT_RSI_PERIOD}`];
      continue;
    }
    const column = indicatorColumn(name);
    if (!column) {
      throw new Error(`invalid indicator column: ${JSON.stringify(name)} (not in the data, and not one bt computes: RSI, RSI_n or EMA_n)`);
    }
    added[name] = computeIndicator(candles, column);
  }
  const out = Object.keys(added).length === 0 ? candles : withExtraColumns(candles, added);
  if (byNames === undefined) {
    byNames = new Map();
    enriched.set(candles, byNames);
  }
  byNames.set(key, out);
  return out;
}

// The series with its indicator columns, per series and list of names: a series backtested again
// (another strategy, another run) skips building the Arrow table anew.
const enriched = new WeakMap<Candles, Map<string, Candles>>();

/** The indicator columns a strategy's filters read, from its normalised parameters, in filter order. */
export function indicatorColumnsFor(strategyKey: string, params: StrategyParams): string[] {
  const names: string[] = [];
  const read = (param: string) => {
    const value = params[param];
    if (typeof value !== 'string' || value === '') throw new Error(`invalid ${param}: ${JSON.stringify(value)} (expected a column name; normalize the parameters first)`);
    if (!names.includes(value)) names.push(value);
  };
  for (const filter of getStrategy(strategyKey).filters) {
    if (filter === 'rsi') read('rsi_key');
    else if (filter === 'ema_simple') read('ema_key');
    else {
      read('ema_fast');
      read('ema_slow');
    }
  }
  return names;
}
