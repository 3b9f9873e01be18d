import { CandleBuilder, MAX_CANDLE_TIME, MIN_CANDLE_TIME, type ColumnNames, type LoadedCandles } from './builder.js';
import type { StepRuns } from './timeframe.js';
import { normalizeCandleOptions, type ReadCandlesOptions } from './options.js';
import type { Candles } from './types.js';

const OFFICIAL_NAMES: ColumnNames = ['Datetime', 'Open', 'High', 'Low', 'Close', 'Volume'];

/**
 * Runs the file checks on a series already in memory (an Arrow IPC file, a table built in code):
 * OHLC coherence, signs, order, duplicates, timeframe. Problems point at rows (row 1 = first candle).
 * The series' own symbol and timeframe are used unless the options state them.
 */
export function validateCandles(candles: Candles, options: ReadCandlesOptions = {}): LoadedCandles {
  const opts = normalizeCandleOptions({ symbol: candles.symbol, timeframe: candles.timeframe, ...options });
  let source: Candles | undefined = candles;
  let { time, open, high, low, close, volume } = candles;
  const names = Object.keys(candles.extra);
  let extra = names.map((name) => candles.extra[name]);
  if (opts.duplicates === 'keep-first' && hasRepeatedTime(time)) {
    // Dropping rows compacts the arrays in place: work on copies, never on the caller's buffers.
    [time, open, high, low, close, volume] = [time, open, high, low, close, volume].map((a) => a.slice());
    extra = extra.map((a) => a.slice());
    source = undefined;
  }
  const builder = new CandleBuilder(0, names, opts, OFFICIAL_NAMES, 'row', { time, open, high, low, close, volume, extra });
  const n = candles.length;
  const runs = source ? quickScan(candles) : undefined;
  if (runs) {
    builder.adopt(n, runs);
    return builder.finish(opts.symbol, 1, source);
  }
  for (let i = 0; i < n; i++) {
    const k = builder.n;
    if (k !== i) {
      time[k] = time[i];
      open[k] = open[i];
      high[k] = high[i];
      low[k] = low[i];
      close[k] = close[i];
      volume[k] = volume[i];
      for (const column of extra) column[k] = column[i];
    }
    // x - x is 0 for every finite x, NaN for NaN and ±Infinity.
    if (time[k] - time[k] + open[k] - open[k] + high[k] - high[k] + low[k] - low[k] + close[k] - close[k] + volume[k] - volume[k] !== 0) {
      notFinite(builder, k, i + 1, [time, open, high, low, close, volume]);
    }
    builder.commit(i + 1);
  }
  return builder.finish(opts.symbol, 1, source);
}

function hasRepeatedTime(time: Float64Array): boolean {
  for (let i = 1; i < time.length; i++) if (time[i] === time[i - 1]) return true;
  return false;
}

function notFinite(builder: CandleBuilder, k: number, row: number, columns: Float64Array[]): void {
  if (!builder.problems.wants('non_numeric')) return builder.problems.count('non_numeric');
  const c = columns.findIndex((a) => !Number.isFinite(a[k]));
  const value = String(columns[c][k]);
  builder.problem('non_numeric', row, OFFICIAL_NAMES[c], value, `${value} is not a finite number`, 'rebuild the table from a valid candle file');
}

/**
 * One tight pass over the columns: true order, times within the years 0000 to 9999, High and Volume (a finite High
 * bounds every price), Low <= Open, Close <= High, no negative Low or Volume (so no negative price
 * either). Returns the step runs when every row
 * passes, undefined at the first row that does not (the caller then takes the detailed path,
 * which names every problem).
 */
function quickScan(candles: Candles): StepRuns | undefined {
  const { time, open, high, low, close, volume } = candles;
  const runs: StepRuns = { row: [], line: [], step: [] };
  let last = NaN;
  for (let i = 0; i < candles.length; i++) {
    const o = open[i];
    const c = close[i];
    const l = low[i];
    const h = high[i];
    const t = time[i];
    // Written so that NaN anywhere fails a comparison; x - x is NaN for an infinite x.
    const v = volume[i];
    if (!(l <= o && l <= c && h >= o && h >= c && l >= 0 && v >= 0 && t >= MIN_CANDLE_TIME && t <= MAX_CANDLE_TIME && h - h === 0 && v - v === 0)) return undefined;
    if (i > 0) {
      const step = t - time[i - 1];
      if (!(step > 0)) return undefined;
      if (step !== last) {
        last = step;
        runs.row.push(i);
        runs.line.push(i + 1);
        runs.step.push(step);
      }
    }
  }
  return runs;
}
