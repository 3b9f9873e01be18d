// Result sheets as text: the same sheets the workbook holds (core's reportSheets), cells shown by
// core's display rules (percent cells, numbers), so `bt backtest`, `bt report` and the TUI agree
// with the workbook and the web app.
import { CONFIG_HEADERS, SUMMARY_HEADERS, formatCell, formatPercentCell } from '@bt/core/format';

export interface TextSheet {
  readonly name: string;
  readonly headers: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

interface SheetLike {
  readonly name: string;
  readonly headers: readonly string[];
  readonly rows: readonly (readonly unknown[])[];
  readonly columnFormats?: readonly (string | null)[];
  readonly rowFormats?: readonly (string | null)[];
}

/** One cell as text: a number format when the sheet gives one, else core's rules (times `YYYY-MM-DD HH:MM`, UTC). */
export function cellText(value: unknown, label: unknown, format?: string | null): string {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : formatCell(value.toISOString(), label);
  if (typeof value === 'number' && format) {
    if (format.endsWith('%')) return formatPercentCell(value);
    const decimals = /^0\.(0+)$/.exec(format)?.[1].length;
    if (decimals !== undefined) return value.toFixed(decimals);
  }
  return formatCell(value, label);
}

/** Metric/value sheets (Config, Global, TP2_Global) label their rows in the first column. */
export function isMetricSheet(headers: readonly string[]): boolean {
  return headers[0] === SUMMARY_HEADERS.label || headers[0] === CONFIG_HEADERS[0];
}

/** A sheet's cells as text, optionally keeping only some columns (by header) in the order given. */
export function sheetText(sheet: SheetLike, columns?: readonly string[]): TextSheet {
  const metric = isMetricSheet(sheet.headers);
  const keep = columns ? columns.map((c) => sheet.headers.indexOf(c)).filter((i) => i >= 0) : sheet.headers.map((_, i) => i);
  const rows = sheet.rows.map((row, r) =>
    keep.map((c) => {
      const label = metric ? row[0] : sheet.headers[c];
      const format = metric ? (c > 0 ? sheet.rowFormats?.[r] : null) : sheet.columnFormats?.[c];
      return c === 0 && metric ? String(row[0] ?? '') : cellText(row[c], label, format);
    }),
  );
  return { name: sheet.name, headers: keep.map((c) => sheet.headers[c]), rows };
}
