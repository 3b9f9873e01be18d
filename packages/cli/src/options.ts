// Parsing of option values the CLI owns (dates, pip distances, counts); every failure is a usage
// error naming the flag. Candle-reading options are checked by core's own normalisers.
import { normalizeCandleOptions, type ReadCandlesOptions } from '@bt/core/candles';
import { parseNumberText } from '@bt/core/params';
import { asUsage, quoted, UsageError } from './errors.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * A UTC date `YYYY-MM-DD` or date and time `YYYY-MM-DDTHH:MM[:SS]` (UTC unless an offset is
 * written) as ms. A bare date is the start of that day for `--from` and its last millisecond for
 * `--to`, so both ends are inclusive whole days.
 */
export function parseDate(flag: string, text: string, edge: 'start' | 'end'): number {
  const m = DATE.exec(String(text).trim());
  const bad = () => new UsageError(`invalid ${flag}: ${quoted(text)} (expected a UTC date YYYY-MM-DD or YYYY-MM-DDTHH:MM)`);
  if (!m) throw bad();
  const [y, mo, d, h = '0', mi = '0', s = '0', frac = '0', zone] = m.slice(1);
  const ms = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s, +frac.padEnd(3, '0'));
  const back = new Date(ms);
  if (back.getUTCFullYear() !== +y || back.getUTCMonth() !== +mo - 1 || back.getUTCDate() !== +d || +h > 23 || +mi > 59 || +s > 59) throw bad();
  let offset = 0;
  if (zone && zone.toUpperCase() !== 'Z') offset = asUsage(() => normalizeCandleOptions({ utcOffset: zone }).utcOffsetMinutes!, flag) * 60_000;
  const timeGiven = m[4] !== undefined;
  return ms - offset + (!timeGiven && edge === 'end' ? 86_400_000 - 1 : 0);
}

export function parsePeriod(from: string | undefined, to: string | undefined): { from?: number; to?: number } {
  const f = from === undefined ? undefined : parseDate('--from', from, 'start');
  const t = to === undefined ? undefined : parseDate('--to', to, 'end');
  if (f !== undefined && t !== undefined && t < f) throw new UsageError(`invalid --to: ${quoted(to)} (expected a date on or after --from ${from})`);
  return { ...(f !== undefined ? { from: f } : {}), ...(t !== undefined ? { to: t } : {}) };
}

/**
 * A number as people write it (`20`, `+0.5`, `1e3`, a decimal comma `20,5`: core's
 * parseNumberText), else NaN. JavaScript's Number() also reads `0x10` (16), `0b11`, `0o7` and
 * `Infinity`: `--sl 0x10` ran with a 16-pip stop, said nowhere.
 */
export function decimalNumber(text: string): number {
  return parseNumberText(String(text)) ?? Number.NaN;
}

/**
 * The pip distances a stop or a target may have: the workbook's folder name writes the stop with 4
 * decimals and refuses a million pips or more (core's resultFolderName), which used to be found only
 * after the file was read and the engine had run (exit 1, `invalid slPips`).
 */
export const MIN_PIPS = 0.0001;
export const MAX_PIPS = 999_999;
const PIPS_RANGE = `a number of pips from ${MIN_PIPS} to 999,999`;

/** Whether `value` is a distance in pips bt runs (see MIN_PIPS). */
export const pipsInRange = (value: number) => Number.isFinite(value) && value >= MIN_PIPS - 1e-12 && value <= MAX_PIPS;

/** A distance in pips (a decimal comma is accepted, as in the web form), from MIN_PIPS to MAX_PIPS. */
export function parsePips(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = decimalNumber(text);
  if (!pipsInRange(value)) throw new UsageError(`invalid ${flag}: ${quoted(text)} (expected ${PIPS_RANGE})`);
  return value;
}

/** The sentence of a pips value out of range, for lists (bt optimize's --sl 10,20,30). */
export const pipsExpected = PIPS_RANGE;

/**
 * The most worker threads `--concurrency` starts (bt optimize, walk-forward, batch): each holds its
 * own copy of the candles and about 14 MB of its own, and the work is CPU-bound, so more threads
 * than cores only cost; `--concurrency 100000` started one thread per combination (2.8 GB for 200).
 */
export const MAX_WORKERS = 64;

