// The official CSV: Datetime as `YYYY-MM-DD HH:MM:SS+00:00`, numbers in their shortest exact form.
// Its text cells (the column names, the symbol row) follow the rule of every CSV bt writes:
// formula-looking text is neutralised (docs/csv-format.md "Column names that look like formulas").
import { csvText } from '../format/csv-text.js';
import { civilFromDays, DAY_MS, formatClock, formatDate } from './datetime.js';
import type { Candles } from './types.js';

export interface WriteCsvOptions {
  /** Adds the optional second header row holding the symbol (`,EURUSD,EURUSD,...`). */
  symbolRow?: boolean;
  /** Line ending, `\n` by default. */
  newline?: '\n' | '\r\n';
}

/**
 * The shortest decimal that reads back as the same double (ECMAScript Number::toString), so a
 * written file parses to identical Float64 values; NaN (an extra column's gap) is an empty cell.
 */
export function formatCsvNumber(value: number): string {
  if (value !== value) return '';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  return String(value);
}

/** The official CSV in chunks of `rowsPerChunk` rows (header first), so big series stream to disk. */
export function* candlesCsvChunks(candles: Candles, options: WriteCsvOptions = {}, rowsPerChunk = 20000): Generator<string> {
  const nl = options.newline ?? '\n';
  if (nl !== '\n' && nl !== '\r\n') throw new Error(`invalid newline: ${JSON.stringify(nl)} (expected \\n or \\r\\n)`);
  const extraNames = Object.keys(candles.extra);
  const extra = extraNames.map((n) => candles.extra[n]);
  let head = ['Datetime', 'Open', 'High', 'Low', 'Close', 'Volume', ...extraNames].map(csvText).join(',') + nl;
  if (options.symbolRow) {
    if (!candles.symbol) throw new Error('invalid symbolRow: the candles have no symbol to write');
    head += ['', ...Array(5).fill(csvText(candles.symbol)), ...extra.map(() => '')].join(',') + nl;
  }
  yield head;
  const { time, open, high, low, close, volume } = candles;
  let lastDay = NaN;
  let datePrefix = '';
  let lines: string[] = [];
  for (let i = 0; i < candles.length; i++) {
    const t = time[i];
    const day = Math.floor(t / DAY_MS);
    if (day !== lastDay) {
      lastDay = day;
      const [y, m, d] = civilFromDays(day);
      datePrefix = `${formatDate(y, m, d)} `;
    }
    let row = `${datePrefix}${formatClock(t - day * DAY_MS)}+00:00,${formatCsvNumber(open[i])},${formatCsvNumber(high[i])},${formatCsvNumber(low[i])},${formatCsvNumber(close[i])},${formatCsvNumber(volume[i])}`;
    for (let k = 0; k < extra.length; k++) row += `,${formatCsvNumber(extra[k][i])}`;
    lines.push(row);
    if (lines.length === rowsPerChunk) {
      yield lines.join(nl) + nl;
      lines = [];
    }
  }
  if (lines.length) yield lines.join(nl) + nl;
}

/** The whole official CSV as one string. */
export function candlesToCsv(candles: Candles, options: WriteCsvOptions = {}): string {
  return [...candlesCsvChunks(candles, options)].join('');
}
