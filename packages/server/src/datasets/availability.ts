import { TIMEFRAMES, findSymbol } from '@bt/core/catalogue';
import { monthBounds } from './series.js';

/**
 * What the official library holds, per symbol and timeframe (docs/api.md, GET /api/datasets):
 * first and last candle, and the runs of consecutive months (EURUSD H1 has 2017-2018 and
 * 2022-2023, with nothing between: one range would promise data that is not there).
 */
export interface MonthRow {
  readonly symbol: string;
  readonly timeframe: string;
  readonly month: string;
  readonly rows: number;
  readonly firstCandle: Date;
  readonly lastCandle: Date;
}

export interface DataRange {
  readonly first: number;
  readonly last: number;
}

export interface SeriesAvailability {
  readonly timeframe: string;
  readonly first: number;
  readonly last: number;
  readonly candles: number;
  readonly months: number;
  readonly ranges: readonly DataRange[];
}

export interface SymbolAvailability {
  readonly symbol: string;
  readonly first: number;
  readonly last: number;
  readonly timeframes: readonly SeriesAvailability[];
}

const TF_ORDER = new Map(TIMEFRAMES.map((t, i) => [t.key as string, i]));

/** The month after `month` (YYYY-MM). */
function nextMonth(month: string): string {
  return new Date(monthBounds(month).end).toISOString().slice(0, 7);
}

/** Groups month rows (any order) by symbol, then timeframe (M5 → H4), with their ranges. */
export function summarizeMonths(rows: readonly MonthRow[]): SymbolAvailability[] {
  const bySeries = new Map<string, MonthRow[]>();
  for (const row of rows) {
    const key = `${row.symbol}\u0000${row.timeframe}`;
    let list = bySeries.get(key);
    if (!list) bySeries.set(key, (list = []));
    list.push(row);
  }
  const bySymbol = new Map<string, SeriesAvailability[]>();
  for (const list of bySeries.values()) {
    list.sort((a, b) => (a.month < b.month ? -1 : a.month > b.month ? 1 : 0));
    const ranges: DataRange[] = [];
    let current: { first: number; last: number; month: string } | null = null;
    for (const row of list) {
      const first = row.firstCandle.getTime();
      const last = row.lastCandle.getTime();
      if (current && nextMonth(current.month) === row.month) {
        current.last = last;
        current.month = row.month;
      } else {
        if (current) ranges.push({ first: current.first, last: current.last });
        current = { first, last, month: row.month };
      }
    }
    if (current) ranges.push({ first: current.first, last: current.last });
    const series: SeriesAvailability = {
      timeframe: list[0].timeframe,
      first: ranges[0].first,
      last: ranges[ranges.length - 1].last,
      candles: list.reduce((n, r) => n + r.rows, 0),
      months: list.length,
      ranges,
    };
    const symbol = list[0].symbol;
    bySymbol.set(symbol, [...(bySymbol.get(symbol) ?? []), series]);
  }
  return [...bySymbol.entries()]
    .map(([symbol, timeframes]) => {
      timeframes.sort((a, b) => (TF_ORDER.get(a.timeframe) ?? 99) - (TF_ORDER.get(b.timeframe) ?? 99));
      return { symbol, first: Math.min(...timeframes.map((t) => t.first)), last: Math.max(...timeframes.map((t) => t.last)), timeframes };
    })
    .sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
}

/** The JSON of one symbol (docs/api.md). */
export function presentAvailability(s: SymbolAvailability) {
  const found = findSymbol(s.symbol);
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    symbol: s.symbol,
    label: found?.label ?? s.symbol,
    asset_class: found?.assetClass ?? null,
    pip_size: found?.pipSize ?? null,
    first_candle: iso(s.first),
    last_candle: iso(s.last),
    timeframes: s.timeframes.map((t) => ({
      timeframe: t.timeframe,
      first_candle: iso(t.first),
      last_candle: iso(t.last),
      candles: t.candles,
      months: t.months,
      ranges: t.ranges.map((r) => ({ first_candle: iso(r.first), last_candle: iso(r.last) })),
    })),
  };
}
