/**
 * mulberry32: a small, fast, seedable generator of numbers in [0, 1). The same seed gives the
 * same sequence everywhere, so synthetic series (dry runs of imported strategies, benchmarks,
 * property tests) are reproducible; randomness stays injected through the seed.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
