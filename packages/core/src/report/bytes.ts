/**
 * A growable byte buffer for writing large ASCII XML (sheet data) without building a string per
 * cell: at thousands of rows, the garbage of per-cell strings cost more than the XML itself, and
 * String(number) alone was a third of the sheet's writing time (hence the digit writers below).
 */
export class AsciiSink {
  private buffer: Uint8Array;
  private length = 0;

  constructor(initialSize = 1 << 16) {
    this.buffer = new Uint8Array(initialSize);
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.buffer.length) return;
    const next = new Uint8Array(Math.max(this.buffer.length * 2, this.length + extra));
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
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

  /** Appends a non-negative integer (below 2^53) in decimal, without an intermediate string. */
  uint(value: number): void {
    this.reserve(16);
    if (value < 10) {
      this.buffer[this.length++] = 48 + value;
      return;
    }
    let digits = 0;
    for (let v = value; v >= 1; v = Math.floor(v / 10)) digits++;
    let at = this.length + digits;
    this.length = at;
    for (let v = value; v >= 1; v = Math.floor(v / 10)) this.buffer[--at] = 48 + (v % 10);
  }

  /** Appends `value` (0 <= value < 10^width) in exactly `width` digits, leading zeros kept. */
  private padded(value: number, width: number): void {
    this.reserve(width);
    const buffer = this.buffer;
    let at = this.length + width;
    this.length = at;
    for (let i = 0; i < width; i++) {
      const q = Math.floor(value / 10);
      buffer[--at] = 48 + (value - q * 10);
      value = q;
    }
  }

  /** Appends integer + fraction / 10^decimals with the fraction's trailing zeros dropped. */
  private decimal(integer: number, fraction: number, decimals: number): void {
    this.uint(integer);
    if (fraction === 0) return;
    while (fraction % 10 === 0) {
      fraction /= 10;
      decimals--;
    }
    this.reserve(1);
    this.buffer[this.length++] = 46; // .
    this.padded(fraction, decimals);
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
    this.decimal(days + 25_569, fraction, 11);
  }

  bytes(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }
}
