import { timeframeStepMs } from '../catalogue/timeframes.js';
import type { TimeframeKey } from '../catalogue/types.js';
import { candlesFromColumns } from './columns.js';
import { DAY_MS, daysFromCivil, describeStep, formatCandleTime } from './datetime.js';
import type { NormalizedReadOptions } from './options.js';
import { at, CandleFileError, ProblemList, type CandleProblem } from './problems.js';
import { inferTimeframe, type StepRuns } from './timeframe.js';
import type { Candles } from './types.js';

/**
 * The instants a candle may open at: the years 0000 to 9999 in UTC, the years the official format
 * writes with four digits. A CSV time inside them can leave them through its offset (9999-12-31
 * 23:00-05:00), and JSON and Arrow times are any number: past them a candle's date was written
 * `+010000-01-01` or `3.2e+289-undefined-01` in messages, file names and reports.
 */
export const MIN_CANDLE_TIME = daysFromCivil(0, 1, 1) * DAY_MS;
export const MAX_CANDLE_TIME = daysFromCivil(10000, 1, 1) * DAY_MS - 1;

/** Column names as the file writes them, for messages: [time, open, high, low, close, volume]. */
export type ColumnNames = readonly [string, string, string, string, string, string];

export interface LoadedCandles {
  readonly candles: Candles;
  /** Inferred (or stated and checked) timeframe; undefined when the step is none of M1..D1. */
  readonly timeframe: TimeframeKey | undefined;
  /** Most common step between candles in ms (undefined with fewer than two candles). */
  readonly stepMs: number | undefined;
  readonly symbol: string | undefined;
  readonly warnings: readonly CandleProblem[];
}

/**
 * Receives rows one at a time (the reader writes the values at index `n`, then calls `commit`),
 * checks each row as it arrives (OHLC coherence, sign, order, duplicates), tracks the steps
 * between rows, and at the end infers the timeframe and checks every step against it.
 */
export class CandleBuilder {
  time: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
  extra: Float64Array[];
  /** Rows kept so far; the next row is written at this index. */
  n = 0;
  readonly problems: ProblemList;
  readonly warnings: CandleProblem[] = [];

  private lastTime = NaN;
  private lastLine = 0;
  private runStep = NaN;
  private runs: StepRuns = { row: [], line: [], step: [] };
  private dropped = 0;
  private firstDroppedLine = 0;

  constructor(
    capacity: number,
    readonly extraNames: readonly string[],
    readonly options: NormalizedReadOptions,
    readonly names: ColumnNames,
    readonly unit: 'line' | 'row' = 'line',
    columns?: { time: Float64Array; open: Float64Array; high: Float64Array; low: Float64Array; close: Float64Array; volume: Float64Array; extra: Float64Array[] },
  ) {
    this.problems = new ProblemList(options.maxProblems);
    this.time = columns?.time ?? new Float64Array(capacity);
    this.open = columns?.open ?? new Float64Array(capacity);
    this.high = columns?.high ?? new Float64Array(capacity);
    this.low = columns?.low ?? new Float64Array(capacity);
    this.close = columns?.close ?? new Float64Array(capacity);
    this.volume = columns?.volume ?? new Float64Array(capacity);
    this.extra = columns?.extra ?? extraNames.map(() => new Float64Array(capacity));
  }

  /** Makes room for at least `rows` rows (readers that cannot count rows up front grow by doubling). */
  reserve(rows: number): void {
    if (rows <= this.time.length) return;
    const size = Math.max(rows, this.time.length * 2, 1024);
    const grow = (a: Float64Array) => {
      const b = new Float64Array(size);
      b.set(a.subarray(0, this.n));
      return b;
    };
    this.time = grow(this.time);
    this.open = grow(this.open);
    this.high = grow(this.high);
    this.low = grow(this.low);
    this.close = grow(this.close);
    this.volume = grow(this.volume);
    this.extra = this.extra.map(grow);
  }

  problem(code: CandleProblem['code'], line: number, column: string | undefined, value: string | undefined, message: string, fix: string): void {
    this.problems.add({ code, message: `${at(line, column, this.unit)}: ${message}`, line, column, value, fix });
  }

