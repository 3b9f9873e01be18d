/** Edit distance (insertions, deletions, substitutions), for "did you mean" suggestions. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length];
}

/** The candidate closest to `value` (case-insensitive; first one on ties), if within `maxDistance` edits. */
export function closest(value: string, candidates: readonly string[], maxDistance = Infinity): string | undefined {
  const needle = value.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(needle, candidate.toLowerCase());
    if (distance < bestDistance && distance <= maxDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
