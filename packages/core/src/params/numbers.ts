const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * A number typed by a person: surrounding spaces ignored, and a decimal comma accepted when it is
 * the only separator ("2,5" is 2.5; "1,000" is 1, the French reading). Returns undefined when the
 * text is not a plain number (no thousands separators, units, hex or Infinity).
 */
export function parseNumberText(text: string): number | undefined {
  let s = text.trim();
  if (!s.includes('.') && s.split(',').length === 2) s = s.replace(',', '.');
  if (!NUMBER.test(s)) return undefined;
  const value = Number(s);
  return Number.isFinite(value) ? value : undefined;
}

/** Drops binary noise from a computed decimal (0.07 / 100 → 0.0007, not 0.0007000000000000001). */
export function roundDecimal(value: number): number {
  return Number(value.toPrecision(12));
}