  /** Checks the row written at index n and keeps it (or drops it as a repeated time under keep-first). */
  commit(line: number): void {
    const n = this.n;
    const t = this.time[n];
    // Finite but out of range (a time that is not finite is reported by its reader).
    if ((t < MIN_CANDLE_TIME || t > MAX_CANDLE_TIME) && t - t === 0) return this.timeOutOfRange(line, t);
    if (n > 0) {
      const step = t - this.lastTime;
      if (step <= 0) {
        if (step === 0) {
          if (this.options.duplicates === 'keep-first') {
            if (this.dropped++ === 0) this.firstDroppedLine = line;
            return;
          }
          if (this.problems.wants('duplicate')) {
            this.problem('duplicate', line, this.names[0], formatCandleTime(t), `${formatCandleTime(t)} repeats the time of ${this.unit} ${this.lastLine}`,
              "remove the repeated rows, or load with duplicates: 'keep-first' (CLI: --duplicates keep-first) to keep the first row of each time");
          } else this.problems.count('duplicate');
        } else if (this.problems.wants('unsorted')) {
          this.problem('unsorted', line, this.names[0], formatCandleTime(t), `${formatCandleTime(t)} comes before ${formatCandleTime(this.lastTime)} on ${this.unit} ${this.lastLine}`,
            'sort the rows by time, oldest first');
        } else this.problems.count('unsorted');
      } else if (step !== this.runStep) {
        this.runStep = step;
        this.runs.row.push(n);
        this.runs.line.push(line);
        this.runs.step.push(step);
      }
    }
    const o = this.open[n];
    const h = this.high[n];
    const l = this.low[n];
    const c = this.close[n];
    if (h < l) {
      this.rowProblem('high_below_low', line, 2, `${this.names[2]} ${h} is below ${this.names[3]} ${l}`, 'check the row: High must be the highest price of the candle and Low the lowest', h);
    } else {
      const top = o > c ? o : c;
      const bottom = o < c ? o : c;
      if (h < top) {
        this.rowProblem('high_below_body', line, 2, `${this.names[2]} ${h} is below ${this.names[o > c ? 1 : 4]} ${top}`, 'High must be at least max(Open, Close): check the column order (Open, High, Low, Close) and the row', h);
      }
      if (l > bottom) {
        this.rowProblem('low_above_body', line, 3, `${this.names[3]} ${l} is above ${this.names[o < c ? 1 : 4]} ${bottom}`, 'Low must be at most min(Open, Close): check the column order (Open, High, Low, Close) and the row', l);
      }
    }
    if (o < 0 || h < 0 || l < 0 || c < 0) {
      const k = o < 0 ? 0 : h < 0 ? 1 : l < 0 ? 2 : 3;
      const v = [o, h, l, c][k];
      this.rowProblem('negative_price', line, k + 1, `${this.names[k + 1]} ${v} is negative`, 'prices must be zero or more: check the sign and the column order', v);
    }
    if (this.volume[n] < 0) {
      this.rowProblem('negative_volume', line, 5, `${this.names[5]} ${this.volume[n]} is negative`, 'volumes must be zero or more (write 0 when unknown)', this.volume[n]);
    }
    this.lastTime = t;
    this.lastLine = line;
    this.n = n + 1;
  }

  /**
   * A time outside MIN_CANDLE_TIME..MAX_CANDLE_TIME: reported, and the row counted as read (so
   * validateCandles never compacts the caller's columns) but kept out of the order and step
   * checks, which go on from the row before it.
   */
  private timeOutOfRange(line: number, t: number): void {
    this.n++;
    if (!this.problems.wants('invalid_datetime')) return this.problems.count('invalid_datetime');
    // A date when it has one (a year of five digits or a negative one), else the raw number.
    const value = Math.abs(t) < 1e15 ? formatCandleTime(t) : `${t} ms since 1970`;
    this.problem('invalid_datetime', line, this.names[0], value, `${value} is outside the years 0000 to 9999 (UTC)`,
      'write times between 0000-01-01 00:00:00+00:00 and 9999-12-31 23:59:59+00:00 (epoch times in milliseconds or seconds since 1970-01-01 UTC)');
  }

  private rowProblem(code: CandleProblem['code'], line: number, column: number, message: string, fix: string, value: number): void {
    if (!this.problems.wants(code)) return this.problems.count(code);
    this.problem(code, line, this.names[column], String(value), message, fix);
  }

  /** Takes `n` rows already checked row by row elsewhere (validateCandles' fast scan), with their step runs. */
  adopt(n: number, runs: StepRuns): void {
    this.n = n;
    this.runs = runs;
  }

