import type { Trade } from '../simulate/types.js';
import type { BacktestStatistics } from '../stats/types.js';
import { summarySheets, tradesTable, type ConfigEntry, type SheetSpec } from './sheets.js';
import type { Deflater } from './deflate.js';
import { writeXlsx, type XlsxSheet } from './xlsx.js';

export interface ReportInput {
  /** Config sheet rows: every input, sl_mode, engine version, run_id, user_id, run_seq (docs/report.md). */
  readonly config: readonly ConfigEntry[];
  readonly statistics: BacktestStatistics;
  readonly trades: readonly Trade[];
  /** Pip size of the symbol: sets the decimals of the price columns. */
  readonly pipSize: number;
  /** Creation time written in the workbook's properties (time is injected; default: now). */
  readonly createdAt?: Date | number;
  /** Compression of the workbook's parts; default: Node's zlib when present, else CompressionStream (report/deflate.ts). */
  readonly deflater?: Deflater;
}

const MIN_WIDTH = 6;
const MAX_WIDTH = 48;

function toXlsxSheet(spec: SheetSpec): XlsxSheet {
  // Every field named, so that all sheets share one object shape in the writer.
  return { name: spec.name, headers: spec.headers, rows: spec.rows, columnFormats: spec.columnFormats, rowFormats: spec.rowFormats, minWidth: MIN_WIDTH, maxWidth: MAX_WIDTH };
}

/**
 * The run's workbook (docs/architecture.md §2, docs/report.md): Config, Global, Sessions, Par_Heure,
 * Jour_Semaine, TP2_Global, Trades. Percentages are stored as fractions and formatted 0.00%;
 * dates are Excel dates in UTC; every header row is bold and frozen.
 */
export async function buildReport(input: ReportInput): Promise<Uint8Array> {
  const summaries = summarySheets(input).map(toXlsxSheet);
  const trades = tradesTable(input.trades, input.pipSize);
  const sheets: XlsxSheet[] = [
    ...summaries,
    // Written from the trade records through column accessors: no row arrays, no Date objects.
    { ...trades, records: trades, minWidth: MIN_WIDTH, maxWidth: MAX_WIDTH, autoFilter: true },
  ];
  const created = input.createdAt === undefined ? new Date() : new Date(input.createdAt);
  if (!Number.isFinite(created.getTime())) throw new Error(`invalid createdAt: ${String(input.createdAt)}`);
  return await writeXlsx({ sheets, creator: 'bt', created, deflater: input.deflater });
}
