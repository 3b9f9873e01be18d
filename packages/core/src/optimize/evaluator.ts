// Evaluates combinations of one strategy on one period, sharing what does not change between
// them (docs/engine.md §14): the candles cut at the period's end with their indicator columns,
// the walk's block structures and the ask series (cached per price series), the setups of the
// last detection parameters and the entries of the last entry parameters. Each combination then
// runs the same stages as runBacktest (runEngineTable's), so its trades are runBacktest's.
import type { Candles } from '../candles/types.js';
import type { StrategyParams } from '../catalogue/types.js';
import { runCosts, type RunCosts } from '../costs/quotes.js';
import { hasCosts } from '../costs/settings.js';
import type { TradingCostsInput } from '../costs/types.js';
import { withIndicators } from '../indicators/columns.js';
import type { Setups } from '../patterns/types.js';
import type { Entries } from '../simulate/entries.js';
import { priceRounding, validateExitRules } from '../simulate/levels.js';
import { simulateTable, tradesFromTable } from '../simulate/trades.js';
import type { Trade } from '../simulate/types.js';
import { checkFilterColumns, columnList, filterColumnNames } from '../strategies/params.js';
import { engineEntries, engineSetups, headCandles, type EngineRun } from '../backtest/engine.js';
import { exitRules, periodWindow, prepareRun, resolveStrategy, type PreparedRun } from '../backtest/prepare.js';
import type { BacktestRequest } from '../backtest/types.js';
import { ExitGrid } from './exit-grid.js';
import { tableFigures, type TableFigures } from './figures.js';
import type { Combination } from './space.js';

/** What every combination shares: the strategy, the instrument, the fixed parameters and exits, the costs. */
export interface OptimizationBase {
  /** An official strategy key. */
  readonly strategy: string;
  readonly symbol: string;
  readonly pipSize?: number;
  readonly timeframe?: string;
  readonly slMode?: 'external' | 'internal';
  /** Exits of every combination unless the space varies them. */
  readonly slPips?: number;
  readonly tp1Pips?: number;
  readonly tp2Pips?: number;
  /** Parameters of every combination unless the space varies them. */
  readonly params?: Readonly<Record<string, unknown>>;
  readonly costs?: TradingCostsInput;
}

/** A period in ms UTC, both ends inclusive (runBacktest's from/to: earlier candles warm up, later ones are unused). */
export interface Period {
  readonly from?: number;
  readonly to?: number;
}

/** One combination evaluated: its canonical parameters and exits, and its figures (or why it could not run). */
export interface Evaluation {
  readonly index: number;
  readonly params: StrategyParams;
  readonly slPips: number | null;
  readonly tp1Pips: number | null;
  readonly tp2Pips: number | null;
  readonly figures: TableFigures | null;
  /** A combination the rules refuse (e.g. min_wait_candles above max_wait_candles): the message. */
  readonly error: string | null;
}

const DETECTION = ['min_pips', 'ob_side', 'confirm_candle'] as const;

/**
 * `out.push(...items)` without the spread: a batch is as large as the exit block (up to 200,000
 * combinations sharing their entries), and a spread of more than about 120,000 arguments
 * overflowed the stack (optimize() of a 200 × 1,000 exit grid ended with RangeError).
 */
function append<T>(out: T[], items: readonly T[]): void {
  for (const item of items) out.push(item);
}

/** The request runBacktest would get for this combination on this period. */
export function combinationRequest(base: OptimizationBase, c: Pick<Combination, 'params' | 'slPips' | 'tp1Pips' | 'tp2Pips'>, period: Period = {}): BacktestRequest {
  return {
    strategy: base.strategy,
    symbol: base.symbol,
    pipSize: base.pipSize,
    timeframe: base.timeframe,
    slMode: base.slMode,
    slPips: c.slPips ?? base.slPips,
    tp1Pips: c.tp1Pips ?? base.tp1Pips,
    tp2Pips: c.tp2Pips ?? base.tp2Pips,
    params: { ...base.params, ...c.params },
    costs: base.costs,
    from: period.from,
    to: period.to,
    unknownParams: 'error',
  };
}

