import { priceDecimals } from '../format/french.js';
import type { Trade } from '../simulate/types.js';
import { SESSION_BUCKETS, sessionHoursLabel, WEEKDAY_LABELS } from '../stats/buckets.js';
import { goldenHoursText, goldenRanks } from '../stats/golden.js';
import type { BacktestStatistics, GroupStatistics, TargetFigures } from '../stats/types.js';
import {
  CONFIG_HEADERS,
  LABELS,
  OUTCOME_LABELS,
  SIDE_LABELS,
  SUMMARY_HEADERS,
  TARGET_RESULT_LABELS,
  TRADE_HEADERS,
  YES_NO,
  type SheetName,
} from '../format/labels.js';

/** A cell as the workbook stores it: dates are real Excel dates (UTC). */
export type ReportCell = string | number | boolean | Date | null;

export type ConfigValue = string | number | boolean | null;
export interface ConfigEntry {
  readonly metric: string;
  readonly value: ConfigValue;
}

/** One sheet before it is written: headers, rows, and the number format of each cell that needs one. */
export interface SheetSpec {
  readonly name: SheetName;
  readonly headers: readonly string[];
  readonly rows: readonly (readonly ReportCell[])[];
  /** Number format per column (tabular sheets). */
  readonly columnFormats?: readonly (string | null)[];
  /** Number format of the value cells per row (metric/value sheets). */
  readonly rowFormats?: readonly (string | null)[];
}

export const PERCENT_FORMAT = '0.00%';
export const DATE_FORMAT = 'yyyy-mm-dd hh:mm';
export const R_FORMAT = '0.00';

/** Price format with one decimal more than the pip: 0.0001 -> 0.00000, 0.01 -> 0.000, 1 -> 0.0. */
export function priceFormat(pipSize: number): string {
  return `0.${'0'.repeat(priceDecimals(pipSize))}`;
}

function date(ms: number | null): Date | null {
  return ms === null ? null : new Date(ms);
}

function ci(figures: TargetFigures, end: 0 | 1): number | null {
  return figures.winrateCi95 ? figures.winrateCi95[end] : null;
}

const SESSIONS_NOTE = SESSION_BUCKETS.map((b) => `${b.name} ${sessionHoursLabel(b)}`).join(', ');

/** Config: the caller's metric/value rows, then the rules the statistics used (sessions, golden-hour threshold, pip size). */
export function configSheet(config: readonly ConfigEntry[], statistics: BacktestStatistics, pipSize: number): SheetSpec {
  const seen = new Set<string>();
  const rows: ReportCell[][] = [];
  config.forEach((entry, i) => {
    const metric = entry?.metric;
    if (typeof metric !== 'string' || metric.trim() === '') throw new Error(`invalid config metric: ${JSON.stringify(metric)} (row ${i + 1})`);
    const value = entry.value;
    const okValue = value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
    if (!okValue) throw new Error(`invalid config value for ${metric}: ${JSON.stringify(value)} (string, finite number, boolean or null)`);
    if (seen.has(metric)) throw new Error(`invalid config: duplicate metric ${metric}`);
    seen.add(metric);
    rows.push([metric, value]);
  });
  const derived: ConfigEntry[] = [
    { metric: 'pip_size', value: pipSize },
    { metric: 'sessions_utc', value: SESSIONS_NOTE },
    { metric: 'golden_hours_min_trades', value: statistics.goldenHours.min_trades },
    { metric: 'golden_hours_utc', value: goldenHoursText(statistics.goldenHours) },
  ];
  for (const entry of derived) if (!seen.has(entry.metric)) rows.push([entry.metric, entry.value]);
  return { name: 'Config', headers: [...CONFIG_HEADERS], rows };
}

type SummaryRow = [label: string, value: ReportCell, resolved: ReportCell, format: string | null];

function summarySheet(name: SheetName, rows: SummaryRow[], withResolved: boolean): SheetSpec {
  const headers = withResolved ? [SUMMARY_HEADERS.label, SUMMARY_HEADERS.value, SUMMARY_HEADERS.resolved] : [SUMMARY_HEADERS.label, SUMMARY_HEADERS.value];
  return {
    name,
    headers,
    rows: rows.map(([label, value, resolved]) => (withResolved ? [label, value, resolved] : [label, value])),
    rowFormats: rows.map((row) => row[3]),
  };
}

