// Excel refuses a workbook whose worksheet name breaks its rules (docs/csv-format.md "Workbooks"):
// a name given by the caller is checked and refused by name; one taken from the data's symbol,
// which comes from a user's file, is made valid instead, so that writing never fails on it.

/** Excel's longest worksheet name. */
export const MAX_SHEET_NAME = 31;

const FORBIDDEN = /[*?:\\/[\]\u0000-\u001f]/g;

/** Why `name` cannot name a worksheet, or null when it can. */
function sheetNameProblem(name: string): string | null {
  if (name.length === 0) return 'empty';
  if (name.length > MAX_SHEET_NAME) return `longer than ${MAX_SHEET_NAME} characters`;
  FORBIDDEN.lastIndex = 0;
  if (FORBIDDEN.test(name)) return 'holds one of * ? : \\ / [ ] or a control character';
  if (name.startsWith("'") || name.endsWith("'")) return 'starts or ends with an apostrophe';
  // Excel keeps this name for its change history, whatever the letter case.
  if (name.toLowerCase() === 'history') return 'reserved by Excel';
  return null;
}

/** The caller's own worksheet name, refused as `invalid sheetName: …` when Excel would refuse it. */
export function checkedSheetName(name: unknown): string {
  if (typeof name !== 'string') throw new Error(`invalid sheetName: ${JSON.stringify(name)} (expected text)`);
  const problem = sheetNameProblem(name);
  if (problem) throw new Error(`invalid sheetName: ${JSON.stringify(name)} (${problem})`);
  return name;
}

/** A worksheet name made from a symbol: forbidden characters become `_`, cut to 31, else `Candles`. */
export function sheetNameFromSymbol(symbol: string | undefined): string {
  if (!symbol) return 'Candles';
  let name = symbol.replace(FORBIDDEN, '_').slice(0, MAX_SHEET_NAME).replace(/^'+|'+$/g, '');
  // Cutting may end inside a surrogate pair; a lone half is not a character Excel can show.
  name = name.replace(/[\ud800-\udbff]$/, '');
  return sheetNameProblem(name) ? 'Candles' : name;
}
