// The hot loop: CSV data lines -> values in the builder's Float64Arrays, checked row by row.
// It can be fed a whole file or consecutive chunks that each end after a newline.
import type { CandleBuilder } from './builder.js';
import { count, CR, isBlank, isNaText, LF, lineEnd, QUOTE, splitLine, text, trimCr } from './csv-bytes.js';
import { DatetimeReader, formatCandleTime, MINUTE_MS, NO_OFFSET } from './datetime.js';
import { MAX_COLUMNS, ROLE_CLOCK, ROLE_DATE, ROLE_EXTRA, ROLE_SKIP, ROLE_TIME, type Layout } from './headers.js';
import { classifyNonNumber, parseDecimal, scanNumber } from './number.js';
import { quote } from './problems.js';

// Every field of a line whose count matches the header: the header has at most MAX_COLUMNS.
const MAX_FIELDS = MAX_COLUMNS;

export class CsvRowParser {
  /** Line number of the next line to read. */
  line: number;
  /** Rows whose time carried an offset other than +00:00 (converted to UTC), and the first of them. */
  converted = 0;
  convertedLine = 0;
  convertedOffset = 0;
  private emptyLine = 0;
  private emptyCount = 0;
  private readonly bounds = new Int32Array(2 * MAX_FIELDS);
  private readonly clock = new Float64Array(1);
  private readonly dt = new DatetimeReader();

  constructor(
    private readonly builder: CandleBuilder,
    private readonly layout: Layout,
    private readonly roles: Int32Array,
    private readonly sep: number,
    firstLine: number,
  ) {
    this.line = firstLine;
  }

  /** Reads every line of bytes[pos..]; the bytes must end after a newline unless they are the file's end. */
  parse(bytes: Uint8Array, pos: number): void {
    const { builder, roles, sep, dt, clock } = this;
    const end = bytes.length;
    const expected = roles.length;
    const last = expected - 1;
    const utcOffset = builder.options.utcOffsetMinutes;
    let line = this.line;
    let prices = [builder.time, builder.open, builder.high, builder.low, builder.close, builder.volume];
    let extra = builder.extra;
    let time = builder.time;
    let capacity = time.length;
    while (pos < end) {
      const n = builder.n;
      if (n >= capacity) {
        builder.reserve(Math.ceil(capacity * 1.5) + 1024);
        prices = [builder.time, builder.open, builder.high, builder.low, builder.close, builder.volume];
        extra = builder.extra;
        time = builder.time;
        capacity = time.length;
      }
      // Fast path: one pass over a well-formed line, numbers and times parsed where they stand.
      // Anything unusual (quotes, spaces, bad values, wrong field count, a naive time without
      // utcOffset, a pending empty line) falls through to `slowLine`, which reports precisely.
      if (this.emptyLine === 0) {
        let p = pos;
        let next = -1;
        let offset = NO_OFFSET;
        clock[0] = 0;
        for (let f = 0; f < expected; f++) {
          const role = roles[f];
          if (role === ROLE_TIME || role === ROLE_DATE) {
            p = dt.scan(bytes, p, end, time, n);
            if (p < 0) break;
            offset = dt.offsetMinutes;
          } else if (role === ROLE_CLOCK) {
            p = dt.clockAt(bytes, p, end, clock, 0);
            if (p < 0) break;
          } else if (role === ROLE_SKIP) {
            while (p < end && bytes[p] !== sep && bytes[p] !== LF && bytes[p] !== QUOTE) p++;
          } else {
            p = scanNumber(bytes, p, end, role <= 5 ? prices[role] : extra[role - ROLE_EXTRA], n);
            if (p < 0) break;
          }
          if (f < last) {
            if (p < end && bytes[p] === sep) p++;
            else break;
          } else if (p >= end) next = end;
          else if (bytes[p] === LF) next = p + 1;
          else if (bytes[p] === CR && (p + 1 === end || bytes[p + 1] === LF)) next = p + 2 > end ? end : p + 2;
        }
        if (next >= 0 && (offset !== NO_OFFSET || utcOffset !== undefined)) {
          if (offset === NO_OFFSET) offset = utcOffset!;
          else if (offset !== 0) this.noteConverted(line, offset);
          time[n] = time[n] + clock[0] - offset * MINUTE_MS;
          builder.commit(line);
          pos = next;
          line++;
          continue;
        }
      }
      this.line = line;
      pos = this.slowLine(bytes, pos, prices, extra);
      line = this.line;
    }
    this.line = line;
  }

