/**
 * What the official library holds (GET /api/datasets, docs/api.md) as the backtest form reads it:
 * which instruments can be picked (the others are greyed, with why), which timeframes, the range
 * shown under the dates, and the date presets counted back from the last available candle rather
 * than from today (docs/web.md "Backtest screen").
 */
import type { SymbolDefinition } from '@bt/core/catalogue';
import { rangesTextFr } from '@bt/core/format';
import { isoDay, type DatePreset } from './dates.js';

export interface DataRange {
  first: number;
  last: number;
}

export interface SeriesInfo {
  timeframe: string;
  first: number;
  last: number;
  candles: number;
  ranges: DataRange[];
}

export interface SymbolInfo {
  symbol: string;
  first: number;
  last: number;
  timeframes: Map<string, SeriesInfo>;
}

/** By canonical symbol. */
export type Availability = Map<string, SymbolInfo>;

const ms = (value: unknown): number | null => (typeof value === 'string' && Number.isFinite(Date.parse(value)) ? Date.parse(value) : null);

function rangeOf(value: unknown): DataRange | null {
  const record = value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  const first = ms(record.first_candle);
  const last = ms(record.last_candle);
  return first !== null && last !== null && first <= last ? { first, last } : null;
}

/** The answer of GET /api/datasets; anything unreadable is left out. */
export function parseAvailability(answer: unknown): Availability {
  const out: Availability = new Map();
  const symbols = answer && typeof answer === 'object' ? (answer as Record<string, unknown>).symbols : null;
  if (!Array.isArray(symbols)) return out;
  for (const entry of symbols) {
    if (!entry || typeof entry !== 'object') continue;
    const record = entry as Record<string, unknown>;
    if (typeof record.symbol !== 'string' || !Array.isArray(record.timeframes)) continue;
    const timeframes = new Map<string, SeriesInfo>();
    for (const tf of record.timeframes) {
      const t = tf && typeof tf === 'object' ? (tf as Record<string, unknown>) : {};
      const whole = rangeOf(t);
      if (typeof t.timeframe !== 'string' || !whole) continue;
      const ranges = Array.isArray(t.ranges) ? t.ranges.map(rangeOf).filter((r): r is DataRange => r !== null) : [];
      timeframes.set(t.timeframe, { timeframe: t.timeframe, ...whole, candles: typeof t.candles === 'number' ? t.candles : 0, ranges: ranges.length ? ranges : [whole] });
    }
    if (timeframes.size === 0) continue;
    const series = [...timeframes.values()];
    out.set(record.symbol, { symbol: record.symbol, first: Math.min(...series.map((s) => s.first)), last: Math.max(...series.map((s) => s.last)), timeframes });
  }
  return out;
}

export interface SymbolChoice {
  value: string;
  label: string;
  /** Why it cannot be picked (no official data yet). */
  disabledReason?: string;
}

export const NO_DATA_REASON = 'pas encore de données officielles';

const optionLabel = (s: SymbolDefinition) => (s.label === s.symbol ? s.symbol : `${s.label} (${s.symbol})`);

/**
 * The pair list: instruments with data first (in the catalogue's label order), then the others,
 * disabled with their reason. Without an answer yet (null), every instrument is offered.
 */
export function symbolChoices(symbols: readonly SymbolDefinition[], availability: Availability | null): { withData: SymbolChoice[]; withoutData: SymbolChoice[] } {
  if (!availability) return { withData: symbols.map((s) => ({ value: s.symbol, label: optionLabel(s) })), withoutData: [] };
  const withData: SymbolChoice[] = [];
  const withoutData: SymbolChoice[] = [];
  for (const s of symbols) {
    if (availability.has(s.symbol)) withData.push({ value: s.symbol, label: optionLabel(s) });
    else withoutData.push({ value: s.symbol, label: `${optionLabel(s)} — ${NO_DATA_REASON}`, disabledReason: NO_DATA_REASON });
  }
  return { withData, withoutData };
}

/** The timeframes of the form, each enabled when the chosen instrument has data in it. */
export function timeframeChoices(timeframes: readonly string[], availability: Availability | null, symbol: string): { value: string; label: string; disabled: boolean }[] {
  const info = availability?.get(symbol);
  return timeframes.map((tf) => {
    const disabled = !!availability && !!symbol && !info?.timeframes.has(tf);
    return { value: tf, label: disabled ? `${tf} — pas de données` : tf, disabled };
  });
}

/** A timeframe the instrument has: the current one if it has it, else its finest. */
export function usableTimeframe(availability: Availability | null, symbol: string, current: string, order: readonly string[]): string {
  const info = availability?.get(symbol);
  if (!info || info.timeframes.has(current)) return current;
  return [...order].reverse().find((tf) => info.timeframes.has(tf)) ?? current;
}

/** The line under the dates, or null when nothing is known yet. */
export function availableText(availability: Availability | null, symbol: string, timeframe: string): string | null {
  if (!availability || !symbol) return null;
  const info = availability.get(symbol);
  if (!info) return `Pas encore de données officielles pour ${symbol}.`;
  const series = info.timeframes.get(timeframe);
  if (!series) return `Pas de données ${symbol} en ${timeframe} : disponibles en ${[...info.timeframes.keys()].join(', ')}.`;
  return `Données disponibles en ${timeframe} (UTC) : ${rangesTextFr(series.ranges)}.`;
}

const DAY_MS = 86_400_000;
const dayStart = (time: number) => Math.floor(time / DAY_MS) * DAY_MS;

/**
 * A preset counted back from the series' last candle (its UTC day is "today"), its start moved up
 * to the first candle's day when it would begin before the data; null when the whole preset lies
 * before the data (EU50's "Mois dernier": its only month is January 2006).
 */
export function presetFromData(preset: DatePreset, series: Pick<SeriesInfo, 'first' | 'last'>): { start: string; end: string } | null {
  const last = dayStart(series.last);
  const first = dayStart(series.first);
  const d = new Date(last);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  let start: number;
  let end = last;
  switch (preset) {
    case 'last7':
      start = last - 6 * DAY_MS;
      break;
    case 'last30':
      start = last - 29 * DAY_MS;
      break;
    case 'thisMonth':
      start = Date.UTC(y, m, 1);
      break;
    case 'lastMonth':
      start = Date.UTC(y, m - 1, 1);
      end = Date.UTC(y, m, 0);
      break;
  }
  if (end < first) return null;
  return { start: isoDay(Math.max(start, first)), end: isoDay(end) };
}
