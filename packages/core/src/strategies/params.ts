import type { Candles } from '../candles/types.js';
import type { FilterKind, StrategyParams } from '../catalogue/types.js';
import type { PullbackRules } from '../simulate/entries.js';
import type { FilterColumns } from './filters.js';
import { indicatorColumn } from '../indicators/columns.js';
import { ParamError } from '../params/errors.js';

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/**
 * Pullback rules from canonical parameters. Absent values: min_wait_candles 3 and
 * max_wait_candles 20 (docs/product.md §2.3), no overlap ratio (touch entry), no touch limit, one fill per
 * zone. runBacktest passes parameters through the catalogue's normaliser first, so its defaults
 * (max_touch 3 ...) apply there.
 */
export function pullbackRulesFromParams(params: StrategyParams): PullbackRules {
  const minWait = params.min_wait_candles ?? 3;
  const maxWait = params.max_wait_candles ?? 20;
  const ratio = params.min_overlap_ratio;
  const maxTouch = params.max_touch;
  const allow = params.allow_multiple_entries ?? false;
  if (!isInt(minWait) || minWait < 0) throw new ParamError('min_wait_candles', minWait, 'an integer ≥ 0');
  if (!isInt(maxWait) || maxWait < 0) throw new ParamError('max_wait_candles', maxWait, 'an integer ≥ 0');
  if (ratio !== undefined && (typeof ratio !== 'number' || !(ratio >= 0 && ratio <= 1))) {
    throw new ParamError('min_overlap_ratio', ratio, 'a fraction 0..1, e.g. 0.25 for 25 %');
  }
  if (maxTouch !== undefined && (!isInt(maxTouch) || maxTouch < 0)) throw new ParamError('max_touch', maxTouch, 'an integer ≥ 0');
  if (typeof allow !== 'boolean') throw new ParamError('allow_multiple_entries', allow, 'a boolean: true/false, 1/0 or oui/non');
  lastRules = { minWait, maxWait, overlapRatio: ratio, maxTouch: maxTouch ?? Infinity, allowMultiple: allow };
  return lastRules;
}

// The last rules, kept alive: V8 holds maps only weakly, and when a full GC finds no object of a
// map, the entry kernels optimised for it are deoptimised (recompiled in the next run).
let lastRules: PullbackRules | null = null;

/** A column parameter: a name as given (EMA_50, RSI_14, RSI), or a bare period (50 -> EMA_50). */
export function columnName(value: unknown, prefix: 'EMA' | 'RSI', param: string): string {
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return `${prefix}_${value}`;
  if (typeof value === 'string' && value.trim() !== '') {
    const v = value.trim();
    return /^\d+$/.test(v) ? `${prefix}_${Number(v)}` : v;
  }
  throw new ParamError(param, value, `a column name such as ${prefix}_50, or a whole period ≥ 1`);
}

export interface FilterColumnNames {
  readonly rsi?: string;
  readonly ema?: string;
  readonly emaFast?: string;
  readonly emaSlow?: string;
}

/**
 * The indicator columns a list of filters reads: rsi_key (default RSI), ema_key (default
 * EMA_50) for the simple EMA, ema_fast/ema_slow (defaults EMA_50/EMA_200) for the trend.
 */
export function filterColumnNames(filters: readonly FilterKind[], params: StrategyParams): FilterColumnNames {
  const names: { rsi?: string; ema?: string; emaFast?: string; emaSlow?: string } = {};
  for (const f of filters) {
    if (f === 'rsi') names.rsi = columnName(params.rsi_key ?? 'RSI', 'RSI', 'rsi_key');
    else if (f === 'ema_simple') names.ema = columnName(params.ema_key ?? 'EMA_50', 'EMA', 'ema_key');
    else if (f === 'tendance_ema') {
      names.emaFast = columnName(params.ema_fast ?? 'EMA_50', 'EMA', 'ema_fast');
      names.emaSlow = columnName(params.ema_slow ?? 'EMA_200', 'EMA', 'ema_slow');
    } else throw new Error(`invalid filter: ${String(f)}`);
  }
  return names;
}

/** The filter inputs read from the candles' columns (which must already hold them). */
export function filterColumns(candles: Candles, names: FilterColumnNames, params: StrategyParams, filters: readonly FilterKind[]): FilterColumns {
  const get = (name: string | undefined) => {
    if (name === undefined) return undefined;
    const values = candles.extra[name];
    if (!values) throw new Error(`missing indicator column ${name} (compute it with withIndicators first)`);
    return values;
  };
  const threshold = filters.includes('rsi') ? params.rsi_threshold ?? 40 : undefined;
  if (threshold !== undefined && (typeof threshold !== 'number' || !(threshold >= 0 && threshold <= 100))) {
    throw new ParamError('rsi_threshold', threshold, 'a number from 0 to 100');
  }
  return { rsi: get(names.rsi), rsiThreshold: threshold as number | undefined, ema: get(names.ema), emaFast: get(names.emaFast), emaSlow: get(names.emaSlow) };
}

export const UNKNOWN_COLUMN_EXPECTED = 'a column of the data, or one bt computes: RSI, RSI_n or EMA_n';

/**
 * Refuses, naming the parameter, a filter column that is neither in the data nor one bt can
 * compute (a user's typo such as `rsi_key: "RSI14"`), before anything is computed.
 */
export function checkFilterColumns(candles: Candles, names: FilterColumnNames, params: StrategyParams): void {
  const check = (name: string | undefined, param: 'rsi_key' | 'ema_key' | 'ema_fast' | 'ema_slow') => {
    if (name === undefined || Object.hasOwn(candles.extra, name) || indicatorColumn(name)) return;
    throw new ParamError(param, params[param] ?? name, UNKNOWN_COLUMN_EXPECTED);
  };
  check(names.rsi, 'rsi_key');
  check(names.ema, 'ema_key');
  check(names.emaFast, 'ema_fast');
  check(names.emaSlow, 'ema_slow');
}

/** The column names as a list, for withIndicators. */
export function columnList(names: FilterColumnNames): string[] {
  return [...new Set([names.rsi, names.ema, names.emaFast, names.emaSlow].filter((x): x is string => x !== undefined))];
}
