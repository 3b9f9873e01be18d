export function checkPeriod(period: number): void {
  if (!Number.isInteger(period) || period < 1) throw new Error(`invalid period: ${period} (expected an integer ≥ 1)`);
}

/** Index of the first non-NaN value (leading gaps, e.g. an indicator column fed to another). */
export function firstDefined(values: Float64Array): number {
  let i = 0;
  while (i < values.length && Number.isNaN(values[i])) i++;
  return i;
}