  private noteConverted(line: number, offset: number): void {
    if (this.converted++ === 0) {
      this.convertedLine = line;
      this.convertedOffset = offset;
    }
  }

  /** The general path for one line: finds its fields (quotes allowed), then reads or reports each. */
  private slowLine(bytes: Uint8Array, pos: number, prices: Float64Array[], extra: Float64Array[]): number {
    const { builder, layout, roles, sep, dt, bounds } = this;
    const problems = builder.problems;
    const line = this.line;
    const expected = roles.length;
    const end = bytes.length;
    let next = lineEnd(bytes, pos);
    const stop = trimCr(bytes, pos, next);
    // A line with more separators than any header has columns is counted, not split: 20 MB of
    // commas made 20 million field ranges and ran the parse worker out of memory.
    const separators = count(bytes, pos, stop, sep);
    const ranges = separators >= MAX_FIELDS ? [] : splitLine(bytes, pos, stop, sep);
    next = Math.min(next + 1, end);
    const nf = separators >= MAX_FIELDS ? separators + 1 : ranges.length;
    for (let f = 0; f < ranges.length && f < MAX_FIELDS; f++) {
      bounds[2 * f] = ranges[f][0];
      bounds[2 * f + 1] = ranges[f][1];
    }
    this.line = line + 1;
    // An empty line is fine at the very end of the file only.
    if (nf === 1 && isBlank(bytes, bounds[0], bounds[1])) {
      if (this.emptyLine === 0) this.emptyLine = line;
      this.emptyCount++;
      return next;
    }
    if (this.emptyLine > 0) {
      builder.problem('empty_line', this.emptyLine, undefined, undefined, 'the line is empty', 'delete the empty lines between candle rows');
      for (let k = 1; k < this.emptyCount; k++) problems.count('empty_line');
      this.emptyLine = 0;
      this.emptyCount = 0;
    }
    // A quote without its pair: a value in quotes holding a line break (Excel writes a cell's
    // Alt+Enter so), which splits one row over two lines. Said as such, not as two miscounted rows.
    if (nf !== expected && count(bytes, pos, stop, QUOTE) % 2 === 1) {
      if (!problems.wants('unclosed_quote')) problems.count('unclosed_quote');
      else {
        builder.problem('unclosed_quote', line, undefined, undefined, 'a quote (") has no closing quote on this line: a quoted value holds a line break, or a quote is stray',
          'remove the line breaks inside quoted values (one candle per line), or the stray quote');
      }
      return next;
    }
    if (nf !== expected) {
      if (!problems.wants('wrong_field_count')) problems.count('wrong_field_count');
      else {
        builder.problem('wrong_field_count', line, undefined, String(nf), `the line has ${nf} value${nf === 1 ? '' : 's'} but the header has ${expected} columns`,
          nf > expected
            ? 'remove the extra values; if numbers use a decimal comma (1,0842), write them with a decimal point (1.0842)'
            : 'complete the line: every line needs one value per header column');
      }
      return next;
    }
    const n = builder.n;
    let ok = true;
    let naive = 0;
    let offset = NO_OFFSET;
    let clockMs = 0;
    for (let f = 0; f < nf; f++) {
      const role = roles[f];
      const fs = bounds[2 * f];
      const fe = bounds[2 * f + 1];
      if (role === ROLE_TIME || role === ROLE_DATE) {
        naive = dt.parse(bytes, fs, fe);
        offset = dt.offsetMinutes;
        if (naive !== naive) ok = timeProblem(builder, line, layout.names[0], bytes, fs, fe);
      } else if (role === ROLE_CLOCK) {
        clockMs = dt.parseClock(bytes, fs, fe);
        if (clockMs !== clockMs) ok = timeProblem(builder, line, layout.names[0], bytes, fs, fe);
      } else if (role >= 1 && role <= 5) {
        const v = parseDecimal(bytes, fs, fe);
        prices[role][n] = v;
        if (v !== v) ok = valueProblem(builder, line, layout.names[role], bytes, fs, fe);
      } else if (role >= ROLE_EXTRA) {
        const v = parseDecimal(bytes, fs, fe);
        extra[role - ROLE_EXTRA][n] = v;
        if (v !== v && !isNaText(bytes, fs, fe)) ok = valueProblem(builder, line, layout.extraNames[role - ROLE_EXTRA], bytes, fs, fe);
      }
    }
    if (!ok) return next;
    if (offset === NO_OFFSET) {
      if (builder.options.utcOffsetMinutes === undefined) {
        if (problems.wants('local_time')) localTimeProblem(builder, layout, line, naive + clockMs, bytes, bounds, roles);
        else problems.count('local_time');
        return next;
      }
      offset = builder.options.utcOffsetMinutes;
    } else if (offset !== 0) this.noteConverted(line, offset);
    prices[0][n] = naive + clockMs - offset * MINUTE_MS;
    builder.commit(line);
    return next;
  }
}