/** Global: metric/value rows; the resolved column when lower-timeframe candles resolved ambiguous trades. */
export function globalSheet(statistics: BacktestStatistics): SheetSpec {
  const g = statistics.global;
  const r = statistics.ambiguity.resolved;
  const pct = PERCENT_FORMAT;
  const rows: SummaryRow[] = [
    [LABELS.trades, g.trades, g.trades, null],
    [LABELS.resolved, g.resolved, r ? r.tp1.resolved : null, null],
    [LABELS.tp1Wins, g.tp1Wins, r ? r.tp1.wins : null, null],
    [LABELS.tp2Wins, g.tp2Wins, r ? r.tp2.wins : null, null],
    [LABELS.sl, g.sl, r ? r.tp1.losses : null, null],
    [LABELS.open, g.open, r ? r.tp1.open : null, null],
    [LABELS.ambiguous, g.ambiguous, r ? g.ambiguous - statistics.ambiguity.resolvedByLowerTimeframe : null, null],
    [LABELS.winrateTp1, g.tp1.winrate, r ? r.tp1.winrate : null, pct],
    [LABELS.ciLowTp1, ci(g.tp1, 0), r ? ci(r.tp1, 0) : null, pct],
    [LABELS.ciHighTp1, ci(g.tp1, 1), r ? ci(r.tp1, 1) : null, pct],
    [LABELS.winrateTp2, g.tp2.winrate, r ? r.tp2.winrate : null, pct],
    [LABELS.ciLowTp2, ci(g.tp2, 0), r ? ci(r.tp2, 0) : null, pct],
    [LABELS.ciHighTp2, ci(g.tp2, 1), r ? ci(r.tp2, 1) : null, pct],
    [LABELS.slRate, g.slRate, r && r.tp1.resolved > 0 ? r.tp1.losses / r.tp1.resolved : null, pct],
    [LABELS.expectancyTp1, g.tp1.expectancyR, r ? r.tp1.expectancyR : null, R_FORMAT],
    [LABELS.expectancyTp2, g.tp2.expectancyR, r ? r.tp2.expectancyR : null, R_FORMAT],
    [LABELS.totalTp1, g.tp1.totalR, r ? r.tp1.totalR : null, R_FORMAT],
    [LABELS.profitFactorTp1, g.tp1.profitFactor, r ? r.tp1.profitFactor : null, R_FORMAT],
    [LABELS.streakTp1, g.tp1.longestLosingStreak, r ? r.tp1.longestLosingStreak : null, null],
    [LABELS.drawdownTp1, g.tp1.maxDrawdownR, r ? r.tp1.maxDrawdownR : null, R_FORMAT],
    [LABELS.firstTrade, date(g.firstTradeTime), date(g.firstTradeTime), DATE_FORMAT],
    [LABELS.lastTrade, date(g.lastTradeTime), date(g.lastTradeTime), DATE_FORMAT],
  ];
  return summarySheet('Global', rows, r !== null);
}

/** TP2_Global: everything judged at TP2 against the original stop. */
export function tp2GlobalSheet(statistics: BacktestStatistics): SheetSpec {
  const g = statistics.global;
  const t = g.tp2;
  const r = statistics.ambiguity.resolved?.tp2 ?? null;
  const pct = PERCENT_FORMAT;
  const rows: SummaryRow[] = [
    [LABELS.trades, g.trades, g.trades, null],
    [LABELS.resolvedTp2, t.resolved, r ? r.resolved : null, null],
    [LABELS.tp2Wins, t.wins, r ? r.wins : null, null],
    [LABELS.lossesTp2, t.losses, r ? r.losses : null, null],
    [LABELS.tp1ThenSl, g.tp1ThenSl, null, null],
    [LABELS.openTp2, t.open, r ? r.open : null, null],
    [LABELS.winrateTp2, t.winrate, r ? r.winrate : null, pct],
    [LABELS.ciLowTp2, ci(t, 0), r ? ci(r, 0) : null, pct],
    [LABELS.ciHighTp2, ci(t, 1), r ? ci(r, 1) : null, pct],
    [LABELS.expectancyTp2, t.expectancyR, r ? r.expectancyR : null, R_FORMAT],
    [LABELS.totalTp2, t.totalR, r ? r.totalR : null, R_FORMAT],
    [LABELS.profitFactorTp2, t.profitFactor, r ? r.profitFactor : null, R_FORMAT],
    [LABELS.streakTp2, t.longestLosingStreak, r ? r.longestLosingStreak : null, null],
    [LABELS.drawdownTp2, t.maxDrawdownR, r ? r.maxDrawdownR : null, R_FORMAT],
  ];
  return summarySheet('TP2_Global', rows, r !== null);
}

