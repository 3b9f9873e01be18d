// The cells of the CSV files bt writes (bt optimize, bt walk-forward, bt batch, bt zones --csv):
// one rule for all of them, docs/cli.md "CSV files".
//
// The text rule (formula-looking text neutralised) is core's csvText, shared with the candle
// files bt convert and bt enrich write.
import { csvText } from '@bt/core/format';

export { csvText };

/** A cell: empty for null, a number rounded to 1e-9, an object as JSON, anything else as text. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(Math.round(value * 1e9) / 1e9);
  return csvText(typeof value === 'object' ? JSON.stringify(value) : String(value));
}

/** Lines of cells, each ending with a line break. */
export function csvLines(rows: readonly (readonly unknown[])[]): string {
  return rows.map((row) => `${row.map(csvCell).join(',')}\n`).join('');
}
