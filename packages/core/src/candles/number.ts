// Decimal numbers straight from bytes, exactly as parseFloat reads them.
//
// Fast path (Clinger 1990): when the decimal mantissa m is an integer below 2^53 and the power of
// ten k satisfies |k| <= 22, both m and 10^|k| are exact doubles, so the single IEEE operation
// m * 10^k or m / 10^-k is correctly rounded: the same double parseFloat returns. Every other
// input (17+ significant digits, huge exponents) goes to parseFloat on the same text.

const POW10 = [
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
  1e20, 1e21, 1e22,
];

/** Above this, m * 10 + 9 could pass 2^53 and stop being exact. */
const MANTISSA_LIMIT = 900719925474099;

const SPACE = 32;
const TAB = 9;

function isBlank(c: number): boolean {
  return c === SPACE || c === TAB;
}

/** Latin-1 view of a byte range (enough for the ASCII of numbers and messages on bad input). */
export function bytesToText(bytes: Uint8Array, start: number, end: number): string {
  let text = '';
  for (let i = start; i < end; i += 4096) {
    text += String.fromCharCode.apply(null, bytes.subarray(i, Math.min(end, i + 4096)) as unknown as number[]);
  }
  return text;
}

/**
 * Reads the longest number at bytes[start..] (before `end`): `[+-]digits[.digits][(e|E)[+-]digits]`,
 * writes it to out[index] and returns the position just after it; returns -1 (and writes NaN) when
 * no number starts there or it overflows to ±Infinity. The CSV hot loop calls this on the file
 * bytes and then checks that a separator follows. Writing into the target array instead of
 * returning the double keeps V8 from boxing one heap number per value.
 */
export function scanNumber(bytes: Uint8Array, start: number, end: number, out: Float64Array, index: number): number {
  // Common case first: [-]int[.frac] with at most 9 digits on each side, accumulated in small
  // integers; the mantissa int * 10^f + frac stays below 10^15 < 2^53, so one division by the
  // exact 10^f is correctly rounded (the same fast path as below). Anything else: general path.
  let i = start;
  let c = i < end ? bytes[i] : 0;
  const minus = c === 45;
  if (minus) c = ++i < end ? bytes[i] : 0;
  let whole = 0;
  let wholeDigits = 0;
  while (c >= 48 && c <= 57 && wholeDigits < 9) {
    whole = whole * 10 + (c - 48);
    wholeDigits++;
    c = ++i < end ? bytes[i] : 0;
  }
  let frac = 0;
  let fracDigits = 0;
  if (c === 46 && wholeDigits < 9) {
    c = ++i < end ? bytes[i] : 0;
    while (c >= 48 && c <= 57 && fracDigits < 9) {
      frac = frac * 10 + (c - 48);
      fracDigits++;
      c = ++i < end ? bytes[i] : 0;
    }
  }
  if (wholeDigits + fracDigits > 0 && !(c >= 48 && c <= 57) && c !== 101 && c !== 69 && c !== 46 && wholeDigits + fracDigits <= 15) {
    const value = fracDigits === 0 ? whole : (whole * POW10[fracDigits] + frac) / POW10[fracDigits];
    out[index] = minus ? -value : value;
    return i;
  }
  return scanGeneral(bytes, start, end, out, index);
}

/** Any decimal: the Clinger fast path when exact, parseFloat on the text otherwise. */
function scanGeneral(bytes: Uint8Array, start: number, end: number, out: Float64Array, index: number): number {
  let i = start;
  let negative = false;
  if (i < end) {
    const c = bytes[i];
    if (c === 45) {
      negative = true;
      i++;
    } else if (c === 43) i++;
  }
  let mantissa = 0;
  let digits = 0;
  let exponent = 0;
  let exact = true;
  while (i < end) {
    const d = bytes[i] - 48;
    if (d < 0 || d > 9) break;
    if (mantissa < MANTISSA_LIMIT) mantissa = mantissa * 10 + d;
    else {
      exact = false;
      exponent++;
    }
    digits++;
    i++;
  }
  if (i < end && bytes[i] === 46) {
    i++;
    while (i < end) {
      const d = bytes[i] - 48;
      if (d < 0 || d > 9) break;
      if (mantissa < MANTISSA_LIMIT) {
        mantissa = mantissa * 10 + d;
        exponent--;
      } else exact = false;
      digits++;
      i++;
    }
  }
  if (digits === 0) {
    out[index] = NaN;
    return -1;
  }
  if (i < end && (bytes[i] === 101 || bytes[i] === 69)) {
    let j = i + 1;
    let expNegative = false;
    if (j < end && (bytes[j] === 45 || bytes[j] === 43)) {
      expNegative = bytes[j] === 45;
      j++;
    }
    let expDigits = 0;
    let expValue = 0;
    while (j < end) {
      const d = bytes[j] - 48;
      if (d < 0 || d > 9) break;
      if (expValue < 100000) expValue = expValue * 10 + d;
      expDigits++;
      j++;
    }
    if (expDigits === 0) {
      out[index] = NaN;
      return -1;
    }
    i = j;
    exponent += expNegative ? -expValue : expValue;
  }
  let value: number;
  if (exact && exponent >= -22 && exponent <= 22) {
    value = exponent < 0 ? mantissa / POW10[-exponent] : mantissa * POW10[exponent];
    if (negative) value = -value;
  } else {
    value = parseFloat(bytesToText(bytes, start, i));
  }
  if (value === Infinity || value === -Infinity) {
    out[index] = NaN;
    return -1;
  }
  out[index] = value;
  return i;
}

const scratch = new Float64Array(1);

/**
 * Parses the whole of bytes[start, end) as a number (surrounding spaces allowed).
 * Returns NaN for anything else, including empty text, NaN, Infinity, and results that overflow.
 */
export function parseDecimal(bytes: Uint8Array, start: number, end: number): number {
  while (start < end && isBlank(bytes[start])) start++;
  while (end > start && isBlank(bytes[end - 1])) end--;
  return scanNumber(bytes, start, end, scratch, 0) === end ? scratch[0] : NaN;
}

/** Why a text is not a number, for messages: `nan`, `infinity`, `decimal_comma`, `empty` or `text`. */
export function classifyNonNumber(text: string): 'empty' | 'nan' | 'infinity' | 'decimal_comma' | 'text' {
  const t = text.trim();
  if (t === '') return 'empty';
  if (/^[+-]?nan$/i.test(t)) return 'nan';
  // A well-formed number that parseDecimal refused overflowed (1e400, or 400 digits). Each digit
  // run is followed by something that must differ from a digit, so a long cell is matched in
  // linear time: `\d*\.?\d+e` backtracked over every split of a run of digits with no `e`, and a
  // cell of 100,000 digits took 20 s (a 20 MB one would never end).
  if (/^[+-]?(inf|infinity)$/i.test(t) || /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i.test(t)) return 'infinity';
  if (/^[+-]?\d+,\d+$/.test(t) || /^[+-]?\d{1,3}(\.\d{3})+,\d+$/.test(t)) return 'decimal_comma';
  return 'text';
}