  /** Ends the load: infers and checks the timeframe, then returns the candles or throws every problem found. */
  finish(symbol: string | undefined, firstLine: number, source?: Candles): LoadedCandles {
    const { options } = this;
    const n = this.n;
    if (n === 0 && this.problems.size === 0) {
      this.problem('no_rows', firstLine, undefined, undefined, 'the file has a header but no candles', 'add candle rows below the header, one per line');
    }
    const inferred = inferTimeframe(this.runs, n);
    let timeframe = options.timeframe ?? inferred.timeframe;
    if (options.timeframe && inferred.stepMs !== undefined && inferred.stepMs !== timeframeStepMs(options.timeframe)) {
      const expected = timeframeStepMs(options.timeframe);
      this.problem('timeframe_mismatch', inferred.firstLine, this.names[0], describeStep(inferred.stepMs),
        `the most common step between candles is ${describeStep(inferred.stepMs)}${inferred.timeframe ? ` (${inferred.timeframe})` : ''}, but the timeframe ${options.timeframe} (${describeStep(expected)}) was asked for`,
        `load the file as ${inferred.timeframe ?? 'its real timeframe'}, or resample it to ${options.timeframe}`);
    }
    if (timeframe === undefined && inferred.stepMs !== undefined) {
      this.warnings.push({
        code: 'unknown_timeframe',
        message: `${at(inferred.firstLine, undefined, this.unit)}: the most common step between candles is ${describeStep(inferred.stepMs)}, which is none of M1, M5, M15, M30, H1, H4, D1; the file loads without a timeframe`,
        line: inferred.firstLine,
        value: describeStep(inferred.stepMs),
        fix: 'resample the candles to one of M1, M5, M15, M30, H1, H4, D1 to backtest them',
      });
    } else if (timeframe === undefined && n === 1) {
      this.warnings.push({
        code: 'unknown_timeframe',
        message: `${at(firstLine, undefined, this.unit)}: a single candle has no step, so its timeframe is unknown`,
        line: firstLine,
        fix: 'state the timeframe (timeframe option, CLI --timeframe)',
      });
    }
    if (timeframe !== undefined && !this.problems.size) this.checkSteps(timeframe);
    if (this.dropped > 0) {
      this.warnings.push({
        code: 'duplicates_dropped',
        message: `${at(this.firstDroppedLine, undefined, this.unit)}: ${this.dropped} row${this.dropped === 1 ? '' : 's'} repeating an earlier time ${this.dropped === 1 ? 'was' : 'were'} dropped (the first row of each time is kept)`,
        line: this.firstDroppedLine,
        value: String(this.dropped),
        fix: "remove the repeated rows from the file, or keep duplicates: 'keep-first'",
      });
    }
    if (this.problems.size > 0) throw CandleFileError.from(this.problems, options.file);
    if (source && source.length === n) {
      // Nothing was dropped: keep the caller's Arrow table as it is (no copy).
      const candles: Candles = { ...source, symbol, timeframe };
      return { candles, timeframe, stepMs: inferred.stepMs, symbol, warnings: this.warnings };
    }
    const fit = (a: Float64Array) => (a.length === n ? a : a.subarray(0, n));
    const extra: Record<string, Float64Array> = {};
    this.extraNames.forEach((name, k) => (extra[name] = fit(this.extra[k])));
    const candles = candlesFromColumns(
      { time: fit(this.time), open: fit(this.open), high: fit(this.high), low: fit(this.low), close: fit(this.close), volume: fit(this.volume), extra },
      { symbol, timeframe },
    );
    return { candles, timeframe, stepMs: inferred.stepMs, symbol, warnings: this.warnings };
  }

  /** Every step must be a whole number of timeframe steps (weekend and holiday gaps are). */
  private checkSteps(timeframe: TimeframeKey): void {
    const stepMs = timeframeStepMs(timeframe);
    const { row, line, step } = this.runs;
    for (let k = 0; k < step.length; k++) {
      if (step[k] % stepMs === 0) continue;
      const rows = (k + 1 < row.length ? row[k + 1] : this.n) - row[k];
      this.problem('irregular_step', line[k], this.names[0], describeStep(step[k]),
        `this candle comes ${describeStep(step[k])} after the previous one, which is not a multiple of the ${timeframe} step (${describeStep(stepMs)})`,
        `keep one timeframe per file: resample to ${timeframe} or remove the stray rows`);
      for (let r = 1; r < rows; r++) this.problems.count('irregular_step');
    }
  }
}
