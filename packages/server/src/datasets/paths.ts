import { parseTimeframe, TIMEFRAMES } from '@bt/core/catalogue';

/**
 * File names of the CSV library and of extractions (docs/product.md §2.3): `{symbol}_{timeframe}_{YYYY-MM}.csv`
 * for a month, `{symbol}_{timeframe}_{YYYYMMDD}_to_{YYYYMMDD}.csv` for a range. Library files live
 * at `{symbol}/{timeframe}/{name}` under the library root, with their Arrow IPC copy beside them.
 */

const SYMBOL = '[A-Z0-9]+(?:[-.][A-Z0-9]+)*';
const TF = TIMEFRAMES.map((t) => t.key).join('|');
const MONTH_FILE = new RegExp(`^(${SYMBOL})_(${TF})_(\\d{4})-(0[1-9]|1[0-2])\\.csv$`);

export function monthFileName(symbol: string, timeframe: string, month: string): string {
  return `${symbol}_${timeframe}_${month}.csv`;
}

export function libraryPath(symbol: string, timeframe: string, month: string): string {
  return `${symbol}/${timeframe}/${monthFileName(symbol, timeframe, month)}`;
}

export function ipcPathFor(csvPath: string): string {
  return csvPath.replace(/\.csv$/, '.arrow');
}

/** The parts of a library path, or null when it is not one (the caller answers 404). */
export function parseLibraryPath(path: string): { symbol: string; timeframe: string; month: string } | null {
  const parts = path.split('/');
  if (parts.length !== 3) return null;
  const match = MONTH_FILE.exec(parts[2]);
  if (!match || match[1] !== parts[0] || match[2] !== parts[1]) return null;
  return { symbol: match[1], timeframe: parseTimeframe(match[2]), month: `${match[3]}-${match[4]}` };
}

const compactDay = (day: string) => day.replaceAll('-', '');

export function rangeFileName(symbol: string, timeframe: string, startDay: string, endDay: string): string {
  return `${symbol}_${timeframe}_${compactDay(startDay)}_to_${compactDay(endDay)}.csv`;
}


/** Path of an extraction as the API names it (the owner's storage folder is implied). */
export const EXTRACTION_PREFIX = 'live/';
