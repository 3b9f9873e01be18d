// The cells of the CSV files bt writes (bt optimize, bt walk-forward, bt batch, bt zones --csv):
// one rule for all of them, docs/cli.md "CSV files".
//
// A text cell that starts with =, +, -, @, a tab or a carriage return is read as a formula by
// Excel and LibreOffice (CSV injection, OWASP): such a cell gets a leading apostrophe and is
// quoted, as OWASP recommends, so it opens as the text it is. Its text can come from a plan or a
// data file's name someone shared (`data: "=HYPERLINK(...)"`), or an error quoting them. Numbers
// are written as numbers (a negative one too); a text that is a plain decimal number (`-5`, a
// parameter given as text) is left as it is, since a spreadsheet reads it as that number.

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

/** A text cell: neutralised when a spreadsheet would run it, quoted when it holds a quote, a comma or a line break. */
export function csvText(text: string): string {
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) return `"'${text.replace(/"/g, '""')}"`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

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
