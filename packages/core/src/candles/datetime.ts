// Timestamps by arithmetic on bytes: no Date.parse, no allocation per row.

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** Days from 1970-01-01 to the proleptic Gregorian date (H. Hinnant's days_from_civil). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** The inverse of daysFromCivil: [year, month 1-12, day 1-31]. */
export function civilFromDays(days: number): [number, number, number] {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (month <= 2 ? 1 : 0), month, day];
}

function digit(bytes: Uint8Array, i: number): number {
  const d = bytes[i] - 48;
  return d >= 0 && d <= 9 ? d : -100;
}

function two(bytes: Uint8Array, i: number): number {
  const v = digit(bytes, i) * 10 + digit(bytes, i + 1);
  return v >= 0 ? v : -1;
}

/** Offset marker for "the text carried no offset". */
export const NO_OFFSET = -1e9;

/**
 * Reads timestamps. Accepted forms:
 *   YYYY-MM-DD[( |T)HH:MM[:SS[.fff]]][ ][Z|±HH:MM|±HHMM|±HH]   (also with . or / between date parts)
 *   10-digit epoch seconds or 13-digit epoch milliseconds (UTC by definition)
 * The result is the wall-clock instant in ms as if it were UTC; `offsetMinutes` tells the offset
 * written in the text (NO_OFFSET when there was none). NaN when the text is not one of these
 * forms or not a real calendar date and time.
 */
export class DatetimeReader {
  /** Offset written in the last text read, in minutes east of UTC; NO_OFFSET when none. */
  offsetMinutes = NO_OFFSET;
  private readonly scratch = new Float64Array(1);
  /** The last date read (its 10 bytes) and its ms, for the cache in `scan`. */
  private readonly dateBytes = new Uint8Array(10);
  private dateMs = 0;

  /** `YYYY-MM-DD` (any separator) at start: ms of its midnight, or NaN; remembered for the next row. */
  private parseDate(bytes: Uint8Array, start: number, sep: number): number {
    const y0 = bytes[start] - 48;
    const y1 = bytes[start + 1] - 48;
    const y2 = bytes[start + 2] - 48;
    const y3 = bytes[start + 3] - 48;
    const m0 = bytes[start + 5] - 48;
    const m1 = bytes[start + 6] - 48;
    const d0 = bytes[start + 8] - 48;
    const d1 = bytes[start + 9] - 48;
    if ((y0 | y1 | y2 | y3 | m0 | m1 | d0 | d1) < 0 || y0 > 9 || y1 > 9 || y2 > 9 || y3 > 9 || m0 > 9 || m1 > 9 || d0 > 9 || d1 > 9) return NaN;
    if (bytes[start + 7] !== sep) return NaN;
    const year = y0 * 1000 + y1 * 100 + y2 * 10 + y3;
    const month = m0 * 10 + m1;
    const day = d0 * 10 + d1;
    if (month < 1 || month > 12 || day < 1) return NaN;
    if (day > (month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : DAYS_IN_MONTH[month])) return NaN;
    const ms = daysFromCivil(year, month, day) * DAY_MS;
    this.dateBytes.set(bytes.subarray(start, start + 10));
    this.dateMs = ms;
    return ms;
  }

  /**
   * Reads the timestamp starting at `start`, writes its wall-clock ms to out[index] and returns
   * the position just after it (the caller checks what follows); -1 when there is none.
   */
  scan(bytes: Uint8Array, start: number, end: number, out: Float64Array, index: number): number {
    this.offsetMinutes = NO_OFFSET;
    if (start + 10 > end) return -1;
    const sep = bytes[start + 4];
    if (sep !== 45 && sep !== 46 && sep !== 47) return this.epoch(bytes, start, end, out, index);
    // Intraday files repeat the same date for many rows: reuse the last one when its 10 bytes match.
    const cache = this.dateBytes;
    let ms: number;
    if (
      bytes[start + 9] === cache[9] && bytes[start + 8] === cache[8] && bytes[start + 6] === cache[6] && bytes[start + 5] === cache[5] &&
      bytes[start + 3] === cache[3] && bytes[start + 2] === cache[2] && bytes[start + 1] === cache[1] && bytes[start] === cache[0] &&
      sep === cache[4] && bytes[start + 7] === cache[7]
    ) {
      ms = this.dateMs;
    } else {
      ms = this.parseDate(bytes, start, sep);
      if (ms !== ms) return -1;
    }
    let i = start + 10;
    if (i + 1 < end && (bytes[i] === 32 || bytes[i] === 84) && bytes[i + 1] >= 48 && bytes[i + 1] <= 57) {
      const after = this.clockAt(bytes, i + 1, end, this.scratch, 0);
      if (after < 0) return -1;
      ms += this.scratch[0];
      i = after;
    }
    let j = i;
    if (j < end && bytes[j] === 32) j++;
    if (j < end) {
      const c = bytes[j];
      if (c === 90) {
        this.offsetMinutes = 0;
        i = j + 1;
      } else if (c === 43 || c === 45) {
        const hours = two(bytes, j + 1);
        if (j + 3 > end || hours < 0 || hours > 14) return -1;
        let minutes = 0;
        let k = j + 3;
        if (k < end && bytes[k] === 58) {
          minutes = two(bytes, k + 1);
          if (k + 3 > end || minutes < 0 || minutes > 59) return -1;
          k += 3;
        } else if (k + 1 < end && bytes[k] >= 48 && bytes[k] <= 57) {
          minutes = two(bytes, k);
          if (minutes < 0 || minutes > 59) return -1;
          k += 2;
        }
        this.offsetMinutes = (c === 45 ? -1 : 1) * (hours * 60 + minutes);
        i = k;
      }
    }
    out[index] = ms;
    return i;
  }