export class CombinationEvaluator {
  /** Most first candles (entries × distinct levels) one exit grid holds: 8M, about 100 MB (a test lowers it to check the cut). */
  static gridCells = 8_000_000;
  private readonly prepared: PreparedRun;
  private readonly head: Candles;
  private readonly start: number;
  private readonly scale: number;
  /** The setups of the last detection parameters, and the entries of the last entry parameters. */
  private lastSetups: { key: string; setups: Setups } | null = null;
  private lastEntries: { key: string; entries: Entries } | null = null;
  /** Candles of the period (warm-up included) and how many of them are warm-up. */
  readonly candles: number;
  readonly warmupCandles: number;

  constructor(
    private readonly source: Candles,
    private readonly base: OptimizationBase,
    private readonly period: Period = {},
  ) {
    if (typeof base.strategy !== 'string') throw new Error('invalid strategy: an optimisation runs an official strategy key');
    this.prepared = prepareRun(source, combinationRequest(base, { params: {} }, period));
    const { start, end } = periodWindow(source.time, period.from, period.to);
    this.head = headCandles(source, end);
    this.start = start;
    this.candles = this.head.length;
    this.warmupCandles = Math.min(start, this.head.length);
    this.scale = priceRounding(this.prepared.exits.pipSize);
  }

  /** The engine run of a combination (parameters normalised, exits checked), on the period's candles. */
  private engineRun(c: Combination): { run: EngineRun; series: Candles } {
    const request = combinationRequest(this.base, c, this.period);
    const { plan, params } = resolveStrategy(request);
    const exits = exitRules(request, this.prepared.exits.pipSize);
    const columns = filterColumnNames(plan.filters, params);
    checkFilterColumns(this.head, columns, params);
    const series = withIndicators(this.head, columnList(columns));
    const costs: RunCosts | undefined = hasCosts(this.prepared.costs) ? runCosts(series, this.prepared.costs, exits.pipSize, this.scale) : undefined;
    return { run: { plan, params, exits, startIndex: this.start, costs }, series };
  }

  private stages(c: Combination): { run: EngineRun; series: Candles; setups: Setups; entries: Entries } {
    const { run, series } = this.engineRun(c);
    const params = run.params;
    const detectionKey = JSON.stringify(DETECTION.map((name) => params[name] ?? null));
    if (this.lastSetups?.key !== detectionKey) {
      this.lastSetups = { key: detectionKey, setups: engineSetups(series, run) };
      this.lastEntries = null;
    }
    const setups = this.lastSetups.setups;
    const entryKey = JSON.stringify(params);
    if (this.lastEntries?.key !== entryKey) this.lastEntries = { key: entryKey, entries: engineEntries(series, run, setups) };
    return { run, series, setups, entries: this.lastEntries.entries };
  }

  /** The combination's figures at TP1 and TP2, from the trade table (no Trade records). */
  evaluate(c: Combination): Evaluation {
    let stages: ReturnType<CombinationEvaluator['stages']>;
    try {
      stages = this.stages(c);
    } catch (error) {
      return this.failed(c, error as Error);
    }
    const { run, series, setups, entries } = stages;
    const sim = simulateTable(series, setups, entries, run.exits, { costs: run.costs, scratch: true });
    return { index: c.index, params: run.params, ...exitsOf(run), figures: tableFigures(sim.table), error: null };
  }

  /**
   * evaluate() of each combination, in order, with the same figures: consecutive combinations
   * that share their entries and differ only in external stops and targets are judged together
   * on an exit grid (exit-grid.ts) instead of a walk each. `onEvaluated(done)` after each.
   */
  evaluateMany(combinations: readonly Combination[], onEvaluated?: (done: number) => void): Evaluation[] {
    const out: Evaluation[] = [];
    let group: { c: Combination; run: EngineRun }[] = [];
    let groupEntries: Entries | null = null;
    let groupStages: ReturnType<CombinationEvaluator['stages']> | null = null;
    const flush = () => {
      if (group.length > 0 && groupStages) {
        for (const e of this.judgeGroup(groupStages, group)) {
          out.push(e);
          onEvaluated?.(out.length);
        }
      }
      group = [];
      groupEntries = null;
      groupStages = null;
    };
    for (const c of combinations) {
      let stages: ReturnType<CombinationEvaluator['stages']>;
      try {
        stages = this.stages(c);
      } catch (error) {
        flush();
        out.push(this.failed(c, error as Error));
        onEvaluated?.(out.length);
        continue;
      }
      if (stages.entries !== groupEntries) flush();
      groupEntries = stages.entries;
      groupStages ??= stages;
      group.push({ c, run: stages.run });
    }
    flush();
    return out;
  }

