// From a header line to a column layout: which field holds the time, the prices, the volume and
// the extra numeric columns; or the header problems, each with the official name to use.
import type { ColumnNames } from './builder.js';
import type { CandleFormat } from './options.js';
import { at, shortText, type CandleProblem } from './problems.js';

export const ROLE_TIME = 0;
// 1..5: Open, High, Low, Close, Volume (the index into ColumnNames)
export const ROLE_DATE = 6;
export const ROLE_CLOCK = 7;
export const ROLE_SKIP = 8;
/** Extra column k has role ROLE_EXTRA + k. */
export const ROLE_EXTRA = 16;

/**
 * Columns a header may have (docs/csv-format.md, `too_many_columns`): a candle file has six and a
 * few indicators. Past this the header is refused before anything is built per column: a header
 * of a million names made a million problems, spread as arguments until the stack overflowed,
 * and a million columns would each get a Float64Array per row of the file.
 */
export const MAX_COLUMNS = 256;

export interface Layout {
  readonly format: Exclude<CandleFormat, 'freqtrade'>;
  /** Role of each field, by position. */
  readonly roles: Int32Array;
  /** Header text of each field (trimmed). */
  readonly headers: readonly string[];
  /** Names of the time and OHLCV columns as the file writes them (for messages). */
  readonly names: ColumnNames;
  /** Extra numeric columns kept, in file order, and their field positions. */
  readonly extraNames: string[];
  readonly extraFields: number[];
  /** Layouts whose times are wall-clock times without an offset (they need utcOffset). */
  readonly naive: boolean;
}

const OFFICIAL = ['Datetime', 'Open', 'High', 'Low', 'Close', 'Volume'] as const;
const CUSTOM = ['time', 'open', 'high', 'low', 'close', 'volume'] as const;
/** The plain layout: these names, or the same six columns in this order without a header row. */
export const PLAIN = ['Time', 'Open', 'High', 'Low', 'Close', 'Volume'] as const;
const PRICES = ['Open', 'High', 'Low', 'Close'] as const;

/** Names people give the official columns, compared lowercase without spaces, _ - < > ( ). */
const ALIASES: Record<string, number> = {};
const alias = (index: number, ...names: string[]) => names.forEach((n) => (ALIASES[n] = index));
alias(0, 'date', 'datetime', 'time', 'timestamp', 'opentime', 'datetimeutc', 'timeutc', 'dateutc', 'gmttime', 'localtime', 'ts', 'dt', 'day', 'starttime', 'candletime', 'timegmt', 'datum', 'heure', 'dateheure');
alias(1, 'open', 'o', 'openprice', 'opening', 'openbid', 'openask', 'ouverture');
alias(2, 'high', 'h', 'highprice', 'max', 'highest', 'highbid', 'highask', 'haut', 'plushaut');
alias(3, 'low', 'l', 'lowprice', 'min', 'lowest', 'lowbid', 'lowask', 'bas', 'plusbas');
alias(4, 'close', 'c', 'closeprice', 'last', 'closing', 'closebid', 'closeask', 'cloture', 'clôture', 'fermeture');
alias(5, 'volume', 'vol', 'v', 'tickvol', 'tickvolume', 'volumes', 'basevolume', 'realvolume');

function aliasKey(name: string): string {
  return name.toLowerCase().replace(/[\s_\-<>()]/g, '');
}

export interface HeaderResult {
  layout?: Layout;
  problems: CandleProblem[];
  warnings: CandleProblem[];
}

function problem(code: CandleProblem['code'], column: string | undefined, message: string, fix: string, value?: string): CandleProblem {
  return { code, message: `${at(1, column)}: ${message}`, line: 1, column, value, fix };
}

/** Field positions of the time and OHLCV columns for one layout, or undefined if the header does not have it. */
interface Match {
  format: Exclude<CandleFormat, 'freqtrade'>;
  time: number;
  clock: number;
  prices: [number, number, number, number, number];
  naive: boolean;
}