/** Columns every per-bucket sheet shares, after its key column(s). */
const BUCKET_COLUMNS: ReadonlyArray<[label: string, value: (g: GroupStatistics) => ReportCell, format: string | null]> = [
  [LABELS.trades, (g) => g.trades, null],
  [LABELS.resolved, (g) => g.resolved, null],
  [LABELS.tp1Wins, (g) => g.tp1Wins, null],
  [LABELS.tp2Wins, (g) => g.tp2Wins, null],
  [LABELS.sl, (g) => g.sl, null],
  [LABELS.open, (g) => g.open, null],
  [LABELS.ambiguous, (g) => g.ambiguous, null],
  [LABELS.winrateTp1, (g) => g.tp1.winrate, PERCENT_FORMAT],
  [LABELS.ciLowTp1, (g) => ci(g.tp1, 0), PERCENT_FORMAT],
  [LABELS.ciHighTp1, (g) => ci(g.tp1, 1), PERCENT_FORMAT],
  [LABELS.winrateTp2, (g) => g.tp2.winrate, PERCENT_FORMAT],
  [LABELS.ciLowTp2, (g) => ci(g.tp2, 0), PERCENT_FORMAT],
  [LABELS.ciHighTp2, (g) => ci(g.tp2, 1), PERCENT_FORMAT],
  [LABELS.slRate, (g) => g.slRate, PERCENT_FORMAT],
  [LABELS.expectancyTp1, (g) => g.tp1.expectancyR, R_FORMAT],
  [LABELS.expectancyTp2, (g) => g.tp2.expectancyR, R_FORMAT],
];

/** A bucket sheet whose rows its caller may still fill (Par_Heure's rank column). */
type BucketSheet = Omit<SheetSpec, 'rows'> & { readonly rows: ReportCell[][] };

/** One bucket's row: its key cells, the shared columns, then `extra` cells (null) for the caller. */
function bucketRow<G extends GroupStatistics>(keys: ReadonlyArray<[string, (g: G) => ReportCell]>, g: G, extra: number): ReportCell[] {
  // Filled by index rather than spread from mapped arrays: these rows are built for every workbook.
  const row = new Array<ReportCell>(keys.length + BUCKET_COLUMNS.length + extra);
  let at = 0;
  for (const [, value] of keys) row[at++] = value(g);
  for (const [, value] of BUCKET_COLUMNS) row[at++] = value(g);
  while (at < row.length) row[at++] = null;
  return row;
}

function bucketSheet<G extends GroupStatistics>(name: SheetName, keys: ReadonlyArray<[string, (g: G) => ReportCell]>, groups: readonly G[], extra = 0): BucketSheet {
  return {
    name,
    headers: [...keys.map(([label]) => label), ...BUCKET_COLUMNS.map(([label]) => label)],
    rows: groups.map((g) => bucketRow(keys, g, extra)),
    columnFormats: [...keys.map(() => null), ...BUCKET_COLUMNS.map(([, , format]) => format)],
  };
}

export function sessionsSheet(statistics: BacktestStatistics): SheetSpec {
  return bucketSheet('Sessions', [[LABELS.session, (s) => s.session], [LABELS.sessionHours, (s) => s.hoursUtc]], statistics.sessions);
}

