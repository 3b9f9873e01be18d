/**
 * The figures of the result card (docs/web.md "Result view"): trades, TP1/TP2 win rates, profit
 * factor, expectancy and max drawdown in R, longest losing streak. Read from core's statistics
 * (the backtest answer) or from the workbook's Global sheet (a past result): the same numbers,
 * since the sheet is written from those statistics, and shown with the same French rules.
 */
import { LABELS, formatIntegerFr, formatNumberFr, formatPercentFr, formatRFr } from '@bt/core/format';

export interface CardFigures {
  trades: number | null;
  winrateTp1: number | null;
  winrateTp2: number | null;
  profitFactor: number | null;
  expectancyR: number | null;
  maxDrawdownR: number | null;
  longestLosingStreak: number | null;
  totalR: number | null;
}

const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const record = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' ? (value as Record<string, unknown>) : {});

/** From core's BacktestStatistics as the backtest answer carries it (`statistics.global`). */
export function figuresFromStatistics(statistics: unknown): CardFigures | null {
  const global = record(record(statistics).global);
  if (num(global.trades) === null) return null;
  const tp1 = record(global.tp1);
  const tp2 = record(global.tp2);
  return {
    trades: num(global.trades),
    winrateTp1: num(tp1.winrate),
    winrateTp2: num(tp2.winrate),
    profitFactor: num(tp1.profitFactor),
    expectancyR: num(tp1.expectancyR),
    maxDrawdownR: num(tp1.maxDrawdownR),
    longestLosingStreak: num(tp1.longestLosingStreak),
    totalR: num(tp1.totalR),
  };
}

/** From the Global sheet (rows `[Indicateur, Valeur, …]`), by the labels core writes. */
export function figuresFromGlobalSheet(rows: readonly (readonly unknown[])[]): CardFigures | null {
  const byLabel = new Map(rows.map((row) => [String(row[0] ?? ''), num(row[1])]));
  if (!byLabel.has(LABELS.trades)) return null;
  return {
    trades: byLabel.get(LABELS.trades) ?? null,
    winrateTp1: byLabel.get(LABELS.winrateTp1) ?? null,
    winrateTp2: byLabel.get(LABELS.winrateTp2) ?? null,
    profitFactor: byLabel.get(LABELS.profitFactorTp1) ?? null,
    expectancyR: byLabel.get(LABELS.expectancyTp1) ?? null,
    maxDrawdownR: byLabel.get(LABELS.drawdownTp1) ?? null,
    longestLosingStreak: byLabel.get(LABELS.streakTp1) ?? null,
    totalR: byLabel.get(LABELS.totalTp1) ?? null,
  };
}

export interface FigureCell {
  /** Stable id (tests, pins of the e2e). */
  id: keyof CardFigures;
  label: string;
  value: string;
  /** The Global sheet's row label this figure equals. */
  sheetLabel: string;
  hint?: string;
}

/** The card's cells in reading order, values in French. */
export function figureCells(f: CardFigures): FigureCell[] {
  return [
    { id: 'trades', label: 'Trades', value: formatIntegerFr(f.trades), sheetLabel: LABELS.trades },
    { id: 'winrateTp1', label: 'Win rate TP1', value: formatPercentFr(f.winrateTp1), sheetLabel: LABELS.winrateTp1 },
    { id: 'winrateTp2', label: 'Win rate TP2', value: formatPercentFr(f.winrateTp2), sheetLabel: LABELS.winrateTp2 },
    {
      id: 'profitFactor',
      label: 'Profit factor',
      value: f.profitFactor === null ? (f.totalR !== null && f.totalR > 0 ? '∞' : '—') : formatNumberFr(f.profitFactor),
      sheetLabel: LABELS.profitFactorTp1,
      hint: 'Gains cumulés ÷ pertes cumulées, en R, au TP1 (∞ : aucune perte).',
    },
    { id: 'expectancyR', label: 'Espérance', value: formatRFr(f.expectancyR), sheetLabel: LABELS.expectancyTp1, hint: 'Résultat moyen par trade résolu, en multiples du risque (R), au TP1.' },
    { id: 'maxDrawdownR', label: 'Drawdown max', value: f.maxDrawdownR === null ? '—' : `${formatNumberFr(f.maxDrawdownR)}\u202fR`, sheetLabel: LABELS.drawdownTp1, hint: 'Plus forte baisse du cumul de R depuis un sommet, dans l’ordre des entrées.' },
    { id: 'longestLosingStreak', label: 'Série perdante max', value: f.longestLosingStreak === null ? '—' : `${formatIntegerFr(f.longestLosingStreak)} trade${f.longestLosingStreak > 1 ? 's' : ''}`, sheetLabel: LABELS.streakTp1 },
  ];
}
