// Reading a candle file for a command: core's reader, plus the CLI's rule for the symbol and the
// timeframe (flag, then the data, then the file name `{symbol}_{timeframe}_...`).
import { basename, extname } from 'node:path';
import { CandleFileError, type CandleFile, type ReadCandlesOptions } from '@bt/core/candles';
import { compactSymbol, findSymbol, parseTimeframe, type TimeframeKey } from '@bt/core/catalogue';
import { readCandlesFile } from '@bt/core/node';
import { fileError, isFsError, RunError } from './errors.js';
import { checkFormatFor, readOptions, type ReadFlags } from './options.js';

export type Source = 'flag' | 'data' | 'file name';

export interface LoadedData {
  readonly path: string;
  readonly file: CandleFile;
  readonly symbol: string | undefined;
  readonly symbolFrom: Source | undefined;
  readonly timeframe: TimeframeKey | undefined;
  readonly timeframeFrom: Source | undefined;
  /** Reading and checking the file, ms. */
  readonly loadMs: number;
  /** The reader's warnings (message with line and column), then the CLI's. */
  readonly warnings: readonly string[];
}

/** C0 and C1 control characters and DEL. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

const TIMEFRAME_WORD = /^(M1|M5|M15|M30|H1|H4|D1|D|1M|5M|15M|30M|1H|4H|1D)$/i;

/** A catalogue symbol in its canonical spelling, else the text upper-cased without separators. */
export function canonicalSymbol(text: string): string {
  return findSymbol(text)?.symbol ?? compactSymbol(text);
}

/**
 * `EURUSD_H1_2017-2018.csv` → EURUSD, H1; `EURUSD_15M.csv` → EURUSD, M15; `ETH_BTC-5m.json` →
 * ETH-BTC, M5: the symbol is everything before the first word that names a timeframe.
 */
export function nameParts(path: string): { symbol?: string; timeframe?: TimeframeKey } {
  const words = basename(path, extname(path)).split(/[_-]/);
  const k = words.findIndex((w, i) => i > 0 && TIMEFRAME_WORD.test(w));
  if (k < 1) return {};
  return { symbol: canonicalSymbol(words.slice(0, k).join('_')), timeframe: parseTimeframe(words[k]) };
}

/** Core's reader errors and file system errors as exit-1 errors with the path in the message. */
export function readFailure(path: string, error: unknown): Error {
  if (error instanceof CandleFileError) return new RunError(error.message, { cause: error });
  if (isFsError(error)) return new RunError(fileError(path, error).message, { cause: error });
  return new RunError(error instanceof Error ? error.message : String(error), { cause: error });
}

export interface LoadOptions {
  readonly maxProblems?: number;
  readonly now?: () => number;
}

/** Reads a file with the command's flags (checked first: a bad flag is a usage error). */
export async function loadData(path: string, flags: ReadFlags, options: LoadOptions = {}): Promise<LoadedData> {
  const read = readOptions(flags);
  checkFormatFor(path, read);
  return loadCandles(path, read, flags.symbol, options);
}

/** Reads a file with reader options already checked (batch plans). */
export async function loadCandles(path: string, read: ReadCandlesOptions, symbolFlag: string | undefined, options: LoadOptions = {}): Promise<LoadedData> {
  const flagSymbol = symbolFlag !== undefined && symbolFlag.trim() !== '' ? canonicalSymbol(symbolFlag) : undefined;
  const now = options.now ?? (() => performance.now());
  const t0 = now();
  let file: CandleFile;
  try {
    file = await readCandlesFile(path, { ...read, ...(flagSymbol ? { symbol: flagSymbol } : {}), ...(options.maxProblems ? { maxProblems: options.maxProblems } : {}) });
  } catch (error) {
    throw readFailure(path, error);
  }
  const loadMs = now() - t0;
  const fromName = nameParts(path);
  const warnings = file.warnings.map((w) => `${path}: ${w.message}`);

  let symbol: string | undefined = flagSymbol;
  let symbolFrom: Source | undefined = flagSymbol ? 'flag' : undefined;
  // The file's symbol row is printed in titles and tables: control characters in it (a terminal
  // escape sequence that clears the screen or retitles the window) are not a symbol.
  const fileSymbol = file.symbol !== undefined && CONTROL.test(file.symbol) ? undefined : file.symbol;
  if (file.symbol !== undefined && fileSymbol === undefined) warnings.push(`${path}: the symbol row holds control characters; it is not used (give --symbol)`);
  if (!symbol && fileSymbol) [symbol, symbolFrom] = [canonicalSymbol(fileSymbol), 'data'];
  if (!symbol && fromName.symbol) [symbol, symbolFrom] = [fromName.symbol, 'file name'];

  let timeframe: TimeframeKey | undefined = file.timeframe;
  let timeframeFrom: Source | undefined = timeframe ? (read.timeframe ? 'flag' : 'data') : undefined;
  if (!timeframe && fromName.timeframe) [timeframe, timeframeFrom] = [fromName.timeframe, 'file name'];
  else if (timeframe && fromName.timeframe && fromName.timeframe !== timeframe && timeframeFrom === 'data') {
    warnings.push(`${path}: the file name says ${fromName.timeframe} but the candles are ${timeframe}; ${timeframe} is used`);
  }
  return { path, file, symbol, symbolFrom, timeframe, timeframeFrom, loadMs, warnings };
}
