// CSV bytes -> validated Candles in one pass: the header is checked, then the rows are parsed in
// place into Float64Arrays and checked as they are stored (csv-rows.ts).
import { CandleBuilder, type LoadedCandles } from './builder.js';
import { CR, cells, COMMA, count, LF, lineEnd, SEMICOLON, splitLine, TAB, text, toBytes, trimCr, utf8Strict } from './csv-bytes.js';
import { CsvRowParser } from './csv-rows.js';
import { DatetimeReader } from './datetime.js';
import { headerlessLayout, MAX_COLUMNS, PLAIN as PLAIN_HEADER, ROLE_DATE, ROLE_EXTRA, ROLE_SKIP, ROLE_TIME, resolveLayout, type Layout } from './headers.js';
import { classifyNonNumber, parseDecimal } from './number.js';
import { formatUtcOffset, normalizeCandleOptions, type CandleFormat, type NormalizedReadOptions, type ReadCandlesOptions } from './options.js';
import { at, CandleFileError, ProblemList, quote, shortText, type CandleProblem } from './problems.js';

export { toBytes } from './csv-bytes.js';

export interface CandleFile extends LoadedCandles {
  /** Column layout the file was read as. */
  readonly format: CandleFormat;
}

function fail(options: NormalizedReadOptions, ...problems: CandleProblem[]): never {
  const list = new ProblemList(options.maxProblems);
  problems.forEach((p) => list.add(p));
  throw CandleFileError.from(list, options.file);
}

function crLineEnds(): CandleProblem {
  return {
    code: 'cr_line_ends',
    line: 1,
    message: `${at(1)}: the lines end with a carriage return alone (CR, as on classic Mac OS), not LF or CRLF`,
    fix: 'save the file with Unix (LF) or Windows (CRLF) line ends, e.g. from Excel as "CSV UTF-8 (comma delimited)"',
  };
}

/** Encoding, separator and header checks; returns where the header ends and the separator. */
function readHeader(bytes: Uint8Array, options: NormalizedReadOptions): { start: number; end: number; next: number; sep: number } {
  const problem = (code: CandleProblem['code'], line: number, column: string | undefined, message: string, fix: string, value?: string): CandleProblem =>
    ({ code, message: `${at(line, column)}: ${message}`, line, column, value, fix });
  // A gzipped export (EURUSD.csv.gz) was 'NUL bytes: it looks like UTF-16'.
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    fail(options, problem('not_utf8', 1, undefined, 'the file is compressed with gzip, not a text CSV', 'decompress it first (gunzip EURUSD.csv.gz), or read it through a pipe: --data <(zcat EURUSD.csv.gz)'));
  }
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    fail(options, problem('not_utf8', 1, undefined, 'the file is encoded in UTF-16, not UTF-8', 'save the file as UTF-8 (in Excel: "CSV UTF-8 (comma delimited)")'));
  }
  let start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  let blank = true;
  for (let i = start; i < bytes.length && blank; i++) blank = bytes[i] === LF || bytes[i] === CR || bytes[i] === 32 || bytes[i] === TAB;
  if (blank) fail(options, problem('empty_file', 1, undefined, 'the file is empty', 'export the candles again: the first line must be the header Datetime,Open,High,Low,Close,Volume'));
  const next = lineEnd(bytes, start);
  const end = trimCr(bytes, start, next);
  // A CR inside the first line: the lines end with CR alone (classic Mac OS), so the whole file
  // reads as one header line of thousands of columns ("the column 1.0716 appears more than once").
  if (bytes.subarray(start, end).includes(CR)) fail(options, crLineEnds());
  if (bytes.subarray(start, end).includes(0)) {
    fail(options, problem('not_utf8', 1, undefined, 'the file holds NUL bytes: it looks like UTF-16, not UTF-8', 'save the file as UTF-8 (in Excel: "CSV UTF-8 (comma delimited)")'));
  }
  try {
    utf8Strict.decode(bytes.subarray(start, end));
  } catch {
    fail(options, problem('not_utf8', 1, undefined, 'the header is not valid UTF-8 (Latin-1 or Windows-1252?)', 'save the file as UTF-8 (in Excel: "CSV UTF-8 (comma delimited)")'));
  }
  if (end === start) fail(options, problem('empty_line', 1, undefined, 'line 1 is empty; it must be the header', 'delete the empty lines above the header'));
  const commas = count(bytes, start, end, COMMA);
  const semicolons = count(bytes, start, end, SEMICOLON);
  const tabs = count(bytes, start, end, TAB);
  // Counted before the header is split into names: 20 MB of commas made 20 million names and ran
  // the parse worker out of memory before resolveLayout could refuse them (headers.ts MAX_COLUMNS).
  const widest = Math.max(commas, semicolons, tabs) + 1;
  if (widest > MAX_COLUMNS) {
    fail(options, problem('too_many_columns', 1, undefined, `the header has ${widest} columns; bt reads at most ${MAX_COLUMNS}`,
      `keep Datetime,Open,High,Low,Close,Volume and the indicator columns you need (at most ${MAX_COLUMNS} in all); if the header is a single long line, check the separator`, String(widest)));
  }
  if (semicolons > commas) {
    const found = [problem('semicolon_separator', 1, undefined, 'columns are separated by semicolons (;)', 'separate columns with commas (,) and write numbers with a decimal point (1.0842); in Excel save as "CSV UTF-8 (comma delimited)" with a dot as decimal separator')];
    const headers = cells(bytes, start, end, SEMICOLON);
    const secondEnd = trimCr(bytes, next + 1, lineEnd(bytes, next + 1));
    if (next < bytes.length) {
      const values = cells(bytes, next + 1, secondEnd, SEMICOLON);
      const k = values.findIndex((v) => classifyNonNumber(v) === 'decimal_comma');
      if (k >= 0) {
        found.push(problem('decimal_comma', 2, headers[k], `${quote(values[k])} uses a decimal comma`, `write numbers with a decimal point: ${values[k].replace(/\./g, '').replace(',', '.')}`, values[k]));
      }
    }
    fail(options, ...found);
  }
  let sep = COMMA;
  if (commas === 0 && tabs > 0) {
    // Tab-separated exports are common (MetaTrader 5, data vendors): every layout but the
    // official one, whose format says commas, reads them as they are.
    const first = text(bytes, start, end).split('\t')[0].trim();
    if (first === '<DATE>' || options.format !== 'official') sep = TAB;
    else fail(options, problem('wrong_separator', 1, undefined, 'columns are separated by tabs', 'separate columns with commas (,)'));
  }
  return { start, end, next: next + 1, sep };
}

