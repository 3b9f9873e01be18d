// Byte-level helpers shared by the CSV reader's header and row code.
import { bytesToText } from './number.js';

export const LF = 10;
export const CR = 13;
export const QUOTE = 34;
export const COMMA = 44;
export const SEMICOLON = 59;
export const TAB = 9;

/** Accepts text or bytes; text is encoded to UTF-8 bytes first. */
export function toBytes(input: string | Uint8Array | ArrayBuffer): Uint8Array {
  if (typeof input === 'string') return new TextEncoder().encode(input);
  // A Node Buffer (or another subclass) is viewed as a plain Uint8Array: the hot loops then see
  // one array shape only, and V8 keeps them optimised.
  if (input instanceof Uint8Array) return input.constructor === Uint8Array ? input : new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  throw new Error(`invalid input: expected a string, a Uint8Array or an ArrayBuffer, got ${Object.prototype.toString.call(input)}`);
}

export function lineEnd(bytes: Uint8Array, from: number): number {
  const i = bytes.indexOf(LF, from);
  return i < 0 ? bytes.length : i;
}

export function trimCr(bytes: Uint8Array, start: number, end: number): number {
  return end > start && bytes[end - 1] === CR ? end - 1 : end;
}

/**
 * Splits one line into field ranges, honouring double quotes; quoted ranges exclude the quotes.
 * `max`: the fields wanted, when only the first ones are (a line may hold millions of separators).
 */
export function splitLine(bytes: Uint8Array, start: number, end: number, sep: number, max = Infinity): [number, number][] {
  const out: [number, number][] = [];
  let i = start;
  for (;;) {
    if (out.length >= max) return out;
    if (i < end && bytes[i] === QUOTE) {
      let j = i + 1;
      while (j < end && !(bytes[j] === QUOTE && bytes[j + 1] !== QUOTE)) j += bytes[j] === QUOTE ? 2 : 1;
      out.push([i + 1, Math.min(j, end)]);
      i = j + 1;
      while (i < end && bytes[i] !== sep) i++;
    } else {
      const s = i;
      while (i < end && bytes[i] !== sep) i++;
      out.push([s, i]);
    }
    if (i >= end) return out;
    i++;
  }
}

export const utf8Strict = new TextDecoder('utf-8', { fatal: true });
const lenient = new TextDecoder('utf-8');

/** Text of a byte range for messages (UTF-8 when valid). */
export function text(bytes: Uint8Array, start: number, end: number): string {
  try {
    return utf8Strict.decode(bytes.subarray(start, end));
  } catch {
    return lenient.decode(bytes.subarray(start, end));
  }
}

/** The cells' texts; a quoted cell's doubled quotes read as one (`"a""b"` is `a"b`), as bt writes them. */
export function cells(bytes: Uint8Array, start: number, end: number, sep: number): string[] {
  return splitLine(bytes, start, end, sep).map(([s, e]) => {
    const cell = text(bytes, s, e);
    return (s > start && bytes[s - 1] === QUOTE ? cell.replace(/""/g, '"') : cell).trim();
  });
}

export function count(bytes: Uint8Array, start: number, end: number, byte: number): number {
  let n = 0;
  for (let i = start; i < end; i++) if (bytes[i] === byte) n++;
  return n;
}

export function isBlank(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (bytes[i] !== 32 && bytes[i] !== TAB && bytes[i] !== CR) return false;
  return true;
}

/** `NaN`/`nan` (any case) or blank: the empty value of an extra column such as RSI_14 before it warms up. */
export function isNaText(bytes: Uint8Array, start: number, end: number): boolean {
  if (isBlank(bytes, start, end)) return true;
  const t = bytesToText(bytes, start, end).trim().toLowerCase();
  return t === 'nan' || t === 'na' || t === 'null';
}