  /** Parses the whole of bytes[start, end) (spaces around allowed) as one timestamp; NaN otherwise. */
  parse(bytes: Uint8Array, start: number, end: number): number {
    while (start < end && bytes[start] === 32) start++;
    while (end > start && bytes[end - 1] === 32) end--;
    return this.scan(bytes, start, end, this.scratch, 0) === end ? this.scratch[0] : NaN;
  }

  /** `HH:MM[:SS[.fff]]` at i: writes ms of the day to out[index], returns the position after it or -1. */
  clockAt(bytes: Uint8Array, i: number, end: number, out: Float64Array, index: number): number {
    if (i + 5 > end || bytes[i + 2] !== 58) return -1;
    const hour = two(bytes, i);
    const minute = two(bytes, i + 3);
    if (hour < 0 || hour > 23 || minute < 0 || minute > 59) return -1;
    let ms = hour * HOUR_MS + minute * MINUTE_MS;
    i += 5;
    if (i < end && bytes[i] === 58) {
      const second = two(bytes, i + 1);
      if (i + 3 > end || second < 0 || second > 59) return -1;
      ms += second * 1000;
      i += 3;
      if (i < end && bytes[i] === 46) {
        i++;
        let scale = 100;
        const from = i;
        while (i < end && bytes[i] >= 48 && bytes[i] <= 57) {
          ms += (bytes[i] - 48) * scale;
          scale /= 10;
          i++;
        }
        if (i === from) return -1;
        ms = Math.floor(ms);
      }
    }
    out[index] = ms;
    return i;
  }

  /** A bare time of day `HH:MM[:SS]` (backtrader's separate Time column), in ms; NaN otherwise. */
  parseClock(bytes: Uint8Array, start: number, end: number): number {
    while (start < end && bytes[start] === 32) start++;
    while (end > start && bytes[end - 1] === 32) end--;
    return this.clockAt(bytes, start, end, this.scratch, 0) === end ? this.scratch[0] : NaN;
  }

  private epoch(bytes: Uint8Array, start: number, end: number, out: Float64Array, index: number): number {
    let value = 0;
    let i = start;
    while (i < end && bytes[i] >= 48 && bytes[i] <= 57) {
      value = value * 10 + (bytes[i] - 48);
      i++;
    }
    const length = i - start;
    if (length !== 10 && length !== 13) return -1;
    this.offsetMinutes = 0;
    out[index] = length === 10 ? value * 1000 : value;
    return i;
  }
}

const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const PAD2: string[] = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));

/** `YYYY-MM-DD HH:MM:SS+00:00` (with `.mmm` when the instant has milliseconds), the official form. */
export function formatCandleTime(ms: number): string {
  const days = Math.floor(ms / DAY_MS);
  const [y, m, d] = civilFromDays(days);
  return `${formatDate(y, m, d)} ${formatClock(ms - days * DAY_MS)}+00:00`;
}

export function formatDate(year: number, month: number, day: number): string {
  const yyyy = year >= 0 && year <= 9999 ? String(year).padStart(4, '0') : String(year);
  return `${yyyy}-${PAD2[month]}-${PAD2[day]}`;
}

/** `HH:MM:SS` or `HH:MM:SS.mmm` for ms within a day. */
export function formatClock(msOfDay: number): string {
  const h = Math.floor(msOfDay / HOUR_MS);
  const mi = Math.floor((msOfDay % HOUR_MS) / MINUTE_MS);
  const s = Math.floor((msOfDay % MINUTE_MS) / 1000);
  const milli = msOfDay % 1000;
  const base = `${PAD2[h]}:${PAD2[mi]}:${PAD2[s]}`;
  return milli === 0 ? base : `${base}.${String(milli).padStart(3, '0')}`;
}

/** A duration in words for messages: `15 minutes`, `1 hour`, `3 days`, `90 seconds`. */
export function describeStep(ms: number): string {
  const units: [number, string][] = [
    [DAY_MS, 'day'],
    [HOUR_MS, 'hour'],
    [MINUTE_MS, 'minute'],
    [1000, 'second'],
    [1, 'millisecond'],
  ];
  for (const [size, name] of units) {
    if (ms % size === 0) {
      const n = ms / size;
      return `${n} ${name}${Math.abs(n) === 1 ? '' : 's'}`;
    }
  }
  return `${ms} ms`;
}
