import { parseTimeframe } from '../catalogue/timeframes.js';

/**
 * Result folder names: `{PAIR}_{TF}_{strategy}_{YYYYMMDD}-{YYYYMMDD}_sl{N}` (docs/architecture.md §2), `_sl0`
 * when the stop is internal. Every part is checked against a small alphabet so the name is a
 * safe single path segment on every file system and in a URL: no separators, no `..`, no
 * spaces, nothing a shell or Windows treats specially.
 */
export type SlMode = 'internal' | 'external';

export interface ResultFolderParts {
  /** Instrument, upper-cased: letters, digits, '-' and '.' inside (EURUSD, BTC-USD). */
  readonly symbol: string;
  /** Timeframe: a catalogue key or alias (M5, 15M, h1...), or another short code of letters and digits. */
  readonly timeframe: string;
  /** Strategy key or personal strategy id: words of letters, digits and '-', joined by single '_'. */
  readonly strategy: string;
  /** First and last day of the period (UTC): Date, ms since epoch, or an ISO 8601 string. */
  readonly from: Date | number | string;
  readonly to: Date | number | string;
  /** Stop size in pips for an external stop (> 0, up to 4 decimals); ignored when internal. */
  readonly slPips?: number | null;
  readonly slMode?: SlMode;
}

export interface ParsedResultFolder {
  readonly symbol: string;
  readonly timeframe: string;
  readonly strategy: string;
  /** YYYY-MM-DD. */
  readonly from: string;
  readonly to: string;
  /** null when the folder carries no `sl` part. */
  readonly slPips: number | null;
  readonly slMode: SlMode | null;
  /** Anything after the `sl` part (e.g. a suffix that made the folder unique); null when none. */
  readonly suffix: string | null;
}

const SYMBOL = /^[A-Z0-9](?:[A-Z0-9.-]{0,30}[A-Z0-9])?$/;
const TIMEFRAME = /^[A-Z0-9]{1,8}$/;
const STRATEGY = /^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*(?:_[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*)*$/;
const MAX_STRATEGY = 120;
const FOLDER = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const MAX_FOLDER = 200;

function normaliseSymbol(value: string): string {
  const symbol = String(value ?? '').trim().toUpperCase();
  if (!SYMBOL.test(symbol)) throw new Error(`invalid symbol: ${JSON.stringify(value)} (letters, digits, and '-' or '.' inside; at most 32 characters)`);
  return symbol;
}

function normaliseTimeframe(value: string): string {
  const text = String(value ?? '').trim();
  try {
    return parseTimeframe(text);
  } catch {
    const upper = text.toUpperCase();
    if (!TIMEFRAME.test(upper)) throw new Error(`invalid timeframe: ${JSON.stringify(value)} (letters and digits only, at most 8)`);
    return upper;
  }
}

function normaliseStrategy(value: string): string {
  const strategy = String(value ?? '').trim();
  if (strategy.length > MAX_STRATEGY || !STRATEGY.test(strategy)) {
    throw new Error(`invalid strategy: ${JSON.stringify(value)} (words of letters, digits and '-' joined by '_'; at most ${MAX_STRATEGY} characters)`);
  }
  return strategy;
}

/** YYYYMMDD of a day given as Date, ms, or ISO string (its UTC calendar day). */
function compactDay(value: Date | number | string, name: string): string {
  let time: number;
  if (value instanceof Date) time = value.getTime();
  else if (typeof value === 'number') time = value;
  else if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value.trim())) time = Date.parse(value.trim().length === 10 ? `${value.trim()}T00:00:00Z` : value.trim());
  else time = Number.NaN;
  if (!Number.isFinite(time)) throw new Error(`invalid ${name}: ${JSON.stringify(value)} (a date: YYYY-MM-DD, ms or Date)`);
  const iso = new Date(time).toISOString();
  if (!/^\d{4}-/.test(iso)) throw new Error(`invalid ${name}: ${JSON.stringify(value)} (year out of range)`);
  return iso.slice(0, 10).replaceAll('-', '');
}

function slNumber(slPips: number | null | undefined, slMode: SlMode): string {
  if (slMode === 'internal') return '0';
  if (typeof slPips !== 'number' || !Number.isFinite(slPips) || slPips <= 0 || slPips >= 1e6) {
    throw new Error(`invalid slPips: ${slPips} (an external stop needs a size in pips > 0; use slMode 'internal' for _sl0)`);
  }
  const text = Number(slPips.toFixed(4)).toString();
  if (text === '0') throw new Error(`invalid slPips: ${slPips} (rounds to 0 at 4 decimals)`);
  return text;
}

