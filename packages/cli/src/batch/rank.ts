// Ranking and the CSV of all runs. The default ranking is the Wilson lower bound of the TP1 win
// rate: it rewards a high rate measured on many trades over a perfect rate on three.
import { csvLines } from '../csv.js';
import type { RunRow } from './run-row.js';

export const RANK_METRICS: Readonly<Record<string, (r: RunRow) => number | null>> = {
  winrate_tp1_low: (r) => r.winrate_tp1_low,
  winrate_tp1: (r) => r.winrate_tp1,
  winrate_tp2_low: (r) => r.winrate_tp2_low,
  winrate_tp2: (r) => r.winrate_tp2,
  expectancy_tp1: (r) => r.expectancy_tp1,
  expectancy_tp2: (r) => r.expectancy_tp2,
  profit_factor_tp1: (r) => r.profit_factor_tp1,
  trades: (r) => r.trades,
};

/** Successful runs, best first: the metric (runs without a value last), then more resolved trades, then run order. */
export function rankRuns(rows: readonly RunRow[], metric: string): RunRow[] {
  const value = RANK_METRICS[metric];
  return rows
    .filter((r) => r.ok)
    .sort((a, b) => {
      const va = value(a);
      const vb = value(b);
      if (va === null || vb === null) return va === vb ? 0 : va === null ? 1 : -1;
      return vb - va || b.resolved - a.resolved || a.id - b.id;
    });
}

const FIXED_COLUMNS = [
  'run', 'status', 'error', 'data', 'symbol', 'timeframe', 'strategy', 'sl_mode', 'sl_pips', 'tp1_pips', 'tp2_pips', 'from', 'to',
] as const;
const FIGURE_COLUMNS = [
  'candles', 'trades', 'resolved', 'tp1_wins', 'tp2_wins', 'sl', 'open',
  'winrate_tp1', 'winrate_tp1_low', 'winrate_tp1_high', 'winrate_tp2', 'winrate_tp2_low', 'winrate_tp2_high',
  'expectancy_tp1', 'expectancy_tp2', 'profit_factor_tp1', 'max_drawdown_tp1', 'golden_hour', 'golden_hour_tp1',
  'engine_ms', 'workbook', 'params_json',
] as const;

export function csvColumns(gridParams: readonly string[]): string[] {
  return [...FIXED_COLUMNS, ...gridParams, ...FIGURE_COLUMNS];
}

/** Every run, in run order: win rates as fractions with their Wilson 95 % bounds, one column per grid parameter. */
export function runsCsv(rows: readonly RunRow[], gridParams: readonly string[]): string {
  const columns = csvColumns(gridParams);
  const lines: unknown[][] = [columns];
  for (const r of rows) {
    const record: Record<string, unknown> = { ...r, run: r.id, status: r.ok ? 'ok' : 'failed', params_json: r.params };
    for (const name of gridParams) record[name] = Object.hasOwn(r.grid, name) ? r.grid[name] : null;
    lines.push(columns.map((c) => record[c]));
  }
  return csvLines(lines);
}
