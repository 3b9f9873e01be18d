import type { Candles } from '../candles/types.js';
import { normalizeCosts } from '../costs/settings.js';
import type { CostSettings } from '../costs/types.js';
import type { FilterKind, StrategyParams } from '../catalogue/types.js';
import { getStrategy } from '../catalogue/strategies.js';
import { pipSize as catalogPipSize } from '../catalogue/symbols.js';
import { parseTimeframe, timeframeStepMs } from '../catalogue/timeframes.js';
import { normalizeParams } from '../params/normalize.js';
import type { ParamWarning } from '../params/warnings.js';
import { lowerBound, type LowerTimeframe } from '../simulate/ambiguity.js';
import type { ExitRules } from '../simulate/levels.js';
import { isSignalStrategy, signalPlan } from '../strategies/custom.js';
import { officialPlan, type StrategyPlan } from '../strategies/registry.js';
import type { BacktestRequest } from './types.js';

const FILTER_PARAMS: Readonly<Record<FilterKind, readonly string[]>> = {
  rsi: ['rsi_key', 'rsi_threshold'],
  ema_simple: ['ema_key'],
  tendance_ema: ['ema_fast', 'ema_slow'],
};

export interface PreparedRun {
  readonly plan: StrategyPlan;
  readonly params: StrategyParams;
  readonly exits: ExitRules;
  readonly costs: CostSettings;
  readonly timeframe: string;
  readonly stepMs: number | undefined;
  readonly warnings: string[];
  /** The warnings as codes and values (backtest/warnings.ts). */
  readonly notices: ParamWarning[];
}

/** The plan and canonical parameters of the request's strategy (official key or signal function). */
export function resolveStrategy(request: BacktestRequest): { plan: StrategyPlan; params: StrategyParams; warnings: string[]; notices: ParamWarning[] } {
  const unknown = request.unknownParams ?? 'error';
  if (typeof request.strategy === 'string') {
    const definition = getStrategy(request.strategy);
    const { params, warnings, notices } = normalizeParams(request.params, { strategy: definition.key, unknown });
    return { plan: officialPlan(definition), params, warnings, notices };
  }
  if (!isSignalStrategy(request.strategy)) throw new Error('invalid strategy: expected an official key or a signal strategy { key, signals(candles, params) }');
  const custom = request.strategy;
  const plan = signalPlan(custom);
  const raw = request.params;
  const given = raw && typeof raw === 'object' && !Array.isArray(raw) ? Object.keys(raw) : [];
  const signature = [...(custom.params ?? given), ...plan.filters.flatMap((f) => FILTER_PARAMS[f] ?? [])];
  const { params, warnings, notices } = normalizeParams(raw, { strategy: signature, unknown });
  return { plan, params, warnings, notices };
}

function optionalPips(name: string, value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new Error(`invalid ${name}: ${JSON.stringify(value)} (expected a number of pips > 0)`);
  return value;
}

/** Stops and targets of the request; throws `invalid sl_pips: ...` style errors. */
export function exitRules(request: BacktestRequest, pipSize: number): ExitRules {
  const slMode = request.slMode ?? 'external';
  if (slMode !== 'external' && slMode !== 'internal') throw new Error(`invalid sl_mode: ${JSON.stringify(slMode)} (expected external or internal)`);
  lastExitRules = {
    slMode,
    slPips: optionalPips('sl_pips', request.slPips),
    tp1Pips: optionalPips('tp1_pips', request.tp1Pips),
    tp2Pips: optionalPips('tp2_pips', request.tp2Pips),
    pipSize,
  };
  return lastExitRules;
}

// The last exit rules, kept alive: V8 holds maps only weakly, and when a full GC finds no object
// of a map, the simulation kernel optimised for it is deoptimised (recompiled in the next run).
let lastExitRules: ExitRules | null = null;