/** `--concurrency N` (1 to MAX_WORKERS), else the available cores up to MAX_WORKERS. */
export function parseConcurrency(text: string | undefined, cores: number): number {
  if (text === undefined) return Math.max(1, Math.min(cores, MAX_WORKERS));
  const value = parsePositiveInt('--concurrency', text);
  if (value > MAX_WORKERS) throw new UsageError(`invalid --concurrency: ${quoted(text)} (expected a whole number from 1 to ${MAX_WORKERS})`);
  return value;
}

export function parsePositiveInt(flag: string, text: string): number {
  const value = Number(text);
  if (!/^\s*\d+\s*$/.test(String(text)) || !Number.isSafeInteger(value) || value < 1) throw new UsageError(`invalid ${flag}: ${quoted(text)} (expected a whole number ≥ 1)`);
  return value;
}



/** The candle-reading flags every command that reads candles shares (docs/csv-format.md names them). */
export interface ReadFlags {
  format?: string;
  utcOffset?: string;
  duplicates?: string;
  timeframe?: string;
  symbol?: string;
}

/** Core's reader option names → the flags that set them. */
const FLAGS: Readonly<Record<string, string>> = { format: '--format', utcOffset: '--utc-offset', duplicates: '--duplicates', timeframe: '--timeframe' };

/** Reader options from the flags, checked now by core's normaliser so a typo is a usage error before any file is read. */
export function readOptions(flags: ReadFlags): ReadCandlesOptions {
  const options: ReadCandlesOptions = {};
  if (flags.format !== undefined) options.format = flags.format.trim().toLowerCase() as ReadCandlesOptions['format'];
  if (flags.utcOffset !== undefined) options.utcOffset = flags.utcOffset;
  if (flags.duplicates !== undefined) options.duplicates = flags.duplicates as ReadCandlesOptions['duplicates'];
  if (flags.timeframe !== undefined) options.timeframe = flags.timeframe;
  let normalized: ReturnType<typeof normalizeCandleOptions>;
  try {
    normalized = normalizeCandleOptions(options);
  } catch (error) {
    const message = (error as Error).message;
    const name = /^invalid (\w+):/.exec(message)?.[1];
    throw new UsageError(name && FLAGS[name] ? message.replace(`invalid ${name}:`, `invalid ${FLAGS[name]}:`) : message);
  }
  if (normalized.timeframe) options.timeframe = normalized.timeframe;
  return options;
}

/**
 * `--format` names a layout of CSV text (and of a workbook's first sheet, read as CSV) or
 * freqtrade's JSON. A layout the file's kind does not read is a usage error naming the flag and
 * the file (decided here, docs/cli.md "Candle files"): `freqtrade` for a .csv or .txt file was
 * core's "use readCandlesJson or readCandles", exit 1; a CSV layout (`official`...) for a .json
 * file, or any layout for an Arrow file, was silently ignored, so `--format official` seemed to
 * check a file it never looked at. A plan says it of its field.
 */
export function checkFormatFor(path: string, options: ReadCandlesOptions): void {
  const layout = options.format;
  if (layout === undefined || layout === 'auto') return;
  const quoted = JSON.stringify(layout);
  if (/\.(arrow|ipc|feather|arrows)$/i.test(path)) {
    throw new UsageError(`invalid --format: ${quoted} for ${path} (an Arrow file holds its own typed columns and is read without a layout: leave --format out, or auto)`);
  }
  if (layout === 'freqtrade' && /\.(csv|txt)$/i.test(path)) {
    throw new UsageError(`invalid --format: "freqtrade" for ${path} (freqtrade files are JSON arrays in .json files; a .csv or .txt file is CSV: another layout, or auto)`);
  }
  if (layout === 'freqtrade' && /\.xlsx$/i.test(path)) {
    throw new UsageError(`invalid --format: "freqtrade" for ${path} (freqtrade files are JSON arrays in .json files; a workbook is read with the CSV layouts: another layout, or auto)`);
  }
  if (layout !== 'freqtrade' && /\.json$/i.test(path)) {
    throw new UsageError(`invalid --format: ${quoted} for ${path} (a .json file is read as freqtrade's JSON array [[epoch_ms, open, high, low, close, volume], ...]; ${quoted} is a CSV layout, for .csv, .txt and .xlsx files: freqtrade, or auto)`);
  }
}
