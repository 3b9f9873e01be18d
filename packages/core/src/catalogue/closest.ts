/**
 * Longest value a suggestion is looked for: nothing that long is a typo of a name (the longest
 * catalogue name is under 40 characters), and the distance costs the product of both lengths (a
 * 1 MB unknown name took seconds).
 */
export const SUGGESTION_MAX_INPUT = 256;

/**
 * Edit distance (insertions, deletions, substitutions), for "did you mean" suggestions. With a
 * `bound`, the answer is exact up to it and `bound + 1` past it: the rows stop as soon as every
 * entry of one exceeds the bound (a distance never shrinks from one row to the next).
 */
export function editDistance(a: string, b: string, bound = Infinity): number {
  if (Math.abs(a.length - b.length) > bound) return bound + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, substitution);
      if (current[j] < rowMin) rowMin = current[j];
    }
    if (rowMin > bound) return bound + 1;
    previous = current;
  }
  return Math.min(previous[b.length], bound + 1);
}

/**
 * The candidate closest to `value` (case-insensitive; first one on ties), if within `maxDistance`
 * edits. A value longer than SUGGESTION_MAX_INPUT has no suggestion, and a candidate whose length
 * differs by more than the edits still allowed (`maxDistance`, or fewer than the best so far) is
 * not compared: it cannot be within them.
 */
export function closest(value: string, candidates: readonly string[], maxDistance = Infinity): string | undefined {
  if (value.length > SUGGESTION_MAX_INPUT) return undefined;
  const needle = value.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    // Only a strictly smaller distance replaces the best (the first one wins ties).
    const allowed = Math.min(maxDistance, bestDistance - 1);
    if (allowed < 0) break;
    const other = candidate.toLowerCase();
    if (Math.abs(other.length - needle.length) > allowed) continue;
    const distance = editDistance(needle, other, allowed);
    if (distance <= allowed) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
