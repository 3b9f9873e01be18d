/**
 * Reading workbook answers for the statistics modals (docs/product.md §1.2-§1.3, docs/product.md §2.2-§1.3): the sheet list
 * of a meta answer, French tab labels, the default tab, and sheet data as headers plus rows.
 * Cell display rules (percent cells, hidden rows, time zones) come from @bt/core through
 * lib/format.ts.
 */
import { SHEET_TAB_LABELS } from '../../lib/format.js';

/** Sheets the results modal of the backtest screen offers, in order (docs/product.md §2.2). */
export const RESULT_SHEETS = ['Config', 'Global', 'Sessions', 'Par_Heure', 'Jour_Semaine', 'TP2_Global', 'Trades'] as const;
/** The public modal stops at TP2_Global: trade lists stay private (docs/product.md §1.2). */
export const PUBLIC_SHEETS = ['Config', 'Global', 'Sessions', 'Par_Heure', 'Jour_Semaine', 'TP2_Global'] as const;

export const HOURLY_SHEET = 'Par_Heure';
export const CONFIG_SHEET = 'Config';
export const TRADES_SHEET = 'Trades';

export function sheetLabel(name: string): string {
  return (SHEET_TAB_LABELS as Record<string, string | undefined>)[name] ?? name.replace(/_/g, ' ');
}

function nameOf(entry: unknown): string | null {
  if (typeof entry === 'string') return entry.trim() || null;
  if (entry && typeof entry === 'object') {
    const record = entry as Record<string, unknown>;
    for (const field of ['name', 'sheet', 'title', 'id']) {
      const value = record[field];
      if (typeof value === 'string' && value.trim()) return value.trim();
      if (typeof value === 'number') return String(value);
    }
  }
  return null;
}

/** Sheet names of a meta answer: a list of names or of objects with name, sheet, title or id. */
export function sheetNames(meta: unknown, allowed?: readonly string[]): string[] {
  const list = meta && typeof meta === 'object' && !Array.isArray(meta) ? (meta as Record<string, unknown>).sheets : meta;
  if (!Array.isArray(list)) return [];
  const names: string[] = [];
  for (const entry of list) {
    const name = nameOf(entry);
    if (name && !names.includes(name) && (!allowed || allowed.includes(name))) names.push(name);
  }
  return names;
}

export interface SheetTable {
  headers: string[];
  rows: unknown[][];
}

/** Headers plus rows, whether rows come as arrays or as objects keyed by header. */
export function sheetTable(answer: unknown): SheetTable {
  const record = answer && typeof answer === 'object' ? (answer as Record<string, unknown>) : {};
  const rawRows = Array.isArray(record.rows) ? record.rows : Array.isArray(answer) ? answer : [];
  let headers = Array.isArray(record.headers) ? record.headers.map((h) => String(h ?? '')) : [];
  if (headers.length === 0) {
    const firstObject = rawRows.find((row) => row && typeof row === 'object' && !Array.isArray(row)) as Record<string, unknown> | undefined;
    if (firstObject) headers = Object.keys(firstObject);
  }
  const rows = rawRows.map((row) => {
    if (Array.isArray(row)) return row;
    if (row && typeof row === 'object') return headers.map((h) => (row as Record<string, unknown>)[h]);
    return [row];
  });
  return { headers, rows };
}

/** A metric/value sheet (Config) as pairs, whichever two columns hold them. */
export function metricValueRows(table: SheetTable): { metric: string; value: unknown }[] {
  const lower = table.headers.map((h) => h.toLowerCase());
  let metricIndex = lower.findIndex((h) => h === 'metric' || h === 'métrique' || h === 'parametre' || h === 'paramètre' || h === 'key');
  let valueIndex = lower.findIndex((h) => h === 'value' || h === 'valeur');
  if (metricIndex < 0) metricIndex = 0;
  if (valueIndex < 0) valueIndex = metricIndex === 0 ? 1 : 0;
  return table.rows.map((row) => ({ metric: String(row[metricIndex] ?? ''), value: row[valueIndex] }));
}

/**
 * The pip size a sheet's cells are written with: the instrument's (Config's `pip_size`) on the
 * Trades sheet only, whose SL, TP1 and TP2 columns are prices. Sessions and Jour_Semaine have an
 * 'SL' column too, the count of stopped trades, which read as a price showed '50,00000' on EURUSD.
 */
export function sheetPipSize(sheet: string, config: SheetTable | null): number | null {
  if (sheet !== TRADES_SHEET || !config) return null;
  const row = metricValueRows(config).find((r) => r.metric.trim() === 'pip_size');
  return typeof row?.value === 'number' && row.value > 0 ? row.value : null;
}

/**
 * The sheet states once a tab is chosen: a sheet of `names` whose load failed is forgotten, so the
 * modal asks for it again (a sheet lost to a network cut came back only by closing the modal). The
 * same object is returned when nothing failed, so choosing a loaded tab sets no new state.
 */
export function forgetFailedSheets<S extends { status: string }>(sheets: Record<string, S>, names: readonly string[]): Record<string, S> {
  const failed = names.filter((name) => sheets[name]?.status === 'error');
  if (failed.length === 0) return sheets;
  const next = { ...sheets };
  for (const name of failed) delete next[name];
  return next;
}
