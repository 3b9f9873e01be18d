// Every problem a candle file can have, with its stable code, English message and fix.
// The CLI prints `message` and `fix`; the server maps `code` (+ line, column, value) to French.

/** Problems that stop a file from loading. */
export type CandleErrorCode =
  | 'empty_file'
  | 'not_utf8'
  | 'semicolon_separator'
  | 'wrong_separator'
  | 'missing_header'
  | 'no_rows'
  | 'empty_line'
  | 'line_too_long'
  | 'cr_line_ends'
  | 'wrong_field_count'
  | 'unclosed_quote'
  | 'too_many_columns'
  | 'wrong_column_name'
  | 'missing_column'
  | 'duplicate_column'
  | 'local_time'
  | 'invalid_datetime'
  | 'missing_value'
  | 'non_numeric'
  | 'decimal_comma'
  | 'high_below_low'
  | 'high_below_body'
  | 'low_above_body'
  | 'negative_price'
  | 'negative_volume'
  | 'unsorted'
  | 'duplicate'
  | 'irregular_step'
  | 'timeframe_mismatch'
  | 'invalid_json'
  | 'invalid_arrow';

/** Facts worth telling that do not stop a file from loading. */
export type CandleWarningCode =
  | 'unknown_timeframe'
  | 'duplicates_dropped'
  | 'dropped_column'
  | 'excel_dates_as_utc'
  | 'converted_offset'
  | 'symbol_mismatch'
  | 'no_header';

export type CandleProblemCode = CandleErrorCode | CandleWarningCode;

/** Every error code, for translation tables (the server) and documentation checks. */
export const CANDLE_ERROR_CODES: readonly CandleErrorCode[] = [
  'empty_file', 'not_utf8', 'semicolon_separator', 'wrong_separator', 'missing_header', 'no_rows', 'empty_line',
  'line_too_long', 'cr_line_ends', 'wrong_field_count', 'unclosed_quote', 'too_many_columns', 'wrong_column_name', 'missing_column', 'duplicate_column', 'local_time', 'invalid_datetime',
  'missing_value', 'non_numeric', 'decimal_comma', 'high_below_low', 'high_below_body', 'low_above_body', 'negative_price',
  'negative_volume', 'unsorted', 'duplicate', 'irregular_step', 'timeframe_mismatch', 'invalid_json', 'invalid_arrow',
];

/** Every warning code. */
export const CANDLE_WARNING_CODES: readonly CandleWarningCode[] = [
  'unknown_timeframe', 'duplicates_dropped', 'dropped_column', 'excel_dates_as_utc', 'converted_offset', 'symbol_mismatch', 'no_header',
];

export interface CandleProblem {
  readonly code: CandleProblemCode;
  /** English sentence with its location, e.g. `line 7, column High: 1.0712 is below Low 1.0718`. */
  readonly message: string;
  /** 1-based line of the file (the Excel row for workbooks, the array element for JSON). */
  readonly line: number;
  /** Column name as written in the file header, when the problem is in one column. */
  readonly column?: string;
  /** The offending text or number, as found. */
  readonly value?: string;
  /** What to do about it, in English. */
  readonly fix: string;
}

/** Problems of one kind listed before the rest are only counted, so one bad column cannot hide the others. */
const PER_CODE_LIMIT = 5;
/** Codes that describe the whole file: listed once, later occurrences only counted. */
const ONCE: ReadonlySet<CandleProblemCode> = new Set(['local_time', 'not_utf8', 'decimal_comma', 'converted_offset']);
/** Header problems are few and all needed to fix the header: only the total cap applies. */
const HEADER: ReadonlySet<CandleProblemCode> = new Set(['wrong_column_name', 'missing_column', 'duplicate_column']);

/** Collects problems with caps; `omitted` counts what was not listed. */
export class ProblemList {
  readonly listed: CandleProblem[] = [];
  omitted = 0;
  total = 0;
  private readonly perCode = new Map<CandleProblemCode, number>();
  private readonly repeats = new Map<CandleProblemCode, number>();

  constructor(private readonly limit: number) {}

