/**
 * Names users read in the result workbook (sheet names, column headers, row labels). One
 * definition shared by the workbook writer, the readers' callers (server) and the web modal, so
 * a header renamed here is renamed everywhere.
 */

export const SHEET_NAMES = ['Config', 'Global', 'Sessions', 'Par_Heure', 'Jour_Semaine', 'TP2_Global', 'Trades'] as const;
export type SheetName = (typeof SHEET_NAMES)[number];

/** Tab labels of the statistics modal (docs/product.md §1.2); the Trades sheet is download-only. */
export const SHEET_TAB_LABELS: Readonly<Partial<Record<SheetName, string>>> = {
  Config: 'Configuration',
  Global: 'Résumé global',
  Sessions: 'Par session',
  Par_Heure: 'Par heure',
  Jour_Semaine: 'Par jour',
  TP2_Global: 'TP2 global',
};

/** The modal's default tab: Global, otherwise the first sheet, otherwise none (docs/product.md §1.2). */
export function defaultSheet(sheets: readonly string[]): string | null {
  return sheets.includes('Global') ? 'Global' : (sheets[0] ?? null);
}

/** Config sheet headers (spec: "Config comes back as metric/value rows"). */
export const CONFIG_HEADERS = ['metric', 'value'] as const;

/** Headers of the metric/value sheets Global and TP2_Global; the third column only when resolved figures exist. */
export const SUMMARY_HEADERS = { label: 'Indicateur', value: 'Valeur', resolved: 'Valeur résolue' } as const;

/** Row labels, also the column headers of the per-bucket sheets. */
export const LABELS = {
  trades: 'Trades',
  resolved: 'Résolus',
  tp1Wins: 'TP1 atteints',
  tp2Wins: 'TP2 atteints',
  sl: 'SL',
  open: 'Ouverts',
  ambiguous: 'Ambigus',
  winrateTp1: 'Winrate TP1',
  ciLowTp1: 'IC95 bas TP1',
  ciHighTp1: 'IC95 haut TP1',
  winrateTp2: 'Winrate TP2',
  ciLowTp2: 'IC95 bas TP2',
  ciHighTp2: 'IC95 haut TP2',
  slRate: 'Taux SL',
  expectancyTp1: 'Espérance TP1 (R)',
  expectancyTp2: 'Espérance TP2 (R)',
  totalTp1: 'Total TP1 (R)',
  totalTp2: 'Total TP2 (R)',
  profitFactorTp1: 'Profit factor TP1',
  profitFactorTp2: 'Profit factor TP2',
  streakTp1: 'Série perdante max TP1',
  streakTp2: 'Série perdante max TP2',
  drawdownTp1: 'Drawdown max TP1 (R)',
  drawdownTp2: 'Drawdown max TP2 (R)',
  firstTrade: 'Premier trade (UTC)',
  lastTrade: 'Dernier trade (UTC)',
  resolvedTp2: 'Résolus TP2',
  lossesTp2: 'SL avant TP2',
  tp1ThenSl: 'dont TP1 puis SL',
  openTp2: 'Ouverts TP2',
  session: 'Session',
  sessionHours: 'Heures (UTC)',
  hour: 'Heure (UTC)',
  weekday: 'Jour',
  goldenRank: 'Golden hour (rang)',
} as const;

/** Said instead of a golden hour when none qualifies (docs/report.md "Golden hours"). */
export const NO_GOLDEN_HOUR = 'Aucune heure ne bat le win rate global';
export const NO_ELIGIBLE_HOUR = 'Aucune heure n’a assez de trades résolus';

/** Trades sheet headers, in column order. */
export const TRADE_HEADERS = {
  id: 'N°',
  side: 'Sens',
  signalTime: 'Signal (UTC)',
  entryTime: 'Entrée (UTC)',
  orderPrice: 'Prix ordre',
  entryPrice: 'Prix entrée',
  sl: 'SL',
  tp1: 'TP1',
  tp2: 'TP2',
  riskPips: 'Risque (pips)',
  outcome: 'Issue',
  tp1Result: 'Résultat TP1',
  tp2Result: 'Résultat TP2',
  tp1Time: 'TP1 atteint (UTC)',
  tp2Time: 'TP2 atteint (UTC)',
  slTime: 'SL atteint (UTC)',
  mfePips: 'MFE (pips)',
  maePips: 'MAE (pips)',
  rTp1: 'R TP1',
  rTp2: 'R TP2',
  ambiguous: 'Ambigu',
  resolvedTp1Result: 'TP1 résolu',
  resolvedTp2Result: 'TP2 résolu',
  hour: 'Heure (UTC)',
  weekday: 'Jour',
  session: 'Session',
  entryIndex: 'Index entrée',
  spreadPips: 'Spread (pips)',
  costPips: 'Coûts entrée (pips)',
  stopCostPips: 'Coût au SL (pips)',
} as const;

/** French words for the trade record's codes, as written in the Trades sheet. */
export const SIDE_LABELS = { buy: 'Achat', sell: 'Vente' } as const;
export const OUTCOME_LABELS = { tp2: 'TP2', tp1: 'TP1', sl: 'SL', open: 'Ouvert' } as const;
export const TARGET_RESULT_LABELS = { win: 'Gagné', loss: 'Perdu', open: 'Ouvert' } as const;
export const YES_NO = { true: 'Oui', false: 'Non' } as const;

/** Labels (headers or metric rows) whose numbers are fractions shown as percentages. */
export const PERCENT_LABELS: ReadonlySet<string> = new Set([
  LABELS.winrateTp1,
  LABELS.ciLowTp1,
  LABELS.ciHighTp1,
  LABELS.winrateTp2,
  LABELS.ciLowTp2,
  LABELS.ciHighTp2,
  LABELS.slRate,
]);

/**
 * Whether a header or metric label holds percentages: ours by name, and for workbooks written
 * before this one (older results) any label that speaks of a win rate, a rate or a percent.
 */
export function isPercentLabel(label: unknown): boolean {
  if (typeof label !== 'string') return false;
  return PERCENT_LABELS.has(label) || /winrate|win rate|taux|%|pourcent/i.test(label);
}
