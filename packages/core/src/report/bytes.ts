/**
 * A growable byte buffer for writing large ASCII XML (sheet data) without building a string per
 * cell: at thousands of rows, the garbage of per-cell strings cost more than the XML itself.
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

  /** Appends a non-negative integer in decimal, without an intermediate string. */
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

  /** Appends a finite number the way JavaScript prints it (shortest round-trip form). */
  number(value: number): void {
    if (Number.isInteger(value) && value >= 0 && value <= Number.MAX_SAFE_INTEGER) this.uint(value);
    else this.ascii(String(value));
  }

  bytes(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }
}
