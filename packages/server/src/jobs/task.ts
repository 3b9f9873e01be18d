// What a backtest job carries and what it gives back, in a form that crosses a thread (structured
// clone, typed arrays transferred) and a Redis queue (JSON, candles as Arrow IPC in base64): the
// engine and the workbook run on that side, the charge and the run's row stay with the API. An
// extraction's CSV is formatted on the same threads (csvOfColumns).
import { runBacktest, type BacktestResult } from '@bt/core';
import { candlesFromColumns, candlesToCsv, type Candles } from '@bt/core/candles';
import type { TimeframeKey, StrategyParams } from '@bt/core/catalogue';
import type { TradingCostsInput } from '@bt/core/costs';
import { rSequence } from '@bt/core/montecarlo';
import { ParamError } from '@bt/core/params';
import { signalStrategyOf, type StrategyShape } from '../strategies/contract.js';
import { signalsOfColumns, type SignalColumns } from '../strategies/sandbox/signal-columns.js';

/** A personal strategy's signals (from the sandbox, on the API side) and what the engine needs of it. */
export interface SignalsSpec {
  shape: StrategyShape;
  label: string;
  signals: SignalColumns;
}

/** The engine's inputs of one run, without the candles (those travel separately). */
export interface EngineRequest {
  /** An official key, or the signals of a personal strategy. */
  strategy: string | SignalsSpec;
  params: StrategyParams;
  slMode: 'external' | 'internal';
  slPips?: number;
  tp1Pips?: number;
  tp2Pips?: number;
  symbol: string;
  timeframe: TimeframeKey;
  pipSize: number;
  from: number;
  to: number;
  costs?: TradingCostsInput;
  run: { runId: string; userId: number; runSeq: number };
  /** The workbook's creation time (ms): the API's clock, so results equal an in-process run's. */
  createdAt: number;
}

/** Columns of candles, each its own buffer (so it can be transferred to a thread, not copied). */
export interface CandleColumnsCopy {
  time: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
  extra: Record<string, Float64Array>;
  symbol?: string;
  timeframe?: TimeframeKey;
}

/** A run's result as the API answers it: everything but the trades (their R sequence stays) and the workbook. */
export type EngineResult = Omit<BacktestResult, 'trades' | 'workbook' | 'config'> & {
  rSequence: { tp1: number[]; tp2: number[] };
};

export interface EngineOutput {
  result: EngineResult;
  workbook: Uint8Array;
}

/** Own copies of the columns: a slice view would drag its whole parent buffer along. */
export function columnsOf(candles: Candles | CandleColumnsCopy): CandleColumnsCopy {
  const extra: Record<string, Float64Array> = {};
  for (const [name, values] of Object.entries(candles.extra)) extra[name] = values.slice();
  return {
    time: candles.time.slice(),
    open: candles.open.slice(),
    high: candles.high.slice(),
    low: candles.low.slice(),
    close: candles.close.slice(),
    volume: candles.volume.slice(),
    extra,
    symbol: candles.symbol,
    timeframe: candles.timeframe,
  };
}

/**
 * Bytes that can be moved to another thread or process: the view itself when it spans its whole
 * buffer, else a copy of its own (a view is sent with its whole buffer, which may be a slice of
 * Node's shared pool). Only for bytes the caller hands over: moving them detaches the caller's view.
 */
export function ownBytes(view: Uint8Array): Uint8Array {
  return view.byteOffset === 0 && view.byteLength === view.buffer.byteLength ? view : view.slice();
}

export function buffersOf(columns: CandleColumnsCopy): ArrayBuffer[] {
  const all = [columns.time, columns.open, columns.high, columns.low, columns.close, columns.volume, ...Object.values(columns.extra)];
  return all.map((a) => a.buffer as ArrayBuffer);
}

/** Engine and workbook, as in-process before (core's runBacktest, never a second implementation). */
export async function runEngine(candles: Candles, request: EngineRequest): Promise<EngineOutput> {
  const strategy = typeof request.strategy === 'string' ? request.strategy : signalStrategyOf(request.strategy.shape, request.strategy.label, signalsOfColumns(request.strategy.signals));
  const result = await runBacktest(
    candles,
    {
      strategy,
      params: request.params,
      unknownParams: 'warn',
      slMode: request.slMode,
      slPips: request.slPips,
      tp1Pips: request.tp1Pips,
      tp2Pips: request.tp2Pips,
      symbol: request.symbol,
      timeframe: request.timeframe,
      pipSize: request.pipSize,
      from: request.from,
      to: request.to,
      costs: request.costs,
      run: request.run,
    },
    { workbook: true, createdAt: new Date(request.createdAt) },
  );
  const { trades, workbook, config: _config, ...rest } = result;
  return {
    result: { ...rest, rSequence: { tp1: Array.from(rSequence(trades, 'tp1')), tp2: Array.from(rSequence(trades, 'tp2')) } },
    workbook: workbook!,
  };
}

/** A ParamError as it crosses a thread or the queue (its class does not): rebuilt on the other side. */
export interface ParamErrorShape {
  param: string;
  value: unknown;
  expected: string;
  message: string;
}

export const paramErrorShape = (err: ParamError): ParamErrorShape => ({ param: err.param, value: err.value, expected: err.expected, message: err.message });
export const paramErrorOf = (shape: ParamErrorShape) => new ParamError(shape.param, shape.value, shape.expected, shape.message);

/** How a ParamError travels in a job's failure reason (a string). */
const PARAM_ERROR_PREFIX = 'ParamError ';
export const paramErrorReason = (err: ParamError) => PARAM_ERROR_PREFIX + JSON.stringify(paramErrorShape(err));
export function paramErrorFromReason(reason: string): ParamError | null {
  if (!reason.startsWith(PARAM_ERROR_PREFIX)) return null;
  try {
    return paramErrorOf(JSON.parse(reason.slice(PARAM_ERROR_PREFIX.length)) as ParamErrorShape);
  } catch {
    return null;
  }
}

/** The thread's side: candles rebuilt from their columns, then the engine. */
export function runEngineOnColumns(columns: CandleColumnsCopy, request: EngineRequest): Promise<EngineOutput> {
  const candles = candlesFromColumns(columns, { symbol: columns.symbol, timeframe: columns.timeframe });
  return runEngine(candles, request);
}

/** The thread's side of an extraction: the official CSV of the candles (docs/csv-format.md), as UTF-8 bytes. */
export function csvOfColumns(columns: CandleColumnsCopy): Uint8Array {
  const candles = candlesFromColumns(columns, { symbol: columns.symbol, timeframe: columns.timeframe });
  return new TextEncoder().encode(candlesToCsv(candles));
}
