// What a batch keeps of a run: the figures a ranking and a CSV need, taken from core's statistics.
import type { BacktestResult } from '@bt/core/backtest';

export interface RunRow {
  readonly id: number;
  readonly ok: boolean;
  readonly error: string | null;
  readonly data: string;
  readonly symbol: string | null;
  readonly timeframe: string | null;
  readonly strategy: string;
  /** The plan's grid values for this run (canonical names). */
  readonly grid: Readonly<Record<string, unknown>>;
  /** Every canonical parameter the run used, defaults included (null for a failed run). */
  readonly params: Readonly<Record<string, unknown>> | null;
  readonly sl_mode: string;
  readonly sl_pips: number | null;
  readonly tp1_pips: number | null;
  readonly tp2_pips: number | null;
  readonly from: string | null;
  readonly to: string | null;
  readonly candles: number;
  readonly trades: number;
  readonly resolved: number;
  readonly tp1_wins: number;
  readonly tp2_wins: number;
  readonly sl: number;
  readonly open: number;
  readonly winrate_tp1: number | null;
  readonly winrate_tp1_low: number | null;
  readonly winrate_tp1_high: number | null;
  readonly winrate_tp2: number | null;
  readonly winrate_tp2_low: number | null;
  readonly winrate_tp2_high: number | null;
  readonly expectancy_tp1: number | null;
  readonly expectancy_tp2: number | null;
  readonly profit_factor_tp1: number | null;
  readonly max_drawdown_tp1: number | null;
  /** The best golden hour (UTC) and its TP1 win rate, null when no hour qualifies. */
  readonly golden_hour: number | null;
  readonly golden_hour_tp1: number | null;
  readonly engine_ms: number;
  readonly load_ms: number;
  readonly workbook: string | null;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function okRow(base: Pick<RunRow, 'id' | 'data' | 'strategy' | 'grid'>, r: BacktestResult, extra: { loadMs: number; workbook: string | null }): RunRow {
  const g = r.statistics.global;
  const best = r.golden_hours.golden_hours[0];
  const exit = (metric: string) => {
    const v = r.config.find((c) => c.metric === metric)?.value;
    return typeof v === 'number' ? v : null;
  };
  return {
    ...base,
    ok: true,
    error: null,
    symbol: r.symbol,
    timeframe: r.timeframe,
    params: r.params,
    sl_mode: r.slMode,
    sl_pips: exit('sl_pips'),
    tp1_pips: exit('tp1_pips'),
    tp2_pips: exit('tp2_pips'),
    from: day(r.from),
    to: day(r.to),
    candles: r.counts.candles,
    trades: g.trades,
    resolved: g.resolved,
    tp1_wins: g.tp1Wins,
    tp2_wins: g.tp2Wins,
    sl: g.sl,
    open: g.open,
    winrate_tp1: g.tp1.winrate,
    winrate_tp1_low: g.tp1.winrateCi95?.[0] ?? null,
    winrate_tp1_high: g.tp1.winrateCi95?.[1] ?? null,
    winrate_tp2: g.tp2.winrate,
    winrate_tp2_low: g.tp2.winrateCi95?.[0] ?? null,
    winrate_tp2_high: g.tp2.winrateCi95?.[1] ?? null,
    expectancy_tp1: g.tp1.expectancyR,
    expectancy_tp2: g.tp2.expectancyR,
    profit_factor_tp1: g.tp1.profitFactor,
    max_drawdown_tp1: g.tp1.maxDrawdownR,
    golden_hour: best ? best.hour : null,
    golden_hour_tp1: best ? best.TP1 : null,
    engine_ms: r.timing.engine_ms,
    load_ms: extra.loadMs,
    workbook: extra.workbook,
  };
}

export function failedRow(base: Pick<RunRow, 'id' | 'data' | 'strategy' | 'grid'> & { sl_mode: string }, error: string): RunRow {
  return {
    ...base, ok: false, error, symbol: null, timeframe: null, params: null, sl_pips: null, tp1_pips: null, tp2_pips: null, from: null, to: null,
    candles: 0, trades: 0, resolved: 0, tp1_wins: 0, tp2_wins: 0, sl: 0, open: 0, winrate_tp1: null, winrate_tp1_low: null, winrate_tp1_high: null,
    winrate_tp2: null, winrate_tp2_low: null, winrate_tp2_high: null, expectancy_tp1: null, expectancy_tp2: null, profit_factor_tp1: null,
    max_drawdown_tp1: null, golden_hour: null, golden_hour_tp1: null, engine_ms: 0, load_ms: 0, workbook: null,
  };
}