/** `{PAIR}_{TF}_{strategy}_{YYYYMMDD}-{YYYYMMDD}_sl{N}`; throws `invalid <part>: <value>` on an unsafe or malformed part. */
export function resultFolderName(parts: ResultFolderParts): string {
  const slMode = parts.slMode ?? 'external';
  if (slMode !== 'internal' && slMode !== 'external') throw new Error(`invalid slMode: ${JSON.stringify(slMode)} (internal or external)`);
  const from = compactDay(parts.from, 'from');
  const to = compactDay(parts.to, 'to');
  if (from > to) throw new Error(`invalid period: ${from}-${to} (from is after to)`);
  const folder = `${normaliseSymbol(parts.symbol)}_${normaliseTimeframe(parts.timeframe)}_${normaliseStrategy(parts.strategy)}_${from}-${to}_sl${slNumber(parts.slPips, slMode)}`;
  if (folder.length > MAX_FOLDER) throw new Error(`invalid result folder: ${folder.length} characters (at most ${MAX_FOLDER})`);
  return folder;
}

/** Whether `folder` is one safe path segment of the folder alphabet (no separators, no `..`). */
export function isSafeFolderName(folder: string): boolean {
  return typeof folder === 'string' && folder.length <= MAX_FOLDER && FOLDER.test(folder) && !folder.includes('..');
}

/** `{folder}.xlsx`; throws when the folder name is not a safe single segment. */
export function workbookFileName(folder: string): string {
  if (!isSafeFolderName(folder)) throw new Error(`invalid result folder: ${JSON.stringify(folder)}`);
  return `${folder}.xlsx`;
}

const DATE_RANGE = /^(\d{4})-?(\d{2})-?(\d{2})-(\d{4})-?(\d{2})-?(\d{2})$/;
const SL_PART = /^sl(\d+(?:\.\d+)?)$/i;

function isoDay(year: string, month: string, day: string): string | null {
  const iso = `${year}-${month}-${day}`;
  const time = Date.parse(`${iso}T00:00:00Z`);
  return Number.isFinite(time) && new Date(time).toISOString().startsWith(iso) ? iso : null;
}

/**
 * The parts of a result folder name, tolerant as the pins need (docs/product.md §2.3): the strategy is
 * every word between the timeframe and the date range (strategy keys contain '_'), the date
 * range is the last `YYYYMMDD-YYYYMMDD` word, the `sl` part may be missing, and words after it
 * are kept as `suffix`. Case of pair and timeframe is normalised. Throws `invalid result folder`.
 */
export function parseResultFolderName(folder: string): ParsedResultFolder {
  const text = String(folder ?? '').trim();
  const fail = (why: string): never => {
    throw new Error(`invalid result folder: ${JSON.stringify(folder)} (${why}; expected PAIR_TF_strategy_YYYYMMDD-YYYYMMDD_slN)`);
  };
  if (!isSafeFolderName(text)) fail('unsafe characters');
  const words = text.split('_');
  let dates = -1;
  for (let i = words.length - 1; i >= 3; i--) {
    if (DATE_RANGE.test(words[i])) {
      dates = i;
      break;
    }
  }
  if (dates < 0) fail('no date range after pair, timeframe and strategy');
  const m = DATE_RANGE.exec(words[dates])!;
  const from = isoDay(m[1], m[2], m[3]);
  const to = isoDay(m[4], m[5], m[6]);
  if (!from || !to) return fail('not a calendar date');
  const strategy = words.slice(2, dates).join('_');
  if (!words[0] || !words[1] || !strategy) fail('empty pair, timeframe or strategy');
  let rest = words.slice(dates + 1);
  let slPips: number | null = null;
  if (rest.length > 0 && SL_PART.test(rest[0])) {
    slPips = Number(SL_PART.exec(rest[0])![1]);
    rest = rest.slice(1);
  }
  return {
    symbol: words[0].toUpperCase(),
    timeframe: words[1].toUpperCase(),
    strategy,
    from,
    to,
    slPips,
    slMode: slPips === null ? null : slPips === 0 ? 'internal' : 'external',
    suffix: rest.length > 0 ? rest.join('_') : null,
  };
}
