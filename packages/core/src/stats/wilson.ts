/** z for a two-sided 95 % interval (the 0.975 quantile of the standard normal). */
export const Z95 = 1.959963984540054;

/** A confidence interval on a proportion, as fractions 0..1. */
export type Interval = readonly [low: number, high: number];

/**
 * Wilson score interval for `successes` out of `n` trials. Chosen over the normal (Wald)
 * interval because it stays inside [0, 1] and remains honest for small n and rates near 0 or 1,
 * which is exactly the "lucky hour with 4 trades" case. null when n is 0 (no evidence at all).
 */
export function wilsonInterval(successes: number, n: number, z: number = Z95): Interval | null {
  if (!Number.isInteger(n) || n < 0) throw new Error(`invalid n: ${n}`);
  if (!Number.isInteger(successes) || successes < 0 || successes > n) throw new Error(`invalid successes: ${successes} (n = ${n})`);
  if (n === 0) return null;
  const p = successes / n;
  const z2n = (z * z) / n;
  const denominator = 1 + z2n;
  const centre = (p + z2n / 2) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2n / (4 * n))) / denominator;
  // Clamp the rounding noise at the ends (0 or n successes give exactly 0 or 1 in exact arithmetic).
  const low = successes === 0 ? 0 : Math.max(0, centre - half);
  const high = successes === n ? 1 : Math.min(1, centre + half);
  return [low, high];
}
