/** number()'s fast path: below this, |value| * 10^6 fits 31-bit integer arithmetic. */
const SMALL_DECIMAL = 2147;

/** Writes 0 <= value < 2^31 in decimal at `at` (room already reserved); returns the end. */
function writeDigits(buffer: Uint8Array, at: number, value: number): number {
  let v = value | 0;
  const end = at + (v < 10 ? 1 : v < 100 ? 2 : v < 1000 ? 3 : v < 10000 ? 4 : v < 100000 ? 5 : v < 1000000 ? 6 : v < 1e7 ? 7 : v < 1e8 ? 8 : v < 1e9 ? 9 : 10);
  let p = end;
  do {
    const q = (v / 10) | 0;
    buffer[--p] = 48 + v - q * 10;
    v = q;
  } while (v > 0);
  return end;
}

/** Writes 0 <= value < 10^width in exactly `width` digits (leading zeros kept); returns the end. */
function writePadded(buffer: Uint8Array, at: number, value: number, width: number): number {
  let v = value | 0;
  const end = at + width;
  for (let p = end; p > at; ) {
    const q = (v / 10) | 0;
    buffer[--p] = 48 + v - q * 10;
    v = q;
  }
  return end;
}

/** writePadded() of a non-zero fraction of `width` digits without its trailing zeros. */
function writeTrimmed(buffer: Uint8Array, at: number, fraction: number, width: number): number {
  let f = fraction | 0;
  let w = width;
  while (f % 10 === 0) {
    f = (f / 10) | 0;
    w--;
  }
  return writePadded(buffer, at, f, w);
}

/**
 * ASCII markup pre-encoded as little-endian 32-bit words, for AsciiSink.put(): a cell's tags are
 * copied four bytes per store instead of one (about a third less time per tag, measured).
 */
export class Markup {
  readonly words: Uint32Array;
  readonly length: number;

  constructor(text: string) {
    this.length = text.length;
    const bytes = new Uint8Array((text.length + 3) & ~3);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    const view = new DataView(bytes.buffer);
    this.words = new Uint32Array(bytes.length >> 2);
    for (let i = 0; i < this.words.length; i++) this.words[i] = view.getUint32(i * 4, true);
  }
}

/**
 * A growable byte buffer for writing large ASCII XML (sheet data) without building a string per
 * cell: at thousands of rows, the garbage of per-cell strings cost more than the XML itself, and
 * String(number) alone was a third of the sheet's writing time (hence the digit writers below).
 */
export class AsciiSink {
  private buffer: Uint8Array;
  /** Over `buffer`, for put()'s word stores. */
  private view: DataView;
  private start: number;
  private length: number;

  /** `headroom` bytes are kept free before the content for prepend(). */
  constructor(initialSize = 1 << 16, headroom = 0) {
    this.buffer = new Uint8Array(initialSize + headroom);
    this.view = new DataView(this.buffer.buffer);
    this.start = this.length = headroom;
  }

  /** Bytes the buffer holds without growing. */
  get capacity(): number {
    return this.buffer.length;
  }

  /** Empties the sink for reuse, `headroom` bytes kept free in front; the buffer is not cleared. */
  reset(headroom: number): void {
    this.start = this.length = Math.min(headroom, this.buffer.length);
  }

