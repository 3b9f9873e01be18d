import type { Trade } from '../simulate/types.js';
import type { BacktestStatistics } from '../stats/types.js';
import { reportSheets, type ConfigEntry, type ReportCell, type SheetSpec } from './sheets.js';
import type { RawDeflate } from './deflate.js';
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
  readonly deflate?: RawDeflate;
}

const MIN_WIDTH = 6;
const MAX_WIDTH = 48;

/** Characters of an integer's decimal form (String(value).length without the string). */
function integerLength(value: number): number {
  const magnitude = Math.abs(value);
  if (magnitude >= 1e15) return String(value).length;
  let digits = 1;
  for (let v = magnitude; v >= 10; v = Math.floor(v / 10)) digits++;
  return value < 0 ? digits + 1 : digits;
}

/** Display width of a cell in characters, roughly as Excel sizes it. */
function cellWidth(value: ReportCell, format: string | null | undefined): number {
  if (value === null) return 0;
  if (value instanceof Date) return 16;
  if (typeof value === 'number') {
    if (format?.endsWith('%')) return 8;
    if (format?.startsWith('0.')) return integerLength(Math.trunc(Math.abs(value))) + format.length + (value < 0 ? 1 : 0);
    return Number.isInteger(value) ? integerLength(value) : 10;
  }
  if (typeof value === 'boolean') return 5;
  return value.length;
}

function toXlsxSheet(spec: SheetSpec): XlsxSheet {
  const widths = spec.headers.map((h) => h.length + 3);
  const columnFormats = spec.columnFormats ?? [];
  spec.rows.forEach((row, r) => {
    const rowFormat = spec.rowFormats?.[r];
    for (let c = 0; c < row.length; c++) {
      const width = cellWidth(row[c], rowFormat && c > 0 ? rowFormat : columnFormats[c]) + 2;
      if (width > widths[c]) widths[c] = width;
    }
  });
  return {
    name: spec.name,
    rows: [spec.headers, ...spec.rows],
    columnFormats: spec.columnFormats,
    rowFormats: spec.rowFormats,
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
  return await writeXlsx({ sheets, creator: 'bt', created, deflate: input.deflate });
}