/** The modal step of a series' first candles (ms), for series without a named timeframe. */
export function observedStep(time: Float64Array): number | undefined {
  const counts = new Map<number, number>();
  const end = Math.min(time.length, 2001);
  for (let i = 1; i < end; i++) {
    const d = time[i] - time[i - 1];
    if (d > 0) counts.set(d, (counts.get(d) ?? 0) + 1);
  }
  let best: number | undefined;
  let most = 0;
  for (const [d, c] of counts) if (c > most || (c === most && d < best!)) [best, most] = [d, c];
  return best;
}

export function runTimeframe(candles: Candles, request: BacktestRequest): { timeframe: string; stepMs: number | undefined } {
  const named = request.timeframe ?? candles.timeframe;
  if (named !== undefined) {
    try {
      const key = parseTimeframe(named);
      return { timeframe: key, stepMs: timeframeStepMs(key) };
    } catch {
      if (!/^[A-Za-z0-9]{1,8}$/.test(named)) throw new Error(`invalid timeframe: ${JSON.stringify(named)}`);
      return { timeframe: named.toUpperCase(), stepMs: observedStep(candles.time) };
    }
  }
  throw new Error('invalid timeframe: missing (the candles carry none; give request.timeframe)');
}

export function prepareRun(candles: Candles, request: BacktestRequest): PreparedRun {
  if (typeof request.symbol !== 'string' || request.symbol.trim() === '') throw new Error(`invalid symbol: ${JSON.stringify(request.symbol)}`);
  const { plan, params, warnings, notices } = resolveStrategy(request);
  const pip = catalogPipSize(request.symbol, request.pipSize);
  const exits = exitRules(request, pip);
  const costs = normalizeCosts(request.costs, request.symbol);
  const { timeframe, stepMs } = runTimeframe(candles, request);
  return { plan, params, exits, costs, timeframe, stepMs, warnings, notices };
}

/** Candle indices of the period: `start` (first at or after `from`) and `end` (past the last at or before `to`). */
/** 0000-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z: the instants a result folder name can write. */
const FIRST_PERIOD_MS = -62_167_219_200_000;
const LAST_PERIOD_MS = 253_402_300_799_999;

export function periodWindow(time: Float64Array, from: number | undefined, to: number | undefined): { start: number; end: number } {
  for (const [name, v] of [['from', from], ['to', to]] as const) {
    // The result folder writes the period's days with four-digit years: past them the run was
    // refused after its work ("year out of range"), and past ±8.64e15 ms with a bare RangeError.
    if (v !== undefined && (typeof v !== 'number' || !(v >= FIRST_PERIOD_MS && v <= LAST_PERIOD_MS))) {
      throw new Error(`invalid ${name}: ${JSON.stringify(v)} (expected ms since epoch, from year 0000 to 9999)`);
    }
  }
  if (from !== undefined && to !== undefined && from > to) throw new Error(`invalid period: from ${new Date(from).toISOString()} is after to ${new Date(to).toISOString()}`);
  const start = from === undefined ? 0 : lowerBound(time, from);
  const end = to === undefined ? time.length : lowerBound(time, to + 1);
  return { start, end };
}

/** Lower-timeframe candles for ambiguity resolution, checked against the run's timeframe. */
export function lowerTimeframe(ltf: Candles | undefined, stepMs: number | undefined, timeframe: string, symbol?: string): { ltf?: LowerTimeframe; name: string | null } {
  if (!ltf) return { name: null };
  const compact = (s: string) => s.replace(/[^A-Za-z0-9]/g, '').toUpperCase();
  if (ltf.symbol && symbol && compact(ltf.symbol) !== compact(symbol)) throw new Error(`invalid ltf: its candles are ${ltf.symbol}, the run's are ${symbol}`);
  if (stepMs === undefined) throw new Error(`invalid ltf: the run's timeframe ${timeframe} has no known step`);
  const ltfStep = ltf.timeframe ? timeframeStepMs(ltf.timeframe) : observedStep(ltf.time);
  if (ltfStep === undefined || !(ltfStep < stepMs)) {
    throw new Error(`invalid ltf: its candles (${ltf.timeframe ?? `${ltfStep} ms`}) are not smaller than the run's (${timeframe})`);
  }
  return { ltf: { series: ltf, stepMs }, name: ltf.timeframe ?? `${ltfStep / 60_000}m` };
}
