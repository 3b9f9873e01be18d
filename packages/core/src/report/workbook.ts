import type { Trade } from '../simulate/types.js';
import type { BacktestStatistics } from '../stats/types.js';
import { reportSheets, type ConfigEntry, type ReportCell, type SheetSpec } from './sheets.js';
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
}

const MIN_WIDTH = 6;
const MAX_WIDTH = 48;

/** Display width of a cell in characters, roughly as Excel sizes it. */
function cellWidth(value: ReportCell, format: string | null | undefined): number {
  if (value === null) return 0;
  if (value instanceof Date) return 16;
  if (typeof value === 'number') {
    if (format?.endsWith('%')) return 8;
    if (format?.startsWith('0.')) return Math.trunc(Math.abs(value)).toString().length + format.length + (value < 0 ? 1 : 0);
    return Number.isInteger(value) ? String(value).length : 10;
  }
  if (typeof value === 'boolean') return 5;
  return value.length;
}

/** The spec's format of a data cell (row index counts the header as 0). */
function formatOf(spec: SheetSpec, row: number, column: number): string | null {
  const rowFormat = spec.rowFormats?.[row - 1];
  if (rowFormat && column > 0) return rowFormat;
  return spec.columnFormats?.[column] ?? null;
}

function toXlsxSheet(spec: SheetSpec): XlsxSheet {
  const widths = spec.headers.map((h) => h.length + 3);
  spec.rows.forEach((row, r) => {
    for (let c = 0; c < row.length; c++) {
      const width = cellWidth(row[c], formatOf(spec, r + 1, c)) + 2;
      if (width > widths[c]) widths[c] = width;
    }
  });
  return {
    name: spec.name,
    rows: [spec.headers, ...spec.rows],
    format: (row, column) => formatOf(spec, row, column),
    widths: widths.map((w) => Math.max(MIN_WIDTH, Math.min(MAX_WIDTH, w))),
    autoFilter: spec.name === 'Trades',
  };
}

/**
 * The run's workbook (DESIGN §2, docs/report.md): Config, Global, Sessions, Par_Heure,
 * Jour_Semaine, TP2_Global, Trades. Percentages are stored as fractions and formatted 0.00%;
 * dates are Excel dates in UTC; every header row is bold and frozen.
 */
export async function buildReport(input: ReportInput): Promise<Uint8Array> {
  const sheets = reportSheets(input).map(toXlsxSheet);
  const created = input.createdAt === undefined ? new Date() : new Date(input.createdAt);
  if (!Number.isFinite(created.getTime())) throw new Error(`invalid createdAt: ${String(input.createdAt)}`);
  return await writeXlsx({ sheets, creator: 'bt', created });
}