function exactly(headers: readonly string[], names: readonly string[]): number[] {
  return names.map((n) => headers.indexOf(n));
}

function firstOf(headers: readonly string[], ...names: string[]): number {
  for (const n of names) {
    const i = headers.indexOf(n);
    if (i >= 0) return i;
  }
  return -1;
}

function match(headers: readonly string[], format: Exclude<CandleFormat, 'freqtrade'>): Match | undefined {
  const full = (positions: number[]) => positions.every((p) => p >= 0);
  switch (format) {
    case 'official':
    case 'custom': {
      const p = exactly(headers, format === 'official' ? OFFICIAL : CUSTOM);
      return full(p) ? { format, time: p[0], clock: -1, prices: [p[1], p[2], p[3], p[4], p[5]], naive: false } : undefined;
    }
    case 'plain': {
      // Time first: backtrader's Date,Time,Open... also holds these six names.
      const p = exactly(headers, PLAIN);
      return full(p) && p[0] === 0 ? { format, time: p[0], clock: -1, prices: [p[1], p[2], p[3], p[4], p[5]], naive: true } : undefined;
    }
    case 'backtesting': {
      const p = exactly(headers, ['Open', 'High', 'Low', 'Close', 'Volume']);
      return headers[0] === '' && full(p) ? { format, time: 0, clock: -1, prices: [p[0], p[1], p[2], p[3], p[4]], naive: true } : undefined;
    }
    case 'backtrader': {
      const p = exactly(headers, ['Date', 'Open', 'High', 'Low', 'Close', 'Volume']);
      return full(p) ? { format, time: p[0], clock: headers.indexOf('Time'), prices: [p[1], p[2], p[3], p[4], p[5]], naive: true } : undefined;
    }
    case 'metatrader': {
      const date = firstOf(headers, 'Date', '<DATE>');
      const clock = firstOf(headers, 'Time', '<TIME>');
      const prices = PRICES.map((n) => firstOf(headers, n, `<${n.toUpperCase()}>`));
      const volume = firstOf(headers, 'Volume', '<VOL>', 'Tickvol', 'TickVolume', '<TICKVOL>');
      const p = [date, ...prices, volume];
      return full(p) ? { format, time: date, clock, prices: [p[1], p[2], p[3], p[4], p[5]], naive: true } : undefined;
    }
  }
}

/** Layouts recognised without being named, by the columns only they have. */
function autoMatch(headers: readonly string[]): Match | undefined {
  const has = (n: string) => headers.includes(n);
  const candidates: Exclude<CandleFormat, 'freqtrade'>[] = ['official', 'custom'];
  if (headers[0] === '') candidates.push('backtesting');
  if (has('OpenInterest')) candidates.push('backtrader');
  if (has('<DATE>') || has('Tickvol') || has('TickVolume') || has('<TICKVOL>') || has('Spread') || has('<SPREAD>')) candidates.push('metatrader');
  candidates.push('plain');
  for (const format of candidates) {
    const m = match(headers, format);
    if (m) return m;
  }
  return undefined;
}

/** Header problems against the official (or custom) names: wrong names with their fix, then missing columns. */
function explain(headers: readonly string[], format: 'auto' | Exclude<CandleFormat, 'freqtrade'>): CandleProblem[] {
  const countOf = (names: readonly string[]) => names.filter((n) => headers.includes(n)).length;
  const target = format === 'custom' || (format === 'auto' && countOf(CUSTOM) > countOf(OFFICIAL)) ? CUSTOM : OFFICIAL;
  const header = target === OFFICIAL ? `official header is ${OFFICIAL.join(',')}` : `custom-upload header is ${CUSTOM.join(',')}`;
  const problems: CandleProblem[] = [];
  const used = new Set<number>();
  target.forEach((name, k) => {
    if (headers.includes(name)) return;
    const found = headers.findIndex((h, i) => !used.has(i) && !(target as readonly string[]).includes(h) && ALIASES[aliasKey(h)] === k);
    if (found >= 0) {
      used.add(found);
      const h = headers[found];
      const caseOnly = h.toLowerCase() === name.toLowerCase();
      problems.push(problem('wrong_column_name', h, `column ${JSON.stringify(shortText(h))} should be named ${name}`,
        `rename the column ${shortText(h)} to ${name}${caseOnly ? ' (headers are case-sensitive)' : ''}; the ${header}`, h));
    } else {
      problems.push(problem('missing_column', name, `the required column ${name} is missing`,
        name === 'Volume' || name === 'volume'
          ? `add a ${name} column (write 0 when the volume is unknown); the ${header}`
          : `add a ${name} column; the ${header}`));
    }
  });
  if (format !== 'auto' && format !== 'official' && format !== 'custom') {
    problems.push(problem('missing_column', undefined, `the header does not have the columns of the ${format} layout`,
      `check the header, or load the file with format: 'auto'`));
  }
  return problems;
}