  /**
   * Combinations sharing `stages`' entries (and so their series and costs), in batches whose exit
   * grid stays under `gridCells` first candles (12 bytes each): a grid of many stops and targets on
   * many entries is cut rather than allowed to take gigabytes.
   */
  private judgeGroup(stages: ReturnType<CombinationEvaluator['stages']>, group: readonly { c: Combination; run: EngineRun }[]): Evaluation[] {
    const m = Math.max(1, stages.entries.count);
    const out: Evaluation[] = [];
    let from = 0;
    const sl = new Set<number>();
    const tp = new Set<number>();
    for (let k = 0; k < group.length; k++) {
      const { run } = group[k];
      if (run.exits.slMode === 'external') {
        const d = exitDistances(run);
        const levels = sl.size + tp.size + +!sl.has(d.sl) + +!tp.has(d.tp1) + +(!tp.has(d.tp2) && d.tp2 !== d.tp1);
        if (k > from && levels * m > CombinationEvaluator.gridCells) {
          append(out, this.judgeBatch(stages, group.slice(from, k)));
          from = k;
          sl.clear();
          tp.clear();
        }
        sl.add(d.sl);
        tp.add(d.tp1).add(d.tp2);
      }
    }
    append(out, this.judgeBatch(stages, group.slice(from)));
    return out;
  }

  private judgeBatch(stages: ReturnType<CombinationEvaluator['stages']>, group: readonly { c: Combination; run: EngineRun }[]): Evaluation[] {
    const external = group.every(({ run }) => run.exits.slMode === 'external');
    // One walk per combination costs less than the grid's searches for a handful.
    if (!external || group.length < 4) {
      return group.map(({ c, run }) => {
        const sim = simulateTable(stages.series, stages.setups, stages.entries, run.exits, { costs: run.costs, scratch: true });
        return { index: c.index, params: run.params, ...exitsOf(run), figures: tableFigures(sim.table), error: null };
      });
    }
    for (const { run } of group) validateExitRules(run.exits);
    const distances = group.map(({ run }) => exitDistances(run));
    const grid = new ExitGrid(stages.series, stages.entries, stages.run.costs, this.prepared.exits.pipSize, this.scale, distances.map((d) => d.sl), distances.flatMap((d) => [d.tp1, d.tp2]));
    return group.map(({ c, run }, k) => {
      const d = distances[k];
      return { index: c.index, params: run.params, ...exitsOf(run), figures: grid.figures(d.sl, d.tp1, d.tp2), error: null };
    });
  }

  private failed(c: Combination, error: Error): Evaluation {
    return { index: c.index, params: c.params as StrategyParams, slPips: c.slPips ?? this.base.slPips ?? null, tp1Pips: c.tp1Pips ?? this.base.tp1Pips ?? null, tp2Pips: c.tp2Pips ?? this.base.tp2Pips ?? null, figures: null, error: error.message };
  }

  /** The combination's Trade records: exactly runBacktest's for the same request (tests check it). */
  trades(c: Combination): Trade[] {
    const { run, series, setups, entries } = this.stages(c);
    const sim = simulateTable(series, setups, entries, run.exits, { costs: run.costs });
    return tradesFromTable(series, setups, sim.table, run.exits.pipSize);
  }
}

function exitsOf(run: EngineRun): { slPips: number | null; tp1Pips: number | null; tp2Pips: number | null } {
  const e = run.exits;
  const external = e.slMode === 'external';
  return { slPips: e.slPips ?? null, tp1Pips: e.tp1Pips ?? null, tp2Pips: e.tp2Pips ?? (external && e.tp1Pips !== undefined ? 2 * e.tp1Pips : null) };
}

/** External exits in pips as simulateTable reads them (TP2 by default twice TP1). */
function exitDistances(run: EngineRun): { sl: number; tp1: number; tp2: number } {
  const e = run.exits;
  return { sl: e.slPips!, tp1: e.tp1Pips!, tp2: e.tp2Pips ?? 2 * e.tp1Pips! };
}