/** Reports a value that is not a number; returns false (the row is not ok). */
function valueProblem(builder: CandleBuilder, line: number, column: string, bytes: Uint8Array, start: number, end: number): false {
  const raw = text(bytes, start, end).trim();
  const kind = classifyNonNumber(raw);
  const code = kind === 'empty' ? 'missing_value' : kind === 'decimal_comma' ? 'decimal_comma' : 'non_numeric';
  if (!builder.problems.wants(code)) {
    builder.problems.count(code);
    return false;
  }
  if (kind === 'empty') {
    builder.problem(code, line, column, '', `the ${column} value is empty`, 'fill in the value or delete the line');
  } else if (kind === 'decimal_comma') {
    builder.problem(code, line, column, raw, `${quote(raw)} uses a decimal comma`, `write numbers with a decimal point: ${raw.replace(/\./g, '').replace(',', '.')}`);
  } else {
    const what = kind === 'text' ? 'is not a number' : 'is not a price';
    builder.problem(code, line, column, raw, `${quote(raw)} ${what}`, 'write a plain number with a decimal point (1.0842), or delete the line');
  }
  return false;
}

function timeProblem(builder: CandleBuilder, line: number, column: string, bytes: Uint8Array, start: number, end: number): false {
  if (!builder.problems.wants('invalid_datetime')) {
    builder.problems.count('invalid_datetime');
    return false;
  }
  const raw = text(bytes, start, end).trim();
  const message = raw === '' ? 'the time is empty' : `${quote(raw)} is not a date and time bt can read`;
  builder.problem('invalid_datetime', line, column, raw, message,
    'write times as ISO 8601 in UTC, YYYY-MM-DD HH:MM:SS+00:00 (e.g. 2024-01-31 13:45:00+00:00), with a real calendar date');
  return false;
}

function localTimeProblem(builder: CandleBuilder, layout: Layout, line: number, wallClock: number, bytes: Uint8Array, bounds: Int32Array, roles: Int32Array): void {
  const parts: string[] = [];
  for (let f = 0; f < roles.length; f++) {
    if (roles[f] === ROLE_TIME || roles[f] === ROLE_DATE || roles[f] === ROLE_CLOCK) parts.push(text(bytes, bounds[2 * f], bounds[2 * f + 1]).trim());
  }
  const raw = parts.join(' ');
  const hint = layout.format === 'metatrader'
    ? ' MetaTrader exports are in the broker server time (often +02:00 in winter, +03:00 in summer).'
    : layout.format === 'backtrader' ? ' backtrader files hold the exchange local time.' : '';
  builder.problem('local_time', line, layout.names[0], raw, `${quote(raw)} has no UTC offset, so it is a local time`,
    `convert the times to UTC and write them with +00:00 (${formatCandleTime(wallClock)} if this one already is UTC), or state the file's UTC offset (utcOffset option, CLI --utc-offset, e.g. +02:00).${hint}`);
}
