import type { Candles } from '../candles/types.js';
import type { CostSettings, TradingCostsInput } from '../costs/types.js';
import type { StrategyParams } from '../catalogue/types.js';
import type { ConfigEntry } from '../report/sheets.js';
import type { AmbiguitySummary } from '../simulate/trades.js';
import type { Trade } from '../simulate/types.js';
import type { BacktestStatistics, GoldenHours } from '../stats/types.js';
import type { SignalStrategy } from '../strategies/custom.js';
import type { BacktestWarning } from './warnings.js';

/** Who asked for the run; written in the Config sheet. */
export interface RunMeta {
  readonly runId?: string;
  readonly userId?: string | number;
  readonly runSeq?: number;
}

/** One backtest, as the CLI and the server describe it (docs/product.md §2.3 "Backtest request"). */
export interface BacktestRequest {
  /** An official strategy key, or a signal function defined outside the catalogue. */
  readonly strategy: string | SignalStrategy;
  /** Raw parameters (object or JSON text): aliases, coercion, defaults by the catalogue's normaliser. */
  readonly params?: unknown;
  /** What to do with a parameter the strategy does not read: 'error' (CLI, default) or 'warn' (server: dropped). */
  readonly unknownParams?: 'error' | 'warn';
  /** Default 'external'. Internal: SL at the zone's far edge / pattern extreme, TP1 1R and TP2 2R unless given. */
  readonly slMode?: 'external' | 'internal';
  readonly slPips?: number;
  readonly tp1Pips?: number;
  /** Default 2 x tp1Pips (external). */
  readonly tp2Pips?: number;
  /** Instrument; its catalogue pip size applies unless `pipSize` is given. */
  readonly symbol: string;
  /** Default: the candles' timeframe. */
  readonly timeframe?: string;
  readonly pipSize?: number;
  /**
   * Period in ms UTC, both inclusive, on candle opening times. Candles before `from` are warm-up:
   * they feed indicators and zones (a zone can fill after `from`) but no trade enters before it.
   * Candles after `to` are not used at all: a trade still running at `to` is `open`.
   */
  readonly from?: number;
  readonly to?: number;
  /** Lower-timeframe candles of the same symbol (e.g. M1 under M15) to resolve ambiguous candles. */
  readonly ltf?: Candles;
  /** Spread, commission and slippage (docs/engine.md §13); absent: none. */
  readonly costs?: TradingCostsInput;
  readonly run?: RunMeta;
}

/** The costs a run applied: the checked settings, and what the data's Spread column gave. */
export interface CostSummary extends CostSettings {
  /** Price of one point of the Spread column, when it was read. */
  readonly spreadPointSizeUsed: number | null;
  /** Candles whose spread came from the data's Spread column. */
  readonly spreadDataCandles: number;
}

export interface BacktestOptions {
  /** Also build the XLSX workbook (bytes in `workbook`). */
  readonly workbook?: boolean;
  /** Clock for `timing` (ms); default performance.now. */
  readonly now?: () => number;
  /** Creation time written in the workbook; default: now. */
  readonly createdAt?: Date | number;
}

/**
 * What every consumer gets: the spec's "Backtest result" fields (`xlsx_result`, `golden_hours`)
 * plus statistics, trades and what the run decided. Everything is JSON-ready except `workbook`
 * (bytes), which consumers write to storage and leave out of the JSON (`backtestResultJson`).
 */
export interface BacktestResult {
  readonly engineVersion: string;
  readonly strategy: string;
  readonly strategyLabel: string;
  readonly symbol: string;
  readonly timeframe: string;
  readonly pipSize: number;
  readonly slMode: 'external' | 'internal';
  /** The period of the folder name (the request's, else the candles'), ms UTC. */
  readonly from: number;
  readonly to: number;
  /** Canonical parameters the run used, defaults included. */
  readonly params: StrategyParams;
  /** `{folder}/{workbook}`: the last two segments are folder and file name (docs/product.md §2.3). */
  readonly xlsx_result: string;
  readonly folder: string;
  readonly workbookName: string;
  readonly golden_hours: GoldenHours;
  readonly statistics: BacktestStatistics;
  readonly trades: readonly Trade[];
  readonly ambiguity: AmbiguitySummary & { readonly lowerTimeframe: string | null };
  readonly counts: {
    /** Candles up to `to`, warm-up included, and how many of them are warm-up. */
    readonly candles: number;
    readonly warmupCandles: number;
    readonly setups: number;
    readonly entries: number;
    readonly trades: number;
    /** Entries without a positive internal risk (no trade). */
    readonly skippedNoRisk: number;
  };
  /** The trading costs applied (all zero without). */
  readonly costs: CostSummary;
  /** Config sheet rows: every input, sl_mode, engine version, run meta, rules. */
  readonly config: readonly ConfigEntry[];
  /** Core's English sentences (what the CLI prints). */
  readonly warnings: readonly string[];
  /** The same warnings as codes and values, in the same order (backtest/warnings.ts). */
  readonly notices: readonly BacktestWarning[];
  readonly timing: { readonly engine_ms: number; readonly report_ms: number };
  /** XLSX bytes when `options.workbook`; not JSON. */
  readonly workbook?: Uint8Array;
}
