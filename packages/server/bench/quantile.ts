/** The q-quantile of `values` (linear interpolation between the closest ranks), for the benchmarks' tables. */
export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  return sorted[lo] + (sorted[Math.min(lo + 1, sorted.length - 1)] - sorted[lo]) * (at - lo);
}