/**
 * Reads candle CSV incrementally: `push` consecutive pieces of the file, each ending right after a
 * newline except the last (`final`), then `finish`. `readCandlesCsv` pushes a whole file at once;
 * the Node file reader pushes 4 MB pieces so a big file never sits in memory whole.
 */
export class CsvCandleReader {
  private readonly opts: NormalizedReadOptions;
  private pending: Uint8Array | undefined;
  private rows: CsvRowParser | undefined;
  private builder: CandleBuilder | undefined;
  private layout: Layout | undefined;
  private symbolRow: { symbol: string | undefined } | undefined;
  private firstLine = 2;
  private readonly warnings: CandleProblem[] = [];

  /** `sizeHint`: the file's total size in bytes, when known, to size the columns once. */
  constructor(options: ReadCandlesOptions = {}, private readonly sizeHint?: number) {
    this.opts = normalizeCandleOptions(options);
    if (this.opts.format === 'freqtrade') throw new Error('invalid format: "freqtrade" (freqtrade files are JSON arrays: use readCandlesJson or readCandles)');
  }

  /**
   * Refuses the file at the line being read, which has gone `maxBytes` without a line break: the
   * file reader's bound on memory (node/candle-files.ts). `carried`: the bytes of that line the
   * file reader holds, not pushed yet.
   */
  lineTooLong(maxBytes: number, carried?: Uint8Array): never {
    // No line break yet but carriage returns: a file with CR line ends, not a binary file.
    if (!this.rows && (carried?.includes(CR) || this.pending?.includes(CR))) fail(this.opts, crLineEnds());
    const line = this.rows ? this.rows.line : 1 + (this.pending ? countLines(this.pending, Infinity) : 0);
    const limit = maxBytes >= 1 << 20 ? `${Math.round(maxBytes / (1 << 20))} MiB` : `${maxBytes} bytes`;
    fail(this.opts, {
      code: 'line_too_long',
      line,
      message: `${at(line)}: more than ${limit} without a line break`,
      fix: 'check that this is a candle CSV file: a candle row is a few dozen bytes, and a binary file or a file without line breaks is not one',
    });
  }

  push(chunk: Uint8Array, final = false): void {
    let bytes = toBytes(chunk);
    if (!this.rows) {
      if (this.pending) {
        const joined = new Uint8Array(this.pending.length + bytes.length);
        joined.set(this.pending);
        joined.set(bytes, this.pending.length);
        bytes = joined;
        this.pending = undefined;
      }
      // The header needs its line, the optional symbol row and the first data line.
      if (!final && countLines(bytes, 3) < 3) {
        this.pending = bytes;
        return;
      }
      const pos = this.start(bytes);
      this.rows!.parse(pos === 0 ? bytes : bytes.subarray(pos), 0);
      return;
    }
    this.rows.parse(bytes, 0);
  }

