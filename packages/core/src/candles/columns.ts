import { Field, Float64, Table, TimestampMillisecond, makeData, makeVector, type Vector } from 'apache-arrow';
import type { TimeframeKey } from '../catalogue/types.js';
import type { Candles } from './types.js';

export interface CandleColumns {
  time: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
  extra?: Record<string, Float64Array>;
}

export interface CandleLabels {
  symbol?: string;
  timeframe?: TimeframeKey;
}

const OHLCV = ['Open', 'High', 'Low', 'Close', 'Volume'] as const;

function float64Vector(values: Float64Array): Vector<Float64> {
  return makeVector(values);
}

const TWO_32 = 4294967296;

function timestampVector(time: Float64Array): Vector<TimestampMillisecond> {
  // Writes each int64 as two 32-bit words (little-endian, as Arrow requires): no BigInt per row.
  const ms = new BigInt64Array(time.length);
  const words = new Int32Array(ms.buffer);
  for (let i = 0; i < time.length; i++) {
    const t = time[i];
    const high = Math.floor(t / TWO_32);
    words[2 * i] = t - high * TWO_32;
    words[2 * i + 1] = high;
  }
  return makeVector(makeData({ type: new TimestampMillisecond(), data: ms, length: ms.length }));
}

/** Builds the Arrow table of record and its typed-array views from plain columns (no copy of prices). */
export function candlesFromColumns(columns: CandleColumns, labels: CandleLabels = {}): Candles {
  const { time, open, high, low, close, volume } = columns;
  const n = time.length;
  for (const [name, values] of Object.entries({ open, high, low, close, volume, ...columns.extra })) {
    if (values.length !== n) throw new Error(`invalid column ${name}: ${values.length} values for ${n} candles`);
  }
  const extra = { ...columns.extra };
  const vectors: Record<string, Vector> = {
    Datetime: timestampVector(time),
    Open: float64Vector(open),
    High: float64Vector(high),
    Low: float64Vector(low),
    Close: float64Vector(close),
    Volume: float64Vector(volume),
  };
  for (const [name, values] of Object.entries(extra)) vectors[name] = float64Vector(values);
  const table = new Table(vectors);
  return { table, length: n, time, open, high, low, close, volume, extra, ...labels };
}

/** Returns a new series with extra columns added (or replaced); the price arrays are shared. */
export function withExtraColumns(candles: Candles, added: Record<string, Float64Array>): Candles {
  const { time, open, high, low, close, volume, symbol, timeframe } = candles;
  return candlesFromColumns(
    { time, open, high, low, close, volume, extra: { ...candles.extra, ...added } },
    { symbol, timeframe },
  );
}

function contiguousFloat64(vector: Vector, name: string): Float64Array {
  const values = vector.toArray();
  if (values instanceof Float64Array) return values;
  if (values instanceof Float32Array || values instanceof Int32Array || values instanceof Uint32Array) {
    return Float64Array.from(values);
  }
  throw new Error(`invalid column ${name}: expected numbers, got Arrow type ${String(vector.type)}`);
}

function timeFromVector(vector: Vector): Float64Array {
  const raw = vector.toArray() as unknown;
  if (raw instanceof Float64Array) return raw;
  if (raw instanceof BigInt64Array) {
    const words = new Int32Array(raw.buffer, raw.byteOffset, raw.length * 2);
    const out = new Float64Array(raw.length);
    for (let i = 0; i < out.length; i++) out[i] = words[2 * i + 1] * TWO_32 + (words[2 * i] >>> 0);
    return out;
  }
  if (raw instanceof Int32Array) {
    // Arrow JS may expose 64-bit values as pairs of 32-bit words.
    const out = new Float64Array(raw.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = raw[2 * i + 1] * TWO_32 + (raw[2 * i] >>> 0);
    return out;
  }
  throw new Error(`invalid column Datetime: expected ms timestamps, got Arrow type ${String(vector.type)}`);
}

/** Views an Arrow table with the official columns as `Candles` (zero-copy for single-chunk Float64 columns). */
export function candlesFromTable(table: Table, labels: CandleLabels = {}): Candles {
  const need = ['Datetime', ...OHLCV];
  for (const name of need) {
    if (!table.getChild(name)) throw new Error(`invalid candle table: missing column ${name}`);
  }
  const time = timeFromVector(table.getChild('Datetime')!);
  const [open, high, low, close, volume] = OHLCV.map((name) => contiguousFloat64(table.getChild(name)!, name));
  const extra: Record<string, Float64Array> = {};
  for (const field of table.schema.fields as Field[]) {
    if (need.includes(field.name)) continue;
    extra[field.name] = contiguousFloat64(table.getChild(field.name)!, field.name);
  }
  return { table, length: table.numRows, time, open, high, low, close, volume, extra, ...labels };
}

