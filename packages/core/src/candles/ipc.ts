// Arrow IPC: the fast way to keep a validated series on disk and load it back.
import { RecordBatch, Schema, Table, tableFromIPC, tableToIPC } from 'apache-arrow';
import { isTimeframe } from '../catalogue/timeframes.js';
import type { CandleFile } from './csv-read.js';
import { candlesFromTable } from './columns.js';
import { normalizeCandleOptions, type ReadCandlesOptions } from './options.js';
import { CandleFileError, type CandleProblem } from './problems.js';
import type { Candles } from './types.js';
import { validateCandles } from './validate.js';

/** Schema metadata keys carrying the series' labels. */
export const IPC_SYMBOL_KEY = 'bt.symbol';
export const IPC_TIMEFRAME_KEY = 'bt.timeframe';

/** Serialises candles to Arrow IPC (`file` format by default, `stream` for pipes), labels in the schema metadata. */
export function candlesToIpc(candles: Candles, format: 'file' | 'stream' = 'file'): Uint8Array {
  if (format !== 'file' && format !== 'stream') throw new Error(`invalid format: ${JSON.stringify(format)} (expected file or stream)`);
  const metadata = new Map(candles.table.schema.metadata);
  if (candles.symbol) metadata.set(IPC_SYMBOL_KEY, candles.symbol);
  if (candles.timeframe) metadata.set(IPC_TIMEFRAME_KEY, candles.timeframe);
  const schema = new Schema(candles.table.schema.fields, metadata);
  const batches = candles.table.batches.map((b) => new RecordBatch(schema, b.data));
  return tableToIPC(new Table(schema, batches), format);
}

/** True when the bytes start like an Arrow IPC file (`ARROW1`) or stream (continuation marker). */
export function isArrowIpc(bytes: Uint8Array): boolean {
  const file = bytes[0] === 0x41 && bytes[1] === 0x52 && bytes[2] === 0x52 && bytes[3] === 0x4f && bytes[4] === 0x57 && bytes[5] === 0x31;
  const stream = bytes[0] === 0xff && bytes[1] === 0xff && bytes[2] === 0xff && bytes[3] === 0xff;
  return file || stream;
}

function arrowProblem(message: string, fix: string, value?: string): CandleProblem {
  return { code: 'invalid_arrow', line: 1, message: `row 1: ${message}`, value, fix };
}

/**
 * Reads Arrow IPC (file or stream) back as candles, zero-copy for the single-batch files bt writes,
 * and validates them like a CSV unless `validate: false` (for files bt itself just wrote).
 */
export function readCandlesIpc(bytes: Uint8Array, options: ReadCandlesOptions & { validate?: boolean } = {}): CandleFile {
  const { validate = true, ...rest } = options;
  const opts = normalizeCandleOptions(rest);
  let table: Table;
  try {
    table = tableFromIPC(bytes);
  } catch (error) {
    throw new CandleFileError([arrowProblem('the file is not a readable Arrow IPC file', 'write the file again with bt (Arrow IPC file or stream format)', (error as Error).message)], 0, opts.file);
  }
  const meta = table.schema.metadata;
  const storedTimeframe = meta.get(IPC_TIMEFRAME_KEY);
  let candles: Candles;
  try {
    candles = candlesFromTable(table, {
      symbol: meta.get(IPC_SYMBOL_KEY) || undefined,
      timeframe: storedTimeframe && isTimeframe(storedTimeframe) ? storedTimeframe : undefined,
    });
  } catch (error) {
    throw new CandleFileError([arrowProblem((error as Error).message.replace(/^invalid candle table: /, ''), 'the table needs Datetime (timestamp) and Float64 Open, High, Low, Close, Volume columns')], 0, opts.file);
  }
  if (opts.symbol || opts.timeframe) candles = { ...candles, symbol: opts.symbol ?? candles.symbol, timeframe: opts.timeframe ?? candles.timeframe };
  if (!validate) {
    return { candles, timeframe: candles.timeframe, stepMs: undefined, symbol: candles.symbol, warnings: [], format: 'official' };
  }
  return { ...validateCandles(candles, rest), format: 'official' };
}