/** Par_Heure, with the golden hours' rank (1 = best, empty otherwise: docs/report.md "Golden hours"). */
export function hoursSheet(statistics: BacktestStatistics): SheetSpec {
  const sheet = bucketSheet('Par_Heure', [[LABELS.hour, (h) => h.hour]], statistics.byHour, 1);
  const ranks = goldenRanks(statistics.goldenHours);
  const rank = sheet.headers.length;
  sheet.rows.forEach((row, i) => {
    row[rank] = ranks.get(statistics.byHour[i].hour) ?? null;
  });
  return {
    ...sheet,
    headers: [...sheet.headers, LABELS.goldenRank],
    columnFormats: [...(sheet.columnFormats ?? []), null],
  };
}

export function weekdaysSheet(statistics: BacktestStatistics): SheetSpec {
  return bucketSheet('Jour_Semaine', [[LABELS.weekday, (d) => d.label]], statistics.byWeekday);
}

function result(value: Trade['tp1Result'] | null): string | null {
  return value === null ? null : TARGET_RESULT_LABELS[value];
}

/** A Trades column: times come as ms UTC (`date`), so the workbook writer needs no Date objects. */
interface TradeColumn {
  readonly label: string;
  readonly value: (t: Trade) => string | number | null;
  readonly format: 'price' | string | null;
  readonly date?: true;
  /** Few distinct values, repeated down the column (XlsxColumn.repeats). */
  readonly repeats?: true;
}

const column = (label: string, value: TradeColumn['value'], format: TradeColumn['format'] = null): TradeColumn => ({ label, value, format });
const dateColumn = (label: string, value: (t: Trade) => number | null): TradeColumn => ({ label, value, format: DATE_FORMAT, date: true });

const TRADE_COLUMNS: readonly TradeColumn[] = [
  column(TRADE_HEADERS.id, (t) => t.id),
  column(TRADE_HEADERS.side, (t) => SIDE_LABELS[t.side]),
  dateColumn(TRADE_HEADERS.signalTime, (t) => t.signalTime),
  dateColumn(TRADE_HEADERS.entryTime, (t) => t.entryTime),
  column(TRADE_HEADERS.orderPrice, (t) => t.orderPrice, 'price'),
  column(TRADE_HEADERS.entryPrice, (t) => t.entryPrice, 'price'),
  column(TRADE_HEADERS.sl, (t) => t.sl, 'price'),
  column(TRADE_HEADERS.tp1, (t) => t.tp1, 'price'),
  column(TRADE_HEADERS.tp2, (t) => t.tp2, 'price'),
  column(TRADE_HEADERS.riskPips, (t) => t.riskPips, '0.0'),
  column(TRADE_HEADERS.outcome, (t) => OUTCOME_LABELS[t.outcome]),
  column(TRADE_HEADERS.tp1Result, (t) => result(t.tp1Result)),
  column(TRADE_HEADERS.tp2Result, (t) => result(t.tp2Result)),
  dateColumn(TRADE_HEADERS.tp1Time, (t) => t.tp1Time),
  dateColumn(TRADE_HEADERS.tp2Time, (t) => t.tp2Time),
  dateColumn(TRADE_HEADERS.slTime, (t) => t.slTime),
  column(TRADE_HEADERS.mfePips, (t) => t.mfePips, '0.0'),
  column(TRADE_HEADERS.maePips, (t) => t.maePips, '0.0'),
  column(TRADE_HEADERS.rTp1, (t) => t.rTp1, R_FORMAT),
  column(TRADE_HEADERS.rTp2, (t) => t.rTp2, R_FORMAT),
  column(TRADE_HEADERS.ambiguous, (t) => YES_NO[`${t.ambiguous}`]),
  column(TRADE_HEADERS.resolvedTp1Result, (t) => result(t.resolvedTp1Result)),
  column(TRADE_HEADERS.resolvedTp2Result, (t) => result(t.resolvedTp2Result)),
  column(TRADE_HEADERS.hour, (t) => t.hour),
  column(TRADE_HEADERS.weekday, (t) => WEEKDAY_LABELS[t.weekday]),
  column(TRADE_HEADERS.session, (t) => t.session),
  column(TRADE_HEADERS.entryIndex, (t) => t.entryIndex),
];

// A run's spreads, costs and stop slippage take a few values (a spread per hour at most), which
// the writer copies rather than formats (docs/report.md, "How it is written").
const costColumn = (label: string, value: (t: Trade) => number): TradeColumn => ({ label, value, format: '0.0', repeats: true });