  /** True when one more problem of `code` would be listed (lets callers skip building messages). */
  wants(code: CandleProblemCode): boolean {
    const seen = this.perCode.get(code) ?? 0;
    if (ONCE.has(code)) return seen === 0;
    return (seen < PER_CODE_LIMIT || HEADER.has(code)) && this.listed.length < this.limit;
  }

  add(problem: CandleProblem): void {
    this.total++;
    const code = problem.code;
    if (!this.wants(code)) {
      if (ONCE.has(code) && (this.perCode.get(code) ?? 0) > 0) this.repeats.set(code, (this.repeats.get(code) ?? 0) + 1);
      else this.omitted++;
      return;
    }
    this.perCode.set(code, (this.perCode.get(code) ?? 0) + 1);
    this.listed.push(bounded(problem));
  }

  /** Counts one more problem without describing it (the caller knows it would not be listed). */
  count(code: CandleProblemCode): void {
    this.total++;
    if (ONCE.has(code)) this.repeats.set(code, (this.repeats.get(code) ?? 0) + 1);
    else this.omitted++;
  }

  get size(): number {
    return this.total;
  }

  /** The listed problems, once-per-file ones completed with how many other lines share them. */
  result(): CandleProblem[] {
    return this.listed.map((p) => {
      const more = this.repeats.get(p.code) ?? 0;
      if (more === 0) return p;
      const lines = more === 1 ? '1 other line has' : `${more} other lines have`;
      return { ...p, message: `${p.message} (${lines} the same problem)` };
    });
  }
}

function formatProblem(p: CandleProblem): string {
  return `  ${p.message}\n    fix: ${p.fix}`;
}

/** A candle file that cannot be loaded, with every problem found (capped) and where it is. */
export class CandleFileError extends Error {
  readonly problems: readonly CandleProblem[];
  /** Problems found but not listed (over the per-kind or total cap). */
  readonly omitted: number;
  readonly file?: string;

  constructor(problems: readonly CandleProblem[], omitted = 0, file?: string) {
    const total = problems.length + omitted;
    const head = `${file ? `${file}: ` : ''}${total} problem${total === 1 ? '' : 's'} in candle file`;
    const tail = omitted > 0 ? `\n  … and ${omitted} more problem${omitted === 1 ? '' : 's'} not listed` : '';
    super(`${head}\n${problems.map(formatProblem).join('\n')}${tail}`);
    this.name = 'CandleFileError';
    this.problems = problems;
    this.omitted = omitted;
    this.file = file;
  }

  static from(list: ProblemList, file?: string): CandleFileError {
    return new CandleFileError(list.result(), list.omitted, file);
  }
}

/**
 * The most of a file's own text (a column name, a cell) a problem repeats. A problem used to
 * carry a 2 MB column name whole, in its column, its message and its fix, and the server repeats
 * each problem in French and in its sentence: a 2 MB upload was answered with 40 MB.
 */
export const MAX_QUOTED_CHARS = 80;

/** A file's text cut to MAX_QUOTED_CHARS (with …) for a problem's column, value or sentence. */
export function shortText(text: string): string {
  return text.length > MAX_QUOTED_CHARS ? `${text.slice(0, MAX_QUOTED_CHARS)}…` : text;
}

/** The problem with its column and value cut to MAX_QUOTED_CHARS (the sentences cut them already). */
function bounded(problem: CandleProblem): CandleProblem {
  const long = (text: string | undefined) => text !== undefined && text.length > MAX_QUOTED_CHARS;
  if (!long(problem.column) && !long(problem.value)) return problem;
  return {
    ...problem,
    ...(problem.column !== undefined ? { column: shortText(problem.column) } : {}),
    ...(problem.value !== undefined ? { value: shortText(problem.value) } : {}),
  };
}

/** Quotes a raw value for a message: strings in double quotes, cut when long. */
export function quote(text: string): string {
  const cut = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return JSON.stringify(cut);
}

/** Location prefix: `line 7` or `line 7, column High` (`row` for JSON arrays). */
export function at(line: number, column?: string, unit: 'line' | 'row' = 'line'): string {
  return column === undefined ? `${unit} ${line}` : `${unit} ${line}, column ${shortText(column)}`;
}
