// An optimisation's combinations as rows: the ranked table, the CSV of every combination and the
// JSON document (docs/cli.md "bt optimize").
import { formatPercentCell } from '@bt/core/format';
import type { OptimizeResult, RankedEvaluation } from '@bt/core/optimize';
import { csvLines } from '../csv.js';

export interface CombinationRow {
  readonly rank: number | null;
  readonly combination: number;
  readonly eligible: boolean;
  readonly error: string | null;
  /** The values of the space's dimensions (canonical names, sl_pips / tp1_pips / tp2_pips). */
  readonly grid: Readonly<Record<string, unknown>>;
  readonly sl_pips: number | null;
  readonly tp1_pips: number | null;
  readonly tp2_pips: number | null;
  readonly trades: number;
  readonly resolved: number;
  readonly wins: number;
  readonly losses: number;
  readonly open: number;
  readonly winrate: number | null;
  readonly winrate_low: number | null;
  readonly winrate_high: number | null;
  readonly expectancy: number | null;
  readonly total_r: number | null;
  readonly profit_factor: number | null;
  readonly max_drawdown: number | null;
  readonly longest_losing_streak: number | null;
  /** The objective's value (null: undefined; a profit factor without a loss is reported as null with no_loss). */
  readonly score: number | null;
  readonly no_loss: boolean;
  readonly params: Readonly<Record<string, unknown>>;
}

const exitName: Readonly<Record<string, 'sl_pips' | 'tp1_pips' | 'tp2_pips'>> = { sl_pips: 'sl_pips', tp1_pips: 'tp1_pips', tp2_pips: 'tp2_pips' };

export function combinationRow(e: RankedEvaluation, result: Pick<OptimizeResult, 'target' | 'dimensions'>): CombinationRow {
  const f = e.figures ? e.figures[result.target] : null;
  const grid: Record<string, unknown> = {};
  for (const d of result.dimensions) grid[d.name] = exitName[d.name] ? e[d.name === 'sl_pips' ? 'slPips' : d.name === 'tp1_pips' ? 'tp1Pips' : 'tp2Pips'] : (e.params[d.name] ?? null);
  return {
    rank: e.rank,
    combination: e.index,
    eligible: e.eligible,
    error: e.error,
    grid,
    sl_pips: e.slPips,
    tp1_pips: e.tp1Pips,
    tp2_pips: e.tp2Pips,
    trades: e.figures?.trades ?? 0,
    resolved: f?.resolved ?? 0,
    wins: f?.wins ?? 0,
    losses: f?.losses ?? 0,
    open: f?.open ?? 0,
    winrate: f?.winrate ?? null,
    winrate_low: f?.winrateCi95?.[0] ?? null,
    winrate_high: f?.winrateCi95?.[1] ?? null,
    expectancy: f?.expectancyR ?? null,
    total_r: f ? f.totalR : null,
    profit_factor: f?.profitFactor ?? null,
    max_drawdown: f ? f.maxDrawdownR : null,
    longest_losing_streak: f ? f.longestLosingStreak : null,
    score: e.score !== null && Number.isFinite(e.score) ? e.score : null,
    no_loss: e.score === Infinity,
    params: e.params,
  };
}

const FIGURES = ['trades', 'resolved', 'wins', 'losses', 'open', 'winrate', 'winrate_low', 'winrate_high', 'expectancy', 'total_r', 'profit_factor', 'max_drawdown', 'longest_losing_streak', 'score', 'no_loss'] as const;

/** Every combination, best first: rank, combination, status, one column per dimension, the figures, the parameters as JSON. */
export function combinationsCsv(rows: readonly CombinationRow[], dimensions: readonly string[]): string {
  const params = dimensions.filter((d) => !exitName[d]);
  const columns = ['rank', 'combination', 'status', 'error', ...params, 'sl_pips', 'tp1_pips', 'tp2_pips', ...FIGURES, 'params_json'];
  const lines: unknown[][] = [columns];
  for (const r of rows) {
    const record: Record<string, unknown> = { ...r, status: r.error !== null ? 'failed' : r.eligible ? 'ok' : 'too few trades', params_json: r.params };
    lines.push(columns.map((c) => (params.includes(c) ? r.grid[c] : record[c])));
  }
  return csvLines(lines);
}

const pct = (x: number | null) => (x === null ? '' : formatPercentCell(x));
const num = (x: number | null, digits = 2) => (x === null ? '' : x.toFixed(digits));

/** The ranked table's header and rows (the first `top` combinations). */
export function rankedTable(rows: readonly CombinationRow[], dimensions: readonly string[], top: number): { headers: string[]; rows: string[][] } {
  return {
    headers: ['#', ...dimensions, 'trades', 'resolved', 'win rate', 'low 95%', 'expectancy R', 'profit factor', 'max DD R'],
    rows: rows.slice(0, top).map((r) => [
      r.rank === null ? '-' : String(r.rank),
      ...dimensions.map((d) => (r.grid[d] === null || r.grid[d] === undefined ? '' : String(r.grid[d]))),
      String(r.trades), String(r.resolved), pct(r.winrate), pct(r.winrate_low), num(r.expectancy, 3), r.no_loss ? 'no loss' : num(r.profit_factor), num(r.max_drawdown),
    ]),
  };
}