/**
 * The layout of a file without a header row (plain format): its six fields read by position as
 * Time, Open, High, Low, Close, Volume. Messages name the columns `Time`...`Volume` as assumed.
 */
export function headerlessLayout(): Layout {
  return {
    format: 'plain',
    roles: Int32Array.from([ROLE_TIME, 1, 2, 3, 4, 5]),
    headers: [...PLAIN],
    names: [...PLAIN] as unknown as ColumnNames,
    extraNames: [],
    extraFields: [],
    naive: true,
  };
}

/** Resolves the header line into a layout, or explains what is wrong with it. */
export function resolveLayout(headers: readonly string[], format: 'auto' | Exclude<CandleFormat, 'freqtrade'>): HeaderResult {
  const warnings: CandleProblem[] = [];
  const problems: CandleProblem[] = [];
  if (headers.length > MAX_COLUMNS) {
    return {
      problems: [problem('too_many_columns', undefined, `the header has ${headers.length} columns; bt reads at most ${MAX_COLUMNS}`,
        `keep ${OFFICIAL.join(',')} and the indicator columns you need (at most ${MAX_COLUMNS} in all); if the header is a single long line, check the separator`,
        String(headers.length))],
      warnings,
    };
  }
  const seen = new Set<string>();
  headers.forEach((h, i) => {
    if (h === '' && i === 0) return;
    if (h !== '' && seen.has(h)) {
      problems.push(problem('duplicate_column', h, `the column ${shortText(h)} appears more than once`, `keep one ${shortText(h)} column and delete or rename the others`, h));
    }
    seen.add(h);
  });
  if (problems.length) return { problems, warnings };
  const m = format === 'auto' ? autoMatch(headers) : match(headers, format);
  if (!m) return { problems: explain(headers, format), warnings };

  const roles = new Int32Array(headers.length).fill(ROLE_SKIP);
  roles[m.time] = m.clock >= 0 ? ROLE_DATE : ROLE_TIME;
  if (m.clock >= 0) roles[m.clock] = ROLE_CLOCK;
  m.prices.forEach((field, k) => (roles[field] = k + 1));
  const extraNames: string[] = [];
  const extraFields: number[] = [];
  headers.forEach((h, i) => {
    if (roles[i] !== ROLE_SKIP) return;
    if (h === '') {
      warnings.push(problem('dropped_column', `#${i + 1}`, `column ${i + 1} has no name and is ignored`, 'give the column a name to keep it'));
      return;
    }
    roles[i] = ROLE_EXTRA + extraNames.length;
    extraNames.push(h);
    extraFields.push(i);
  });
  const name = (i: number) => (headers[i] === '' ? '(index)' : headers[i]);
  const names: ColumnNames = [
    m.clock >= 0 ? `${name(m.time)}+${name(m.clock)}` : name(m.time),
    name(m.prices[0]), name(m.prices[1]), name(m.prices[2]), name(m.prices[3]), name(m.prices[4]),
  ];
  return { layout: { format: m.format, roles, headers, names, extraNames, extraFields, naive: m.naive }, problems, warnings };
}

export { OFFICIAL as OFFICIAL_HEADER };
