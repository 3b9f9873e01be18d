// The text cells of every CSV bt writes (the CLI's report, grid and batch tables, candle files):
// one rule, docs/cli.md "CSV files".
//
// A text cell that starts with =, +, -, @, a tab or a carriage return is read as a formula by
// Excel and LibreOffice (CSV injection, OWASP): such a cell gets a leading apostrophe and is
// quoted, as OWASP recommends, so it opens as the text it is. Its text can come from a plan or a
// data file's name someone shared (`data: "=HYPERLINK(...)"`), a column name of a candle file, or
// an error quoting them. A text that is a plain decimal number (`-5`, a parameter given as text) is
// left as it is, since a spreadsheet reads it as that number; numbers are never passed here.

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

/** A text cell: neutralised when a spreadsheet would run it, quoted when it holds a quote, a comma or a line break. */
export function csvText(text: string): string {
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) return `"'${text.replace(/"/g, '""')}"`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
