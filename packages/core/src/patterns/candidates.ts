/**
 * Detection in two steps, per chunk of candles: a branch-free pass flags the candles where a
 * pattern's core condition holds (few do, at random, so a branch per candle would be
 * mispredicted often), then only those are examined. Writing the flag's candle unconditionally
 * and advancing by 0 or 1 keeps the first pass free of branches.
 *
 * Chunks also keep each kernel short-lived and called many times, so V8 optimises it as a whole
 * function instead of relying on on-stack replacement of one long loop per run.
 */
export const CHUNK = 4096;

/** Candle indices flagged in the current chunk, and their side (+1 / -1). */
export const flaggedIndex = new Int32Array(CHUNK);
export const flaggedSide = new Int8Array(CHUNK);