  private start(bytes: Uint8Array): number {
    const opts = this.opts;
    const header = readHeader(bytes, opts);
    const sep = header.sep;
    const headers = cells(bytes, header.start, header.end, sep);
    const dt = new DatetimeReader();
    const headerBytes = new TextEncoder().encode(headers[0] ?? '');
    if (headers.length > 1 && (!Number.isNaN(dt.parse(headerBytes, 0, headerBytes.length)) || !Number.isNaN(parseDecimal(headerBytes, 0, headerBytes.length)))) {
      if ((opts.format === 'auto' || opts.format === 'plain') && isPlainRow(headers, dt)) return this.startHeaderless(bytes, header.start, sep);
      fail(opts, {
        code: 'missing_header', line: 1, value: headers[0],
        message: `line 1: ${quote(headers[0])} is data, not a column name: the header line is missing`,
        fix: 'add the header line Datetime,Open,High,Low,Close,Volume as the first line',
      });
    }
    const resolved = resolveLayout(headers, opts.format as Exclude<typeof opts.format, 'freqtrade'>);
    if (!resolved.layout) fail(opts, ...resolved.problems);
    const layout = resolved.layout;
    let pos = header.next;
    const symbolRow = readSymbolRow(bytes, pos, layout, sep, dt);
    if (symbolRow) {
      pos = symbolRow.next;
      this.firstLine = 3;
    }
    const roles = Int32Array.from(layout.roles);
    this.warnings.push(...resolved.warnings);
    const kept = dropTextColumns(bytes, pos, layout, roles, sep, this.warnings, this.firstLine);
    this.layout = { ...layout, extraNames: kept.map((k) => layout.extraNames[k]), extraFields: kept.map((k) => layout.extraFields[k]) };
    this.builder = new CandleBuilder(estimateRows(bytes, pos, this.sizeHint), this.layout.extraNames, opts, layout.names);
    this.rows = new CsvRowParser(this.builder, this.layout, roles, sep, this.firstLine);
    this.symbolRow = symbolRow;
    return pos;
  }

  /**
   * A file whose first line is already a candle (time and five numbers): read by position in the
   * plain layout from line 1, with a warning that says which order was assumed. A wrong order
   * still fails on the candle checks (High below Low...), with the line and the assumed column.
   */
  private startHeaderless(bytes: Uint8Array, pos: number, sep: number): number {
    const layout = headerlessLayout();
    this.firstLine = 1;
    this.warnings.push({
      code: 'no_header', line: 1,
      message: `line 1: the file has no header row; its ${layout.headers.length} columns are read in the order ${layout.headers.join(', ')}`,
      fix: `nothing to do if that is their order; otherwise add a header line (${layout.headers.join(',')})`,
    });
    this.layout = layout;
    this.builder = new CandleBuilder(estimateRows(bytes, pos, this.sizeHint), [], this.opts, layout.names);
    this.rows = new CsvRowParser(this.builder, layout, Int32Array.from(layout.roles), sep, 1);
    return pos;
  }

  /** Ends the file: the candles with their timeframe, symbol and warnings, or a CandleFileError. */
  finish(): CandleFile {
    if (this.pending) this.push(new Uint8Array(0), true);
    if (!this.rows) this.push(new Uint8Array(0), true);
    const { opts, warnings, symbolRow } = this;
    const rows = this.rows!;
    const layout = this.layout!;
    if (rows.converted > 0) {
      warnings.push({
        code: 'converted_offset', line: rows.convertedLine, column: layout.names[0], value: formatUtcOffset(rows.convertedOffset),
        message: `${at(rows.convertedLine, layout.names[0])}: ${rows.converted} time${rows.converted === 1 ? '' : 's'} with a UTC offset other than +00:00 (first ${formatUtcOffset(rows.convertedOffset)}) ${rows.converted === 1 ? 'was' : 'were'} converted to UTC`,
        fix: 'nothing to do; write UTC times with +00:00 to match the official format',
      });
    }
    const symbol = opts.symbol ?? symbolRow?.symbol;
    if (opts.symbol && symbolRow?.symbol && symbolRow.symbol !== opts.symbol) {
      warnings.push({
        code: 'symbol_mismatch', line: 2, value: shortText(symbolRow.symbol),
        message: `line 2: the file names the symbol ${quote(symbolRow.symbol)} but ${quote(opts.symbol)} was given; ${opts.symbol} is used`,
        fix: 'check that the file holds the symbol you meant',
      });
    }
    const loaded = this.builder!.finish(symbol, this.firstLine);
    return { ...loaded, warnings: [...warnings, ...loaded.warnings], format: layout.format };
  }
}