  /**
   * Puts ASCII text before everything appended so far: a sheet's head (column widths) is known
   * only once its rows are written. Uses the headroom, else copies the content once.
   */
  prepend(text: string): void {
    const n = text.length;
    if (n > this.start) {
      const content = this.buffer.subarray(this.start, this.length);
      const next = new Uint8Array(n + content.length + (this.buffer.length - this.length));
      next.set(content, n);
      this.buffer = next;
      this.view = new DataView(next.buffer);
      this.length = n + content.length;
      this.start = n;
    }
    this.start -= n;
    const buffer = this.buffer;
    for (let i = 0, at = this.start; i < n; i++) buffer[at++] = text.charCodeAt(i);
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.buffer.length) return;
    const next = new Uint8Array(Math.max(this.buffer.length * 2, this.length + extra));
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
    this.view = new DataView(next.buffer);
  }

  /** Appends text known to be ASCII (markup, numbers, cell references). */
  ascii(text: string): void {
    const n = text.length;
    this.reserve(n);
    const buffer = this.buffer;
    let at = this.length;
    for (let i = 0; i < n; i++) buffer[at++] = text.charCodeAt(i);
    this.length = at;
  }

  /**
   * Appends pre-encoded markup (a loop beats TypedArray.set at this size). Whole words are
   * stored: up to 3 bytes past the markup's end, inside the reserved room, which the next
   * write overwrites and bytes() never includes.
   */
  put(markup: Markup): void {
    const words = markup.words;
    this.reserve(markup.length + 3);
    const view = this.view;
    let at = this.length;
    for (let i = 0; i < words.length; i++, at += 4) view.setUint32(at, words[i], true);
    this.length += markup.length;
  }

  /** Appends a non-negative integer (below 2^53) in decimal, without an intermediate string. */
  uint(value: number): void {
    if (value < 0x8000_0000) {
      this.smallUint(value);
      return;
    }
    // Split so that each half fits 31-bit integer arithmetic.
    const high = Math.floor(value / 1e9);
    this.uint(high);
    this.padded(value - high * 1e9, 9);
  }

  /** uint() for 0 <= value < 2^31: integer division instead of floating-point floor. */
  private smallUint(value: number): void {
    const digits = value < 10 ? 1 : value < 100 ? 2 : value < 1000 ? 3 : value < 10000 ? 4 : value < 100000 ? 5 : value < 1000000 ? 6 : value < 1e7 ? 7 : value < 1e8 ? 8 : value < 1e9 ? 9 : 10;
    this.reserve(digits);
    const buffer = this.buffer;
    let at = this.length + digits;
    this.length = at;
    let v = value | 0;
    do {
      const q = (v / 10) | 0;
      buffer[--at] = 48 + v - q * 10;
      v = q;
    } while (v > 0);
  }

  /** Appends `value` (0 <= value < 10^width, width <= 9) in exactly `width` digits, leading zeros kept. */
  private padded(value: number, width: number): void {
    this.reserve(width);
    const buffer = this.buffer;
    let at = this.length + width;
    this.length = at;
    let v = value | 0;
    for (let i = 0; i < width; i++) {
      const q = (v / 10) | 0;
      buffer[--at] = 48 + v - q * 10;
      v = q;
    }
  }

  /** Appends integer + fraction / 10^decimals (decimals <= 9) with the fraction's trailing zeros dropped. */
  private decimal(integer: number, fraction: number, decimals: number): void {
    this.uint(integer);
    if (fraction === 0) return;
    this.reserve(1);
    this.buffer[this.length++] = 46; // .
    this.trimmed(fraction | 0, decimals);
  }

  /** Appends a non-zero fraction of `width` digits, zero-padded on the left, its trailing zeros dropped. */
  private trimmed(fraction: number, width: number): void {
    let f = fraction;
    while (f % 10 === 0) {
      f = (f / 10) | 0;
      width--;
    }
    this.padded(f, width);
  }

  /**
   * Appends a finite number exactly as String(value) prints it (the shortest decimal that reads
   * back as the same double), from integer arithmetic when it has at most 6 decimals (prices,
   * pips, R, most ratios). Below 10^9, decimals 10^-6 apart are farther apart than doubles, so at
   * most one 6-decimal string reads back as a given double: if round(|v| * 10^6) / 10^6 is |v|,
   * that string without its trailing zeros is the shortest form, and if String(v) has at most 6
   * decimals then that test holds (|v| * 10^6 is within 0.2 of the integer). Else String().
   */
  number(value: number): void {
    const magnitude = value < 0 ? -value : value;
    if (magnitude < SMALL_DECIMAL) {
      // Prices, pips, R: the scaled value fits 31 bits, so one capacity check and no calls.
      const scaled = Math.round(magnitude * 1e6);
      if (scaled / 1e6 === magnitude) {
        this.reserve(13); // sign, 4 digits, point, 6 decimals
        const buffer = this.buffer;
        let at = this.length;
        if (value < 0) buffer[at++] = 45; // -
        const integer = (scaled / 1e6) | 0;
        at = writeDigits(buffer, at, integer);
        const fraction = scaled - integer * 1e6;
        if (fraction !== 0) {
          buffer[at++] = 46; // .
          at = writeTrimmed(buffer, at, fraction, 6);
        }
        this.length = at;
        return;
      }
    }
    if (magnitude < 1e9) {
      const scaled = Math.round(magnitude * 1e6);
      if (scaled / 1e6 === magnitude) {
        if (value < 0) this.ascii('-');
        const integer = Math.floor(scaled / 1e6);
        this.decimal(integer, scaled - integer * 1e6, 6);
        return;
      }
    }
    this.ascii(String(value));
  }

  /**
   * Appends the Excel serial (1900 date system, days since 1899-12-30) of a UTC time in ms, with
   * 11 decimals (0.4 µs, about the double's own resolution at today's serials) from integer
   * arithmetic. Readers round serials to the millisecond (exceljs does), so times read back exact.
   */
  excelDate(ms: number): void {
    if (!(Number.isInteger(ms) && ms >= 0 && ms < 8.64e15)) {
      this.number(ms / 86_400_000 + 25_569);
      return;
    }
    const days = Math.floor(ms / 86_400_000);
    const rem = ms - days * 86_400_000;
    // rem / 86,400,000 * 10^11 = rem * 10^6 / 864, exact integers below 2^53 before the division.
    const fraction = Math.round((rem * 1_000_000) / 864);
    // One capacity check: days below 10^8 (ms < 8.64e15), point, 11 decimals.
    this.reserve(21);
    const buffer = this.buffer;
    let at = writeDigits(buffer, this.length, days + 25_569);
    if (fraction !== 0) {
      // 11 decimals as 5 + 6 digits, each in 31-bit integer arithmetic.
      const high = Math.floor(fraction / 1e6);
      const low = fraction - high * 1e6;
      buffer[at++] = 46; // .
      if (low === 0) at = writeTrimmed(buffer, at, high, 5);
      else {
        at = writePadded(buffer, at, high, 5);
        at = writeTrimmed(buffer, at, low, 6);
      }
    }
    this.length = at;
  }

  /** Bytes written so far. */
  get size(): number {
    return this.length - this.start;
  }

  bytes(): Uint8Array {
    return this.buffer.subarray(this.start, this.length);
  }
}
