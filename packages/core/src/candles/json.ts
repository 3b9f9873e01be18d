// freqtrade's JSON candles: [[epoch_ms, open, high, low, close, volume], ...], UTC by definition.
import { CandleBuilder, type ColumnNames } from './builder.js';
import { toBytes, type CandleFile } from './csv-read.js';
import { normalizeCandleOptions, type ReadCandlesOptions } from './options.js';
import { CandleFileError, quote } from './problems.js';
import type { Candles } from './types.js';

const NAMES: ColumnNames = ['date', 'open', 'high', 'low', 'close', 'volume'];

/** Reads a freqtrade JSON array of `[ms, open, high, low, close, volume]` rows; problems point at rows (1-based). */
export function readCandlesJson(input: string | Uint8Array | ArrayBuffer, options: ReadCandlesOptions = {}): CandleFile {
  const opts = normalizeCandleOptions(options);
  const text = typeof input === 'string' ? input : new TextDecoder().decode(toBytes(input));
  const fail = (message: string, fix: string, value?: string): never => {
    throw new CandleFileError([{ code: 'invalid_json', line: 1, message: `row 1: ${message}`, value, fix }], 0, opts.file);
  };
  if (text.trim() === '') {
    throw new CandleFileError([{ code: 'empty_file', line: 1, message: 'line 1: the file is empty', fix: 'export the candles again as [[epoch_ms, open, high, low, close, volume], ...]' }], 0, opts.file);
  }
  let rows: unknown;
  try {
    rows = JSON.parse(text);
  } catch (error) {
    return fail('the file is not valid JSON', 'export the candles again as [[epoch_ms, open, high, low, close, volume], ...]', (error as Error).message);
  }
  if (!Array.isArray(rows)) return fail('the JSON is not an array of candles', 'the file must be an array of [epoch_ms, open, high, low, close, volume] arrays');
  const n = rows.length;
  const builder = new CandleBuilder(n, [], opts, NAMES, 'row');
  const columns = [builder.time, builder.open, builder.high, builder.low, builder.close, builder.volume];
  for (let r = 0; r < n; r++) {
    const row = rows[r] as unknown;
    const k = builder.n;
    if (!Array.isArray(row) || row.length < 6) {
      if (builder.problems.wants('wrong_field_count')) {
        const got = jsonText(row);
        builder.problem('wrong_field_count', r + 1, undefined, got.slice(0, 40), `expected [epoch_ms, open, high, low, close, volume], got ${quote(got)}`,
          'every row must be an array of 6 numbers: epoch milliseconds (UTC), open, high, low, close, volume');
      } else builder.problems.count('wrong_field_count');
      continue;
    }
    let ok = true;
    for (let c = 0; c < 6; c++) {
      const v = row[c];
      if (typeof v === 'number' && Number.isFinite(v)) columns[c][k] = v;
      else {
        ok = false;
        const code = v === null || v === '' ? 'missing_value' : 'non_numeric';
        if (builder.problems.wants(code)) {
          builder.problem(code, r + 1, NAMES[c], String(v), code === 'missing_value' ? `the ${NAMES[c]} value is empty` : `${quote(String(v))} is not a number`,
            c === 0 ? 'write the time as epoch milliseconds (UTC)' : 'write a plain JSON number');
        } else builder.problems.count(code);
      }
    }
    if (ok) builder.commit(r + 1);
  }
  return { ...builder.finish(opts.symbol, 1), format: 'freqtrade' };
}

/**
 * A row as JSON text for a message. JSON.stringify recurses: a row nested a million arrays deep
 * (a few MB, which JSON.parse reads) overflowed the stack, a RangeError instead of the problem.
 */
function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return Array.isArray(value) ? `an array nested too deep to show` : String(value);
  }
}

/** freqtrade JSON text of a series (times as epoch ms, UTC). */
export function candlesToJson(candles: Candles): string {
  const { time, open, high, low, close, volume } = candles;
  const parts: string[] = [];
  for (let i = 0; i < candles.length; i++) parts.push(`[${time[i]},${open[i]},${high[i]},${low[i]},${close[i]},${volume[i]}]`);
  return `[${parts.join(',')}]`;
}