/** Reads candle CSV (official, custom, MetaTrader, backtesting.py or backtrader layouts) from text or bytes. */
export function readCandlesCsv(input: string | Uint8Array | ArrayBuffer, options: ReadCandlesOptions = {}): CandleFile {
  const reader = new CsvCandleReader(options);
  reader.push(toBytes(input), true);
  return reader.finish();
}

/** A first line that is a plain candle: six cells, a time then five numbers. */
function isPlainRow(cells: readonly string[], dt: DatetimeReader): boolean {
  if (cells.length !== PLAIN_HEADER.length) return false;
  const encoder = new TextEncoder();
  return cells.every((cell, i) => {
    const b = encoder.encode(cell);
    return !Number.isNaN(i === 0 ? dt.parse(b, 0, b.length) : parseDecimal(b, 0, b.length));
  });
}

/** Newlines in bytes, counting up to `atMost`. */
function countLines(bytes: Uint8Array, atMost: number): number {
  let n = 0;
  for (let i = bytes.indexOf(LF); i >= 0 && n < atMost; i = bytes.indexOf(LF, i + 1)) n++;
  return n;
}

/**
 * Rows to allocate for: the data size over the mean length of the first lines, plus a margin.
 * Counting every newline first would cost a second pass over the bytes; a short estimate grows.
 */
function estimateRows(bytes: Uint8Array, pos: number, sizeHint = bytes.length): number {
  let i = pos;
  let lines = 0;
  while (lines < 1000 && i < bytes.length) {
    const next = bytes.indexOf(LF, i);
    if (next < 0) break;
    i = next + 1;
    lines++;
  }
  if ((i >= bytes.length && sizeHint <= bytes.length) || lines === 0) return lines + 1;
  return Math.ceil(((sizeHint - pos) / (i - pos)) * lines * 1.02) + 64;
}

/** An optional second header row holding the symbol (no time, no numbers): skipped, its text is the symbol. */
function readSymbolRow(bytes: Uint8Array, pos: number, layout: Layout, sep: number, dt: DatetimeReader): { symbol: string | undefined; next: number } | undefined {
  if (pos >= bytes.length) return undefined;
  const next = lineEnd(bytes, pos);
  const fields = splitLine(bytes, pos, trimCr(bytes, pos, next), sep, layout.roles.length);
  let timeText = '';
  const names: string[] = [];
  for (let f = 0; f < fields.length && f < layout.roles.length; f++) {
    const [s, e] = fields[f];
    const role = layout.roles[f];
    if (role === ROLE_TIME || role === ROLE_DATE) {
      if (!Number.isNaN(dt.parse(bytes, s, e))) return undefined;
      timeText = text(bytes, s, e).trim();
    } else if (role >= 1 && role <= 5) {
      if (!Number.isNaN(parseDecimal(bytes, s, e))) return undefined;
      const t = text(bytes, s, e).trim();
      if (t !== '' && classifyNonNumber(t) !== 'text') return undefined;
      if (t !== '') names.push(t);
    }
  }
  if (names.length === 0 && timeText === '') return undefined;
  if (names.length === 0 && timeText !== '' && /\d/.test(timeText)) return undefined;
  const tally = new Map<string, number>();
  names.forEach((n) => tally.set(n, (tally.get(n) ?? 0) + 1));
  const symbol = names.length ? [...tally].sort((a, b) => b[1] - a[1])[0][0] : timeText;
  return { symbol, next: next + 1 };
}

/**
 * Extra columns whose first value is text (not a number, not empty, not NaN) are dropped with a
 * warning; returns the indexes of the extra columns kept and renumbers their roles.
 */
function dropTextColumns(bytes: Uint8Array, pos: number, layout: Layout, roles: Int32Array, sep: number, warnings: CandleProblem[], line: number): number[] {
  const fields = pos < bytes.length ? splitLine(bytes, pos, trimCr(bytes, pos, lineEnd(bytes, pos)), sep, layout.roles.length) : [];
  const kept: number[] = [];
  layout.extraFields.forEach((f, k) => {
    const name = layout.extraNames[k];
    if (f < fields.length) {
      const [s, e] = fields[f];
      const value = text(bytes, s, e).trim();
      if (Number.isNaN(parseDecimal(bytes, s, e)) && value !== '' && classifyNonNumber(value) !== 'nan') {
        roles[f] = ROLE_SKIP;
        warnings.push({
          code: 'dropped_column', line, column: shortText(name), value: shortText(value),
          message: `${at(line, name)}: the extra column ${shortText(name)} holds text (${quote(value)}) and is not kept`,
          fix: 'nothing to do if you do not need it; only numeric extra columns are kept',
        });
        return;
      }
    }
    roles[f] = ROLE_EXTRA + kept.length;
    kept.push(k);
  });
  return kept;
}
