import type { Candles } from '../candles/types.js';
import type { RunCosts } from '../costs/quotes.js';
import type { StrategyParams } from '../catalogue/types.js';
import type { Setups } from '../patterns/types.js';
import type { LowerTimeframe } from '../simulate/ambiguity.js';
import { pullbackEntries, signalEntries, type Entries } from '../simulate/entries.js';
import { priceRounding, type ExitRules } from '../simulate/levels.js';
import { simulateTable, tradesFromTable, type Simulation, type TableSimulation } from '../simulate/trades.js';
import { filterGate } from '../strategies/filters.js';
import { filterColumnNames, filterColumns, pullbackRulesFromParams } from '../strategies/params.js';
import type { StrategyPlan } from '../strategies/registry.js';

export interface EngineRun {
  readonly plan: StrategyPlan;
  /** Canonical parameters (normalised). */
  readonly params: StrategyParams;
  readonly exits: ExitRules;
  /** First candle at which an entry is reported; earlier candles are warm-up. Default 0. */
  readonly startIndex?: number;
  readonly ltf?: LowerTimeframe;
  /** Trading costs (runCosts); none when absent. */
  readonly costs?: RunCosts;
}

export interface EngineTableOutput {
  readonly setups: Setups;
  readonly entries: Entries;
  readonly simulation: TableSimulation;
}

export interface EngineOutput extends EngineTableOutput {
  readonly simulation: Simulation;
}

/**
 * Detection, filters, entries and exits on candles that already hold the indicator columns the
 * filters read (withIndicators), down to the columnar trade table. Pure and synchronous: the hot
 * path of every run.
 */
export function runEngineTable(candles: Candles, run: EngineRun): EngineTableOutput {
  const setups = engineSetups(candles, run);
  const entries = engineEntries(candles, run, setups);
  const simulation = simulateTable(candles, setups, entries, run.exits, { ltf: run.ltf, costs: run.costs });
  return { setups, entries, simulation };
}

/** The first stage of runEngineTable: setups of the plan's pattern with the parameters that shape them. */
export function engineSetups(candles: Candles, run: EngineRun): Setups {
  return run.plan.detect(candles, run.params, run.exits.pipSize);
}

/** The second stage of runEngineTable: the filters' gate and the entries of the setups. */
export function engineEntries(candles: Candles, run: EngineRun, setups: Setups): Entries {
  const { plan, params, exits } = run;
  const names = filterColumnNames(plan.filters, params);
  const gate = filterGate(candles, plan.filters, filterColumns(candles, names, params, plan.filters));
  const start = run.startIndex ?? 0;
  const scale = priceRounding(exits.pipSize);
  const costs = run.costs;
  return plan.entryMode === 'pullback'
    ? pullbackEntries(candles, setups, gate, pullbackRulesFromParams(params), start, scale, costs ? costs.ask : candles)
    : signalEntries(candles, setups, gate, start, costs ? { ask: costs.ask, slippage: costs.slippage, priceScale: scale } : undefined);
}

/** runEngineTable, then the `Trade` records. */
export function runEngine(candles: Candles, run: EngineRun): EngineOutput {
  const out = runEngineTable(candles, run);
  const trades = tradesFromTable(candles, out.setups, out.simulation.table, run.exits.pipSize);
  return { ...out, simulation: { ...out.simulation, trades } };
}

/** The first `end` candles as a zero-copy view (Arrow slice, typed subarrays). */
export function headCandles(candles: Candles, end: number): Candles {
  if (end >= candles.length) return candles;
  const cut = Math.max(0, end);
  const extra: Record<string, Float64Array> = {};
  for (const [name, values] of Object.entries(candles.extra)) extra[name] = values.subarray(0, cut);
  return {
    table: candles.table.slice(0, cut),
    length: cut,
    time: candles.time.subarray(0, cut),
    open: candles.open.subarray(0, cut),
    high: candles.high.subarray(0, cut),
    low: candles.low.subarray(0, cut),
    close: candles.close.subarray(0, cut),
    volume: candles.volume.subarray(0, cut),
    extra,
    symbol: candles.symbol,
    timeframe: candles.timeframe,
  };
}
