import type { BacktestStatistics } from './types.js';

/**
 * The per-run figures the dashboard cards and the admin backtest list show (docs/product.md §2.3 backtest
 * item, docs/product.md §3.3 admin summary item), under the field names those screens read. winrate_tp1 and
 * winrate_tp2 are fractions 0..1 (the screens' winrate parsing treats values <= 1 as fractions).
 */
export interface BacktestSummaryFields {
  readonly winrate_tp1: number | null;
  readonly winrate_tp2: number | null;
  /** All trades, open ones included. */
  readonly total: number;
  readonly trades: number;
  readonly tp1: number;
  readonly tp2: number;
  readonly sl: number;
  readonly open: number;
}

export function backtestSummary(statistics: BacktestStatistics): BacktestSummaryFields {
  const g = statistics.global;
  return {
    winrate_tp1: g.tp1.winrate,
    winrate_tp2: g.tp2.winrate,
    total: g.trades,
    trades: g.trades,
    tp1: g.tp1Wins,
    tp2: g.tp2Wins,
    sl: g.sl,
    open: g.open,
  };
}