/** Runs with trading costs (docs/engine.md §13) add what each trade paid; runs without keep the sheet as it was. */
const COST_COLUMNS: readonly TradeColumn[] = [
  ...TRADE_COLUMNS,
  costColumn(TRADE_HEADERS.spreadPips, (t) => t.spreadPips),
  costColumn(TRADE_HEADERS.costPips, (t) => t.costPips),
  costColumn(TRADE_HEADERS.stopCostPips, (t) => t.stopCostPips),
];

/** The workbook writer's view of TRADE_COLUMNS, made once (objects that live across runs keep V8's optimized writer valid). */
const TRADE_RECORD_COLUMNS = TRADE_COLUMNS.map((c) => ({ value: c.value, date: c.date === true, repeats: c.repeats === true }));
const COST_RECORD_COLUMNS = COST_COLUMNS.map((c) => ({ value: c.value, date: c.date === true, repeats: c.repeats === true }));

/** Whether any trade carries a cost (then the sheet has the cost columns). */
function paidCosts(trades: readonly Trade[]): boolean {
  for (const t of trades) if (t.spreadPips > 0 || t.costPips > 0 || t.stopCostPips > 0) return true;
  return false;
}

const byEntry = (a: Trade, b: Trade) => a.entryTime - b.entryTime || a.id - b.id;

/** Trades in entry order (then id). The engine hands them over in that order: checked before paying for a sort. */
function entryOrdered(trades: readonly Trade[]): readonly Trade[] {
  for (let i = 1; i < trades.length; i++) if (byEntry(trades[i - 1], trades[i]) > 0) return [...trades].sort(byEntry);
  return trades;
}

/**
 * The Trades sheet as column accessors over the trades in entry order, for the workbook
 * writer: one row per trade, codes in French words, times as UTC dates. tradesSheet gives the
 * same cells as rows.
 */
export function tradesTable(trades: readonly Trade[], pipSize: number) {
  const price = priceFormat(pipSize);
  const ordered = entryOrdered(trades);
  const costs = paidCosts(ordered);
  const columns = costs ? COST_COLUMNS : TRADE_COLUMNS;
  return {
    name: 'Trades' as const,
    headers: columns.map((c) => c.label),
    columnFormats: columns.map((c) => (c.format === 'price' ? price : c.format)),
    items: ordered,
    columns: costs ? COST_RECORD_COLUMNS : TRADE_RECORD_COLUMNS,
  };
}

/** Trades: one row per trade in entry order, codes in French words, times as UTC dates. */
export function tradesSheet(trades: readonly Trade[], pipSize: number): SheetSpec {
  const table = tradesTable(trades, pipSize);
  const rows = table.items.map((trade) =>
    table.columns.map((c): ReportCell => {
      const value = c.value(trade);
      return c.date && value !== null ? new Date(value) : value;
    }),
  );
  return { name: table.name, headers: table.headers, rows, columnFormats: table.columnFormats };
}

export interface ReportSheetsInput {
  readonly config: readonly ConfigEntry[];
  readonly statistics: BacktestStatistics;
  readonly trades: readonly Trade[];
  readonly pipSize: number;
}

/** The workbook's sheets before Trades: Config, Global, Sessions, Par_Heure, Jour_Semaine, TP2_Global. */
export function summarySheets(input: ReportSheetsInput): SheetSpec[] {
  if (!(typeof input.pipSize === 'number' && input.pipSize > 0 && Number.isFinite(input.pipSize))) throw new Error(`invalid pipSize: ${input.pipSize}`);
  return [
    configSheet(input.config, input.statistics, input.pipSize),
    globalSheet(input.statistics),
    sessionsSheet(input.statistics),
    hoursSheet(input.statistics),
    weekdaysSheet(input.statistics),
    tp2GlobalSheet(input.statistics),
  ];
}

/** Every sheet of a run's workbook, in workbook order. */
export function reportSheets(input: ReportSheetsInput): SheetSpec[] {
  return [...summarySheets(input), tradesSheet(input.trades, input.pipSize)];
}
