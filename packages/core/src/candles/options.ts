import { parseTimeframe } from '../catalogue/timeframes.js';
import type { TimeframeKey } from '../catalogue/types.js';

/**
 * Column layouts bt reads. `official` is the product's format (docs/product.md §3.5); the others are
 * real-world shapes accepted only with what they lack stated (a UTC offset for naive times).
 */
export type CandleFormat = 'official' | 'custom' | 'plain' | 'metatrader' | 'backtesting' | 'backtrader' | 'freqtrade';

export const CANDLE_FORMATS: readonly CandleFormat[] = ['official', 'custom', 'plain', 'metatrader', 'backtesting', 'backtrader', 'freqtrade'];

export interface ReadCandlesOptions {
  /** Column layout; `auto` (default) recognises each layout by its header. */
  format?: 'auto' | CandleFormat;
  /**
   * UTC offset of times written without one (`+02:00`, `-05:00`, `+0530`, `Z`, `UTC`, or minutes
   * east of UTC). Times that carry their own offset keep it. Without this option a naive time is an
   * error: bt never guesses a time zone.
   */
  utcOffset?: string | number;
  /** `error` (default) refuses repeated times; `keep-first` keeps the first row of each time. */
  duplicates?: 'error' | 'keep-first';
  /** Symbol of the series; wins over a symbol row in the file. */
  symbol?: string;
  /** Expected timeframe; otherwise inferred from the most common step. */
  timeframe?: TimeframeKey | string;
  /** How many problems to list before only counting them (default 20). */
  maxProblems?: number;
  /** File name shown in error messages. */
  file?: string;
}

export interface NormalizedReadOptions {
  format: 'auto' | CandleFormat;
  /** Minutes east of UTC for naive times, undefined when not stated. */
  utcOffsetMinutes: number | undefined;
  duplicates: 'error' | 'keep-first';
  symbol: string | undefined;
  timeframe: TimeframeKey | undefined;
  maxProblems: number;
  file: string | undefined;
}

const KEYS = new Set(['format', 'utcOffset', 'duplicates', 'symbol', 'timeframe', 'maxProblems', 'file']);

function invalid(name: string, value: unknown, expected: string): Error {
  const shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return new Error(`invalid ${name}: ${shown} (expected ${expected})`);
}

/** Parses a UTC offset into minutes east of UTC; throws `invalid utcOffset: "abc"`. */
export function parseUtcOffset(value: string | number): number {
  const expected = 'an offset such as +02:00, -05:00, +0530, Z or UTC, or minutes east of UTC';
  if (typeof value === 'number') {
    if (Number.isInteger(value) && Math.abs(value) <= 14 * 60) return value;
    throw invalid('utcOffset', value, expected);
  }
  if (typeof value !== 'string') throw invalid('utcOffset', value, expected);
  const text = value.trim();
  if (/^(z|utc|gmt)$/i.test(text)) return 0;
  const m = /^(?:UTC|GMT)?([+-])(\d{2})(?::?(\d{2}))?$/i.exec(text);
  if (!m) throw invalid('utcOffset', value, expected);
  const hours = Number(m[2]);
  const minutes = m[3] === undefined ? 0 : Number(m[3]);
  if (hours > 14 || minutes > 59) throw invalid('utcOffset', value, expected);
  return (m[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

/** Formats minutes east of UTC as `+HH:MM`. */
export function formatUtcOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** Checks and normalises reader options (Observable Plot style errors: `invalid <name>: <value>`). */
export function normalizeCandleOptions(options: ReadCandlesOptions = {}): NormalizedReadOptions {
  if (options === null || typeof options !== 'object') throw invalid('options', options, 'an object');
  for (const key of Object.keys(options)) {
    if (!KEYS.has(key)) throw new Error(`invalid option: ${key} (expected one of ${[...KEYS].join(', ')})`);
  }
  const { format = 'auto', utcOffset, duplicates = 'error', symbol, timeframe, maxProblems = 20, file } = options;
  if (format !== 'auto' && !CANDLE_FORMATS.includes(format)) {
    throw invalid('format', format, `auto or one of ${CANDLE_FORMATS.join(', ')}`);
  }
  if (duplicates !== 'error' && duplicates !== 'keep-first') throw invalid('duplicates', duplicates, 'error or keep-first');
  if (symbol !== undefined && (typeof symbol !== 'string' || symbol.trim() === '')) {
    throw invalid('symbol', symbol, 'a non-empty string');
  }
  if (!Number.isInteger(maxProblems) || maxProblems < 1) throw invalid('maxProblems', maxProblems, 'a positive integer');
  return {
    format,
    utcOffsetMinutes: utcOffset === undefined ? undefined : parseUtcOffset(utcOffset),
    duplicates,
    symbol: symbol?.trim(),
    timeframe: timeframe === undefined ? undefined : parseTimeframe(timeframe),
    maxProblems,
    file,
  };
}
